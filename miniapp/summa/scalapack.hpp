// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// scalapack.hpp — the distributed yardstick, `scalapack` in grid decks:
// ScaLAPACK's PBLAS p?gemm (psgemm_/pdgemm_, Debian's libscalapack-openmpi
// 2.2.1) on the very blocks SUMMA uses, in place.
//
// Mapping. mmapp's blocks are row-major; ScaLAPACK's local arrays are
// column-major. A row-major |I| x |Ka| block of A is, read column-major, the
// |Ka| x |I| block of A^T with leading dimension |Ka|. So ScaLAPACK computes
//     C^T (N x M) = B^T (N x K) * A^T (K x M)
// on the TRANSPOSED BLACS grid: q process rows x p process columns, BLACS
// process (pcol, prow) being mmapp's rank (prow, pcol). Column-major BLACS
// order ("C") gives BLACS rank = pcol + prow * q, which is mmapp's row-major
// rank, so Csys2blacs_handle(world) + Cblacs_gridinit("C", q, p) places every
// rank where its blocks already are (checked with Cblacs_gridinfo).
// Descriptors (grid.hpp's block distribution is block-cyclic with one block
// per process: MB = ceil(extent / parts), RSRC = CSRC = 0):
//     A^T: K x M, MB = ceil(K/q), NB = ceil(M/p), LLD = max(1, |Ka|)
//     B^T: N x K, MB = ceil(N/q), NB = ceil(K/p), LLD = max(1, |J|)
//     C^T: N x M, MB = ceil(N/q), NB = ceil(M/p), LLD = max(1, |J|)
// and numroc() must give mmapp's local extents (checked). The PBLAS (2.x)
// have no alignment restrictions between the operands' block sizes. beta = 0:
// C need not be set on input (the NaN poison is overwritten).
// Host memory only (ScaLAPACK calls the host BLAS); not built when ScaLAPACK
// was not found at configure time (MMAPP_HAVE_SCALAPACK).
// FLOPs: 2 M N K over the grid.
#pragma once

#include "core/types.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "summa/buffer_bytes.hpp"

#include <mpi.h>

#include <stdexcept>
#include <string>

namespace mmapp {

/// True when this binary was built with ScaLAPACK.
bool scalapack_compiled();

/// "" when `scalapack` can run on a rank with backend `backend`; else why
/// not ("this binary was built without ScaLAPACK ...", "ScaLAPACK runs on
/// host backends only ...").
std::string scalapack_unavailable_reason(const std::string& backend);

/// A BLACS grid and the three descriptors of one C = A B problem on a
/// GridComm's blocks (see the file comment). Collective over the grid on
/// construction and destruction (BLACS context).
class ScalapackGemm {
 public:
  /// Throws std::runtime_error when ScaLAPACK is not compiled in, when BLACS
  /// does not place the ranks as the grid does, or when a descriptor is
  /// refused (descinit's INFO) or numroc disagrees with grid_blocks().
  ScalapackGemm(const GridComm& grid, long m, long n, long k);
  ~ScalapackGemm();
  ScalapackGemm(const ScalapackGemm&) = delete;
  ScalapackGemm& operator=(const ScalapackGemm&) = delete;

  /// C = A B (beta = 0) on this rank's row-major blocks in host memory:
  /// A |I| x |Ka|, B |Kb| x |J|, C |I| x |J| (grid_blocks). Collective.
  void multiply(const float* A, const float* B, float* C) const;
  void multiply(const double* A, const double* B, double* C) const;

 private:
  int ctxt_ = -1, sys_ = -1;
  int m_, n_, k_;
  int desc_a_[9]{}, desc_b_[9]{}, desc_c_[9]{};
};

/// ScaLAPACK's p?gemm as a distributed GEMM beside Summa (summa.hpp): the
/// same blocks, multiply() collective over the grid. It accepts only the
/// 2-D grid's blocks and host backends (scalapack_unavailable_reason).
template <class Space, class T>
class Scalapack {
 public:
  /// A: |I| x |Ka|, B: |Kb| x |J|, C: |I| x |J| (grid_blocks of this rank
  /// for an m x n x k problem), row-major in Space's memory; the views must
  /// stay alive. Collective over the grid (BLACS context). Throws as
  /// ScalapackGemm's constructor, and std::invalid_argument when the views'
  /// extents are not the blocks'.
  Scalapack(const GridComm& grid, long m, long n, long k, const ConstMatrix<T, Space>& A,
            const ConstMatrix<T, Space>& B, const Matrix<T, Space>& C)
      : gemm_(grid, m, n, k), A_(A), B_(B), C_(C) {
    const GridBlocks b = grid_blocks(m, n, k, grid.shape(), grid.coords());
    if (long(A.extent(0)) != b.rows.size() || long(A.extent(1)) != b.a_k.size() ||
        long(B.extent(0)) != b.b_k.size() || long(B.extent(1)) != b.cols.size() ||
        long(C.extent(0)) != b.rows.size() || long(C.extent(1)) != b.cols.size())
      throw std::invalid_argument("Scalapack: the blocks' extents do not match the grid blocks");
  }

  /// Buffers allocated beyond the blocks: none (p?gemm allocates its own
  /// workspace inside each call, which this does not count).
  static BufferBytes bytes() { return {}; }

  /// C = A B (beta = 0: C may hold NaN on entry). Collective over the grid.
  /// Host backends only: on another, throws std::logic_error (the runner
  /// refuses scalapack there first).
  void multiply() const {
    if constexpr (is_host_space_v<Space>)
      gemm_.multiply(A_.data(), B_.data(), C_.data());
    else
      throw std::logic_error("Scalapack: host backends only");
  }

 private:
  ScalapackGemm gemm_;
  ConstMatrix<T, Space> A_, B_;
  Matrix<T, Space> C_;
};

}  // namespace mmapp
