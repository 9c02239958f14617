// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid_comm.hpp — the MPI side of the 2-D process grid (grid.hpp): the
// communicators of each rank's process row and process column, which SUMMA's
// broadcasts, the 2-D verifier's reductions and ScaLAPACK's BLACS grid use.
#pragma once

#include "parallel/grid.hpp"

#include <mpi.h>

namespace mmapp {

/// The communicators of a process grid over `world` (RAII): the process row
/// (ranks ordered by process column) and the process column (ordered by
/// process row). Collective over `world` on construction and destruction.
class GridComm {
 public:
  /// Throws std::invalid_argument when world's size is not g.size().
  GridComm(MPI_Comm world, const GridShape& g);
  ~GridComm();
  GridComm(const GridComm&) = delete;
  GridComm& operator=(const GridComm&) = delete;

  MPI_Comm world() const { return world_; }
  MPI_Comm row() const { return row_; }  ///< my process row; my rank there is my pcol
  MPI_Comm col() const { return col_; }  ///< my process column; my rank there is my prow
  const GridShape& shape() const { return shape_; }
  const GridCoords& coords() const { return coords_; }
  int rank() const { return rank_; }

 private:
  MPI_Comm world_, row_ = MPI_COMM_NULL, col_ = MPI_COMM_NULL;
  GridShape shape_;
  GridCoords coords_;
  int rank_ = 0;
};

}  // namespace mmapp
