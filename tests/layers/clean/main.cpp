#include "driver/driver.hpp"
#include "core/types.hpp"
