// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// driver.hpp — runs every (size, dtype, kernel) of a deck: decomposition,
// allocation, fill, distribution, host<->device copies, warm-up and timed
// repetitions, verification and the checksum. Kernels only compute; all
// timing, MPI and checking live here.
#pragma once

#include "deck/config.hpp"
#include "parallel/parallel_env.hpp"
#include "report/results.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmapp {

/// An error that ends the run with `exit_code` and `what()` (the same on
/// every rank, so every rank exits with the same code): 2 for bad input or a
/// problem that does not fit, 1 for a failed verification.
struct RunError : std::runtime_error {
  RunError(int code, const std::string& msg) : std::runtime_error(msg), exit_code(code) {}
  int exit_code;
};

/// How many copies of A and B a GPU run rotates among so that the L2 cache
/// is not what is measured (CUTLASS profiler practice): 1 when rotation is
/// off or A + B (`ab_bytes`, this rank's) exceed twice the L2; else enough
/// copies to cover twice the L2, plus one, at most kMaxInputSets.
int input_sets(double ab_bytes, double l2_bytes, bool rotate);

/// Upper bound of input_sets (tiny problems would otherwise ask for millions
/// of copies; the bound still covers twice a 60 MB L2 from 470 KB of A + B).
inline constexpr int kMaxInputSets = 256;

/// What the driver reports while a deck runs (all optional).
struct DriverHooks {
  /// Rank 0, after each finished run (progress lines).
  std::function<void(const RunRecord&, int done, int total, double elapsed_s)> progress;
  /// Rank 0, after each finished run, with every record so far (incremental reports).
  std::function<void(const std::vector<RunRecord>&)> records_so_far;
};

/// The backend each rank uses: cfg.backend empty -> the build's default;
/// one entry -> every rank; else one per rank (length must equal the rank
/// count). Throws RunError(2) naming run.backend otherwise, or when a
/// backend is not compiled in.
std::vector<std::string> backends_per_rank(const Config& cfg, int nranks);

/// Checks every (size, dtype) case of the deck before anything is computed:
/// each `kernels:` entry resolved for the case's local problem (so an option
/// valid for float but not for double, or for one size but not another, is
/// found), the decomposition (rows, weights, grid, panel transport) and every
/// rank's memory need against what it has (weights: auto: its calibration
/// checks memory per rank). Collective over MPI_COMM_WORLD; allocates
/// nothing large, runs no kernel. Throws RunError(2), on every rank alike,
/// listing every distinct error, one line each, with the cases it holds for
/// (none named when it holds for all); Stopped when a signal arrived.
void check_deck(const Config& cfg, const RankPlacement& place, const std::vector<std::string>& backends);

/// Runs the whole deck; collective over MPI_COMM_WORLD. Calls check_deck
/// first, so a bad case anywhere in the deck stops it before the first
/// multiply. `backends`: each
/// rank's backend, from backends_per_rank(). Returns the records on every
/// rank; their per-rank details (RunRecord::ranks) and checksum are complete
/// on rank 0 only. Throws RunError(2), on every rank alike, when a
/// kernel/tile is not available, the decomposition is invalid, or memory does
/// not suffice (need vs available named), before allocating. Throws Stopped
/// (signals.hpp), on every rank alike, when a rank received SIGTERM or SIGINT,
/// at the next stop point: before and after check_deck, between cases, after
/// each setup phase of a case (decide, allocation, distribution,
/// verify_setup), after each calibration trial, tile: auto trial, warm-up and
/// repetition. A run stopped in its warm-up or repetitions is recorded as
/// abandoned and `hooks.records_so_far` has been called with it.
std::vector<RunRecord> run_deck(const Config& cfg, const RankPlacement& place,
                                const std::vector<std::string>& backends, const DriverHooks& hooks);

}  // namespace mmapp
