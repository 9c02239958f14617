#pragma once
#include "kernels/gpu/tile.hpp"
