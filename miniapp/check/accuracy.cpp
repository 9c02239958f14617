// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// accuracy.cpp — implementation of accuracy.hpp (see there for the figure and contracts).
#include "check/accuracy.hpp"

#include <climits>

namespace mmapp {

AccuracyFigure global_accuracy(const AccuracyFigure& mine, MPI_Comm comm) {
  // Ranks with no rows hold no element: they take no part in the maximum.
  const bool holds = mine.worst_row >= 0;
  double worst = holds ? mine.worst_error : -1.0;
  MPI_Allreduce(MPI_IN_PLACE, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
  long row = holds && mine.worst_error == worst ? mine.worst_row : LONG_MAX;
  MPI_Allreduce(MPI_IN_PLACE, &row, 1, MPI_LONG, MPI_MIN, comm);
  AccuracyFigure out;
  if (worst < 0) return out;  // no rank holds a row
  out.worst_error = worst;
  out.worst_row = row;
  return out;
}

}  // namespace mmapp
