// results.hpp — what a run measured, as plain data. The driver fills it;
// report.hpp formats it (table on rank 0, JSON). Times are in seconds.
#pragma once

#include "stats.hpp"

#include <map>
#include <string>
#include <vector>

namespace mmapp {

/// One rank's share of one kernel run (where the rank runs is in the
/// report's Provenance, by rank).
struct RankRecord {
  int rank = 0;
  long rows = 0, row0 = 0;                ///< rows of A and C it owns, and the first one
  TimeStats kernel;                       ///< its own kernel times over the repetitions
  double gflops = 0;                      ///< 2*rows*n*k / its median kernel time
  std::map<std::string, double> phases_s; ///< its phase times
};

/// One (problem, dtype, kernel) run, global over all ranks.
struct RunRecord {
  std::string kernel, shape, dtype;
  std::vector<std::string> backends;      ///< backend of each rank (usually all equal)
  long m = 0, n = 0, k = 0;
  int warmup = 0, repetitions = 0, input_sets = 1;
  TimeStats time;                         ///< per repetition: the slowest rank's kernel time
  std::map<std::string, double> phases_s; ///< allocation, fill, scatter, broadcast, host_to_device,
                                          ///< kernel (median), device_to_host, gather, communication
                                          ///< (each the slowest rank's)
  double gflops = 0;                      ///< 2mnk / time.median
  double pct_of_vendor = -1;              ///< 100 * gflops / kokkoskernels' gflops in this run; -1 if none
  bool verify_enabled = true;
  bool verified = false;
  double rel_error = 0, max_abs_error = 0, error_bound = 0;
  long nonfinite = 0, inexact = 0;
  std::string exact_check;                ///< "", "C == A (identity)", "C == k (ones)"
  std::string checksum;                   ///< XXH3-64 of C's bytes in row-major order, "0x..."
  double imbalance = 1;                   ///< max / mean of the ranks' median kernel times
  std::vector<long> rows_split;
  std::vector<double> calibration_gflops; ///< per rank, for weights: auto
  std::string data_mode;
  std::vector<RankRecord> ranks;
};

}  // namespace mmapp
