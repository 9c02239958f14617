#pragma once
#include "core/types.hpp"
#include "splitk.hpp"
#include "../../report/report.hpp"
