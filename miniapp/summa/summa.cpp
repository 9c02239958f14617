// summa.cpp — the case runner of process-grid decks (run_grid_case). For
// each problem size and dtype, on the execution space named for this rank:
//   grid (p x q, resolve_grid) -> panels -> kernels (the deck's local GEMMs,
//   and `scalapack`) -> panel path (host / cuda-aware / staged / shared) and overlap,
//   agreed by every rank -> memory need vs available -> allocation (A, B, C
//   blocks, panel buffers) -> fill (local: each rank its own blocks, keyed on
//   global (i, j); scatter: rank 0 the whole A and B) -> scatter (rank 0 sends
//   each rank its 2-D blocks) -> verify_setup (the 2-D Freivalds probes) ->
//   for each kernel: tile: auto timing if asked, warm-up, repetitions (C
//   poisoned with NaN before each, barrier, the whole multiply timed,
//   communication included; then that repetition's C checked, untimed),
//   gather (scatter) or checksum (local, streamed to rank 0 in global row
//   order; no rank holds the whole C).
// The row split (driver.cpp) and this runner share driver_common.hpp, so the
// records, tables and reports look the same.
#include "driver/driver_common.hpp"
#include "deck/init.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/grid_io.hpp"
#include "summa/scalapack.hpp"
#include "summa/summa.hpp"
#include "summa/transport_select.hpp"

#include <memory>
#include <numeric>

namespace mmapp {

namespace detail {
namespace {

/// Bytes the 2-D verifier allocates in Space's memory (X, Y, Z, the per-row
/// partial sums and results) and in host memory (the reductions' copies).
inline void verifier_bytes_grid(long mloc, long nloc, long k, double& device, double& host) {
  constexpr int NV = kProbeVectors;
  device = double(NV * nloc + 3 * NV * k + 4 * NV * mloc + (3 * NV + 2) * mloc + 8 * mloc) * sizeof(double);
  host = double(3 * NV * k + 4 * NV * mloc + (3 * NV + 2) * mloc) * sizeof(double);
}

/// Mean of the last `n` entries of v (the timed repetitions; warm-ups come first).
double mean_of_last(const std::vector<double>& v, std::size_t n) {
  if (n == 0 || v.size() < n) return 0;
  return std::accumulate(v.end() - long(n), v.end(), 0.0) / double(n);
}

/// Everything for one (size, dtype) of a grid deck on execution space Space.
template <class Space, class T>
void grid_case(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
               const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  MPI_Comm world = MPI_COMM_WORLD;
  const long M = size.m, N = size.n, K = size.k;
  const int rank = place.rank, nranks = place.size;
  const bool scatter = cfg.data_mode == DataMode::scatter;
  const Decomposition& d = cfg.decomposition;
  Space space;

  // The grid, its blocks and the panels.
  GridShape g;
  agree_on([&] { g = resolve_grid(d, nranks); }, d.grid_where.empty() ? cfg.deck_path + ": " : "", 2, world);
  const GridComm grid(world, g);
  const GridCoords coords = grid.coords();
  const GridBlocks blk = grid_blocks(M, N, K, g, coords);
  const long mloc = blk.rows.size(), nloc = blk.cols.size();
  const std::vector<Panel> panels = summa_panels(K, g, d.panel);
  const long nbw = widest_panel(panels);

  // Kernels: the deck's local GEMMs (shapes resolved for the local problem
  // |I| x |J| x panel) and `scalapack`.
  std::vector<PlannedKernel<Space, T>> plan(cfg.kernels.size());
  std::vector<bool> is_scalapack(cfg.kernels.size(), false);
  bool any_summa = false, any_scalapack = false;
  agree_on(
      [&] {
        for (size_t i = 0; i < cfg.kernels.size(); ++i) {
          const KernelSpec& spec = cfg.kernels[i];
          if (spec.name == "scalapack") {
            is_scalapack[i] = any_scalapack = true;
            if (const std::string why = scalapack_unavailable_reason(backends[rank]); !why.empty())
              throw DeckError(cfg.deck_path + (spec.line > 0 ? ":" + std::to_string(spec.line) : std::string()) +
                              ": kernels[" + std::to_string(i) + "].name: scalapack is not available: " + why);
            continue;
          }
          any_summa = true;
          const auto r = resolve_kernel<Space, T>(spec, cfg.deck_path, int(i), mloc, nloc, nbw);
          plan[i] = {r.variant, r.selection, {}};
          if (spec.tile_auto) plan[i].candidates = variants_named<Space, T>(spec.name);
        }
      },
      "", 2, world);

  // How panels reach the others on this rank, and the overlap every rank uses
  // (transport_select.hpp).
  const bool node_local = grid_is_node_local(grid);
  PanelPath my_path = PanelPath::host;
  agree_on([&] { my_path = choose_panel_path(d.transfer, !is_host_space_v<Space>, node_local, rank); },
           cfg.deck_path + ": ", 2, world);
  const PanelTransportChoice transport = agree_panel_transport(my_path, d.overlap, world);
  const PanelPath path = transport.path;
  const bool overlap = transport.overlap;

  // Memory: need vs available, before allocating.
  const double elem = sizeof(T);
  std::vector<PlannedKernel<Space, T>> local_plan;
  for (size_t i = 0; i < plan.size(); ++i)
    if (!is_scalapack[i]) local_plan.push_back(plan[i]);
  const std::size_t work_bytes = workspace_bytes(local_plan, mloc, nloc, nbw);
  double dev_bytes = 0, host_bytes = 0;
  {
    double ver_dev = 0, ver_host = 0;
    const BufferBytes pan = any_summa ? Summa<Space, T>::bytes(mloc, nloc, nbw, path, overlap) : BufferBytes{};
    const double pan_dev = pan.device, pan_pin = pan.pinned;
    if (cfg.verify) verifier_bytes_grid(mloc, nloc, K, ver_dev, ver_host);
    dev_bytes = (double(mloc) * blk.a_k.size() + double(blk.b_k.size()) * nloc + double(mloc) * nloc) * elem +
                pan_dev + double(work_bytes) + ver_dev;
    // Host: pinned staging, the verifier's reduction copies, a chunk of rows
    // (fill/scatter/checksum: at most 64 MiB), and rank 0's whole matrices in
    // scatter mode.
    const double largest_block =
        std::max({double(mloc) * blk.a_k.size(), double(blk.b_k.size()) * nloc, double(mloc) * nloc}) * elem;
    host_bytes = pan_pin + ver_host + std::min(double(64L << 20), largest_block) +
                 (rank == 0 ? double(std::min(chunk_rows<T>(N), M) * N) * elem : 0.0) +
                 (rank == 0 && scatter ? (double(M) * K + double(K) * N + double(M) * N) * elem : 0.0);
    const std::string problem = "problem m=" + std::to_string(M) + " n=" + std::to_string(N) +
                                " k=" + std::to_string(K) + " " + dtype_name<T>() + " on a " + std::to_string(g.p) +
                                "x" + std::to_string(g.q) + " grid needs ";
    check_memory_fits<Space>(dev_bytes, host_bytes, problem, place, rank, world);
  }

  PhaseClock common;
  Matrix<T, Space> A, B, C;
  Workspace<Space> work;
  HostMatrix<T> A_full, B_full, C_full;  // rank 0, scatter mode
  std::unique_ptr<Summa<Space, T>> summa;
  common.time("allocation", [&] {
    A = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A"), mloc, blk.a_k.size());
    B = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B"), blk.b_k.size(), nloc);
    C = Matrix<T, Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), mloc, nloc);
    work = Workspace<Space>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "work"), work_bytes);
    if (rank == 0 && scatter) {
      A_full = HostMatrix<T>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "A_full"), M, K);
      B_full = HostMatrix<T>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "B_full"), K, N);
      C_full = HostMatrix<T>(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C_full"), M, N);
    }
    if (any_summa) summa = std::make_unique<Summa<Space, T>>(space, grid, blk, panels, A, B, C, path, overlap);
  });
  std::unique_ptr<Scalapack<Space, T>> pgemm;
  if (any_scalapack)
    agree_on([&] { pgemm = std::make_unique<Scalapack<Space, T>>(grid, M, N, K, A, B, C); }, "", 3, world);

  common.time("fill", [&] {
    if (scatter) {
      if (rank == 0) {
        fill_matrix<T>(A_full, 0, 0, cfg.init, cfg.seed);
        fill_matrix<T>(B_full, 1, 0, cfg.init, cfg.seed);
      }
    } else {
      fill_block<Space, T>(A, 0, blk.rows.begin, blk.a_k.begin, cfg.init, cfg.seed);
      fill_block<Space, T>(B, 1, blk.b_k.begin, blk.cols.begin, cfg.init, cfg.seed);
    }
  });
  if (scatter)
    common.time("scatter", [&] {
      scatter_block<Space, T>(A_full, A, grid);
      scatter_block<Space, T>(B_full, B, grid);
    });

  // The independent verifier, on 2-D blocks: probe products of A and B, once per case.
  const ExactCheck exact = exact_check_for(cfg.init);
  std::unique_ptr<FreivaldsCheck<Space, T>> checker;
  if (cfg.verify) {
    const std::uint64_t probe_seed = mix64(cfg.seed ^ 0x5eed5eedULL) ^ std::uint64_t(M * 31 + N * 17 + K);
    const GridPlacement where{blk.rows.begin, blk.cols.begin, blk.a_k.begin, blk.b_k.begin, K, N, g.p, g.q,
                              world, grid.row(), coords.pcol == 0};
    common.time("verify_setup", [&] {
      checker = std::make_unique<FreivaldsCheck<Space, T>>(space, A, B, where, exact, cfg.tolerance, probe_seed);
    });
  }
  const std::function<LocalCheck()> check =
      checker ? std::function<LocalCheck()>([&] { return checker->check(C); }) : std::function<LocalCheck()>();
  const auto poison = [&] { Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN()); };

  // Per-rank facts for the report: the panel path of every rank.
  const std::string& transfer = transport.transfer;
  std::vector<long> rows_split(nranks);
  MPI_Allgather(&mloc, 1, MPI_LONG, rows_split.data(), 1, MPI_LONG, world);

  const size_t first_record = out.size();
  for (size_t i = 0; i < cfg.kernels.size(); ++i) {
    if (const int sig = agree_stop(world)) throw Stopped(sig);
    auto& p = plan[i];
    const bool sl = is_scalapack[i];
    RunRecord rec;
    rec.kernel = cfg.kernels[i].name;
    rec.dtype = dtype_name<T>();
    rec.backends = backends;
    rec.m = M, rec.n = N, rec.k = K;
    rec.warmup = cfg.warmup, rec.repetitions = cfg.repetitions, rec.input_sets = 1;
    rec.rows_split = rows_split;
    rec.data_mode = to_string(cfg.data_mode);
    rec.verify.enabled = cfg.verify;
    if (cfg.verify) rec.verify.verifier = verifier_name(exact, cfg.tolerance) + " (2-D blocks)";
    rec.grid.p = g.p, rec.grid.q = g.q;
    rec.grid.transfer = sl ? "host" : transfer;
    if (sl) {
      rec.grid.algorithm = "scalapack p?gemm";
    } else {
      rec.grid.algorithm = "summa";
      rec.grid.panel = d.panel;
      rec.grid.panels = int(panels.size());
      rec.grid.overlap = overlap ? "ibcast" : "none";
    }
    PhaseClock ph = common;
    int stop = 0;
    std::vector<SummaTimes> times;
    std::vector<double> mine;
    if (sl) {
      rec.selection = "ScaLAPACK p?gemm on the transposed BLACS grid (" + std::to_string(g.q) + "x" +
                      std::to_string(g.p) + "), same blocks";
      mine = measure(
          rec, ph, cfg.warmup, cfg.repetitions, poison,
          [&](int) {
            if constexpr (is_host_space_v<Space>) pgemm->multiply();
          },
          check, world, stop);
    } else {
      if (!p.candidates.empty())
        stop = autotune(p, rec, ph, 2, poison, [&](const KernelVariant<Space, T>& c) { summa->multiply(c.run, work); },
                        world);
      rec.shape = p.variant.shape();
      rec.selection = p.selection;
      if (stop) {
        rec.status = RunStatus::abandoned;
      } else {
        mine = measure(
            rec, ph, cfg.warmup, cfg.repetitions, poison,
            [&](int) {
              // Recorded even when it throws: every multiply ends its communication first.
              struct Keep {
                Summa<Space, T>& s;
                std::vector<SummaTimes>& t;
                ~Keep() { t.push_back(s.times()); }
              } keep{*summa, times};
              summa->multiply(p.variant.run, work);
            },
            check, world, stop);
      }
      std::vector<double> comm, gemm, copy;
      for (const auto& t : times) comm.push_back(t.comm), gemm.push_back(t.gemm), copy.push_back(t.copy);
      ph.seconds["summa_comm"] = mean_of_last(comm, mine.size());
      ph.seconds["summa_gemm"] = mean_of_last(gemm, mine.size());
      ph.seconds["summa_copy"] = mean_of_last(copy, mine.size());
    }

    if (rec.status == RunStatus::ok) {
      if (scatter) {
        ph.time("gather", [&] {
          stream_rows_to_root<Space, T>(C, grid, M, N,
                                        [&](long gi, const T* row) { std::copy_n(row, N, &C_full(gi, 0)); });
        });
        if (rank == 0) rec.checksum = ordered_checksum<T>(C_full, std::vector<long>{M}, N, MPI_COMM_SELF);
      } else {
        ph.time("checksum", [&] { rec.checksum = grid_checksum<Space, T>(C, grid, M, N); });
      }
    }
    if (scatter) ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["gather"];
    finish_record(rec, ph, mine,
                  RankShare{mloc, blk.rows.begin, 2.0 * double(mloc) * double(nloc) * double(K), -1, dev_bytes,
                            host_bytes},
                  world);
    // The grid's per-rank facts, on rank 0.
    const double facts[4] = {double(coords.prow), double(coords.pcol), double(nloc), double(blk.cols.begin)};
    std::vector<double> all(rank == 0 ? 4 * nranks : 0);
    MPI_Gather(facts, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, 0, world);
    if (rank == 0)
      for (auto& rr : rec.ranks) {
        const double* f = all.data() + 4 * rr.rank;
        rr.prow = int(f[0]), rr.pcol = int(f[1]), rr.cols = long(f[2]), rr.col0 = long(f[3]);
      }
    out.push_back(rec);
    percent_of_vendor(out, first_record, any_scalapack ? "scalapack" : "kokkoskernels");
    if (hooks.records_so_far && rank == 0) hooks.records_so_far(out);
    if (stop) throw Stopped(stop);
  }
}

}  // namespace

void run_grid_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                   const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  with_backend(backends[place.rank], [&](auto space) {
    using Space = decltype(space);
    if (dt == DType::f32)
      grid_case<Space, float>(cfg, size, place, backends, out, hooks);
    else
      grid_case<Space, double>(cfg, size, place, backends, out, hooks);
  });
}

}  // namespace detail
}  // namespace mmapp
