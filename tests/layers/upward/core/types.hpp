// types.hpp: core includes the driver (upward)
#pragma once
#include "driver/driver.hpp"
#include <vector>
