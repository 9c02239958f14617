#pragma once
#include <summa/summa.hpp>
