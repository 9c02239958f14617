// driver.cpp — the measurement loop. For each problem size and dtype, on the
// execution space named for this rank:
//   decomposition -> allocation -> fill -> scatter/broadcast (scatter mode)
//   -> host_to_device -> verify_setup (the Freivalds probes of A and B) ->
//   for each kernel: warm-up, repetitions (C poisoned with NaN before each,
//   barrier, fence, timed; then that repetition's C checked, untimed),
//   device_to_host, gather, checksum.
// A failing kernel (a vendor refusal, a CUDA error) is agreed on by every
// rank and recorded as an error; a signal is agreed on at every repetition.
// Each phase is a Kokkos profiling region ("mmapp::<phase>").
#include "driver.hpp"

#include "decomposition.hpp"
#include "exec_spaces.hpp"
#include "init.hpp"
#include "kernel_registry.hpp"
#include "signals.hpp"
#include "verify.hpp"

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <xxhash.h>

#include <chrono>
#include <climits>
#include <cmath>
#include <fstream>
#include <limits>
#include <memory>
#include <sstream>

namespace mmapp {
namespace {

template <class T>
MPI_Datatype mpi_type();
template <>
MPI_Datatype mpi_type<float>() { return MPI_FLOAT; }
template <>
MPI_Datatype mpi_type<double>() { return MPI_DOUBLE; }

double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Collective: runs `f`; if it throws on any rank, every rank throws
/// RunError(code) with the lowest failing rank's message, prefixed.
template <class F>
void agree_on(F&& f, const std::string& prefix, int code, MPI_Comm comm) {
  std::string err;
  try {
    f();
  } catch (const std::exception& e) {
    err = prefix + e.what();
  }
  if (std::string first = first_error(err, comm); !first.empty()) throw RunError(code, first);
}

/// Times named phases: fence, region push, run, fence, region pop.
struct PhaseClock {
  std::map<std::string, double> seconds;
  template <class F>
  void time(const std::string& name, F&& f) {
    Kokkos::fence();
    Kokkos::Profiling::pushRegion("mmapp::" + name);
    const double t0 = wall_now();
    f();
    Kokkos::fence();
    seconds[name] += wall_now() - t0;
    Kokkos::Profiling::popRegion();
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

std::string gib(double bytes) {
  std::ostringstream s;
  s.precision(3);
  s << bytes / double(1 << 30) << " GiB";
  return s.str();
}

/// MPI counts and displacements, in rows, for Scatterv/Gatherv.
struct RowCounts {
  std::vector<int> counts, displs;
  RowCounts(const std::vector<long>& rows, const std::vector<long>& offsets) {
    for (size_t r = 0; r < rows.size(); ++r) counts.push_back(int(rows[r])), displs.push_back(int(offsets[r]));
  }
};

/// An MPI datatype for one row of `cols` elements of T (so counts stay small).
struct RowType {
  MPI_Datatype t{};
  RowType(long cols, MPI_Datatype elem) {
    MPI_Type_contiguous(static_cast<int>(cols), elem, &t);
    MPI_Type_commit(&t);
  }
  ~RowType() { MPI_Type_free(&t); }
};

/// XXH3-64 of C's bytes in global row-major order. Rank 0 hashes its rows,
/// then receives every other rank's rows in rank order (streamed, chunked),
/// so no rank holds the whole C. Result meaningful on rank 0 only.
template <class T>
std::string ordered_checksum(const HostMatrix<T>& local, const std::vector<long>& rows, long n, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  RowType row_t(n, mpi_type<T>());
  const long chunk_rows = std::max(1L, (64L << 20) / std::max(1L, long(n * sizeof(T))));
  if (rank != 0) {
    for (long r0 = 0; r0 < rows[rank]; r0 += chunk_rows) {
      const int cnt = static_cast<int>(std::min(chunk_rows, rows[rank] - r0));
      MPI_Send(local.data() + r0 * n, cnt, row_t.t, 0, 7, comm);
    }
    return "";
  }
  XXH3_state_t* state = XXH3_createState();
  XXH3_64bits_reset(state);
  XXH3_64bits_update(state, local.data(), size_t(rows[0]) * n * sizeof(T));
  std::vector<T> buf(size_t(chunk_rows) * n);
  for (int src = 1; src < size; ++src) {
    for (long r0 = 0; r0 < rows[src]; r0 += chunk_rows) {
      const int cnt = static_cast<int>(std::min(chunk_rows, rows[src] - r0));
      MPI_Recv(buf.data(), cnt, row_t.t, src, 7, comm, MPI_STATUS_IGNORE);
      XXH3_64bits_update(state, buf.data(), size_t(cnt) * n * sizeof(T));
    }
  }
  const XXH64_hash_t h = XXH3_64bits_digest(state);
  XXH3_freeState(state);
  char text[19];
  std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(h));
  return text;
}

/// Times `variant` on a calibration problem of n^3 on this rank alone
/// (warm-up + 3 repetitions, median) and returns its GFLOP/s. The caller has
/// checked that 3 n^2 elements fit (calibration_fits).
template <class Space, class T>
double calibrate(const KernelVariant<Space, T>& variant, long n) {
  Space space;
  Matrix<T, Space> A("calib_A", n, n), B("calib_B", n, n), C("calib_C", n, n);
  Workspace<Space> work("calib_work", variant.workspace(n, n, n));
  Kokkos::deep_copy(A, T(0.5));
  Kokkos::deep_copy(B, T(0.25));
  const GemmArgs<Space, T> args{A, B, C, T(0), work};
  std::vector<double> t;
  for (int r = 0; r < 4; ++r) {
    Kokkos::fence();
    const double t0 = wall_now();
    variant.run(space, args);
    Kokkos::fence();
    if (r > 0) t.push_back(wall_now() - t0);
  }
  return gemm_gflops(n, n, n, summarize(t).median);
}

template <class T>
const char* dtype_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

/// The exact expectation for the deck's init (verify.hpp).
ExactCheck exact_check_for(Init init) {
  switch (init) {
    case Init::identity: return ExactCheck::identity;
    case Init::ones: return ExactCheck::ones;
    case Init::closed_form: return ExactCheck::closed_form;
    case Init::random: break;
  }
  return ExactCheck::none;
}

/// Bytes the verifier allocates on the device for m local rows (verify.hpp:
/// X, Y, Z and the per-row results).
double verifier_bytes(long m, long n, long k) {
  return double(kProbeVectors * n + 3 * kProbeVectors * k + 4 * kProbeVectors * m + 8 * m) * sizeof(double);
}

/// What one repetition (or warm-up run) ended with, agreed by every rank.
struct RepOutcome {
  double mine = 0, slowest = 0;  ///< this rank's and the slowest rank's kernel time
  std::string error;             ///< the lowest failing rank's message, or ""
  int stop = 0;                  ///< a signal some rank received, or 0
};

/// One timed run of `kv`: poison C with NaN, barrier, time the kernel to its
/// fence. Exceptions (a vendor refusal, a CUDA error) are caught and agreed
/// on, so no rank leaves the others waiting. Collective.
template <class Space, class T>
RepOutcome run_once(const Space& space, const KernelVariant<Space, T>& kv, const GemmArgs<Space, T>& args,
                    MPI_Comm comm) {
  RepOutcome out;
  std::string err;
  try {
    Kokkos::deep_copy(args.C, std::numeric_limits<T>::quiet_NaN());
    Kokkos::fence();
  } catch (const std::exception& e) {
    err = e.what();
  }
  MPI_Barrier(comm);
  if (err.empty()) {
    try {
      Kokkos::Profiling::pushRegion("mmapp::kernel");
      const double t0 = wall_now();
      kv.run(space, args);
      Kokkos::fence();
      out.mine = wall_now() - t0;
      Kokkos::Profiling::popRegion();
    } catch (const std::exception& e) {
      Kokkos::Profiling::popRegion();
      err = e.what();
    }
  }
  double vals[3] = {out.mine, err.empty() ? 0.0 : 1.0, double(pending_stop_signal())};
  MPI_Allreduce(MPI_IN_PLACE, vals, 3, MPI_DOUBLE, MPI_MAX, comm);
  out.slowest = vals[0];
  if (vals[1] > 0) out.error = first_error(err, comm);
  out.stop = int(vals[2]);
  return out;
}

/// Everything for one (size, dtype) on execution space Space.
template <class Space, class T>
void run_case(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
              const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const long M = size.m, N = size.n, K = size.k;
  const int rank = place.rank, nranks = place.size;
  const bool scatter = cfg.data_mode == DataMode::scatter;
  Space space;

  // Kernels (tile shapes are per backend and dtype).
  std::vector<KernelVariant<Space, T>> kernels;
  agree_on(
      [&] {
        for (size_t i = 0; i < cfg.kernels.size(); ++i)
          kernels.push_back(resolve_kernel<Space, T>(cfg.kernels[i], cfg.deck_path, int(i)));
      },
      "", 2, comm);

  // Decomposition (weights: auto times the first kernel of the deck on every rank).
  std::vector<double> calib;
  if (cfg.decomposition.kind == SplitKind::auto_weights) {
    const long cn = cfg.decomposition.calibration_n;
    agree_on(
        [&] {
          const double need = (3.0 * double(cn) * double(cn)) * sizeof(T) +
                              double(kernels.front().workspace(cn, cn, cn));
          const double avail = available_bytes<Space>();
          if (need > 0.9 * avail)
            throw std::runtime_error("parallel.decomposition.calibration_n: " + std::to_string(cn) +
                                     " needs " + gib(need) + " for its calibration GEMM on rank " +
                                     std::to_string(rank) + " (" + Space::name() + "), " + gib(avail) +
                                     " available");
        },
        cfg.deck_path + ": ", 2, comm);
    const double mine = calibrate<Space, T>(kernels.front(), cfg.decomposition.calibration_n);
    calib.resize(nranks);
    MPI_Allgather(&mine, 1, MPI_DOUBLE, calib.data(), 1, MPI_DOUBLE, comm);
  }
  std::vector<long> rows;
  agree_on([&] { rows = split_rows(M, nranks, cfg.decomposition, calib); }, cfg.deck_path + ": ", 2, comm);
  const std::vector<long> offsets = row_offsets(rows);
  const long my_rows = rows[rank], row0 = offsets[rank];

  // Input sets: on a GPU, rotate among copies of A and B when they would fit in L2
  // twice over, so the cache is not what is measured (CUTLASS profiler practice).
  int sets = 1;
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    sets = input_sets(double(my_rows * K + K * N) * sizeof(T), double(space.cuda_device_prop().l2CacheSize),
                      cfg.rotate_inputs);
#endif
  std::size_t work_bytes = 0;
  for (const auto& kv : kernels) work_bytes = std::max(work_bytes, kv.workspace(my_rows, N, K));

  // Memory: need vs available, before allocating.
  {
    const double elem = sizeof(T);
    const double dev = (double(sets) * (my_rows * K + K * N) + 1.0 * my_rows * N) * elem + double(work_bytes) +
                       (cfg.verify ? verifier_bytes(my_rows, N, K) : 0.0);
    double host = (rank == 0 && scatter) ? (double(M) * K + double(M) * N) * elem : 0.0;
    if (!is_host_space_v<Space>) host += (double(my_rows) * K + double(K) * N + double(my_rows) * N) * elem;
    const std::string problem = "problem m=" + std::to_string(M) + " n=" + std::to_string(N) +
                                " k=" + std::to_string(K) + " " + dtype_name<T>() + " needs ";
    const std::string on_rank = " on rank " + std::to_string(rank) + " (" + place.host + ")";
    const double host_avail = available_bytes<Kokkos::DefaultHostExecutionSpace>();
    std::string err;
    if (is_host_space_v<Space>) {
      if (dev + host > 0.9 * host_avail)
        err = problem + gib(dev + host) + " of host memory" + on_rank + ", " + gib(host_avail) + " available";
    } else if (const double avail = available_bytes<Space>(); dev > 0.95 * avail) {
      err = problem + gib(dev) + " of " + Space::name() + " device memory" + on_rank + ", device " +
            std::to_string(place.device_id) + ", " + gib(avail) + " available";
    } else if (host > 0.9 * host_avail) {
      err = problem + gib(host) + " of host memory" + on_rank + ", " + gib(host_avail) + " available";
    }
    if (std::string first = first_error(err, comm); !first.empty()) throw RunError(2, first);
  }

  PhaseClock common;
  std::vector<Matrix<T, Space>> A(sets), B(sets);
  Matrix<T, Space> C;
  Workspace<Space> work;
  HostMatrix<T> hA, hB, hC;  // the device views themselves on host backends
  HostMatrix<T> A_full, C_full;
  common.time("allocation", [&] {
    for (int s = 0; s < sets; ++s) {
      A[s] = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), my_rows, K);
      B[s] = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), K, N);
    }
    C = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), my_rows, N);
    work = Workspace<Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "work"), work_bytes);
    hA = Kokkos::create_mirror_view(A[0]);
    hB = Kokkos::create_mirror_view(B[0]);
    hC = Kokkos::create_mirror_view(C);
    if (rank == 0 && scatter) {
      A_full = HostMatrix<T>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A_full"), M, K);
      C_full = HostMatrix<T>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C_full"), M, N);
    }
  });

  common.time("fill", [&] {
    if (scatter) {
      if (rank == 0) {
        fill_matrix<T>(A_full, 0, 0, cfg.init, cfg.seed);
        fill_matrix<T>(hB, 1, 0, cfg.init, cfg.seed);
      }
    } else {
      fill_matrix<T>(hA, 0, row0, cfg.init, cfg.seed);
      fill_matrix<T>(hB, 1, 0, cfg.init, cfg.seed);
    }
  });
  if (scatter) {
    RowType a_row(K, mpi_type<T>()), b_row(N, mpi_type<T>());
    const RowCounts rc(rows, offsets);
    common.time("scatter", [&] {
      MPI_Scatterv(rank == 0 ? A_full.data() : nullptr, rc.counts.data(), rc.displs.data(), a_row.t, hA.data(),
                   int(my_rows), a_row.t, 0, comm);
    });
    common.time("broadcast", [&] { MPI_Bcast(hB.data(), int(K), b_row.t, 0, comm); });
  }
  common.time("host_to_device", [&] {
    Kokkos::deep_copy(A[0], hA);
    Kokkos::deep_copy(B[0], hB);
  });
  for (int s = 1; s < sets; ++s) {
    Kokkos::deep_copy(A[s], A[0]);
    Kokkos::deep_copy(B[s], B[0]);
  }

  // The independent verifier: probe products of A and B, once per case.
  const ExactCheck exact = exact_check_for(cfg.init);
  std::unique_ptr<FreivaldsCheck<Space, T>> checker;
  if (cfg.verify) {
    const std::uint64_t probe_seed = mix64(cfg.seed ^ 0x5eed5eedULL) ^ std::uint64_t(M * 31 + N * 17 + K);
    common.time("verify_setup", [&] {
      checker = std::make_unique<FreivaldsCheck<Space, T>>(space, A[0], B[0], row0, exact, cfg.tolerance, probe_seed);
    });
  }

  const size_t first_record = out.size();
  for (const auto& kv : kernels) {
    if (const int sig = agree_stop(comm)) throw Stopped(sig);
    RunRecord rec;
    rec.kernel = kv.name;
    rec.shape = kv.shape();
    rec.selection = "deck";
    rec.dtype = dtype_name<T>();
    rec.backends = backends;
    rec.m = M, rec.n = N, rec.k = K;
    rec.warmup = cfg.warmup, rec.repetitions = cfg.repetitions, rec.input_sets = sets;
    rec.rows_split = rows;
    rec.calibration_gflops = calib;
    rec.data_mode = to_string(cfg.data_mode);
    rec.verify.enabled = cfg.verify;
    if (cfg.verify) rec.verify.verifier = verifier_name(exact, cfg.tolerance);
    PhaseClock ph = common;
    int stop = 0;
    const auto args_for = [&](int r) { return GemmArgs<Space, T>{A[r % sets], B[r % sets], C, T(0), work}; };

    Kokkos::Profiling::pushRegion("mmapp::warmup");
    for (int w = 0; w < cfg.warmup && rec.status == RunStatus::ok; ++w) {
      const RepOutcome o = run_once<Space, T>(space, kv, args_for(w), comm);
      if (!o.error.empty()) rec.status = RunStatus::error, rec.error = o.error;
      else if (o.stop) rec.status = RunStatus::abandoned, stop = o.stop;
    }
    Kokkos::Profiling::popRegion();

    std::vector<double> mine, slowest;
    LocalCheck worst;
    double verify_s = 0;
    for (int r = 0; r < cfg.repetitions && rec.status == RunStatus::ok; ++r) {
      const RepOutcome o = run_once<Space, T>(space, kv, args_for(r), comm);
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
      if (checker) {  // every repetition's C, outside the timed region
        std::string err;
        const double t0 = wall_now();
        try {
          Kokkos::Profiling::pushRegion("mmapp::verify");
          const LocalCheck lc = checker->check(C);
          Kokkos::fence();
          Kokkos::Profiling::popRegion();
          if (rec.verify.checks == 0) worst = lc; else merge_checks(worst, lc);
          ++rec.verify.checks;
        } catch (const std::exception& e) {
          err = std::string("verification: ") + e.what();
        }
        verify_s += wall_now() - t0;
        if (std::string first = first_error(err, comm); !first.empty()) {
          rec.status = RunStatus::error, rec.error = first;
          break;
        }
      }
    }
    if (!mine.empty()) {
      const TimeStats my_stats = summarize(mine);
      rec.time = summarize(slowest);
      rec.gflops = gemm_gflops(M, N, K, rec.time.median);
      ph.seconds["kernel"] = my_stats.median;
    }
    ph.seconds["verify"] = verify_s;

    if (rec.status == RunStatus::ok && checker) {
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

    if (rec.status == RunStatus::ok) {
      ph.time("device_to_host", [&] { Kokkos::deep_copy(hC, C); });
      if (scatter) {
        RowType c_row(N, mpi_type<T>());
        const RowCounts rc(rows, offsets);
        ph.time("gather", [&] {
          MPI_Gatherv(hC.data(), int(my_rows), c_row.t, rank == 0 ? C_full.data() : nullptr, rc.counts.data(),
                      rc.displs.data(), c_row.t, 0, comm);
        });
        if (rank == 0) {
          const std::vector<long> all{M};
          rec.checksum = ordered_checksum<T>(C_full, all, N, MPI_COMM_SELF);
        }
      } else {
        rec.checksum = ordered_checksum<T>(hC, rows, N, comm);
      }
    }
    if (scatter)
      ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["broadcast"] + ph.seconds["gather"];

    // Phases: the slowest rank's; per-rank records to rank 0.
    std::vector<std::string> names;
    std::vector<double> values;
    for (const auto& [name, s] : ph.seconds) names.push_back(name), values.push_back(s);
    std::vector<double> worst_phase(values.size());
    MPI_Allreduce(values.data(), worst_phase.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
    for (size_t i = 0; i < names.size(); ++i) rec.phases_s[names[i]] = worst_phase[i];
    rec.phases_s["kernel"] = rec.time.median;
    rec.verify.seconds = rec.phases_s["verify"];

    const TimeStats my_stats = mine.empty() ? TimeStats{} : summarize(mine);
    const double my_vals[6] = {double(my_rows), double(row0), my_stats.min, my_stats.median, my_stats.max,
                               gemm_gflops(my_rows, N, K, my_stats.median)};
    std::vector<double> all_vals(rank == 0 ? 6 * nranks : 0);
    MPI_Gather(my_vals, 6, MPI_DOUBLE, all_vals.data(), 6, MPI_DOUBLE, 0, comm);
    std::vector<double> all_phases(rank == 0 ? values.size() * nranks : 0);
    MPI_Gather(values.data(), int(values.size()), MPI_DOUBLE, all_phases.data(), int(values.size()), MPI_DOUBLE,
               0, comm);
    if (rank == 0) {
      double sum = 0, mx = 0;
      for (int r = 0; r < nranks; ++r) {
        RankRecord rr;
        rr.rank = r;
        rr.rows = long(all_vals[6 * r]);
        rr.row0 = long(all_vals[6 * r + 1]);
        rr.kernel = {all_vals[6 * r + 2], all_vals[6 * r + 3], all_vals[6 * r + 4]};
        rr.gflops = all_vals[6 * r + 5];
        for (size_t i = 0; i < names.size(); ++i) rr.phases_s[names[i]] = all_phases[values.size() * r + i];
        if (rr.rows > 0) sum += rr.kernel.median, mx = std::max(mx, rr.kernel.median);
        rec.ranks.push_back(rr);
      }
      int active = 0;
      for (long r : rows) active += r > 0;
      rec.imbalance = (active > 0 && sum > 0) ? mx / (sum / active) : 1.0;
    }
    out.push_back(rec);
    // Percent of the vendor kernel measured in this same case (so far).
    for (size_t i = first_record; i < out.size(); ++i)
      if (out[i].kernel == "kokkoskernels" && out[i].status == RunStatus::ok)
        for (size_t j = first_record; j < out.size(); ++j)
          out[j].pct_of_vendor = out[i].gflops > 0 && out[j].status == RunStatus::ok
                                     ? 100.0 * out[j].gflops / out[i].gflops : -1;
    if (hooks.records_so_far && rank == 0) hooks.records_so_far(out);
    if (stop) throw Stopped(stop);
  }
}

}  // namespace

int input_sets(double ab_bytes, double l2_bytes, bool rotate) {
  if (!rotate || !(ab_bytes > 0) || ab_bytes >= 2 * l2_bytes) return 1;
  return int(std::min<double>(kMaxInputSets, std::ceil(2 * l2_bytes / ab_bytes) + 1));
}

std::vector<std::string> backends_per_rank(const Config& cfg, int nranks) {
  std::vector<std::string> b;
  if (cfg.backend.empty())
    b.assign(nranks, default_backend());
  else if (cfg.backend.size() == 1)
    b.assign(nranks, cfg.backend.front());
  else if (int(cfg.backend.size()) == nranks)
    b = cfg.backend;
  else
    throw RunError(2, cfg.deck_path + ": run.backend: lists " + std::to_string(cfg.backend.size()) +
                          " backends but the job has " + std::to_string(nranks) + " ranks");
  const auto enabled = enabled_backends();
  for (const auto& name : b)
    if (std::find(enabled.begin(), enabled.end(), name) == enabled.end()) {
      std::string known;
      for (const auto& n : enabled) known += (known.empty() ? "" : ", ") + n;
      throw RunError(2, cfg.deck_path + ": run.backend: '" + name + "' is not compiled into this binary (available: " +
                            known + ")");
    }
  return b;
}

std::vector<RunRecord> run_deck(const Config& cfg, const RankPlacement& place,
                                const std::vector<std::string>& backends, const DriverHooks& hooks) {
  std::vector<RunRecord> records;
  const int total = int(cfg.sizes.size() * cfg.dtypes.size() * cfg.kernels.size());
  const double t0 = wall_now();
  DriverHooks inner = hooks;
  size_t reported = 0;
  inner.records_so_far = [&](const std::vector<RunRecord>& so_far) {
    if (hooks.progress)
      for (; reported < so_far.size(); ++reported)
        hooks.progress(so_far[reported], int(reported + 1), total, wall_now() - t0);
    if (hooks.records_so_far) hooks.records_so_far(so_far);
  };
  for (const auto& size : cfg.sizes) {
    for (const DType dt : cfg.dtypes) {
      if (const int sig = agree_stop(MPI_COMM_WORLD)) throw Stopped(sig);
      with_backend(backends[place.rank], [&](auto space) {
        using Space = decltype(space);
        if (dt == DType::f32)
          run_case<Space, float>(cfg, size, place, backends, records, inner);
        else
          run_case<Space, double>(cfg, size, place, backends, records, inner);
      });
    }
  }
  return records;
}

}  // namespace mmapp
