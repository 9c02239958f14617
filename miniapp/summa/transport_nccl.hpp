// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_nccl.hpp — SUMMA's panels by NCCL broadcast from device to device
// (PanelPath::nccl): every rank a GPU rank with a GPU of its own, mmapp built
// with NCCL (MMAPP_HAVE_NCCL; parallel/nccl_comm.hpp has the communicators,
// waits and the error path).
//
// Communicators: one NCCL communicator per process row (A's panels) and per
// process column (B's), bootstrapped from the grid's MPI row and column
// communicators (ncclGetUniqueId + MPI_Bcast + ncclCommInitRankConfig, non-
// blocking); a row or column of one rank needs none (the panel is local).
// Streams and events, no host synchronisation inside the multiply: the local
// GEMMs run on the execution space's stream ("compute"), the broadcasts on a
// stream of their own ("comm"). Panel t goes through slot t % slots:
//   post(t)  on compute: (roots) pack A's panel into the slot; record
//            packed[t] (after the GEMMs launched so far, so also after the
//            GEMM that last read the slot); on comm: wait packed[t], ncclBroadcast A
//            along the process row and B (roots: their rows in place) along
//            the process column, record arrived[t];
//   wait(t)  on compute: wait arrived[t], record begin[t]; the GEMM follows;
//   progress(t) on compute: record end[t]; returns at once.
// With overlap (depth 3, 3 slots: triple buffering) panels t + 1 and t + 2
// travel while panel t's GEMM runs; post(p) comes after the GEMM of panel
// p - 3 was launched, which last read slot p % 3. Without (depth 1, 1 slot)
// each panel travels, then is multiplied.
// finish() is the one host wait: an event after the last GEMM, polled with
// NCCL's asynchronous errors, the other ranks' abort notices and the
// deadline (nccl_wait_event), so a failing or hung rank ends the run.
// Times (device time from the events): gemm = the GEMMs (begin -> end),
// copy = the roots' packs, comm = the rest of the compute stream's span
// (start -> last end): where it stood waiting for a panel, i.e. the
// broadcast time not hidden behind the GEMMs.
#pragma once

#include "parallel/nccl_comm.hpp"
#include "summa/buffer_bytes.hpp"
#include "summa/panel_transport.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mmapp {

template <class Space, class T>
class NcclTransport : public PanelTransport<Space, T> {
 public:
  /// The slots: 3 with overlap, 1 without.
  static int slots_for(bool overlap) { return overlap ? 3 : 1; }

  /// The slots of an |I| x |J| block and panels at most `nb` wide, in device memory.
  static BufferBytes bytes(long mloc, long nloc, long nb, bool overlap) {
    return {double(mloc * nb + nb * nloc) * sizeof(T) * slots_for(overlap), 0.0};
  }

#if defined(MMAPP_HAVE_NCCL) && defined(KOKKOS_ENABLE_CUDA)
  using DevBuf = Kokkos::View<T*, typename Space::memory_space>;

  /// Creates the communicators (collective over the process row, then the
  /// process column), the comm stream, the events, and allocates the slots.
  /// Throws std::invalid_argument on a host execution space.
  NcclTransport(const PanelGeometry<Space, T>& geo, bool overlap)
      : g_(geo), overlap_(overlap), slots_(slots_for(overlap)) {
    if constexpr (!std::is_same_v<Space, Kokkos::Cuda>) {
      throw std::invalid_argument("SUMMA: the NCCL transport runs on the CUDA backend only");
    } else {
      int n = 1;
      MPI_Comm_size(g_.grid->row(), &n);
      if (n > 1) row_ = std::make_unique<NcclComm>(g_.grid->row(), "SUMMA process row");
      MPI_Comm_size(g_.grid->col(), &n);
      if (n > 1) col_ = std::make_unique<NcclComm>(g_.grid->col(), "SUMMA process column");
      for (int s = 0; s < slots_; ++s) {
        dA_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_a"), g_.mloc * g_.nb);
        dB_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_b"), g_.nb * g_.nloc);
      }
      cuda("cudaStreamCreateWithFlags", cudaStreamCreateWithFlags(&comm_stream_, cudaStreamNonBlocking));
      const int np = g_.count();
      arrived_.resize(size_t(np));
      for (auto& e : arrived_) cuda("cudaEventCreate", cudaEventCreateWithFlags(&e, cudaEventDisableTiming));
      for (auto* v : {&before_, &packed_, &begin_, &end_}) {
        v->resize(size_t(np));
        for (auto& e : *v) cuda("cudaEventCreate", cudaEventCreate(&e));
      }
      cuda("cudaEventCreate", cudaEventCreate(&start_));
    }
  }

  /// Frees the communicators first (ncclCommFinalize, collective over the
  /// process row and column as construction), then the stream and events.
  ~NcclTransport() override {
    row_.reset();
    col_.reset();
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      for (auto* v : {&arrived_, &before_, &packed_, &begin_, &end_})
        for (auto& e : *v) cudaEventDestroy(e);
      if (start_) cudaEventDestroy(start_);
      if (comm_stream_) cudaStreamDestroy(comm_stream_);
    }
  }

  int depth() const override { return slots_; }

  void start() override {
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) cuda("cudaEventRecord", cudaEventRecord(start_, stream()));
  }

  void post(int t) override {
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      if (t == 0 && nccl_fault("hang")) hang();
      const int s = t % slots_;
      const size_t i = size_t(t);
      const long w = g_.width(t);
      cuda("cudaEventRecord", cudaEventRecord(before_[i], stream()));
      if (g_.mloc > 0 && g_.a_root(t)) g_.pack_a(g_.space, t, dA_[s].data());
      cuda("cudaEventRecord", cudaEventRecord(packed_[i], stream()));
      cuda("cudaStreamWaitEvent", cudaStreamWaitEvent(comm_stream_, packed_[i], 0));
      const Panel& pn = g_.panels[i];
      if (row_ && g_.mloc > 0)
        broadcast(*row_, dA_[s].data(), g_.mloc * w, pn.a_owner_col, "broadcast of panel " + std::to_string(t) + "'s A");
      if (col_ && g_.nloc > 0) {
        T* b = g_.b_root(t) ? const_cast<T*>(g_.b_rows(t)) : dB_[s].data();
        broadcast(*col_, b, w * g_.nloc, pn.b_owner_row, "broadcast of panel " + std::to_string(t) + "'s B");
      }
      cuda("cudaEventRecord", cudaEventRecord(arrived_[i], comm_stream_));
    }
  }

  PanelViews<Space, T> wait(int t) override {
    const int s = t % slots_;
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      cuda("cudaStreamWaitEvent", cudaStreamWaitEvent(stream(), arrived_[size_t(t)], 0));
      cuda("cudaEventRecord", cudaEventRecord(begin_[size_t(t)], stream()));
    }
    // B's roots (a column of one rank: every rank) read their own rows in place.
    const bool own_b = g_.b_root(t);
    return g_.views(t, dA_[s].data(), own_b ? g_.b_rows(t) : dB_[s].data());
  }

  void progress(int t) override {
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>)
      cuda("cudaEventRecord", cudaEventRecord(end_[size_t(t)], stream()));
  }

  /// Waits (polling NCCL's errors, the others' notices and the deadline)
  /// until the last GEMM is done; then the multiply's device times.
  void finish() override {
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      const int np = g_.count();
      if (np == 0) return;
      nccl_wait_event(end_[size_t(np - 1)], "SUMMA's panels (NCCL broadcasts and local GEMMs)");
      double gemm = 0, copy = 0;
      for (int t = 0; t < np; ++t) {
        gemm += elapsed(begin_[size_t(t)], end_[size_t(t)]);
        copy += elapsed(before_[size_t(t)], packed_[size_t(t)]);
      }
      const double span = elapsed(start_, end_[size_t(np - 1)]);
      this->times_.gemm = gemm;
      this->times_.copy = copy;
      this->times_.comm = std::max(0.0, span - gemm - copy);
    }
  }

 private:
  cudaStream_t stream() const { return g_.space.cuda_stream(); }

  /// n elements at buf from `root` of `comm` to its other ranks, on the comm stream.
  void broadcast(const NcclComm& comm, T* buf, long n, int root, const std::string& what) {
    // The communicators are non-blocking: the call may answer ncclInProgress, which nccl_check waits out.
    nccl_check(ncclBroadcast(buf, buf, size_t(n), nccl_type<T>(), root, comm.get(), comm_stream_), comm.get(),
               "ncclBroadcast (SUMMA " + what + ")");
    if (nccl_fault("bcast")) nccl_fail("NCCL " + what + ": injected by MMAPP_TEST_NCCL_FAULT");
  }

  /// The MMAPP_TEST_NCCL_FAULT=R:hang rank: stops before its first
  /// broadcast and waits as a stuck rank would (nccl_stall).
  [[noreturn]] static void hang() { nccl_stall("panel 0 (MMAPP_TEST_NCCL_FAULT: this rank hangs)"); }

  /// Seconds between two completed events.
  static double elapsed(cudaEvent_t a, cudaEvent_t b) {
    float ms = 0;
    return cudaEventElapsedTime(&ms, a, b) == cudaSuccess ? ms * 1e-3 : 0.0;
  }
  /// A CUDA runtime error ends the run as an NCCL one does (the other ranks may be inside a broadcast).
  static void cuda(const char* call, cudaError_t e) {
    if (e != cudaSuccess) nccl_fail(std::string("CUDA ") + call + " in SUMMA's NCCL transport: " + cudaGetErrorString(e));
  }

  PanelGeometry<Space, T> g_;
  bool overlap_;
  int slots_;
  std::unique_ptr<NcclComm> row_, col_;
  DevBuf dA_[3], dB_[3];
  cudaStream_t comm_stream_{};
  cudaEvent_t start_{};
  std::vector<cudaEvent_t> arrived_, before_, packed_, begin_, end_;
#else
  /// Without NCCL (or CUDA): throws std::invalid_argument (choose_panel_path never picks it).
  NcclTransport(const PanelGeometry<Space, T>&, bool) {
    throw std::invalid_argument("SUMMA: the NCCL transport is not built (MMAPP_ENABLE_NCCL, CUDA backend)");
  }
  int depth() const override { return 1; }
  void post(int) override {}
  PanelViews<Space, T> wait(int) override { return {}; }
  void progress(int) override {}
#endif
};

}  // namespace mmapp
