// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// verify.cpp — implementation of verify.hpp (see there for the method and contracts).
#include "check/verify.hpp"

#include <fmt/format.h>

namespace mmapp {

std::string verifier_name(ExactCheck exact, double tau) {
  std::string s = fmt::format("freivalds x{}, tau {:g}", kProbeVectors, tau);
  switch (exact) {
    case ExactCheck::none: break;
    case ExactCheck::identity: s += " + exact C == A"; break;
    case ExactCheck::ones: s += " + exact C == k"; break;
    case ExactCheck::closed_form: s += " + exact closed form"; break;
  }
  return s;
}

void merge_checks(LocalCheck& a, const LocalCheck& b) {
  if (!(b.worst_ratio <= a.worst_ratio) || a.worst_row < 0) {
    a.worst_ratio = b.worst_ratio;
    a.worst_row = b.worst_row;
    a.worst_residual = b.worst_residual;
    a.worst_bound = b.worst_bound;
    a.worst_probabilistic = b.worst_probabilistic;
  }
  if (!(b.relative_residual <= a.relative_residual)) a.relative_residual = b.relative_residual;
  a.rows_failed += b.rows_failed;
  a.nonfinite += b.nonfinite;
  a.inexact += b.inexact;
}

Verdict global_verdict(const LocalCheck& mine, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  // The rank holding the worst row (ties: the lowest rank); ranks with no rows never win.
  struct {
    double ratio;
    int rank;
  } in{mine.worst_row >= 0 ? mine.worst_ratio : -1.0, rank}, top{};
  MPI_Allreduce(&in, &top, 1, MPI_DOUBLE_INT, MPI_MAXLOC, comm);
  double worst[5] = {mine.worst_ratio, mine.worst_residual, mine.worst_bound, mine.worst_probabilistic ? 1.0 : 0.0,
                     double(mine.worst_row)};
  MPI_Bcast(worst, 5, MPI_DOUBLE, top.rank, comm);
  long counts[3] = {mine.rows_failed, mine.nonfinite, mine.inexact};
  MPI_Allreduce(MPI_IN_PLACE, counts, 3, MPI_LONG, MPI_SUM, comm);
  double rel = mine.relative_residual;
  MPI_Allreduce(MPI_IN_PLACE, &rel, 1, MPI_DOUBLE, MPI_MAX, comm);

  Verdict v;
  v.worst_ratio = worst[0];
  v.worst_residual = worst[1];
  v.worst_bound = worst[2];
  v.worst_probabilistic = worst[3] > 0;
  v.worst_row = long(worst[4]);
  v.rows_failed = counts[0];
  v.nonfinite = counts[1];
  v.inexact = counts[2];
  v.relative_residual = rel;
  v.passed = v.rows_failed == 0 && v.nonfinite == 0 && v.inexact == 0 && v.worst_ratio <= 1.0;
  return v;
}

}  // namespace mmapp
