// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_shared.hpp — SUMMA's panels through an MPI-3 shared-memory
// window (PanelPath::shared), when every process row and column lies within
// one node: the panels skip MPI's data path. Each rank's slots live in a
// window (MPI_Win_allocate_shared) over its process row (A) and over its
// process column (B), page-locked for the GPU. Panel t goes through slot
// t % slots of the roots' windows (and of the device panels):
//   - the roots stage it: A's panel packed into its own slot (on a GPU:
//     packed on the device, then device -> window), B's rows copied there;
//     an MPI_Ibarrier ("staged") says it is there;
//   - the others read the roots' slots: on a GPU they copy them window ->
//     device; on a host backend the GEMM reads them in place;
//   - a second MPI_Ibarrier ("done") says every rank is done with the slot
//     (after its copy on a GPU, after its GEMM on a host backend); a root
//     waits for "done" of the slot's last panel before staging into it again.
// On a GPU with overlap (3 slots, depth 2), while panel t's GEMM runs
// (progress), panel t + 2 goes up to the window (pack and device-to-host on
// one CUDA stream) and panel t + 1 comes down (host-to-device on another),
// so both directions of the bus and the GEMM work at once; post() and
// wait() then only start the first two panels. Otherwise (1 slot, or 2 on a
// host backend with overlap) each panel is staged, fetched and multiplied in
// turn. The barriers are posted in the same order (staged 0, staged 1, done
// 0, then staged t + 2, done t + 1 for each t; or staged t, done t) on every
// rank of a process row or column.
#pragma once

#include "summa/buffer_bytes.hpp"
#include "summa/panel_transport.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <cstdio>
#include <type_traits>
#include <vector>

namespace mmapp {

/// One rank's segment of an MPI-3 shared-memory window over a communicator
/// within one node, every rank's segment address, and (on a GPU) the
/// window page-locked with cudaHostRegister. A passive-target epoch
/// (MPI_Win_lock_all) is open for its life, so sync() (MPI_Win_sync) may
/// order this rank's accesses against the barriers.
template <class T>
struct SharedWindow {
  MPI_Win win = MPI_WIN_NULL;
  std::vector<T*> base;  ///< by rank in the communicator
  void* pinned = nullptr;

  /// Collective over comm: `elems` elements of T on this rank.
  void open(MPI_Comm comm, long elems, bool pin) {
    int n = 0;
    MPI_Comm_size(comm, &n);
    T* mine = nullptr;
    MPI_Win_allocate_shared(MPI_Aint(elems) * MPI_Aint(sizeof(T)), int(sizeof(T)), MPI_INFO_NULL, comm, &mine, &win);
    MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
    base.assign(size_t(n), nullptr);
    char *lo = nullptr, *hi = nullptr;
    for (int r = 0; r < n; ++r) {
      MPI_Aint bytes = 0;
      int disp = 0;
      void* p = nullptr;
      MPI_Win_shared_query(win, r, &bytes, &disp, &p);
      base[size_t(r)] = static_cast<T*>(p);
      if (bytes > 0) {
        lo = (lo == nullptr || static_cast<char*>(p) < lo) ? static_cast<char*>(p) : lo;
        hi = std::max(hi, static_cast<char*>(p) + bytes);
      }
    }
#ifdef KOKKOS_ENABLE_CUDA
    // The whole window (one mapping on this node) at once, so copies to and
    // from any rank's segment are asynchronous DMA. If the driver refuses,
    // the copies still work (through the driver's own staging), slower.
    if (pin && lo != nullptr) {
      if (cudaHostRegister(lo, size_t(hi - lo), cudaHostRegisterDefault) == cudaSuccess)
        pinned = lo;
      else
        std::fprintf(stderr, "mmapp: warning: cudaHostRegister of the SUMMA window failed (%s); copies unpinned\n",
                     cudaGetErrorString(cudaGetLastError()));
    }
#else
    (void)pin;
#endif
  }
  void sync() const {
    if (win != MPI_WIN_NULL) MPI_Win_sync(win);
  }
  /// Collective over the communicator of open().
  void close() {
#ifdef KOKKOS_ENABLE_CUDA
    if (pinned) cudaHostUnregister(pinned);
#endif
    pinned = nullptr;
    if (win != MPI_WIN_NULL) {
      MPI_Win_unlock_all(win);
      MPI_Win_free(&win);
    }
  }
};

template <class Space, class T>
class SharedTransport : public PanelTransport<Space, T> {
  static constexpr bool kGpu = !is_host_space_v<Space>;

 public:
  using DevBuf = Kokkos::View<T*, typename Space::memory_space>;

  /// Opens the windows (collective over the process row and column, as is
  /// destruction) and, on a GPU, allocates the device slots and creates the
  /// two copy streams (bytes()).
  SharedTransport(const PanelGeometry<Space, T>& geo, bool overlap)
      : g_(geo), overlap_(overlap), slots_(slots(overlap)) {
    if constexpr (kGpu)  // host backends: the GEMM reads the window
      for (int s = 0; s < slots_; ++s) {
        dA_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_a"), g_.mloc * g_.nb);
        dB_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_b"), g_.nb * g_.nloc);
      }
    win_a_.open(g_.grid->row(), long(slots_) * g_.mloc * g_.nb, kGpu);
    win_b_.open(g_.grid->col(), long(slots_) * g_.nb * g_.nloc, kGpu);
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      cudaStreamCreateWithFlags(&copy_stream_[0], cudaStreamNonBlocking);
      cudaStreamCreateWithFlags(&copy_stream_[1], cudaStreamNonBlocking);
      d2h_space_ = Space(copy_stream_[0]);
      h2d_space_ = Space(copy_stream_[1]);
    }
#endif
  }
  ~SharedTransport() override {
    win_a_.close();
    win_b_.close();
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      if (copy_stream_[0]) {
        d2h_space_ = h2d_space_ = g_.space;  // the instances must not outlive their streams
        cudaStreamDestroy(copy_stream_[0]);
        cudaStreamDestroy(copy_stream_[1]);
      }
    }
#endif
  }
  SharedTransport(const SharedTransport&) = delete;
  SharedTransport& operator=(const SharedTransport&) = delete;

  /// The window's segment (pinned) and, on a GPU, as many bytes of device slots.
  static BufferBytes bytes(long mloc, long nloc, long nb, bool overlap) {
    const double all = double(mloc * nb + nb * nloc) * sizeof(T) * slots(overlap);
    return {kGpu ? all : 0.0, all};
  }

  int depth() const override { return kGpu && overlap_ ? 2 : 1; }

  void start() override { next_stage_ = next_fetch_ = 0; }

  /// Unless progress() has staged it: waits for "done" of the slot's last
  /// panel, stages panel t, posts "staged".
  void post(int t) override {
    if (t < next_stage_) return;
    const int s = slot(t);
    wait_done(s);
    add_seconds(this->times_.copy, [&] {
      stage_issue(t, s);
      stage_complete();
    });
    post_barriers(staged_[s]);
    next_stage_ = t + 1;
  }

  /// Unless progress() has fetched it: waits for "staged", fetches panel t
  /// (GPU) and, on a GPU, posts "done".
  PanelViews<Space, T> wait(int t) override {
    const int s = slot(t);
    if (t >= next_fetch_) {
      wait_staged(s);
      add_seconds(this->times_.copy, [&] {
        fetch_issue(t, s);
        fetch_complete();
      });
      if (kGpu) post_done(s);
      next_fetch_ = t + 1;
    }
    if constexpr (kGpu)
      return g_.views(t, dA_[s].data(), g_.b_root(t) ? g_.b_rows(t) : dB_[s].data());
    else  // the roots' window slots, in place
      return g_.views(t, a_slot(g_.panels[size_t(t)].a_owner_col, s),
                      g_.b_root(t) ? g_.b_rows(t) : b_slot(g_.panels[size_t(t)].b_owner_row, s));
  }

  /// On a GPU with overlap, the pipeline of the file comment; then fences
  /// the GEMM's stream.
  void progress(int t) override {
    if (kGpu && overlap_) pipeline(t);
    add_seconds(this->times_.gemm, [&] { g_.space.fence(); });
  }

  /// Host backends: this rank's GEMM is done reading the roots' slots.
  void release(int t) override {
    if (!kGpu) post_done(slot(t));
  }

  /// Waits for every slot's last "done".
  void finish() override {
    for (int s = 0; s < 3; ++s) wait_done(s);
  }

 private:
  /// While panel t's GEMM runs: panel t + 2 up into slot s2 (once every rank
  /// is done with that slot's last panel, t - 1), panel t + 1 down from slot
  /// s1 (once it is staged), each completed and signalled in turn.
  void pipeline(int t) {
    const int P = g_.count(), s1 = (t + 1) % 3, s2 = (t + 2) % 3;
    if (t + 2 < P) {
      wait_done(s2);
      add_seconds(this->times_.copy, [&] { stage_issue(t + 2, s2); });
    }
    if (t + 1 < P) {
      wait_staged(s1);
      add_seconds(this->times_.copy, [&] { fetch_issue(t + 1, s1); });
    }
    if (t + 2 < P) {
      add_seconds(this->times_.copy, [&] { stage_complete(); });
      post_barriers(staged_[s2]);
      next_stage_ = t + 3;
    }
    if (t + 1 < P) {
      add_seconds(this->times_.copy, [&] { fetch_complete(); });
      post_done(s1);
      next_fetch_ = t + 2;
    }
  }

  /// The roots of panel t: A's panel into this rank's window slot s (packed
  /// on the device and copied down on a GPU, packed in place on a host
  /// backend), B's rows likewise; issued on the device-to-host stream,
  /// completed by stage_complete().
  void stage_issue(int t, int s) {
    const long w = g_.width(t);
    if (g_.mloc > 0 && g_.a_root(t)) {
      T* slot = a_slot(g_.grid->coords().pcol, s);
      if constexpr (!kGpu) {
        g_.pack_a(g_.space, t, slot);
      } else {
        g_.pack_a(d2h_space_, t, dA_[s].data());  // the copy after it is ordered on the same stream
        copy_to_pinned(d2h_space_, slot, dA_[s].data(), g_.mloc * w);
      }
    }
    if (g_.nloc > 0 && g_.b_root(t)) {
      T* slot = b_slot(g_.grid->coords().prow, s);
      if constexpr (!kGpu)
        Kokkos::deep_copy(g_.space, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(slot, w * g_.nloc),
                          Kokkos::View<const T*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(
                              g_.b_rows(t), w * g_.nloc));
      else
        copy_to_pinned(d2h_space_, slot, g_.b_rows(t), w * g_.nloc);
    }
  }
  /// The staging issued so far is in the window (fenced, window synced).
  void stage_complete() {
    d2h_space_.fence();
    win_a_.sync();
    win_b_.sync();
  }

  /// After panel t's "staged" barrier: on a GPU the others copy the roots'
  /// slots s into their device slots, issued on the host-to-device stream
  /// and completed by fetch_complete(); on a host backend the GEMM reads the
  /// roots' slots in place.
  void fetch_issue(int t, int s) {
    win_a_.sync();
    win_b_.sync();
    if constexpr (kGpu) {
      const Panel& pn = g_.panels[size_t(t)];
      const long w = pn.width();
      if (g_.mloc > 0 && !g_.a_root(t))
        copy_to_space(h2d_space_, dA_[s].data(), a_slot(pn.a_owner_col, s), g_.mloc * w);
      if (g_.nloc > 0 && !g_.b_root(t))
        copy_to_space(h2d_space_, dB_[s].data(), b_slot(pn.b_owner_row, s), w * g_.nloc);
    }
  }
  void fetch_complete() { h2d_space_.fence(); }

  /// Slots: 1 without overlap; with overlap 2 on a host backend (a root
  /// need not wait for "done" of the panel before), 3 on a GPU (panel t in
  /// the GEMM, t + 1 coming down to the device, t + 2 going up to the window).
  static int slots(bool overlap) { return !overlap ? 1 : kGpu ? 3 : 2; }
  int slot(int t) const { return t % slots_; }

  /// Slot s of the shared window's segment of process column `pcol` (A) /
  /// process row `prow` (B).
  T* a_slot(int pcol, int s) const { return win_a_.base[size_t(pcol)] + s * g_.mloc * g_.nb; }
  T* b_slot(int prow, int s) const { return win_b_.base[size_t(prow)] + s * g_.nb * g_.nloc; }

  /// Posts an MPI_Ibarrier on the process row (when this rank has rows of A)
  /// and on the process column (when it has columns of B).
  void post_barriers(MPI_Request* req) {
    req[0] = req[1] = MPI_REQUEST_NULL;
    add_seconds(this->times_.comm, [&] {
      if (g_.mloc > 0) MPI_Ibarrier(g_.grid->row(), &req[0]);
      if (g_.nloc > 0) MPI_Ibarrier(g_.grid->col(), &req[1]);
    });
  }
  void wait_staged(int s) {
    add_seconds(this->times_.comm, [&] { MPI_Waitall(2, staged_[s], MPI_STATUSES_IGNORE); });
  }
  /// This rank no longer reads slot s's panel: "done".
  void post_done(int s) {
    post_barriers(done_[s]);
    pending_[s] = true;
  }
  /// Every rank is done with slot s's last panel.
  void wait_done(int s) {
    if (pending_[s]) add_seconds(this->times_.comm, [&] { MPI_Waitall(2, done_[s], MPI_STATUSES_IGNORE); });
    pending_[s] = false;
  }

  PanelGeometry<Space, T> g_;
  bool overlap_;
  int slots_;
  DevBuf dA_[3], dB_[3];
  SharedWindow<T> win_a_, win_b_;  // the A slots over the process row, the B slots over the column
  Space d2h_space_ = g_.space;     // on a GPU: packing and device -> window, on a stream of its own
  Space h2d_space_ = g_.space;     // and window -> device, on another (both non-blocking)
  MPI_Request staged_[3][2], done_[3][2];
  bool pending_[3] = {false, false, false};
  int next_stage_ = 0, next_fetch_ = 0;  // the first panel not yet staged / fetched
#ifdef KOKKOS_ENABLE_CUDA
  cudaStream_t copy_stream_[2] = {nullptr, nullptr};
#endif
};

}  // namespace mmapp
