// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid_comm.cpp — implementation of grid_comm.hpp.
#include "parallel/grid_comm.hpp"

#include <stdexcept>
#include <string>

namespace mmapp {

GridComm::GridComm(MPI_Comm world, const GridShape& g) : world_(world), shape_(g) {
  int size = 0;
  MPI_Comm_size(world, &size);
  MPI_Comm_rank(world, &rank_);
  if (size != g.size())
    throw std::invalid_argument("GridComm: a " + std::to_string(g.p) + "x" + std::to_string(g.q) + " grid over " +
                                std::to_string(size) + " ranks");
  coords_ = grid_coords(g, rank_);
  MPI_Comm_split(world, coords_.prow, coords_.pcol, &row_);
  MPI_Comm_split(world, coords_.pcol, coords_.prow, &col_);
}

GridComm::~GridComm() {
  if (row_ != MPI_COMM_NULL) MPI_Comm_free(&row_);
  if (col_ != MPI_COMM_NULL) MPI_Comm_free(&col_);
}

}  // namespace mmapp
