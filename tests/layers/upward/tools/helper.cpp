#include "core/types.hpp"
