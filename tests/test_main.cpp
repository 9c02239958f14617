// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// Shared Catch2 main: MPI, then Kokkos, initialised once for the whole suite
// (RAII), then the Catch2 session. Every rank runs every test; ranks other
// than 0 report only failures.
#include <Kokkos_Core.hpp>
#include <catch2/catch_session.hpp>
#include <mpi.h>

int main(int argc, char* argv[]) {
  MPI_Init(&argc, &argv);
  int result = 0;
  {
    Kokkos::ScopeGuard kokkos(argc, argv);
    result = Catch::Session().run(argc, argv);
  }
  int worst = 0;
  MPI_Allreduce(&result, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Finalize();
  return worst;
}
