#include "app.hpp"
