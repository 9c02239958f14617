// driver.cpp — the measurement loop. For each problem size and dtype, on the
// execution space named for this rank:
//   decomposition -> allocation -> fill -> scatter/broadcast (scatter mode)
//   -> host_to_device -> reference (vendor GEMM) -> for each kernel:
//      warm-up, repetitions (C poisoned with NaN before each, barrier, fence,
//      timed), verification, device_to_host, gather, checksum.
// Each phase is a Kokkos profiling region ("mmapp::<phase>").
#include "driver.hpp"

#include "decomposition.hpp"
#include "exec_spaces.hpp"
#include "init.hpp"
#include "kernel_registry.hpp"
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
/// (warm-up + 3 repetitions, median) and returns its GFLOP/s.
template <class Space, class T>
double calibrate(const KernelVariant<Space, T>& variant, long n) {
  Space space;
  Matrix<T, Space> A("calib_A", n, n), B("calib_B", n, n), C("calib_C", n, n);
  Kokkos::deep_copy(A, T(0.5));
  Kokkos::deep_copy(B, T(0.25));
  std::vector<double> t;
  for (int r = 0; r < 4; ++r) {
    Kokkos::fence();
    const double t0 = wall_now();
    variant.run(space, A, B, C);
    Kokkos::fence();
    if (r > 0) t.push_back(wall_now() - t0);
  }
  return gemm_gflops(n, n, n, summarize(t).median);
}

template <class T>
const char* dtype_name() {
  return std::is_same_v<T, float> ? "float" : "double";
}

/// Everything for one (size, dtype) on execution space Space.
template <class Space, class T>
void run_case(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
              const std::vector<std::string>& backends, std::vector<RunRecord>& out) {
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

  // Memory: need vs available, before allocating.
  {
    const double elem = sizeof(T);
    const double dev = (double(sets) * (my_rows * K + K * N) + 2.0 * my_rows * N) * elem;
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
  Matrix<T, Space> C, Cref;
  HostMatrix<T> hA, hB, hC;  // the device views themselves on host backends
  HostMatrix<T> A_full, C_full;
  common.time("allocation", [&] {
    for (int s = 0; s < sets; ++s) {
      A[s] = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), my_rows, K);
      B[s] = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), K, N);
    }
    C = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), my_rows, N);
    Cref = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "Cref"), my_rows, N);
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

  // Reference and norms for verification.
  double a_sq = 0, b_sq = 0;
  if (cfg.verify) {
    gemm_vendor<Space, T>(space, A[0], B[0], Cref);
    a_sq = frobenius_sq<Space, T>(space, A[0]);
    b_sq = frobenius_sq<Space, T>(space, B[0]);
    Kokkos::fence();
  }
  const double eps = std::numeric_limits<T>::epsilon();
  const bool ones_exact = cfg.init == Init::ones && double(K) <= 1.0 / eps;
  const int exact_mode = cfg.init == Init::identity ? 1 : (ones_exact ? 2 : 0);

  const T nan = std::numeric_limits<T>::quiet_NaN();
  const size_t first_record = out.size();
  for (const auto& kv : kernels) {
    RunRecord rec;
    rec.kernel = kv.name;
    rec.shape = kv.shape();
    rec.dtype = dtype_name<T>();
    rec.backends = backends;
    rec.m = M, rec.n = N, rec.k = K;
    rec.warmup = cfg.warmup, rec.repetitions = cfg.repetitions, rec.input_sets = sets;
    rec.rows_split = rows;
    rec.calibration_gflops = calib;
    rec.data_mode = to_string(cfg.data_mode);
    PhaseClock ph = common;

    Kokkos::Profiling::pushRegion("mmapp::warmup");
    for (int w = 0; w < cfg.warmup; ++w) {
      Kokkos::deep_copy(C, nan);
      kv.run(space, A[w % sets], B[w % sets], C);
      Kokkos::fence();
    }
    Kokkos::Profiling::popRegion();

    std::vector<double> mine, slowest;
    for (int r = 0; r < cfg.repetitions; ++r) {
      Kokkos::deep_copy(C, nan);
      Kokkos::fence();
      MPI_Barrier(comm);
      Kokkos::Profiling::pushRegion("mmapp::kernel");
      const double t0 = wall_now();
      kv.run(space, A[r % sets], B[r % sets], C);
      Kokkos::fence();
      const double t = wall_now() - t0;
      Kokkos::Profiling::popRegion();
      double worst = t;
      MPI_Allreduce(&t, &worst, 1, MPI_DOUBLE, MPI_MAX, comm);
      mine.push_back(t);
      slowest.push_back(worst);
    }
    const TimeStats my_stats = summarize(mine);
    rec.time = summarize(slowest);
    rec.gflops = gemm_gflops(M, N, K, rec.time.median);
    ph.seconds["kernel"] = my_stats.median;

    rec.verify_enabled = cfg.verify;
    if (cfg.verify) {
      const ErrorSums sums = error_sums<Space, T>(space, C, Cref, A[0], exact_mode, T(K));
      const Verdict v = global_verdict(sums, a_sq, b_sq, K, eps, cfg.tolerance, comm);
      rec.verified = v.passed;
      rec.rel_error = v.rel_error;
      rec.max_abs_error = v.max_abs_error;
      rec.error_bound = v.bound;
      rec.nonfinite = v.nonfinite;
      rec.inexact = v.inexact;
      rec.exact_check = exact_mode == 1 ? "C == A (identity)" : exact_mode == 2 ? "C == k (ones)" : "";
    }

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
      ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["broadcast"] + ph.seconds["gather"];
    } else {
      rec.checksum = ordered_checksum<T>(hC, rows, N, comm);
    }

    // Phases: the slowest rank's; per-rank records to rank 0.
    std::vector<std::string> names;
    std::vector<double> values;
    for (const auto& [name, s] : ph.seconds) names.push_back(name), values.push_back(s);
    std::vector<double> worst(values.size());
    MPI_Allreduce(values.data(), worst.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
    for (size_t i = 0; i < names.size(); ++i) rec.phases_s[names[i]] = worst[i];
    rec.phases_s["kernel"] = rec.time.median;

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
  }

  // Percent of the vendor kernel measured in this same case.
  for (size_t i = first_record; i < out.size(); ++i)
    if (out[i].kernel == "kokkoskernels")
      for (size_t j = first_record; j < out.size(); ++j)
        out[j].pct_of_vendor = out[i].gflops > 0 ? 100.0 * out[j].gflops / out[i].gflops : -1;
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
                                const std::vector<std::string>& backends, const ProgressFn& progress) {
  std::vector<RunRecord> records;
  const int total = int(cfg.sizes.size() * cfg.dtypes.size() * cfg.kernels.size());
  const double t0 = wall_now();
  for (const auto& size : cfg.sizes) {
    for (const DType dt : cfg.dtypes) {
      const size_t before = records.size();
      with_backend(backends[place.rank], [&](auto space) {
        using Space = decltype(space);
        if (dt == DType::f32)
          run_case<Space, float>(cfg, size, place, backends, records);
        else
          run_case<Space, double>(cfg, size, place, backends, records);
      });
      if (progress && place.rank == 0)
        for (size_t i = before; i < records.size(); ++i) progress(records[i], int(i + 1), total, wall_now() - t0);
    }
  }
  return records;
}

}  // namespace mmapp
