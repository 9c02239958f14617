// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// decomposition.hpp — how the M rows of A and C are split across MPI ranks
// (B is replicated). A small pure unit: no MPI, no Kokkos, tested alone.
#pragma once

#include "deck/config.hpp"

#include <string>
#include <vector>

namespace mmapp {

/// Rows per rank for `m` rows over `nranks` ranks.
/// - even:         m / nranks each, the remainder one extra row to the first ranks;
/// - rows:         d.rows as given (one per rank, sum == m);
/// - weights:      proportional to d.weights (one per rank, all > 0), rounded
///                 by the largest-remainder (Hamilton) method, ties to lower rank;
/// - auto_weights: proportional to `measured` (one throughput per rank, > 0).
/// A rank may get zero rows. Throws std::invalid_argument with a clear message
/// when a list's length differs from nranks, rows do not sum to m, or a weight
/// is not positive and finite, and for a grid decomposition (grid.hpp).
std::vector<long> split_rows(long m, int nranks, const Decomposition& d,
                             const std::vector<double>& measured = {});

/// Proportional split of m >= 0 rows with the largest-remainder (Hamilton)
/// method, ties to the lower rank: rows[r] = floor(m w_r / sum w) plus one
/// row each for the largest remainders. Any finite positive weights work,
/// from denormals (5e-324) to DBL_MAX, mixed: they are normalised by the
/// largest one in long double, so nothing overflows, and the result is
/// checked to be non-negative and to sum to exactly m. Throws
/// std::invalid_argument naming `key` (the deck key, for messages) and the
/// entry for an empty list, a weight that is zero, negative, infinite or NaN.
std::vector<long> split_by_weights(long m, const std::vector<double>& weights,
                                   const std::string& key = "parallel.decomposition.weights");

/// Exclusive prefix sum: the first row of each rank.
std::vector<long> row_offsets(const std::vector<long>& rows);

/// One timed trial of a candidate split (weights: auto): rows per rank and
/// each rank's measured kernel time in seconds (+inf: the rank could not
/// run its share, e.g. not enough memory; 0 for a rank with no rows).
struct SplitTrial {
  std::vector<long> rows;
  std::vector<double> seconds;
  /// The job's time for this split: the slowest rank's.
  double makespan() const;
};

/// The next candidate split of m rows (weights: auto), from the trials so
/// far: proportional (largest remainder) to the rate each rank showed at the
/// shape it actually ran (rows per second of its latest trial with rows > 0;
/// a rank with no usable trial gets no rows). A rank that is slow at a thin
/// slab shows a low rate there and so gets fewer rows, or none, next time.
/// Throws std::invalid_argument when no rank has a usable trial.
std::vector<long> next_split(long m, const std::vector<SplitTrial>& trials);

/// The rank that would finish all m rows first, by the rates of `trials`
/// (see next_split); its one-rank split is the "fastest alone" candidate.
int fastest_rank(long m, const std::vector<SplitTrial>& trials);

/// The trial with the smallest makespan (ties: the earliest).
const SplitTrial& best_trial(const std::vector<SplitTrial>& trials);

}  // namespace mmapp
