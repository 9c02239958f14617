// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_mpi.hpp — SUMMA's panels by MPI broadcast of buffers in the
// execution space's memory: host memory on host backends (PanelPath::host),
// device memory given to a CUDA-aware MPI on a GPU (PanelPath::cuda_aware).
// The two differ only in where Space's memory is, so they are one transport.
//
// Panel t: the owning process column packs A(I, k0:k1) into its slot and
// broadcasts it along the process row (one MPI row type of k1 - k0
// elements, |I| of them); the owning process row broadcasts B(k0:k1, J)
// (contiguous rows of its block: sent in place) along the process column,
// into the others' slots.
// Overlap ("ibcast", depth 2): two slots; panel t + 1's broadcasts are
// posted (MPI_Ibcast) before panel t is waited for, and on a GPU the host
// polls MPI_Testall while panel t's GEMM runs (Open MPI progresses
// non-blocking collectives only inside MPI calls). "none" (depth 1): one
// slot, blocking MPI_Bcast.
// StagedTransport (transport_staged.hpp) is this transport with pinned host
// copies between the slots and MPI: it overrides the hooks stage_out,
// stage_in, mpi_a and mpi_b.
#pragma once

#include "summa/buffer_bytes.hpp"
#include "summa/panel_transport.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <type_traits>

namespace mmapp {

template <class Space, class T>
class MpiTransport : public PanelTransport<Space, T> {
 public:
  using DevBuf = Kokkos::View<T*, typename Space::memory_space>;

  /// Allocates the slots (bytes()) in Space's memory. `overlap`: two slots
  /// and MPI_Ibcast (the same on every rank).
  MpiTransport(const PanelGeometry<Space, T>& geo, bool overlap) : g_(geo), overlap_(overlap) {
    for (int s = 0; s < slots(); ++s) {
      dA_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_a"), g_.mloc * g_.nb);
      dB_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_b"), g_.nb * g_.nloc);
    }
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) cudaEventCreateWithFlags(&event_, cudaEventDisableTiming);
#endif
  }
  ~MpiTransport() override {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) cudaEventDestroy(event_);
#endif
  }
  MpiTransport(const MpiTransport&) = delete;
  MpiTransport& operator=(const MpiTransport&) = delete;

  /// The slots of an |I| x |J| block and panels at most `nb` wide, all in Space's memory.
  static BufferBytes bytes(long mloc, long nloc, long nb, bool overlap) {
    return {double(mloc * nb + nb * nloc) * sizeof(T) * (overlap ? 2 : 1), 0.0};
  }

  int depth() const override { return overlap_ ? 2 : 1; }

  /// The roots pack (and stage) panel t, fenced; then its two broadcasts,
  /// posted (overlap) or run.
  void post(int t) override {
    const int s = slot(t);
    add_seconds(this->times_.copy, [&] {
      if (g_.mloc > 0 && g_.a_root(t)) g_.pack_a(g_.space, t, dA_[s].data());
      stage_out(t, s);
      Kokkos::fence();
    });
    add_seconds(this->times_.comm, [&] { broadcast(t, s); });
  }

  /// Waits for panel t's broadcasts (overlap), then stages it in, fenced.
  PanelViews<Space, T> wait(int t) override {
    const int s = slot(t);
    if (overlap_) add_seconds(this->times_.comm, [&] { MPI_Waitall(2, req_[s], MPI_STATUSES_IGNORE); });
    add_seconds(this->times_.copy, [&] {
      stage_in(t, s);
      Kokkos::fence();
    });
    return g_.views(t, dA_[s].data(), g_.b_root(t) ? g_.b_rows(t) : dB_[s].data());
  }

  /// On a GPU with overlap, polls panel t + 1's broadcasts until panel t's
  /// GEMM completes; then fences (time counted as the GEMM's).
  void progress(int t) override {
    add_seconds(this->times_.gemm, [&] {
      if (overlap_ && t + 1 < g_.count()) poll_while_computing(req_[slot(t + 1)]);
      Kokkos::fence();
    });
  }

 protected:
  int slots() const { return overlap_ ? 2 : 1; }
  int slot(int t) const { return t % slots(); }

  /// Before panel t's broadcasts from slot s, after the pack (staged: device -> pinned).
  virtual void stage_out(int t, int s) {
    (void)t;
    (void)s;
  }
  /// After panel t's broadcasts into slot s, before the fence (staged: pinned -> device).
  virtual void stage_in(int t, int s) {
    (void)t;
    (void)s;
  }
  /// The buffer MPI broadcasts panel t's A from (root) or into (others): |I| x w.
  virtual T* mpi_a(int t, int s) {
    (void)t;
    return dA_[s].data();
  }
  /// The buffer MPI broadcasts panel t's B from (root: B's rows in place) or into: w x |J|.
  virtual T* mpi_b(int t, int s) { return g_.b_root(t) ? const_cast<T*>(g_.b_rows(t)) : dB_[s].data(); }

  PanelGeometry<Space, T> g_;
  bool overlap_;
  DevBuf dA_[2], dB_[2];

 private:
  /// Panel t's two broadcasts from or into slot s: A along the process row
  /// (every rank of a process row has the same |I|), B along the process
  /// column (the same |J|); non-blocking with overlap.
  void broadcast(int t, int s) {
    const Panel& pn = g_.panels[size_t(t)];
    MPI_Request* req = req_[s];
    req[0] = req[1] = MPI_REQUEST_NULL;
    if (g_.mloc > 0) bcast(mpi_a(t, s), g_.mloc, pn.width(), pn.a_owner_col, g_.grid->row(), &req[0]);
    if (g_.nloc > 0) bcast(mpi_b(t, s), pn.width(), g_.nloc, pn.b_owner_row, g_.grid->col(), &req[1]);
  }

  /// rows x cols elements at buf, as `rows` MPI rows of `cols` elements.
  void bcast(T* buf, long rows, long cols, int root, MPI_Comm comm, MPI_Request* req) const {
    MPI_Datatype row;
    MPI_Type_contiguous(int(cols), mpi_type<T>(), &row);
    MPI_Type_commit(&row);
    if (overlap_)
      MPI_Ibcast(buf, int(rows), row, root, comm, req);
    else
      MPI_Bcast(buf, int(rows), row, root, comm);
    MPI_Type_free(&row);  // a pending operation keeps it alive (MPI 4.0, 5.1.7 / 3.1, 4.1.9)
  }

  /// On a GPU: while the local GEMM runs, drive the pending broadcasts.
  void poll_while_computing(MPI_Request* req) {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      cudaEventRecord(event_, g_.space.cuda_stream());
      int done = 0;
      while (!done && cudaEventQuery(event_) == cudaErrorNotReady) MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE);
      return;
    }
#endif
    (void)req;  // host backends: the GEMM has already returned
  }

  MPI_Request req_[2][2] = {{MPI_REQUEST_NULL, MPI_REQUEST_NULL}, {MPI_REQUEST_NULL, MPI_REQUEST_NULL}};
#ifdef KOKKOS_ENABLE_CUDA
  cudaEvent_t event_{};
#endif
};

}  // namespace mmapp
