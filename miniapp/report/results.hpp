// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// results.hpp — what a run measured, as plain data. The driver fills it;
// report.hpp formats it (table on rank 0, JSON). Times are in seconds.
#pragma once

#include "parallel/decomposition.hpp"
#include "core/stats.hpp"

#include <map>
#include <string>
#include <utility>
#include <vector>

namespace mmapp {

/// One rank's share of one kernel run (where the rank runs is in the
/// report's Provenance, by rank).
struct RankRecord {
  int rank = 0;
  long rows = 0, row0 = 0;                ///< rows of A and C it owns, and the first one
  TimeStats kernel;                       ///< its own kernel times over the repetitions
  double gflops = 0;                      ///< 2*rows*n*k / its median kernel time
  double predicted_s = -1;                ///< weights: auto: the balancer's predicted kernel time; -1 n/a
  std::map<std::string, double> phases_s; ///< its phase times
  double device_bytes = 0;                ///< bytes the case allocates in its execution space's memory (the
                                          ///< memory check's figure; host memory on host backends)
  double host_bytes = 0;                  ///< and in host memory (copies, pinned staging, rank 0's whole
                                          ///< matrices in scatter mode)
  // Process-grid runs only (prow < 0 otherwise):
  int prow = -1, pcol = -1;               ///< its place in the grid
  long cols = 0, col0 = 0;                ///< columns of B and C it owns, and the first one
};

/// How a process-grid run was made (RunRecord::grid; p == 0 for the row split).
struct GridRecord {
  int p = 0, q = 0;                       ///< process rows x process columns
  std::string algorithm;                  ///< "summa" or "scalapack p?gemm"
  long panel = 0;                         ///< SUMMA: the deck's panel width NB
  int panels = 0;                         ///< SUMMA: panels per multiply (split at block boundaries too)
  std::string overlap;                    ///< SUMMA: "ibcast" or "none" (as run); "" for scalapack
  std::string transfer;                   ///< how panels reached MPI: "host", "cuda-aware", "staged through
                                          ///< pinned host memory" (several, '; '-joined, when ranks differ)
};

/// How a run ended.
enum class RunStatus {
  ok,         ///< every repetition ran (verified or not: see VerifyRecord)
  error,      ///< a kernel or library call failed (RunRecord::error says why); never PASS
  abandoned,  ///< stopped by a signal before its repetitions finished; never PASS
};

/// The verification of one run (see verify.hpp): every timed repetition's C
/// is checked; the figures are the worst over repetitions and ranks.
struct VerifyRecord {
  bool enabled = true;
  bool passed = false;           ///< meaningful when enabled and the run's status is ok
  std::string verifier;          ///< e.g. "freivalds x2, tau 10 + exact C == A"
  int checks = 0;                ///< repetitions checked
  double worst_ratio = 0;        ///< max over rows of |r_i| / bound_i (<= 1 passes)
  long worst_row = -1;           ///< global row where it occurred
  double worst_residual = 0, worst_bound = 0;
  std::string bound_kind;        ///< "probabilistic" or "deterministic" (at the worst row)
  double relative_residual = 0;  ///< max_i |r_i| / (|A|(|B||x|))_i
  long rows_failed = 0, nonfinite = 0, inexact = 0;
  double seconds = 0;            ///< time spent checking this run's repetitions (slowest rank)
};

/// One (problem, dtype, kernel) run, global over all ranks.
struct RunRecord {
  std::string kernel, shape, dtype;
  std::string selection;                  ///< why this variant ran ("deck", "default for shape: ...", "tile: auto ...")
  std::string math;                       ///< its math path: "simt", "dmma", "3xtf32", "vendor" (kernels/math_path.hpp); "" if none ran
  std::vector<std::string> backends;      ///< backend of each rank (usually all equal)
  long m = 0, n = 0, k = 0;
  int warmup = 0, repetitions = 0, input_sets = 1;
  RunStatus status = RunStatus::ok;
  std::string error;                      ///< status error: the failing call's message
  TimeStats time;                         ///< per repetition: the slowest rank's kernel time
  std::vector<double> samples_s;          ///< every timed repetition's time (the slowest rank's), in order
  double noise_threshold = 0.05;          ///< run.noise_threshold: CV (fraction) above which it is noisy
  bool noisy = false;                     ///< time.cv > noise_threshold (core/stats.hpp, is_noisy)
  /// run.until_stable as applied (enabled false: the deck's repetitions only).
  struct UntilStableRecord {
    bool enabled = false;
    double max_cv = 0, max_seconds = 0;
    long max_repetitions = 0;
    std::string outcome;                  ///< "converged", "timed_out", "capped" (StableState), "" if cut short
    double seconds = 0;                   ///< timed repetitions' wall time at the last decision (slowest rank)
  } until_stable;
  std::map<std::string, double> phases_s; ///< allocation, fill, scatter, broadcast, host_to_device,
                                          ///< verify_setup, accuracy_setup and accuracy (verify.accuracy),
                                          ///< kernel (median), verify, device_to_host,
                                          ///< gather, communication (each the slowest rank's); grid
                                          ///< runs: summa_comm, summa_gemm, summa_copy (SUMMA's time in
                                          ///< broadcasts, local GEMMs and panel copies, per multiply), checksum
  double gflops = 0;                      ///< 2mnk / time.median
  double pct_of_vendor = -1;              ///< 100 * gflops / the vendor's gflops in this run; -1 if none
  bool vendor_noisy = false;              ///< pct_of_vendor's reference run was itself noisy
  VerifyRecord verify;
  /// verify.accuracy: the last timed repetition's C against the FP64
  /// reference (check/accuracy.hpp), the worst over ranks; measured false
  /// when off or when the run did not finish.
  struct AccuracyRecord {
    bool measured = false;
    double worst_error = 0;               ///< max_ij |C_ij - C64_ij| / (|A||B|)_ij (+inf: non-finite C)
    long worst_row = -1;                  ///< global row of C where it occurs
  } accuracy;
  std::string checksum;                   ///< XXH3-64 of C's bytes in row-major order, "0x..."
  double imbalance = 1;                   ///< max / mean of the ranks' median kernel times
  std::vector<long> rows_split;
  std::vector<double> calibration_gflops; ///< per rank, for weights: auto (its rate in the first trial)
  /// weights: auto: the calibration trial, then each candidate split tried
  /// (rows per rank, each rank's measured seconds); the fastest was kept.
  std::vector<SplitTrial> balance_trials;
  std::string data_mode;
  std::string transport;                  ///< row split, scatter mode: how B's broadcast and C's gather travel ("mpi", "nccl")
  std::vector<RankRecord> ranks;
  /// tile: auto: each candidate's shape and median time (s; -1 if it failed),
  /// timed before the runs and excluded from kernel time.
  std::vector<std::pair<std::string, double>> autotune_s;
  GridRecord grid;                        ///< process-grid runs (grid.p > 0)

  /// PASS only when every repetition ran and every check passed.
  bool passed() const { return status == RunStatus::ok && (!verify.enabled || verify.passed); }
};

/// "ok" / "error" / "abandoned".
const char* to_string(RunStatus s);

}  // namespace mmapp
