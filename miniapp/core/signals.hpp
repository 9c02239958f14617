// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// signals.hpp — a clean stop on SIGTERM or SIGINT (Slurm sends SIGTERM at the
// time limit, then SIGKILL after KillWait). The handler only records the
// signal (and wakes a StopWatcher, if one is running); the driver asks all
// ranks at every phase boundary of a case's setup, after every repetition,
// calibration trial and tile: auto trial (agree_stop), so every rank stops at
// the same point, the partial report is written and every rank exits with
// kExitStopped.
//
// The second-signal rule: a stop signal (SIGTERM or SIGINT, either kind) that
// comes within kRepeatWindowS seconds of the first is taken as the same
// request delivered twice and ignored (a signal to a whole process group
// reaches a rank directly and again through `timeout`, mpirun, srun or
// Slurm's own forwarding); one that comes later is a deliberate "stop now":
// the process ends at once by that signal (default action), leaving the last
// report written (rank 0 rewrites it with "stopped_by" as soon as the first
// signal arrives, see StopWatcher).
#pragma once

#include <mpi.h>

#include <functional>
#include <stdexcept>
#include <string>
#include <thread>

namespace mmapp {

/// Exit code of a run stopped by a signal (after writing the partial report).
inline constexpr int kExitStopped = 4;

/// Exit code of a deck whose runs all ran, none failed, but verification was
/// off (verify.enabled: false): "not verified", never 0.
inline constexpr int kExitNotVerified = 5;

/// Seconds after the first stop signal during which a further SIGTERM or
/// SIGINT is taken as a duplicate of it (ignored); after them, a further one
/// ends the process at once.
inline constexpr double kRepeatWindowS = 2.0;

/// Blocks SIGTERM and SIGINT in this thread: one that arrives is kept pending
/// (across an exec too, even where the inherited disposition ignores it)
/// until install_stop_handlers() unblocks it. The first call of main, before
/// anything that may re-exec the program.
void hold_stop_signals();

/// Installs the SIGTERM and SIGINT handlers and unblocks both (a signal held
/// by hold_stop_signals() is delivered and recorded now). Call before MPI_Init (a signal
/// during start-up is kept) and again after it (replacing any the MPI
/// library set); idempotent.
void install_stop_handlers();

/// The signal this process received first (SIGTERM, SIGINT), or 0.
int pending_stop_signal();

/// Throws Stopped when a stop signal has reached any rank of `comm`: the
/// check the driver makes at a phase boundary. Collective.
void stop_point(MPI_Comm comm);

/// Collective on `comm`: the signal any rank received (the largest number if
/// several), or 0. Every rank gets the same answer.
int agree_stop(MPI_Comm comm);

/// "SIGTERM", "SIGINT", or "signal N".
std::string signal_name(int sig);

/// Thrown on every rank alike when a signal stops the run.
struct Stopped : std::runtime_error {
  explicit Stopped(int sig) : std::runtime_error("stopped by " + signal_name(sig)), signal(sig) {}
  int signal;
};

/// Runs `on_stop(signal)` on a thread of its own as soon as this process
/// receives its first stop signal (at once if it already has), at most once,
/// while the main thread goes on to the next agreed stop point. Rank 0 uses it
/// to rewrite the report with "stopped_by" right away, so the report says
/// why the run ended even when the launcher kills the ranks shortly after
/// forwarding the signal (OpenMPI's mpirun sends SIGCONT, SIGTERM, then
/// SIGKILL about a second apart). `on_stop` must be thread-safe with the
/// main thread. Non-copyable; the destructor stops and joins the thread.
/// One StopWatcher at a time.
class StopWatcher {
 public:
  explicit StopWatcher(std::function<void(int)> on_stop);
  ~StopWatcher();
  StopWatcher(const StopWatcher&) = delete;
  StopWatcher& operator=(const StopWatcher&) = delete;

 private:
  std::function<void(int)> on_stop_;
  std::thread thread_;
};

}  // namespace mmapp
