#include "app.hpp"
#include "driver/driver.hpp"
#include <mpi.h>
