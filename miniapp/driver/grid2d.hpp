// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid2d.hpp — the 2-D process grid as a decomposition strategy of the case
// runner (case_runner.hpp): A, B and C in p x q blocks (parallel/grid.hpp),
// multiplied by SUMMA (summa/) with the deck's kernel as the local GEMM on
// |I| x |J| x panel problems, or by a distributed GEMM that takes the whole
// blocks (ScaLAPACK's p?gemm, the distributed yardstick: only this strategy
// accepts it).
// Data (local): each rank fills its own blocks, keyed on global (i, j), and
// C's checksum streams whole rows to rank 0 (no rank holds the whole C);
// (scatter): rank 0 fills the whole A and B, sends every rank its blocks and
// gathers C's. The panels' transport (host, cuda-aware, staged, shared, nccl) and
// the overlap are agreed by every rank before allocation.
#pragma once

#include "driver/case_runner.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/grid_io.hpp"
#include "parallel/mpi_util.hpp"
#include "parallel/nccl_comm.hpp"
#include "summa/scalapack.hpp"
#include "summa/summa.hpp"
#include "summa/transport_select.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <memory>
#include <numeric>
#include <string>
#include <vector>

namespace mmapp::detail {

/// Mean of the last `n` entries of v (the timed repetitions; warm-ups and
/// tile: auto trials come first); 0 when there are fewer.
inline double mean_of_last(const std::vector<double>& v, std::size_t n) {
  if (n == 0 || v.size() < n) return 0;
  return std::accumulate(v.end() - long(n), v.end(), 0.0) / double(n);
}

/// The process grid (see the file comment) of one M x N x K case on Space,
/// for run_case (case_runner.hpp lists the members it calls). Construction
/// resolves the grid and splits the communicators (collective over
/// MPI_COMM_WORLD; RunError(2) for a grid that does not fit the job).
template <class Space, class T>
class Grid2D {
 public:
  using space_type = Space;
  using value_type = T;

  Grid2D(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
         const std::vector<std::string>& backends);

  MPI_Comm comm() const { return MPI_COMM_WORLD; }
  const RankPlacement& place() const { return place_; }
  Space space() const { return space_; }
  /// The local GEMM's problem: this rank's block, one panel deep.
  ProblemSize resolve_shape() const { return {mloc_, nloc_, nbw_}; }
  ProblemSize local_shape() const { return resolve_shape(); }
  void accept_distributed(const KernelSpec& spec, int index) const;
  void decide(const std::vector<PlannedKernel<Space, T>>& plan, PhaseClock& common);
  bool decide_runs_kernels() const { return false; }
  MemoryNeed memory(std::size_t work, bool verify);
  void allocate(std::size_t work, PhaseClock& common);
  void distribute(PhaseClock& common);

  ConstMatrix<T, Space> A() const { return A_; }
  ConstMatrix<T, Space> B() const { return B_; }
  const Matrix<T, Space>& C() const { return C_; }
  GridPlacement placement() const {
    return GridPlacement{blk_.rows.begin, blk_.cols.begin, blk_.a_k.begin, blk_.b_k.begin, size_.k, size_.n,
                         g_.p,           g_.q,            comm(),          grid_->row(),    coords_.pcol == 0};
  }

  void describe(RunRecord& rec, const PlannedKernel<Space, T>& p);
  void multiply(const PlannedKernel<Space, T>& p, const KernelVariant<Space, T>& v, int rep);
  void end_kernel(const PlannedKernel<Space, T>& p, PhaseClock& ph, std::size_t reps);
  void collect(RunRecord& rec, PhaseClock& ph);
  RankShare share() const {
    return {mloc_, blk_.rows.begin, 2.0 * double(mloc_) * double(nloc_) * double(size_.k), -1, need_.device,
            need_.host};
  }
  void rank_facts(RunRecord& rec) const;
  std::string vendor() const { return any_scalapack_ ? "scalapack" : "vendor"; }

 private:
  const Config& cfg_;
  ProblemSize size_;
  const RankPlacement& place_;
  const std::vector<std::string>& backends_;
  bool scatter_;
  Space space_;
  GridShape g_;
  std::unique_ptr<GridComm> grid_;
  GridCoords coords_;
  GridBlocks blk_;
  long mloc_ = 0, nloc_ = 0, nbw_ = 0;
  std::vector<Panel> panels_;
  bool any_summa_ = false, any_scalapack_ = false;
  PanelPath path_ = PanelPath::host;
  bool overlap_ = false;
  std::string transfer_;             ///< every rank's panel path, for the record
  std::vector<long> rows_split_;     ///< every rank's |I|
  MemoryNeed need_;
  Matrix<T, Space> A_, B_, C_;
  Workspace<Space> work_;
  HostMatrix<T> A_full_, B_full_, C_full_;  // rank 0, scatter mode
  std::unique_ptr<Summa<Space, T>> summa_;
  std::unique_ptr<Scalapack<Space, T>> pgemm_;
  std::vector<SummaTimes> times_;    ///< per multiply of the current kernel
};

template <class Space, class T>
Grid2D<Space, T>::Grid2D(const Config& cfg, const ProblemSize& size, const RankPlacement& place,
                         const std::vector<std::string>& backends)
    : cfg_(cfg), size_(size), place_(place), backends_(backends), scatter_(cfg.data_mode == DataMode::scatter) {
  const Decomposition& d = cfg.decomposition;
  agree_on([&] { g_ = resolve_grid(d, place.size); }, d.grid_where.empty() ? cfg.deck_path + ": " : "", 2, comm());
  grid_ = std::make_unique<GridComm>(comm(), g_);
  coords_ = grid_->coords();
  blk_ = grid_blocks(size.m, size.n, size.k, g_, coords_);
  mloc_ = blk_.rows.size(), nloc_ = blk_.cols.size();
  panels_ = summa_panels(size.k, g_, d.panel);
  nbw_ = widest_panel(panels_);
}

template <class Space, class T>
void Grid2D<Space, T>::accept_distributed(const KernelSpec& spec, int index) const {
  if (const std::string why = scalapack_unavailable_reason(backends_[place_.rank]); !why.empty())
    throw DeckError((spec.where.empty() ? cfg_.deck_path + (spec.line > 0 ? ":" + std::to_string(spec.line) : std::string()) +
                                              ": kernels[" + std::to_string(index) + "]"
                                        : spec.where) +
                    ".name: " + spec.name + " is not available: " + why);
}

/// How panels reach the others on this rank, and the overlap every rank
/// uses (summa/transport_select.hpp: this rank's choice, then the agreement
/// of all: "shared" is all ranks or none), and every rank's rows.
template <class Space, class T>
void Grid2D<Space, T>::decide(const std::vector<PlannedKernel<Space, T>>& plan, PhaseClock&) {
  const MPI_Comm world = comm();
  for (const auto& p : plan) (p.distributed ? any_scalapack_ : any_summa_) = true;
  const bool node_local = grid_is_node_local(*grid_);
  const NcclFacts nccl = nccl_facts(world, !is_host_space_v<Space>);
  PanelPath mine = PanelPath::host;
  agree_on([&] { mine = choose_panel_path(cfg_.decomposition.transfer, !is_host_space_v<Space>, node_local, place_.rank, nccl); },
           cfg_.deck_path + ": ", 2, world);
  const PanelTransportChoice choice = agree_panel_transport(mine, cfg_.decomposition.overlap, world);
  path_ = choice.path;
  overlap_ = choice.overlap;
  transfer_ = choice.transfer;
  if (cfg_.decomposition.transfer == Transfer::automatic)
    if (const std::string why = nccl.auto_declined(); !why.empty())
      detail::progress_note_once("note: parallel.decomposition.transfer: auto: NCCL not used (" + why + "); panels via " +
                            transfer_);
  rows_split_.resize(place_.size);
  MPI_Allgather(&mloc_, 1, MPI_LONG, rows_split_.data(), 1, MPI_LONG, world);
}

/// Device: the blocks, SUMMA's panel buffers, the workspace, the verifier.
/// Host: pinned staging, the verifier's reduction copies, a chunk of rows
/// (fill, scatter, checksum: at most 64 MiB), rank 0's assembled rows and, in
/// scatter mode, its whole matrices.
template <class Space, class T>
MemoryNeed Grid2D<Space, T>::memory(std::size_t work, bool verify) {
  const double elem = sizeof(T);
  const long M = size_.m, N = size_.n, K = size_.k;
  const BufferBytes pan = any_summa_ ? Summa<Space, T>::bytes(mloc_, nloc_, nbw_, path_, overlap_) : BufferBytes{};
  const double pan_dev = pan.device, pan_pin = pan.pinned;
  const VerifierBytes ver = verify ? FreivaldsCheck<Space, T>::bytes(mloc_, nloc_, K, placement().reduces()) : VerifierBytes{};
  need_.device = (double(mloc_) * blk_.a_k.size() + double(blk_.b_k.size()) * nloc_ + double(mloc_) * nloc_) * elem +
                 pan_dev + double(work) + ver.device;
  const double largest_block =
      std::max({double(mloc_) * blk_.a_k.size(), double(blk_.b_k.size()) * nloc_, double(mloc_) * nloc_}) * elem;
  need_.host = pan_pin + ver.host + std::min(double(kChunkBytes), largest_block) +
               (place_.rank == 0 ? double(std::min(chunk_rows<T>(N), M) * N) * elem : 0.0) +
               (place_.rank == 0 && scatter_ ? (double(M) * K + double(K) * N + double(M) * N) * elem : 0.0);
  need_.problem = problem_text(M, N, K, dtype_name<T>(),
                               " on a " + std::to_string(g_.p) + "x" + std::to_string(g_.q) + " grid");
  return need_;
}

template <class Space, class T>
void Grid2D<Space, T>::allocate(std::size_t work, PhaseClock& common) {
  const long M = size_.m, N = size_.n, K = size_.k;
  common.time("allocation", [&] {
    A_ = Matrix<T, Space>(uninit("A"), mloc_, blk_.a_k.size());
    B_ = Matrix<T, Space>(uninit("B"), blk_.b_k.size(), nloc_);
    C_ = Matrix<T, Space>(uninit("C"), mloc_, nloc_);
    work_ = Workspace<Space>(uninit("work"), work);
    if (place_.rank == 0 && scatter_) {
      A_full_ = HostMatrix<T>(uninit("A_full"), M, K);
      B_full_ = HostMatrix<T>(uninit("B_full"), K, N);
      C_full_ = HostMatrix<T>(uninit("C_full"), M, N);
    }
    if (any_summa_) summa_ = std::make_unique<Summa<Space, T>>(space_, *grid_, blk_, panels_, A_, B_, C_, path_, overlap_);
  });
  if (any_scalapack_)
    agree_on([&] { pgemm_ = std::make_unique<Scalapack<Space, T>>(*grid_, M, N, K, A_, B_, C_); }, "", 3, comm());
}

template <class Space, class T>
void Grid2D<Space, T>::distribute(PhaseClock& common) {
  common.time("fill", [&] {
    if (scatter_) {
      if (place_.rank == 0) {
        fill_matrix<T>(A_full_, 0, 0, cfg_.init, cfg_.seed);
        fill_matrix<T>(B_full_, 1, 0, cfg_.init, cfg_.seed);
      }
    } else {
      fill_block<Space, T>(A_, 0, blk_.rows.begin, blk_.a_k.begin, cfg_.init, cfg_.seed);
      fill_block<Space, T>(B_, 1, blk_.b_k.begin, blk_.cols.begin, cfg_.init, cfg_.seed);
    }
  });
  if (scatter_)
    common.time("scatter", [&] {
      scatter_block<Space, T>(A_full_, A_, *grid_);
      scatter_block<Space, T>(B_full_, B_, *grid_);
    });
}

template <class Space, class T>
void Grid2D<Space, T>::describe(RunRecord& rec, const PlannedKernel<Space, T>& p) {
  times_.clear();
  rec.input_sets = 1;
  rec.rows_split = rows_split_;
  if (cfg_.verify) rec.verify.verifier += " (2-D blocks)";
  rec.grid.p = g_.p, rec.grid.q = g_.q;
  if (p.distributed) {
    rec.grid.transfer = "host";
    rec.grid.algorithm = "scalapack p?gemm";
    rec.selection = "ScaLAPACK p?gemm on the transposed BLACS grid (" + std::to_string(g_.q) + "x" +
                    std::to_string(g_.p) + "), same blocks";
  } else {
    rec.grid.transfer = transfer_;
    rec.grid.algorithm = "summa";
    rec.grid.panel = cfg_.decomposition.panel;
    rec.grid.panels = int(panels_.size());
    rec.grid.overlap = overlap_ ? "ibcast" : "none";
  }
}

/// One whole multiply: the distributed GEMM on the blocks, or SUMMA with
/// `v` as the local GEMM (its times kept, even when it throws: every
/// multiply ends its communication first). Collective.
template <class Space, class T>
void Grid2D<Space, T>::multiply(const PlannedKernel<Space, T>& p, const KernelVariant<Space, T>& v, int) {
  if (p.distributed) return pgemm_->multiply();
  struct Keep {
    Summa<Space, T>& s;
    std::vector<SummaTimes>& t;
    ~Keep() { t.push_back(s.times()); }
  } keep{*summa_, times_};
  summa_->multiply(v.run, work_);
}

/// SUMMA's time per multiply in broadcasts, local GEMMs and panel copies:
/// the mean over the timed repetitions.
template <class Space, class T>
void Grid2D<Space, T>::end_kernel(const PlannedKernel<Space, T>& p, PhaseClock& ph, std::size_t reps) {
  if (p.distributed) return;
  std::vector<double> comm_s, gemm_s, copy_s;
  for (const auto& t : times_) comm_s.push_back(t.comm), gemm_s.push_back(t.gemm), copy_s.push_back(t.copy);
  ph.seconds["summa_comm"] = mean_of_last(comm_s, reps);
  ph.seconds["summa_gemm"] = mean_of_last(gemm_s, reps);
  ph.seconds["summa_copy"] = mean_of_last(copy_s, reps);
}

/// After a kernel's repetitions, when they all ran: C's blocks gathered to
/// rank 0 and its checksum (scatter), or the checksum streamed in global row
/// order (local). Scatter mode records its communication either way.
template <class Space, class T>
void Grid2D<Space, T>::collect(RunRecord& rec, PhaseClock& ph) {
  const long M = size_.m, N = size_.n;
  if (rec.status == RunStatus::ok) {
    if (scatter_) {
      ph.time("gather", [&] {
        stream_rows_to_root<Space, T>(C_, *grid_, M, N, [&](long gi, const T* row) { std::copy_n(row, N, &C_full_(gi, 0)); });
      });
      if (place_.rank == 0) {
        Xxh3Digest digest;
        digest.update(C_full_.data(), std::size_t(M) * std::size_t(N) * sizeof(T));
        rec.checksum = digest.hex();
      }
    } else {
      ph.time("checksum", [&] { rec.checksum = grid_checksum<Space, T>(C_, *grid_, M, N); });
    }
  }
  if (scatter_) ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["gather"];
}

/// The grid's per-rank facts (process row and column, columns of C) in the
/// record's per-rank rows, on rank 0. Collective.
template <class Space, class T>
void Grid2D<Space, T>::rank_facts(RunRecord& rec) const {
  const double facts[4] = {double(coords_.prow), double(coords_.pcol), double(nloc_), double(blk_.cols.begin)};
  std::vector<double> all(place_.rank == 0 ? 4 * place_.size : 0);
  MPI_Gather(facts, 4, MPI_DOUBLE, all.data(), 4, MPI_DOUBLE, 0, comm());
  if (place_.rank == 0)
    for (auto& rr : rec.ranks) {
      const double* f = all.data() + 4 * rr.rank;
      rr.prow = int(f[0]), rr.pcol = int(f[1]), rr.cols = long(f[2]), rr.col0 = long(f[3]);
    }
}

}  // namespace mmapp::detail
