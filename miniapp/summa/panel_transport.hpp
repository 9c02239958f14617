// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// panel_transport.hpp — how SUMMA's panels reach the ranks that multiply
// them, as an interface the panel loop (summa.hpp) drives:
//   post(t)      start panel t on its way into a slot (roots pack and send),
//   wait(t)      panel t is in this rank's slot: the views of its A and B,
//   progress(t)  while panel t's local GEMM runs: move the panels in flight
//                along, and return once the GEMM is done with panel t,
//   release(t)   panel t's slot may be reused,
// with depth() panels posted when the loop waits for the first of them. A
// transport owns its slots (panel buffers), streams, MPI requests and
// windows; one file each (transport_mpi.hpp, transport_staged.hpp,
// transport_shared.hpp), chosen by transports.hpp. Also here: what every
// transport reads (PanelGeometry: this rank's blocks, the panels, who owns
// each) and the copies they share (packing A's panel, device <-> pinned).
#pragma once

#include "core/long_range.hpp"
#include "core/types.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/mpi_util.hpp"

#include <Kokkos_Core.hpp>

#include <utility>
#include <vector>

namespace mmapp {

/// One rank's time in one multiply, in seconds: blocked in MPI (broadcasts,
/// waits, posting), in local GEMMs (launch to completion, including MPI
/// progress polls while a GPU computes), and in packing and staging copies.
struct SummaTimes {
  double comm = 0, gemm = 0, copy = 0;
};

/// Adds the seconds f() takes (wall_now) to `acc`.
template <class F>
void add_seconds(double& acc, F&& f) {
  const double t0 = wall_now();
  std::forward<F>(f)();
  acc += wall_now() - t0;
}

/// Page-locked host memory where the GPU's copies are asynchronous DMA
/// (Kokkos::CudaHostPinnedSpace); plain host memory without CUDA.
#ifdef KOKKOS_ENABLE_CUDA
using PinnedSpace = Kokkos::CudaHostPinnedSpace;
#else
using PinnedSpace = Kokkos::HostSpace;
#endif

/// One panel's operands of the local GEMM, row-major in Space's memory:
/// A |I| x w (columns [k0, k1) of this rank's rows of A), B w x |J|.
template <class Space, class T>
struct PanelViews {
  ConstMatrix<T, Space> A;
  ConstMatrix<T, Space> B;
};

/// A(:, c0 : c0 + w) of a row-major |I| x |Ka| block, packed row-major
/// (|I| x w) at dst in Space's memory, on `exec` (asynchronous).
template <class Space, class T>
void pack_panel_a(const Space& exec, const ConstMatrix<T, Space>& A, long c0, long w, T* dst) {
  const long m = A.extent(0);
  parallel_for_long(
      "mmapp::summa_pack_a", exec, m * w, KOKKOS_LAMBDA(const long e) { dst[e] = A(e / w, c0 + e % w); });
}

/// n elements from Space's memory to pinned host memory (asynchronous on exec).
template <class Space, class T>
void copy_to_pinned(const Space& exec, T* dst, const T* src, long n) {
  if (n == 0) return;
  Kokkos::deep_copy(exec, Kokkos::View<T*, PinnedSpace, Kokkos::MemoryUnmanaged>(dst, n),
                    Kokkos::View<const T*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(src, n));
}

/// n elements from pinned host memory to Space's memory (asynchronous on exec).
template <class Space, class T>
void copy_to_space(const Space& exec, T* dst, const T* src, long n) {
  if (n == 0) return;
  Kokkos::deep_copy(exec, Kokkos::View<T*, typename Space::memory_space, Kokkos::MemoryUnmanaged>(dst, n),
                    Kokkos::View<const T*, PinnedSpace, Kokkos::MemoryUnmanaged>(src, n));
}

/// What every transport of one multiply reads: this rank's blocks of A
/// (|I| x |Ka|) and B (|Kb| x |J|) in Space's memory (grid_blocks), the
/// panels (summa_panels) and the grid. The views must outlive it.
template <class Space, class T>
struct PanelGeometry {
  Space space;                ///< where the local GEMMs run
  const GridComm* grid;       ///< process row and column communicators
  GridBlocks blocks;          ///< this rank's global ranges
  std::vector<Panel> panels;  ///< in K order
  ConstMatrix<T, Space> A, B;
  long mloc, nloc, nb;        ///< |I|, |J|, the widest panel

  PanelGeometry(const Space& s, const GridComm& g, const GridBlocks& b, std::vector<Panel> p,
                const ConstMatrix<T, Space>& a, const ConstMatrix<T, Space>& bm)
      : space(s), grid(&g), blocks(b), panels(std::move(p)), A(a), B(bm), mloc(b.rows.size()),
        nloc(b.cols.size()), nb(widest_panel(panels)) {}

  int count() const { return int(panels.size()); }
  long width(int t) const { return panels[size_t(t)].width(); }
  /// This rank's process column owns panel t's columns of A (it sends them along its process row).
  bool a_root(int t) const { return grid->coords().pcol == panels[size_t(t)].a_owner_col; }
  /// This rank's process row owns panel t's rows of B (it sends them along its process column).
  bool b_root(int t) const { return grid->coords().prow == panels[size_t(t)].b_owner_row; }
  /// Panel t's rows of B in this rank's block (w x |J|, contiguous): valid on its B roots.
  const T* b_rows(int t) const { return B.data() + (panels[size_t(t)].k0 - blocks.b_k.begin) * nloc; }
  /// Panel t's columns of this rank's A, packed row-major (|I| x w) at dst, on exec (asynchronous).
  void pack_a(const Space& exec, int t, T* dst) const {
    pack_panel_a<Space, T>(exec, A, panels[size_t(t)].k0 - blocks.a_k.begin, width(t), dst);
  }
  /// Panel t's operands at a (|I| x w) and b (w x |J|).
  PanelViews<Space, T> views(int t, const T* a, const T* b) const {
    return {ConstMatrix<T, Space>(a, mloc, width(t)), ConstMatrix<T, Space>(b, width(t), nloc)};
  }
};

/// How panels travel, for one rank's multiplies (see the file comment). The
/// loop calls, for each panel t in order: post for the panels up to t +
/// depth() - 1 not yet posted, wait(t), the local GEMM, progress(t),
/// release(t); start() before the first and finish() after the last. Every
/// rank calls the same sequence, so collective steps match.
template <class Space, class T>
class PanelTransport {
 public:
  virtual ~PanelTransport() = default;
  /// Panels posted when the loop waits for the first of them: 1 waits for
  /// each panel right after posting it; 2 posts panel t + 1 before waiting
  /// for t (double buffering), and so on. At least 1.
  virtual int depth() const = 0;
  /// A multiply begins: panel 0 is posted next.
  virtual void start() {}
  /// Starts panel t on its way into its slot: the roots pack and send it,
  /// the others post their receives (or, blocking, receive it). May wait
  /// until every rank is done with the slot's previous panel. A transport
  /// whose progress() has already started panel t does nothing.
  virtual void post(int t) = 0;
  /// Returns once panel t is in this rank's slot: the operands of its local
  /// GEMM in Space's memory, valid until release(t).
  virtual PanelViews<Space, T> wait(int t) = 0;
  /// Called once panel t's local GEMM has been launched (asynchronous on a
  /// GPU): moves the panels in flight along while it computes (MPI progress,
  /// the next panels' copies) and returns once the GEMM is done with panel
  /// t (fenced). A transport that orders its buffers with device events may
  /// return at once and wait in finish().
  virtual void progress(int t) = 0;
  /// Panel t's local GEMM no longer reads its slot.
  virtual void release(int t) { (void)t; }
  /// After the last panel: completes what is still pending (requests,
  /// barriers); C is complete when it returns.
  virtual void finish() {}
  /// This multiply's times so far: the transport adds comm, copy and its
  /// waits for the GEMM; the loop adds the GEMM launches and resets them.
  SummaTimes& times() { return times_; }

 protected:
  SummaTimes times_;
};

}  // namespace mmapp
