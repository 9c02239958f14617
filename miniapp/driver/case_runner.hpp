// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// case_runner.hpp — one (size, dtype) case of a deck on this rank's
// execution space, written once for every decomposition:
//   plan (the deck's kernels resolved for the local problem) -> decide (the
//   rows of each rank, or the grid's panel transport) -> memory need vs
//   available, before anything is allocated -> allocation -> fill and
//   distribution -> verify_setup (the Freivalds probes of A and B) ->
//   accuracy_setup (verify.accuracy: the FP64 reference C64 = A B and
//   |A||B| of this rank's rows, check/accuracy.hpp) ->
//   (a stop point, stop_point(), after decide, allocation, distribution,
//   verify_setup and accuracy_setup) ->
//   for each kernel: tile: auto timing if asked, warm-up, repetitions (C
//   poisoned with NaN before each, barrier, the whole multiply timed; then
//   that repetition's C checked, untimed), the accuracy of the last
//   repetition's C (untimed), gather / checksum, the record.
// What differs between decompositions — where each rank's blocks live, how
// they are filled, distributed and gathered, what one multiply is, what the
// record says of the layout — is the strategy's: RowSplit (row_split.hpp:
// rows of A and C split, B replicated) and Grid2D (grid2d.hpp: p x q blocks,
// SUMMA or ScaLAPACK). A strategy provides:
//   space_type, value_type; comm(), place(), space();
//   resolve_shape()        the m x n x k the deck's kernels are resolved for;
//   accept_distributed(spec, i)  throws DeckError for a distributed GEMM it cannot run;
//   decide(plan, clock)    collective: the layout's remaining choices (timed phases in clock);
//   decide_runs_kernels()  whether decide times kernels (then check_case skips it);
//   local_shape()          the m x n x k of one local GEMM (its workspace);
//   memory(work, verify)   MemoryNeed of this rank (kept for the record; with the FP64
//                          reference's bytes when cfg.accuracy);
//   allocate(work, clock), distribute(clock);
//   A(), B(), C(), placement()   the verifier's view of this rank's blocks;
//   describe(rec, p)       the layout's fields of a record;
//   multiply(p, variant, rep)    one whole multiply (collective);
//   end_kernel(p, clock, reps), collect(rec, clock)  per-kernel phases; gather and checksum of an ok run;
//   share(), rank_facts(rec), vendor().
// The anchor: the ParRes Kernels' MPI1/DGEMM (a harness around a short
// SUMMA loop); BabelStream's one driver over a table of kernels.
// Errors are agreed by every rank (RunError, Stopped); kernels only compute.
#pragma once

#include "check/accuracy.hpp"
#include "check/verify.hpp"
#include "core/exec_spaces.hpp"
#include "core/long_range.hpp"
#include "driver/measure.hpp"
#include "driver/plan.hpp"

#include <Kokkos_Core.hpp>

#include <functional>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mmapp::detail {

/// What a case needs of one rank's memory, decided before allocation.
struct MemoryNeed {
  double device = 0;    ///< bytes in the rank's execution space's memory (host memory on host spaces)
  double host = 0;      ///< bytes of host memory beside it (staging, copies, rank 0's whole matrices)
  std::string problem;  ///< "problem m=... n=... k=... float needs " (the refusal's first words)
};

/// "problem m=M n=N k=K DTYPE" + `layout` + " needs ": the start of a memory refusal.
inline std::string problem_text(long m, long n, long k, const char* dtype, const std::string& layout = "") {
  return "problem m=" + std::to_string(m) + " n=" + std::to_string(n) + " k=" + std::to_string(k) + " " + dtype +
         layout + " needs ";
}

/// A record with the case's common fields: kernel, dtype, shape of the
/// problem, repetitions, data mode, verification settings.
template <class T>
RunRecord new_record(const Config& cfg, const std::string& kernel, const ProblemSize& size,
                     const std::vector<std::string>& backends) {
  RunRecord rec;
  rec.kernel = kernel;
  rec.dtype = dtype_name<T>();
  rec.backends = backends;
  rec.m = size.m, rec.n = size.n, rec.k = size.k;
  rec.warmup = cfg.warmup, rec.repetitions = cfg.repetitions;
  rec.noise_threshold = cfg.noise_threshold;
  rec.data_mode = to_string(cfg.data_mode);
  rec.verify.enabled = cfg.verify;
  if (cfg.verify) rec.verify.verifier = verifier_name(exact_check_for(cfg.init), cfg.tolerance);
  return rec;
}

/// verify.accuracy: the figure of `C` (this rank's rows; the run's last
/// repetition) against `reference`, agreed over `comm`, into rec.accuracy;
/// its time into ph's "accuracy". An error on any rank (a device failure)
/// is the run's error, on every rank alike. Collective.
template <class Space, class T>
void accuracy_of(RunRecord& rec, PhaseClock& ph, const AccuracyReference<Space, T>& reference,
                 const Matrix<T, Space>& C, MPI_Comm comm) {
  AccuracyFigure mine;
  std::string err;
  ph.time("accuracy", [&] {
    try {
      mine = reference.evaluate(C);
    } catch (const std::exception& e) {
      err = std::string("accuracy against the FP64 reference: ") + e.what();
    }
  });
  if (std::string first = first_error(err, comm); !first.empty()) {
    rec.status = RunStatus::error, rec.error = first;
    return;
  }
  const AccuracyFigure all = global_accuracy(mine, comm);
  rec.accuracy.measured = true;
  rec.accuracy.worst_error = all.worst_error;
  rec.accuracy.worst_row = all.worst_row;
}

/// One kernel of a case: tile: auto, warm-up and timed repetitions with
/// their checks, the accuracy against the FP64 reference (`reference`, or
/// none), gather and checksum, the record (appended to `out`, the
/// percent of the vendor updated, the hooks told). Collective. Throws
/// Stopped after recording when a signal ended it.
template <class Decomp, class Space, class T>
void run_kernel(Decomp& d, const Config& cfg, const ProblemSize& size, const std::vector<std::string>& backends,
                PlannedKernel<Space, T>& p, const PhaseClock& common,
                const std::function<LocalCheck(const ProductRounding&)>& check_with,
                const AccuracyReference<Space, T>* reference, std::vector<RunRecord>& out, std::size_t first_record,
                const DriverHooks& hooks) {
  const MPI_Comm comm = d.comm();
  const auto poison = [&] { fill_span(d.space(), d.C(), std::numeric_limits<T>::quiet_NaN()); };
  RunRecord rec = new_record<T>(cfg, p.name, size, backends);
  d.describe(rec, p);
  PhaseClock ph = common;
  int stop = 0;
  if (!p.candidates.empty())
    stop = autotune(p, rec, ph, 2, poison,
                    [&](const KernelVariant<Space, T>& c, const int turn) { d.multiply(p, c, turn); }, comm);
  if (!p.distributed) {
    rec.shape = p.variant.shape();
    rec.selection = p.selection;
  }
  // The verifier's rounding model follows the variant's math path (a
  // distributed GEMM is the vendor's).
  const MathPath math = p.distributed ? MathPath::vendor : p.variant.math;
  rec.math = math_path_name(math);
  const std::function<LocalCheck()> check =
      check_with ? std::function<LocalCheck()>([&] { return check_with(product_rounding(math, std::is_same_v<T, double>)); })
                 : std::function<LocalCheck()>();
  std::vector<double> mine;
  if (stop) {
    rec.status = RunStatus::abandoned;
  } else {
    mine = measure(rec, ph, cfg.warmup, cfg.repetitions, cfg.until_stable, poison, [&](int r) { d.multiply(p, p.variant, r); },
                   check, comm, stop);
    if (reference && rec.status == RunStatus::ok) accuracy_of(rec, ph, *reference, d.C(), comm);
    d.end_kernel(p, ph, mine.size());
  }
  d.collect(rec, ph);
  finish_record(rec, ph, mine, d.share(), comm);
  d.rank_facts(rec);
  out.push_back(rec);
  percent_of_vendor(out, first_record, d.vendor());
  if (hooks.records_so_far && d.place().rank == 0) hooks.records_so_far(out);
  if (stop) throw Stopped(stop);
}

/// Everything for one (size, dtype) case on the decomposition `d` (see the
/// file comment); appends a record per deck kernel to `out`. Collective over
/// d.comm(). Throws RunError(2), on every rank alike, before allocating, when
/// a kernel is not available or memory does not suffice; Stopped when a
/// signal arrived (the run in flight recorded as abandoned).
template <class Decomp>
void run_case(Decomp& d, const Config& cfg, const ProblemSize& size, const std::vector<std::string>& backends,
              std::vector<RunRecord>& out, const DriverHooks& hooks) {
  using Space = typename Decomp::space_type;
  using T = typename Decomp::value_type;
  const MPI_Comm comm = d.comm();

  const ProblemSize rs = d.resolve_shape();
  auto plan = plan_kernels<Space, T>(
      cfg, rs.m, rs.n, rs.k, [&](const KernelSpec& spec, int i) { d.accept_distributed(spec, i); }, comm);
  PhaseClock common;
  d.decide(plan, common);
  stop_point(comm);
  const ProblemSize ls = d.local_shape();
  const std::size_t work = workspace_bytes(plan, ls.m, ls.n, ls.k);
  const MemoryNeed need = d.memory(work, cfg.verify);
  check_memory_fits<Space>(need.device, need.host, need.problem, d.place(), d.place().rank, comm);

  d.allocate(work, common);
  stop_point(comm);
  d.distribute(common);
  stop_point(comm);

  // The independent verifier: probe products of A and B, once per case.
  std::unique_ptr<FreivaldsCheck<Space, T>> checker;
  if (cfg.verify) {
    const std::uint64_t probe_seed = mix64(cfg.seed ^ 0x5eed5eedULL) ^ std::uint64_t(size.m * 31 + size.n * 17 + size.k);
    common.time("verify_setup", [&] {
      checker = std::make_unique<FreivaldsCheck<Space, T>>(d.space(), d.A(), d.B(), d.placement(),
                                                           exact_check_for(cfg.init), cfg.tolerance, probe_seed);
    });
  }
  const std::function<LocalCheck(const ProductRounding&)> check =
      checker ? std::function<LocalCheck(const ProductRounding&)>(
                    [&](const ProductRounding& r) { return checker->check(d.C(), r); })
              : std::function<LocalCheck(const ProductRounding&)>();
  if (checker) stop_point(comm);

  // verify.accuracy: the FP64 reference of this rank's rows, once per case.
  std::unique_ptr<AccuracyReference<Space, T>> reference;
  if (cfg.accuracy) {
    // The deck parser refuses a process grid; a rank must hold whole rows of A and all of B.
    agree_on([&] {
      if (long(d.A().extent(1)) != size.k || long(d.B().extent(0)) != size.k || long(d.B().extent(1)) != size.n)
        throw std::invalid_argument(cfg.where("verify.accuracy") + ": the FP64 reference needs the row split");
    }, "", 2, comm);
    agree_on([&] {
      common.time("accuracy_setup", [&] {
        reference = std::make_unique<AccuracyReference<Space, T>>(d.space(), d.A(), d.B(), d.placement().row0);
      });
    }, "accuracy reference: ", 1, comm);
    stop_point(comm);
  }

  const std::size_t first_record = out.size();
  for (auto& p : plan) {
    stop_point(comm);
    run_kernel(d, cfg, size, backends, p, common, check, reference.get(), out, first_record, hooks);
  }
}

/// The up-front check of one (size, dtype) case on the decomposition `d`,
/// computing nothing: every deck kernel resolved for the local problem (the
/// plan), the layout's choices (d.decide, unless it times kernels: weights:
/// auto, whose calibration checks each rank's memory itself) and the memory
/// need of every rank against what it has (with the kernels that resolved).
/// Collective over d.comm(); returns the errors every rank agreed on
/// (RunError's messages), none when the case can run. Throws Stopped when a
/// signal arrived.
template <class Decomp>
std::vector<std::string> check_case(Decomp& d, const Config& cfg) {
  using Space = typename Decomp::space_type;
  using T = typename Decomp::value_type;
  const MPI_Comm comm = d.comm();
  std::vector<std::string> errors;
  try {
    const ProblemSize rs = d.resolve_shape();
    auto plan = plan_kernels<Space, T>(
        cfg, rs.m, rs.n, rs.k, [&](const KernelSpec& spec, int i) { d.accept_distributed(spec, i); }, comm, &errors);
    if (plan.empty() || d.decide_runs_kernels()) return errors;
    PhaseClock untimed;
    d.decide(plan, untimed);
    const ProblemSize ls = d.local_shape();
    const MemoryNeed need = d.memory(workspace_bytes(plan, ls.m, ls.n, ls.k), cfg.verify);
    check_memory_fits<Space>(need.device, need.host, need.problem, d.place(), d.place().rank, comm);
  } catch (const RunError& e) {  // agreed: thrown on every rank alike
    errors.push_back(e.what());
  }
  return errors;
}

}  // namespace mmapp::detail

namespace mmapp::detail {

/// Calls f(Space{}, T{}) for the execution space named `backend` and the
/// element type of `dt` (float, double). Throws std::invalid_argument when
/// the backend is not compiled in (with_backend).
template <class F>
void with_backend_and_dtype(const std::string& backend, DType dt, F&& f) {
  with_backend(backend, [&](auto space) {
    if (dt == DType::f32)
      f(space, float{});
    else
      f(space, double{});
  });
}

/// One (size, dtype) case of a row-split deck on this rank's backend
/// (run_row_split.cpp); the contract of run_case.
void run_row_split_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                        const std::vector<std::string>& backends, std::vector<RunRecord>& out,
                        const DriverHooks& hooks);

/// check_case (above) for one (size, dtype) case of a row-split deck
/// (run_row_split.cpp): the errors every rank agreed on (none: it can run).
std::vector<std::string> check_row_split_case(const Config& cfg, const ProblemSize& size, DType dt,
                                              const RankPlacement& place, const std::vector<std::string>& backends);

/// check_case for one (size, dtype) case of a process-grid deck (run_grid.cpp),
/// the grid itself included.
std::vector<std::string> check_grid_case(const Config& cfg, const ProblemSize& size, DType dt,
                                         const RankPlacement& place, const std::vector<std::string>& backends);

/// One (size, dtype) case of a process-grid deck on this rank's backend
/// (run_grid.cpp); the contract of run_case.
void run_grid_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                   const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks);

}  // namespace mmapp::detail
