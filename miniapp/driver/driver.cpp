// driver.cpp — the measurement loop of the row split (and run_deck, which
// dispatches every case). For each problem size and dtype, on the execution
// space named for this rank:
//   decomposition -> allocation -> fill -> scatter/broadcast (scatter mode)
//   -> host_to_device -> verify_setup (the Freivalds probes of A and B) ->
//   for each kernel: tile: auto timing if asked, warm-up, repetitions (C
//   poisoned with NaN before each, barrier, fence, timed; then that
//   repetition's C checked, untimed), device_to_host, gather, checksum.
// A failing kernel (a vendor refusal, a CUDA error) is agreed on by every
// rank and recorded as an error; a signal is agreed on at every repetition.
// Each phase is a Kokkos profiling region ("mmapp::<phase>").
#include "driver/driver.hpp"

#include "parallel/decomposition.hpp"
#include "driver/driver_common.hpp"
#include "deck/init.hpp"

#include <memory>

namespace mmapp {
namespace detail {

void finish_record(RunRecord& rec, const PhaseClock& ph, const std::vector<double>& mine, const RankShare& share,
                   MPI_Comm comm) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  std::vector<std::string> names;
  std::vector<double> values;
  for (const auto& [name, s] : ph.seconds) names.push_back(name), values.push_back(s);
  std::vector<double> worst_phase(values.size());
  MPI_Allreduce(values.data(), worst_phase.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
  for (size_t i = 0; i < names.size(); ++i) rec.phases_s[names[i]] = worst_phase[i];
  rec.phases_s["kernel"] = rec.time.median;
  rec.verify.seconds = rec.phases_s["verify"];

  const TimeStats my_stats = mine.empty() ? TimeStats{} : summarize(mine);
  const double gf = my_stats.median > 0 ? share.flops / my_stats.median * 1e-9 : 0.0;
  constexpr int kVals = 9;
  const double my_vals[kVals] = {double(share.rows), double(share.row0), my_stats.min,       my_stats.median,
                                 my_stats.max,       gf,                  share.predicted_s, share.device_bytes,
                                 share.host_bytes};
  std::vector<double> all_vals(rank == 0 ? kVals * nranks : 0);
  MPI_Gather(my_vals, kVals, MPI_DOUBLE, all_vals.data(), kVals, MPI_DOUBLE, 0, comm);
  std::vector<double> all_phases(rank == 0 ? values.size() * nranks : 0);
  MPI_Gather(values.data(), int(values.size()), MPI_DOUBLE, all_phases.data(), int(values.size()), MPI_DOUBLE, 0,
             comm);
  if (rank != 0) return;
  double sum = 0, mx = 0;
  int active = 0;
  for (int r = 0; r < nranks; ++r) {
    RankRecord rr;
    rr.rank = r;
    const double* v = all_vals.data() + kVals * r;
    rr.rows = long(v[0]);
    rr.row0 = long(v[1]);
    rr.kernel = {v[2], v[3], v[4]};
    rr.gflops = v[5];
    rr.predicted_s = v[6];
    rr.device_bytes = v[7];
    rr.host_bytes = v[8];
    for (size_t i = 0; i < names.size(); ++i) rr.phases_s[names[i]] = all_phases[values.size() * r + i];
    if (rr.rows > 0) sum += rr.kernel.median, mx = std::max(mx, rr.kernel.median), ++active;
    rec.ranks.push_back(rr);
  }
  rec.imbalance = (active > 0 && sum > 0) ? mx / (sum / active) : 1.0;
}

void percent_of_vendor(std::vector<RunRecord>& out, std::size_t first, const std::string& vendor) {
  for (size_t i = first; i < out.size(); ++i)
    if (out[i].kernel == vendor && out[i].status == RunStatus::ok)
      for (size_t j = first; j < out.size(); ++j)
        out[j].pct_of_vendor =
            out[i].gflops > 0 && out[j].status == RunStatus::ok ? 100.0 * out[j].gflops / out[i].gflops : -1;
}

}  // namespace detail

namespace {
using namespace detail;

/// One calibration trial of weights: auto: this rank times `kv` once (after
/// one warm-up) on its share `my_rows` x N x K of the actual problem, on
/// its own space, and every rank learns every rank's time. A rank whose share
/// does not fit in its memory, or whose kernel fails, reports +inf. Collective.
template <class Space, class T>
SplitTrial balance_trial(const KernelVariant<Space, T>& kv, const std::vector<long>& rows, long N, long K,
                         MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  const long my = rows[rank];
  double t = 0;
  if (my > 0) {
    const double need = (double(my) * K + double(K) * N + double(my) * N) * sizeof(T) + double(kv.workspace(my, N, K));
    if (need > 0.9 * available_bytes<Space>()) {
      t = std::numeric_limits<double>::infinity();
    } else {
      try {
        Space space;
        Matrix<T, Space> A("balance_A", my, K), B("balance_B", K, N), C("balance_C", my, N);
        Workspace<Space> work("balance_work", kv.workspace(my, N, K));
        Kokkos::deep_copy(A, T(0.5));
        Kokkos::deep_copy(B, T(0.25));
        const GemmArgs<Space, T> args{A, B, C, T(0), work};
        for (int r = 0; r < 2; ++r) {
          Kokkos::fence();
          const double t0 = wall_now();
          kv.run(space, args);
          Kokkos::fence();
          t = wall_now() - t0;
        }
      } catch (const std::exception&) {
        t = std::numeric_limits<double>::infinity();
      }
    }
  }
  SplitTrial trial{rows, std::vector<double>(rows.size())};
  MPI_Allgather(&t, 1, MPI_DOUBLE, trial.seconds.data(), 1, MPI_DOUBLE, comm);
  return trial;
}

/// weights: auto — the row split that measured fastest at the actual shape.
/// Trials (decomposition.hpp): first every rank runs min(M, first_rows)
/// rows (its rate at a healthy slab); then twice the split proportional to
/// the rates each rank showed at the share it actually ran (a thin slab that
/// runs slowly shows a low rate, so its rank gets fewer rows or none); then
/// the fastest rank alone with every row. Returns the calibration trial
/// first, then the candidate splits of M in the order tried. Collective.
template <class Space, class T>
std::vector<SplitTrial> balance_rows(const KernelVariant<Space, T>& kv, long M, long N, long K, long first_rows,
                                     int nranks, MPI_Comm comm) {
  std::vector<SplitTrial> trials;
  trials.push_back(balance_trial<Space, T>(kv, std::vector<long>(nranks, std::min(M, first_rows)), N, K, comm));
  for (int i = 0; i < 2; ++i) {
    const std::vector<long> rows = next_split(M, trials);
    trials.push_back(balance_trial<Space, T>(kv, rows, N, K, comm));
  }
  std::vector<long> alone(nranks, 0);
  alone[fastest_rank(M, trials)] = M;
  trials.push_back(balance_trial<Space, T>(kv, alone, N, K, comm));
  return trials;
}

/// Everything for one (size, dtype) on execution space Space, rows of A and
/// C split over the ranks, B replicated.
template <class Space, class T>
void run_case(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
              const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  MPI_Comm comm = MPI_COMM_WORLD;
  const long M = size.m, N = size.n, K = size.k;
  const int rank = place.rank, nranks = place.size;
  const bool scatter = cfg.data_mode == DataMode::scatter;
  Space space;

  // Kernels (tile shapes are per backend, dtype and problem shape).
  auto plan = plan_kernels<Space, T>(cfg, M, N, K, comm);
  double trials_s = 0;  // weights: auto calibration time

  // Decomposition. weights: auto times the first kernel of the deck on every
  // rank at the actual shape and keeps the fastest measured split.
  std::vector<double> calib;
  std::vector<long> rows;
  std::vector<SplitTrial> trials;
  std::vector<double> predicted(nranks, -1.0);
  if (cfg.decomposition.kind == SplitKind::auto_weights) {
    const double t0 = wall_now();
    agree_on(
        [&] {
          trials = balance_rows<Space, T>(plan.front().variant, M, N, K, cfg.decomposition.calibration_n, nranks,
                                          comm);
        },
        cfg.deck_path + ": parallel.decomposition (weights: auto): ", 2, comm);
    for (size_t r = 0; r < trials.front().seconds.size(); ++r) {
      const double t = trials.front().seconds[r];
      calib.push_back(t > 0 && std::isfinite(t) ? gemm_gflops(trials.front().rows[r], N, K, t) : 0.0);
    }
    const std::vector<SplitTrial> splits(trials.begin() + 1, trials.end());
    const SplitTrial& best = best_trial(splits);
    if (!std::isfinite(best.makespan()))
      throw RunError(2, cfg.deck_path + ": parallel.decomposition (weights: auto): no split of m = " +
                            std::to_string(M) + " rows fits in the ranks' memory");
    rows = best.rows;
    for (int r = 0; r < nranks; ++r) predicted[r] = rows[r] > 0 ? best.seconds[r] : 0.0;
    trials_s = wall_now() - t0;
  } else {
    agree_on([&] { rows = split_rows(M, nranks, cfg.decomposition, calib); }, cfg.deck_path + ": ", 2, comm);
  }
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
  const std::size_t work_bytes = workspace_bytes(plan, my_rows, N, K);

  // Memory: need vs available, before allocating (and reported per rank).
  double dev_bytes = 0, host_bytes = 0;
  {
    const double elem = sizeof(T);
    const double dev = (double(sets) * (my_rows * K + K * N) + 1.0 * my_rows * N) * elem + double(work_bytes) +
                       (cfg.verify ? verifier_bytes(my_rows, N, K) : 0.0);
    double host = (rank == 0 && scatter) ? (double(M) * K + double(M) * N) * elem : 0.0;
    if (!is_host_space_v<Space>) host += (double(my_rows) * K + double(K) * N + double(my_rows) * N) * elem;
    const std::string problem = "problem m=" + std::to_string(M) + " n=" + std::to_string(N) +
                                " k=" + std::to_string(K) + " " + dtype_name<T>() + " needs ";
    check_memory_fits<Space>(dev, host, problem, place, rank, comm);
    dev_bytes = dev, host_bytes = host;
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
  const std::function<LocalCheck()> check =
      checker ? std::function<LocalCheck()>([&] { return checker->check(C); }) : std::function<LocalCheck()>();
  const auto poison = [&] { Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN()); };
  const auto args_for = [&](int r) { return GemmArgs<Space, T>{A[r % sets], B[r % sets], C, T(0), work}; };

  const size_t first_record = out.size();
  for (auto& p : plan) {
    if (const int sig = agree_stop(comm)) throw Stopped(sig);
    RunRecord rec;
    rec.kernel = p.variant.name;
    rec.dtype = dtype_name<T>();
    rec.backends = backends;
    rec.m = M, rec.n = N, rec.k = K;
    rec.warmup = cfg.warmup, rec.repetitions = cfg.repetitions, rec.input_sets = sets;
    rec.rows_split = rows;
    rec.calibration_gflops = calib;
    rec.balance_trials = trials;
    rec.data_mode = to_string(cfg.data_mode);
    rec.verify.enabled = cfg.verify;
    if (cfg.verify) rec.verify.verifier = verifier_name(exact, cfg.tolerance);
    PhaseClock ph = common;
    if (!trials.empty()) ph.seconds["balance"] = trials_s;
    int stop = 0;
    if (!p.candidates.empty())
      stop = autotune(p, rec, ph, 2, poison, [&](const KernelVariant<Space, T>& c) { c.run(space, args_for(0)); },
                      comm);
    rec.shape = p.variant.shape();
    rec.selection = p.selection;
    std::vector<double> mine;
    if (stop) {
      rec.status = RunStatus::abandoned;
    } else {
      mine = measure(rec, ph, cfg.warmup, cfg.repetitions, poison,
                     [&](int r) { p.variant.run(space, args_for(r)); }, check, comm, stop);
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
        if (rank == 0) rec.checksum = ordered_checksum<T>(C_full, std::vector<long>{M}, N, MPI_COMM_SELF);
      } else {
        rec.checksum = ordered_checksum<T>(hC, rows, N, comm);
      }
    }
    if (scatter)
      ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["broadcast"] + ph.seconds["gather"];
    finish_record(rec, ph, mine,
                  RankShare{my_rows, row0, 2.0 * double(my_rows) * double(N) * double(K), predicted[rank], dev_bytes,
                            host_bytes},
                  comm);
    out.push_back(rec);
    percent_of_vendor(out, first_record);
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
      if (cfg.decomposition.kind == SplitKind::grid) {  // a process grid: SUMMA (summa.cpp)
        run_grid_case(cfg, size, dt, place, backends, records, inner);
        continue;
      }
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
