// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// row_split.hpp — the row split as a decomposition strategy of the case
// runner (case_runner.hpp): rows of A and C split over the ranks (even, by
// rows, by weights, or weights: auto, measured), B replicated. Each rank's
// local GEMM is the deck's kernel on its rows (|I| x N x K).
// Data (scatter): rank 0 fills the whole A and B, MPI_Scatterv rows of A,
// MPI_Bcast B, host_to_device, and after the kernels device_to_host and
// MPI_Gatherv C; (local): each rank fills its own rows and B, and C's
// checksum streams the rows to rank 0. On a GPU, copies of A and B rotate
// (input_sets) when they would sit in L2.
// Over NCCL (scatter mode, built with NCCL, every rank a GPU rank with a GPU
// of its own, not MMAPP_NCCL=off): B goes host_to_device on rank 0 and is
// broadcast device to device (ncclBroadcast); C's rows are gathered into a
// device buffer of the whole C on rank 0 (ncclSend / ncclRecv in one group),
// then device_to_host there. The phases keep their names; the record's
// transport says "nccl" (else "mpi").
// The verifier sees the grid with one process column (GridPlacement::row_split).
#pragma once

#include "core/long_range.hpp"
#include "deck/init.hpp"
#include "driver/case_runner.hpp"
#include "parallel/decomposition.hpp"
#include "parallel/mpi_util.hpp"
#include "parallel/nccl_comm.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

namespace mmapp::detail {

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
  RowType(const RowType&) = delete;
  RowType& operator=(const RowType&) = delete;
};

/// XXH3-64 of C's bytes in global row-major order. Rank 0 hashes its rows,
/// then receives every other rank's rows in rank order (streamed in chunks
/// of chunk_rows), so no rank holds the whole C. `local`: this rank's rows
/// (rows[rank] x n, host memory). Result meaningful on rank 0 only ("" on
/// the others). Collective over `comm`.
template <class T>
std::string ordered_checksum(const HostMatrix<T>& local, const std::vector<long>& rows, long n, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  RowType row_t(n, mpi_type<T>());
  const long chunk = chunk_rows<T>(n);
  if (rank != 0) {
    for (long r0 = 0; r0 < rows[rank]; r0 += chunk) {
      const int cnt = static_cast<int>(std::min(chunk, rows[rank] - r0));
      MPI_Send(local.data() + r0 * n, cnt, row_t.t, 0, 7, comm);
    }
    return "";
  }
  Xxh3Digest digest;
  digest.update(local.data(), size_t(rows[0]) * n * sizeof(T));
  std::vector<T> buf(size_t(chunk) * n);
  for (int src = 1; src < size; ++src) {
    for (long r0 = 0; r0 < rows[src]; r0 += chunk) {
      const int cnt = static_cast<int>(std::min(chunk, rows[src] - r0));
      MPI_Recv(buf.data(), cnt, row_t.t, src, 7, comm, MPI_STATUS_IGNORE);
      digest.update(buf.data(), size_t(cnt) * n * sizeof(T));
    }
  }
  return digest.hex();
}

/// One calibration trial of weights: auto: this rank times `kv` once (after
/// one warm-up) on its share `rows[rank]` x N x K of the actual problem, on
/// its own space, and every rank learns every rank's time. A rank whose share
/// does not fit in its memory, or whose kernel fails, reports +inf. Throws
/// Stopped, on every rank alike, when a signal arrived. Collective.
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
        // Uninitialised, and filled by fill_span: no Kokkos launch over the whole span (core/long_range.hpp).
        Matrix<T, Space> A(uninit("balance_A"), my, K), B(uninit("balance_B"), K, N), C(uninit("balance_C"), my, N);
        Workspace<Space> work("balance_work", kv.workspace(my, N, K));
        fill_span(space, A, T(0.5));
        fill_span(space, B, T(0.25));
        const GemmArgs<Space, T> args{A, B, C, T(0), work};
        for (int r = 0; r < 2 && !pending_stop_signal(); ++r) {  // a stop pending: the trial is discarded anyway
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
  stop_point(comm);  // a signal during the trial: every rank stops here (Stopped)
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

/// The row split (see the file comment) of one M x N x K case on Space, for
/// run_case (case_runner.hpp lists the members it calls). Collective over
/// MPI_COMM_WORLD; views are allocated by allocate().
template <class Space, class T>
class RowSplit {
 public:
  using space_type = Space;
  using value_type = T;

  RowSplit(const Config& cfg, const ProblemSize& size, const RankPlacement& place)
      : cfg_(cfg), size_(size), place_(place), scatter_(cfg.data_mode == DataMode::scatter) {}

  MPI_Comm comm() const { return MPI_COMM_WORLD; }
  const RankPlacement& place() const { return place_; }
  Space space() const { return space_; }
  /// The deck's kernels are resolved for the whole problem's shape.
  ProblemSize resolve_shape() const { return size_; }
  /// Distributed GEMMs need a process grid (the deck parser refuses them
  /// already; this is the runner's guard).
  void accept_distributed(const KernelSpec& spec, int index) const {
    throw DeckError((spec.where.empty() ? cfg_.deck_path + ": kernels[" + std::to_string(index) + "]" : spec.where) +
                    ".name: " + spec.name +
                    " needs a process grid (parallel.decomposition: {grid: ...})");
  }
  void decide(const std::vector<PlannedKernel<Space, T>>& plan, PhaseClock& common);
  /// weights: auto times the first kernel on every rank (calibration).
  bool decide_runs_kernels() const { return cfg_.decomposition.kind == SplitKind::auto_weights; }
  ProblemSize local_shape() const { return {rows_[place_.rank], size_.n, size_.k}; }
  MemoryNeed memory(std::size_t work, bool verify);
  void allocate(std::size_t work, PhaseClock& common);
  void distribute(PhaseClock& common);

  ConstMatrix<T, Space> A() const { return A_[0]; }
  ConstMatrix<T, Space> B() const { return B_[0]; }
  const Matrix<T, Space>& C() const { return C_; }
  GridPlacement placement() const {
    return GridPlacement::row_split(offsets_[place_.rank], size_.k, size_.n);
  }

  void describe(RunRecord& rec, const PlannedKernel<Space, T>&) const {
    rec.input_sets = sets_;
    rec.rows_split = rows_;
    rec.calibration_gflops = calib_;
    rec.balance_trials = trials_;
    if (scatter_ && place_.size > 1) rec.transport = nccl_ ? "nccl" : "mpi";
  }
  /// Repetition `rep` of variant v on this rank's rows (input set rep % sets).
  void multiply(const PlannedKernel<Space, T>&, const KernelVariant<Space, T>& v, int rep) {
    v.run(space_, GemmArgs<Space, T>{A_[rep % sets_], B_[rep % sets_], C_, T(0), work_});
  }
  void end_kernel(const PlannedKernel<Space, T>&, PhaseClock&, std::size_t) const {}
  void collect(RunRecord& rec, PhaseClock& ph);
  RankShare share() const {
    const long my = rows_[place_.rank];
    return {my, offsets_[place_.rank], 2.0 * double(my) * double(size_.n) * double(size_.k),
            predicted_[place_.rank], need_.device, need_.host};
  }
  void rank_facts(RunRecord&) const {}
  std::string vendor() const { return "vendor"; }

 private:
  const Config& cfg_;
  ProblemSize size_;
  const RankPlacement& place_;
  bool scatter_;
  Space space_;
  std::vector<long> rows_, offsets_;
  std::vector<double> calib_, predicted_;
  std::vector<SplitTrial> trials_;
  int sets_ = 1;
  MemoryNeed need_;
  std::vector<Matrix<T, Space>> A_, B_;
  Matrix<T, Space> C_;
  Workspace<Space> work_;
  HostMatrix<T> hA_, hB_, hC_;  // the device views themselves on host backends
  HostMatrix<T> A_full_, C_full_;
  bool nccl_ = false;  ///< B's broadcast and C's gather over NCCL (see the file comment)
  Matrix<T, Space> C_all_;  ///< rank 0, NCCL: the gathered C (M x N) on the device
#ifdef MMAPP_HAVE_NCCL
  std::unique_ptr<NcclComm> comm_nccl_;
  /// Waits for the work queued on space_'s stream so far (polling NCCL's errors, notices and the deadline).
  void nccl_sync(const std::string& what);
  void nccl_broadcast_b();
  void nccl_gather_c();
#endif
};

/// The rows of every rank: weights: auto times the first kernel of the deck
/// on every rank at the actual shape and keeps the fastest measured split
/// ("balance" phase); the other splits are arithmetic (decomposition.hpp).
/// On a GPU, the input sets to rotate among.
template <class Space, class T>
void RowSplit<Space, T>::decide(const std::vector<PlannedKernel<Space, T>>& plan, PhaseClock& common) {
  const MPI_Comm world = comm();
  const long M = size_.m, N = size_.n, K = size_.k;
  const int nranks = place_.size;
  predicted_.assign(nranks, -1.0);
  if (cfg_.decomposition.kind == SplitKind::auto_weights) {
    const double t0 = wall_now();
    const std::string where = cfg_.where("parallel.decomposition.weights") + " (auto): ";
    agree_on([&] { trials_ = balance_rows<Space, T>(plan.front().variant, M, N, K, cfg_.decomposition.calibration_n,
                                                     nranks, world); },
             where, 2, world);
    for (size_t r = 0; r < trials_.front().seconds.size(); ++r) {
      const double t = trials_.front().seconds[r];
      calib_.push_back(t > 0 && std::isfinite(t) ? gemm_gflops(trials_.front().rows[r], N, K, t) : 0.0);
    }
    const std::vector<SplitTrial> splits(trials_.begin() + 1, trials_.end());
    const SplitTrial& best = best_trial(splits);
    if (!std::isfinite(best.makespan()))
      throw RunError(2, where + "no split of m = " + std::to_string(M) + " rows fits in the ranks' memory");
    rows_ = best.rows;
    for (int r = 0; r < nranks; ++r) predicted_[r] = rows_[r] > 0 ? best.seconds[r] : 0.0;
    common.seconds["balance"] = wall_now() - t0;
  } else {
    agree_on([&] { rows_ = split_rows(M, nranks, cfg_.decomposition, calib_); }, cfg_.prefix(cfg_.decomposition.kind == SplitKind::rows ? "parallel.decomposition.rows"
                                                                            : "parallel.decomposition.weights"),
             2, world);
  }
  offsets_ = row_offsets(rows_);
  const NcclFacts facts = nccl_facts(world, !is_host_space_v<Space>);  // collective: every rank
  nccl_ = scatter_ && nranks > 1 && facts.usable();
  if (scatter_ && nranks > 1)
    if (const std::string why = facts.auto_declined(); !why.empty())
      detail::progress_note_once("note: row split: NCCL not used (" + why + "); B and C via MPI");
#ifdef MMAPP_HAVE_NCCL
  if (nccl_) comm_nccl_ = std::make_unique<NcclComm>(world, "row split");
#endif
  // Input sets: on a GPU, rotate among copies of A and B when they would fit
  // in L2 twice over, so the cache is not what is measured (CUTLASS profiler practice).
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
    sets_ = input_sets(double(rows_[place_.rank] * K + K * N) * sizeof(T),
                       double(space_.cuda_device_prop().l2CacheSize), cfg_.rotate_inputs);
#endif
}

/// Device: the input sets of A and B, C, the workspace, the verifier and
/// the FP64 reference (verify.accuracy);
/// host: rank 0's whole A and C (scatter) and, on a GPU, the host mirrors.
template <class Space, class T>
MemoryNeed RowSplit<Space, T>::memory(std::size_t work, bool verify) {
  const double elem = sizeof(T);
  const long M = size_.m, N = size_.n, K = size_.k, my = rows_[place_.rank];
  need_.device = (double(sets_) * (my * K + K * N) + 1.0 * my * N) * elem + double(work) +
                 (verify ? FreivaldsCheck<Space, T>::bytes(my, N, K, placement().reduces()).device : 0.0) +
                 (cfg_.accuracy ? AccuracyReference<Space, T>::bytes(my, N) : 0.0);
  need_.host = (place_.rank == 0 && scatter_) ? (double(M) * K + double(M) * N) * elem : 0.0;
  if (nccl_ && place_.rank == 0) need_.device += double(M) * N * elem;  // C_all_
  if (!is_host_space_v<Space>) need_.host += (double(my) * K + double(K) * N + double(my) * N) * elem;
  need_.problem = problem_text(M, N, K, dtype_name<T>());
  return need_;
}

template <class Space, class T>
void RowSplit<Space, T>::allocate(std::size_t work, PhaseClock& common) {
  const long M = size_.m, N = size_.n, K = size_.k, my = rows_[place_.rank];
  common.time("allocation", [&] {
    A_.resize(sets_);
    B_.resize(sets_);
    for (int s = 0; s < sets_; ++s) {
      A_[s] = Matrix<T, Space>(uninit("A"), my, K);
      B_[s] = Matrix<T, Space>(uninit("B"), K, N);
    }
    C_ = Matrix<T, Space>(uninit("C"), my, N);
    work_ = Workspace<Space>(uninit("work"), work);
    hA_ = Kokkos::create_mirror_view(A_[0]);
    hB_ = Kokkos::create_mirror_view(B_[0]);
    hC_ = Kokkos::create_mirror_view(C_);
    if (place_.rank == 0 && scatter_) {
      A_full_ = HostMatrix<T>(uninit("A_full"), M, K);
      C_full_ = HostMatrix<T>(uninit("C_full"), M, N);
      if (nccl_) C_all_ = Matrix<T, Space>(uninit("C_all"), M, N);
    }
  });
}

/// fill (rank 0 the whole A, or each rank its rows), scatter and broadcast
/// (scatter mode), host_to_device, and the further input sets.
template <class Space, class T>
void RowSplit<Space, T>::distribute(PhaseClock& common) {
  const long K = size_.k, N = size_.n, my = rows_[place_.rank];
  common.time("fill", [&] {
    if (scatter_) {
      if (place_.rank == 0) {
        fill_matrix<T>(A_full_, 0, 0, cfg_.init, cfg_.seed);
        fill_matrix<T>(hB_, 1, 0, cfg_.init, cfg_.seed);
      }
    } else {
      fill_matrix<T>(hA_, 0, offsets_[place_.rank], cfg_.init, cfg_.seed);
      fill_matrix<T>(hB_, 1, 0, cfg_.init, cfg_.seed);
    }
  });
  if (scatter_) {
    RowType a_row(K, mpi_type<T>()), b_row(N, mpi_type<T>());
    const RowCounts rc(rows_, offsets_);
    common.time("scatter", [&] {
      MPI_Scatterv(place_.rank == 0 ? A_full_.data() : nullptr, rc.counts.data(), rc.displs.data(), a_row.t,
                   hA_.data(), int(my), a_row.t, 0, comm());
    });
    if (!nccl_) common.time("broadcast", [&] { MPI_Bcast(hB_.data(), int(K), b_row.t, 0, comm()); });
  }
  common.time("host_to_device", [&] {
    Kokkos::deep_copy(A_[0], hA_);
    if (!nccl_ || place_.rank == 0) Kokkos::deep_copy(B_[0], hB_);
  });
#ifdef MMAPP_HAVE_NCCL
  if (nccl_) common.time("broadcast", [&] { nccl_broadcast_b(); });
#endif
  for (int s = 1; s < sets_; ++s) {
    Kokkos::deep_copy(A_[s], A_[0]);
    Kokkos::deep_copy(B_[s], B_[0]);
  }
}

/// After a kernel's repetitions, when they all ran: device_to_host, then
/// gather to rank 0 and its checksum (scatter), or the checksum streamed in
/// rank order (local). Scatter mode records its communication either way.
template <class Space, class T>
void RowSplit<Space, T>::collect(RunRecord& rec, PhaseClock& ph) {
  const long M = size_.m, N = size_.n;
  if (rec.status == RunStatus::ok && nccl_) {
#ifdef MMAPP_HAVE_NCCL
    ph.time("gather", [&] { nccl_gather_c(); });
    ph.time("device_to_host", [&] {
      if (place_.rank == 0) Kokkos::deep_copy(C_full_, C_all_);
    });
    if (place_.rank == 0) rec.checksum = ordered_checksum<T>(C_full_, std::vector<long>{M}, N, MPI_COMM_SELF);
#endif
  } else if (rec.status == RunStatus::ok) {
    ph.time("device_to_host", [&] { Kokkos::deep_copy(hC_, C_); });
    if (scatter_) {
      RowType c_row(N, mpi_type<T>());
      const RowCounts rc(rows_, offsets_);
      ph.time("gather", [&] {
        MPI_Gatherv(hC_.data(), int(rows_[place_.rank]), c_row.t, place_.rank == 0 ? C_full_.data() : nullptr,
                    rc.counts.data(), rc.displs.data(), c_row.t, 0, comm());
      });
      if (place_.rank == 0) rec.checksum = ordered_checksum<T>(C_full_, std::vector<long>{M}, N, MPI_COMM_SELF);
    } else {
      rec.checksum = ordered_checksum<T>(hC_, rows_, N, comm());
    }
  }
  if (scatter_) ph.seconds["communication"] = ph.seconds["scatter"] + ph.seconds["broadcast"] + ph.seconds["gather"];
}

#ifdef MMAPP_HAVE_NCCL
template <class Space, class T>
void RowSplit<Space, T>::nccl_sync(const std::string& what) {
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    cudaEvent_t done{};
    cudaEventCreateWithFlags(&done, cudaEventDisableTiming);
    cudaEventRecord(done, space_.cuda_stream());
    nccl_wait_event(done, what);
    cudaEventDestroy(done);
  }
}

/// B (K x N) from rank 0's device to every rank's, on space_'s stream.
template <class Space, class T>
void RowSplit<Space, T>::nccl_broadcast_b() {
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    Kokkos::fence();  // host_to_device of B on rank 0
    const std::string what = "ncclBroadcast (row split: B)";
    if (nccl_fault("rows")) nccl_fail("NCCL " + what + ": injected by MMAPP_TEST_NCCL_FAULT");
    T* b = B_[0].data();
    nccl_check(ncclBroadcast(b, b, size_t(size_.k) * size_t(size_.n), nccl_type<T>(), 0, comm_nccl_->get(),
                             space_.cuda_stream()),
               comm_nccl_->get(), what);
    nccl_sync(what);
  }
}

/// Every rank's C rows into rank 0's C_all_ at their offsets: rank 0's own
/// by a device copy, the others' by ncclSend / ncclRecv in one group.
template <class Space, class T>
void RowSplit<Space, T>::nccl_gather_c() {
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    Kokkos::fence();  // the last repetition's C
    const long N = size_.n;
    const ncclComm_t c = comm_nccl_->get();
    const cudaStream_t st = space_.cuda_stream();
    const std::string what = "ncclSend / ncclRecv (row split: gather of C)";
    nccl_check(ncclGroupStart(), c, what);
    if (place_.rank == 0) {
      if (rows_[0] > 0)
        cudaMemcpyAsync(C_all_.data(), C_.data(), size_t(rows_[0]) * N * sizeof(T), cudaMemcpyDeviceToDevice, st);
      for (int r = 1; r < place_.size; ++r)
        if (rows_[r] > 0)
          nccl_check(ncclRecv(C_all_.data() + offsets_[r] * N, size_t(rows_[r]) * N, nccl_type<T>(), r, c, st), c, what);
    } else if (rows_[place_.rank] > 0) {
      nccl_check(ncclSend(C_.data(), size_t(rows_[place_.rank]) * N, nccl_type<T>(), 0, c, st), c, what);
    }
    nccl_check(ncclGroupEnd(), c, what);
    nccl_sync(what);
  }
}
#endif

}  // namespace mmapp::detail
