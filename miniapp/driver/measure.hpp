// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// measure.hpp — the measurement machinery of the case runner (case_runner.hpp):
// phase clocks, memory queries and the up-front memory check, errors agreed
// by every rank (agree_on), the agreed timed repetition (run_once), the
// repetition loop with verification (measure), tile: auto (autotune) and
// the per-rank record (finish_record). Internal to the driver.
#pragma once

#include "driver/driver.hpp"
#include "driver/plan.hpp"
#include "core/exec_spaces.hpp"
#include "core/signals.hpp"
#include "parallel/mpi_util.hpp"
#include "check/verify.hpp"

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <fmt/format.h>
#include <mpi.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <functional>
#include <limits>
#include <map>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace mmapp::detail {

/// Seconds after which a phase or a repetition is worth a progress line.
inline constexpr double kProgressAfterS = 10.0;

/// A progress line on stderr from world rank 0 ("mmapp: ..."), for the long
/// phases of big problems, so a run stopped by a time limit shows where its
/// time went.
inline void progress_note(const std::string& text) {
  int init = 0, rank = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == 0) std::fprintf(stderr, "mmapp: %s\n", text.c_str());
}

/// progress_note, once per process for each text (a note that every
/// dtype's or kernel's run would repeat).
inline void progress_note_once(const std::string& text) {
  static std::set<std::string> seen;
  if (seen.insert(text).second) progress_note(text);
}

/// Times named phases: fence, region push ("mmapp::<name>"), run, fence,
/// region pop; seconds per phase name, summed over calls.
struct PhaseClock {
  std::map<std::string, double> seconds;
  template <class F>
  void time(const std::string& name, F&& f) {
    Kokkos::fence();
    Kokkos::Profiling::pushRegion("mmapp::" + name);
    const double t0 = wall_now();
    f();
    Kokkos::fence();
    const double dt = wall_now() - t0;
    seconds[name] += dt;
    Kokkos::Profiling::popRegion();
    if (dt >= kProgressAfterS) progress_note(fmt::format("{} took {:.1f} s (rank 0)", name, dt));
  }
};

/// Bytes free for allocations on `Space` (device memory for CUDA, else
/// MemAvailable of the host).
template <class Space>
double available_bytes() {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    size_t free_b = 0, total_b = 0;
    if (cudaMemGetInfo(&free_b, &total_b) == cudaSuccess) return double(free_b);
    return 0;
  }
#endif
  std::ifstream meminfo("/proc/meminfo");
  for (std::string key; meminfo >> key;) {
    double kib = 0;
    meminfo >> kib;
    if (key == "MemAvailable:") return kib * 1024.0;
    meminfo.ignore(std::numeric_limits<std::streamsize>::max(), '\n');
  }
  return std::numeric_limits<double>::infinity();
}

inline std::string gib(double bytes) {
  std::ostringstream s;
  s.precision(3);
  s << bytes / double(1 << 30) << " GiB";
  return s.str();
}

/// Refuses, before anything is allocated, a problem whose memory does not fit
/// on some rank: `dev_bytes` of Space's memory (host memory on host spaces,
/// where it adds to `host_bytes`) against 95% of what the device has free,
/// `host_bytes` against 90% of MemAvailable. `problem` begins the message
/// ("problem m=... needs "); the rank, its host and device, and the sizes in
/// GiB follow. Collective over `comm`: every rank throws RunError(2, first
/// failing rank's message), or none does.
template <class Space>
void check_memory_fits(double dev_bytes, double host_bytes, const std::string& problem, const RankPlacement& place,
                       int rank, MPI_Comm comm) {
  const std::string on_rank = " on rank " + std::to_string(rank) + " (" + place.host + ")";
  const double host_avail = available_bytes<Kokkos::DefaultHostExecutionSpace>();
  std::string err;
  if (is_host_space_v<Space>) {
    if (dev_bytes + host_bytes > 0.9 * host_avail)
      err = problem + gib(dev_bytes + host_bytes) + " of host memory" + on_rank + ", " + gib(host_avail) +
            " available";
  } else if (const double avail = available_bytes<Space>(); dev_bytes > 0.95 * avail) {
    err = problem + gib(dev_bytes) + " of " + Space::name() + " device memory" + on_rank + ", device " +
          std::to_string(place.device_id) + ", " + gib(avail) + " available";
  } else if (host_bytes > 0.9 * host_avail) {
    err = problem + gib(host_bytes) + " of host memory" + on_rank + ", " + gib(host_avail) + " available";
  }
  if (std::string first = first_error(err, comm); !first.empty()) throw RunError(2, first);
}

template <class T>
const char* dtype_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

/// The exact expectation for the deck's init (verify.hpp).
inline ExactCheck exact_check_for(Init init) {
  switch (init) {
    case Init::identity: return ExactCheck::identity;
    case Init::ones: return ExactCheck::ones;
    case Init::closed_form: return ExactCheck::closed_form;
    case Init::random:
    case Init::wide: break;
  }
  return ExactCheck::none;
}

/// What one repetition (or warm-up run) ended with, agreed by every rank.
struct RepOutcome {
  double mine = 0, slowest = 0;  ///< this rank's and the slowest rank's kernel time
  std::string error;             ///< the lowest failing rank's message, or ""
  int stop = 0;                  ///< a signal some rank received, or 0
};

/// One timed multiply: `poison()` (fill C with NaN), barrier, then
/// `multiply()` timed to its fence. Exceptions (a vendor refusal, a CUDA
/// error, an MPI failure) are caught and agreed on, so no rank leaves the
/// others waiting; a pending signal is agreed on too. Collective.
template <class Poison, class Multiply>
RepOutcome run_once(Poison&& poison, Multiply&& multiply, MPI_Comm comm) {
  RepOutcome out;
  std::string err;
  try {
    poison();
    Kokkos::fence();
  } catch (const std::exception& e) {
    err = e.what();
  }
  MPI_Barrier(comm);
  if (err.empty()) {
    Kokkos::Profiling::pushRegion("mmapp::kernel");
    try {
      const double t0 = wall_now();
      multiply();
      Kokkos::fence();
      out.mine = wall_now() - t0;
    } catch (const std::exception& e) {
      err = e.what();
    }
    Kokkos::Profiling::popRegion();
  }
  double vals[3] = {out.mine, err.empty() ? 0.0 : 1.0, double(pending_stop_signal())};
  MPI_Allreduce(MPI_IN_PLACE, vals, 3, MPI_DOUBLE, MPI_MAX, comm);
  out.slowest = vals[0];
  if (vals[1] > 0) out.error = first_error(err, comm);
  out.stop = int(vals[2]);
  return out;
}

/// The warm-up and timed repetitions of one run, each timed repetition's C
/// checked right after it (untimed) by `check()` (a LocalCheck of this
/// rank's part of C; pass a null std::function to skip verification).
/// `multiply(r)` runs repetition r. `repetitions` are timed; with
/// `until.enabled` more follow until until_stable_step (core/stats.hpp)
/// stops them, on the slowest rank's samples and the slowest rank's seconds
/// since the first timed repetition began (so every rank stops together).
/// Fills (when status stays ok) rec.time, samples_s, noisy (against rec.noise_threshold),
/// until_stable, gflops, status, error, rec.verify (the global verdict) and
/// ph's "kernel" and "verify"; returns this rank's own kernel times. Returns
/// the signal number in `stop` when a signal ended it (rec.status
/// abandoned). Collective.
template <class Poison, class Multiply>
std::vector<double> measure(RunRecord& rec, PhaseClock& ph, int warmup, int repetitions,
                            const Config::UntilStable& until, Poison&& poison, Multiply&& multiply,
                            const std::function<LocalCheck()>& check, MPI_Comm comm, int& stop) {
  stop = 0;
  Kokkos::Profiling::pushRegion("mmapp::warmup");
  for (int w = 0; w < warmup && rec.status == RunStatus::ok; ++w) {
    const RepOutcome o = run_once(poison, [&] { multiply(w); }, comm);
    if (o.slowest >= kProgressAfterS) progress_note(fmt::format("{} warm-up: {:.1f} s", rec.kernel, o.slowest));
    if (!o.error.empty()) rec.status = RunStatus::error, rec.error = o.error;
    else if (o.stop) rec.status = RunStatus::abandoned, stop = o.stop;
  }
  Kokkos::Profiling::popRegion();

  std::vector<double> mine, slowest;
  LocalCheck worst;
  double verify_s = 0;
  const double t_first = wall_now();
  StableState state = StableState::more;
  for (int r = 0; rec.status == RunStatus::ok; ++r) {
    if (!until.enabled && r >= repetitions) break;
    const RepOutcome o = run_once(poison, [&] { multiply(r); }, comm);
    if (!o.error.empty()) {
      rec.status = RunStatus::error, rec.error = o.error;
      break;
    }
    if (o.stop) {
      rec.status = RunStatus::abandoned, stop = o.stop;
      break;
    }
    mine.push_back(o.mine);
    slowest.push_back(o.slowest);
    if (o.slowest >= kProgressAfterS)
      progress_note(fmt::format("{} repetition {}/{}: {:.1f} s", rec.kernel, r + 1, repetitions, o.slowest));
    if (check) {
      std::string err;
      const double t0 = wall_now();
      Kokkos::Profiling::pushRegion("mmapp::verify");
      try {
        const LocalCheck lc = check();
        Kokkos::fence();
        if (rec.verify.checks == 0) worst = lc;
        else merge_checks(worst, lc);
        ++rec.verify.checks;
      } catch (const std::exception& e) {
        err = std::string("verification: ") + e.what();
      }
      Kokkos::Profiling::popRegion();
      verify_s += wall_now() - t0;
      if (std::string first = first_error(err, comm); !first.empty()) {
        rec.status = RunStatus::error, rec.error = first;
        break;
      }
    }
    if (until.enabled && int(slowest.size()) >= repetitions) {
      double elapsed = wall_now() - t_first;
      MPI_Allreduce(MPI_IN_PLACE, &elapsed, 1, MPI_DOUBLE, MPI_MAX, comm);
      state = until_stable_step(slowest, repetitions, until.max_cv, until.max_seconds, until.max_repetitions, elapsed);
      rec.until_stable.seconds = elapsed;
      if (state != StableState::more) break;
    }
  }
  if (until.enabled) {
    auto& u = rec.until_stable;
    u.enabled = true, u.max_cv = until.max_cv, u.max_seconds = until.max_seconds;
    u.max_repetitions = until.max_repetitions;
    u.outcome = state == StableState::more ? "" : to_string(state);  // "": an error or a signal ended it
  }
  if (!slowest.empty() && rec.status == RunStatus::ok) {  // an abandoned or failed run keeps no times
    rec.samples_s = slowest;
    rec.time = summarize(slowest);
    rec.noisy = is_noisy(rec.time, rec.noise_threshold);
    rec.gflops = gemm_gflops(rec.m, rec.n, rec.k, rec.time.median);
    ph.seconds["kernel"] = summarize(mine).median;
  }
  ph.seconds["verify"] = verify_s;
  if (rec.status == RunStatus::ok && check) {
    const Verdict v = global_verdict(worst, comm);
    auto& vr = rec.verify;
    vr.passed = v.passed;
    vr.worst_ratio = v.worst_ratio;
    vr.worst_row = v.worst_row;
    vr.worst_residual = v.worst_residual;
    vr.worst_bound = v.worst_bound;
    vr.bound_kind = v.worst_probabilistic ? "probabilistic" : "deterministic";
    vr.relative_residual = v.relative_residual;
    vr.rows_failed = v.rows_failed;
    vr.nonfinite = v.nonfinite;
    vr.inexact = v.inexact;
  }
  return mine;
}

/// This rank's part of a run, for the per-rank rows of the report.
struct RankShare {
  long rows = 0, row0 = 0;  ///< rows of C it owns (for a 2-D block: its block's rows) and the first one
  double flops = 0;         ///< the multiply-adds it computes, times 2
  double predicted_s = -1;  ///< the balancer's prediction, -1 n/a
  double device_bytes = 0;  ///< what the case allocates in this rank's execution space's memory (bytes)
  double host_bytes = 0;    ///< and in its host memory (pinned staging, copies, rank 0's whole matrices)
};

/// Completes `rec` after its repetitions: phases (the slowest rank's, and
/// every rank's on rank 0), the per-rank rows and the load imbalance.
/// `mine`: this rank's kernel times. Collective.
void finish_record(RunRecord& rec, const PhaseClock& ph, const std::vector<double>& mine, const RankShare& share,
                   MPI_Comm comm);

/// Percent of the vendor kernel (`vendor`, or the distributed
/// yardstick named `vendor`) measured in the same case: records [first, end).
void percent_of_vendor(std::vector<RunRecord>& out, std::size_t first, const std::string& vendor = "vendor");

/// tile: auto — times every candidate on the actual problem (one warm-up and
/// `reps` timed runs each, the slowest rank's median), excluded from kernel
/// time, and picks the fastest. `run(variant, turn)` multiplies once with it
/// as the timed repetition `turn` would (its input set: turn modulo the
/// case's input sets), turn counting every run of every candidate, so the
/// candidates read A and B from where the timed repetitions do (on a GPU,
/// copies that rotate out of L2) and not from a cache the previous run warmed.
/// Records the per-candidate medians (rec.autotune_s), the choice and why
/// (rec.selection), and the time spent (ph "autotune"). A candidate that
/// fails is skipped (its error recorded). Collective; returns the signal
/// number if a signal arrived (the caller abandons the run).
template <class Space, class T, class Poison, class Run>
int autotune(PlannedKernel<Space, T>& p, RunRecord& rec, PhaseClock& ph, int reps, Poison&& poison, Run&& run,
             MPI_Comm comm) {
  const double t_start = wall_now();
  double best = std::numeric_limits<double>::infinity();
  std::size_t best_i = 0;
  int turn = 0;
  for (std::size_t i = 0; i < p.candidates.size(); ++i) {
    const auto& c = p.candidates[i];
    std::vector<double> times;
    std::string failed;
    for (int r = 0; r <= reps && failed.empty(); ++r) {
      const RepOutcome o = run_once(poison, [&] { run(c, turn++); }, comm);
      if (o.stop) return o.stop;
      if (!o.error.empty()) failed = o.error;
      else if (r > 0) times.push_back(o.slowest);
    }
    const double t = failed.empty() ? summarize(times).median : std::numeric_limits<double>::infinity();
    rec.autotune_s.push_back({c.shape(), failed.empty() ? t : -1.0});
    if (t < best) best = t, best_i = i;
  }
  if (std::isfinite(best)) {
    p.variant = p.candidates[best_i];
    p.selection = "tile: auto: fastest of " + std::to_string(p.candidates.size()) + " compiled variants (" +
                  fmt::format("{:.3f}", best * 1e3) + " ms, median of " + std::to_string(reps) + ")";
  } else {
    p.selection = "tile: auto: every candidate failed; " + p.selection;
  }
  ph.seconds["autotune"] += wall_now() - t_start;
  return 0;
}

}  // namespace mmapp::detail
