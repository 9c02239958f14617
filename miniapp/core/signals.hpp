// signals.hpp — a clean stop on SIGTERM or SIGINT (Slurm sends SIGTERM at the
// time limit, then SIGKILL after KillWait). The handler only records the
// signal; the driver asks all ranks at every repetition and case boundary
// (agree_stop), so every rank stops at the same point, the partial report is
// written and every rank exits with kExitStopped. A second signal of the same
// kind while a stop is pending ends the process at once (default action).
#pragma once

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace mmapp {

/// Exit code of a run stopped by a signal (after writing the partial report).
inline constexpr int kExitStopped = 4;

/// Installs the SIGTERM and SIGINT handlers. Call after MPI_Init (so they
/// replace any the MPI library set).
void install_stop_handlers();

/// The signal this process received (SIGTERM, SIGINT), or 0.
int pending_stop_signal();

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

}  // namespace mmapp
