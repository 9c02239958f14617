// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// summa.hpp — C = A B on a p x q process grid by SUMMA (R. van de Geijn and
// J. Watts, "SUMMA: Scalable Universal Matrix Multiplication Algorithm",
// Concurrency: Practice and Experience 9(4), 1997; the ParRes Kernels' MPI1
// DGEMM), with any kernel of the registry as the local GEMM.
//
// Data: rank (prow, pcol) holds its blocks of A, B and C (grid.hpp) in
// Space's memory, row-major, for the whole multiply. For each panel [k0, k1)
// (grid.hpp, summa_panels), in order:
//   - the owning process column sends A(I, k0:k1) along each process row,
//     the owning process row sends B(k0:k1, J) along each process column:
//     a panel transport (panel_transport.hpp; MPI broadcasts, staged through
//     pinned memory, or a shared-memory window: transports.hpp) moves them
//     into this rank's slot, depth() panels ahead;
//   - every rank runs C_block (+)= A_panel * B_panel with the local kernel
//     (local_gemm): beta = 0 for the first panel (C is write-only, may hold
//     NaN), 1 after.
// The loop (multiply) is the algorithm; how panels travel and overlap the
// GEMMs is the transport's.
// A local GEMM that throws (a vendor refusal) does not stop the rank's part
// in the transport: the rank finishes every panel's communication, skips its
// remaining GEMMs and throws at the end, so no other rank is left waiting.
// FLOPs: 2 |I| |J| K per rank.
#pragma once

#include "core/types.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "summa/buffer_bytes.hpp"
#include "summa/panel_transport.hpp"
#include "summa/transport_select.hpp"
#include "summa/transports.hpp"

#include <Kokkos_Core.hpp>

#include <memory>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mmapp {

/// The SUMMA multiply of one rank over a panel transport whose buffers are
/// allocated once (construction) and reused by every multiply(). Views must
/// stay alive.
template <class Space, class T>
class Summa {
 public:
  /// A: |I| x |Ka|, B: |Kb| x |J|, C: |I| x |J| (grid_blocks of this rank),
  /// in Space's memory. `panels` from summa_panels(). `path`: host or shared
  /// on host backends; cuda_aware, staged or shared on a GPU (shared: every
  /// process row and column within one node, grid_is_node_local; collective
  /// over the grid then, as is destruction). `overlap`: panels posted ahead
  /// of the current GEMM (must be the same on every rank; see the
  /// transports). Allocates the transport's buffers: see bytes(). Throws
  /// std::invalid_argument when the views' extents are not the blocks'.
  Summa(const Space& space, const GridComm& grid, const GridBlocks& blocks, const std::vector<Panel>& panels,
        const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B, const Matrix<T, Space>& C, PanelPath path,
        bool overlap)
      : Summa(space, C, int(panels.size()),
              transport_for<Space, T>(path).make(geometry(space, grid, blocks, panels, A, B, C), overlap)) {}

  /// The loop over any transport (tests, or a transport not in the table):
  /// `npanels` panels, C |I| x |J| in Space's memory.
  Summa(const Space& space, const Matrix<T, Space>& C, int npanels, std::unique_ptr<PanelTransport<Space, T>> transport)
      : space_(space), C_(C), npanels_(npanels), transport_(std::move(transport)) {}

  /// Bytes of the transport's buffers for `path` in Space's memory and in
  /// pinned host memory, for an |I| x |J| block and panels at most `nb` wide.
  static BufferBytes bytes(long mloc, long nloc, long nb, PanelPath path, bool overlap) {
    return transport_for<Space, T>(path).bytes(mloc, nloc, nb, overlap);
  }

  /// C = A B with `gemm` as the local kernel and `work` its workspace (for an
  /// |I| x |J| x nb problem). Collective over the grid; returns when this
  /// rank's C block is complete. Throws std::runtime_error with the first
  /// local GEMM's error after the communication has finished.
  void multiply(GemmFn<Space, T> gemm, const Workspace<Space>& work) {
    PanelTransport<Space, T>& transport = *transport_;
    transport.times() = {};
    error_.clear();
    transport.start();
    const int depth = transport.depth();
    int posted = 0;
    for (int t = 0; t < npanels_; ++t) {
      for (; posted < npanels_ && posted < t + depth; ++posted) transport.post(posted);
      const PanelViews<Space, T> panel = transport.wait(t);
      add_seconds(transport.times().gemm, [&] { local_gemm(gemm, work, t, panel); });  // asynchronous on a GPU
      transport.progress(t);  // returns once the GEMM is done with the panel
      transport.release(t);
    }
    transport.finish();
    if (!error_.empty()) throw std::runtime_error(error_);
  }

  /// This rank's times of the last multiply().
  const SummaTimes& times() const { return transport_->times(); }

 private:
  /// The transports' view of the blocks, after checking the extents.
  static PanelGeometry<Space, T> geometry(const Space& space, const GridComm& grid, const GridBlocks& blocks,
                                          const std::vector<Panel>& panels, const ConstMatrix<T, Space>& A,
                                          const ConstMatrix<T, Space>& B, const Matrix<T, Space>& C) {
    const long mloc = blocks.rows.size(), nloc = blocks.cols.size();
    if (long(A.extent(0)) != mloc || long(A.extent(1)) != blocks.a_k.size() ||
        long(B.extent(0)) != blocks.b_k.size() || long(B.extent(1)) != nloc || long(C.extent(0)) != mloc ||
        long(C.extent(1)) != nloc)
      throw std::invalid_argument("Summa: the blocks' extents do not match the grid blocks");
    return PanelGeometry<Space, T>(space, grid, blocks, panels, A, B);
  }

  /// Panel t's local GEMM, C (+)= A_panel B_panel (beta 0 for the first
  /// panel), launched on space_. A throwing kernel is recorded, not thrown:
  /// the rank goes on communicating and skips its later GEMMs.
  void local_gemm(GemmFn<Space, T> gemm, const Workspace<Space>& work, int t, const PanelViews<Space, T>& panel) {
    if (C_.extent(0) == 0 || C_.extent(1) == 0 || !error_.empty()) return;
    try {
      gemm(space_, GemmArgs<Space, T>{panel.A, panel.B, C_, t == 0 ? T(0) : T(1), work});
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }

  Space space_;
  Matrix<T, Space> C_;
  int npanels_;
  std::unique_ptr<PanelTransport<Space, T>> transport_;
  std::string error_;
};

}  // namespace mmapp
