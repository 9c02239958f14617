#include "check/verify.hpp"
