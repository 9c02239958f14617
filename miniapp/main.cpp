#include "exec_spaces.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <iostream>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    Kokkos::print_configuration(std::cout);
  }
  MPI_Finalize();
}
