#pragma once
#include "core/types.hpp"
#include "host_simd.hpp"
