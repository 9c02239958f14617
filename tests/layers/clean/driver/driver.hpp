#pragma once
#include "core/version.hpp"
#include "kernels/host/tiled_host.hpp"
#include "driver/driver_common.hpp"
