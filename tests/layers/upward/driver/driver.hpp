#pragma once
#include "core/version.hpp"
#include "kernels/gpu/tile.hpp"
