// decomposition.hpp — how the M rows of A and C are split across MPI ranks
// (B is replicated). A small pure unit: no MPI, no Kokkos, tested alone.
#pragma once

#include "config.hpp"

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

/// Proportional split with the largest-remainder method (see split_rows).
std::vector<long> split_by_weights(long m, const std::vector<double>& weights);

/// Exclusive prefix sum: the first row of each rank.
std::vector<long> row_offsets(const std::vector<long>& rows);

}  // namespace mmapp
