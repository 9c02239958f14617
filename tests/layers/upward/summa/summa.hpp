#pragma once
#include "deck/config.hpp"
