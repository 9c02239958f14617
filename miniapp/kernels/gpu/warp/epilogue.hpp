// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/epilogue.hpp — the end of a gemm_tiled_warp team (CUTLASS 2.x:
// epilogue/threadblock/): each thread writes its TM x TN register tile of
// C to the output, C itself (with + beta * C) or, with split-K, its slice's
// partial tile in the workspace; 16 bytes at a time where the output is
// 16-byte aligned and the chunk lies inside, element by element (masked)
// otherwise. The thread's fragments are spaced as WarpMma's reads (switch 2
// of tiled_gpu_warp.hpp), so a warp's stores coalesce.
#pragma once

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/warp/fragment.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

namespace mmapp {
namespace detail {

/// The output stage of a Cfg (GpuTile) thread for element type T.
template <class Cfg, class T>
struct Epilogue {
  using Chunk = Chunk16<T>;
  static constexpr int TM = Cfg::TM, TN = Cfg::TN, VW = Chunk::width;
  static constexpr int row_stride = WarpMma<Cfg, T>::row_stride, col_stride = WarpMma<Cfg, T>::col_stride;

  /// The thread's tile of slice `slice` (0 without split-K) of the block
  /// tile at (bm, bn): out(row, col) <- acc (+ beta * out(row, col) when S
  /// == 1 and beta != 0) for the rows bm + row0 + gi * row_stride + qi < M
  /// and columns bn + col0 + gj * col_stride + q < N of the thread's
  /// fragments (gi, qi) x (gj, q), (row0, col0) its WarpMma origin; out,
  /// ldo, vec_o, M, N, S and beta from p (WarpGemmParams).
  KOKKOS_INLINE_FUNCTION static void store(const T (&acc)[TM][TN], const WarpGemmParams<T>& p, const int slice,
                                           const int bm, const int bn, const int row0, const int col0) {
    T* const o = p.out + (p.slices > 1 ? slice * p.slice_elems : 0);
    const bool scale = p.slices == 1 && p.beta != T(0);
    MMAPP_UNROLL
    for (int gi = 0; gi < TM / VW; ++gi) {
      MMAPP_UNROLL
      for (int qi = 0; qi < VW; ++qi) {
        const int row = bm + row0 + gi * row_stride + qi;
        if (row >= p.M) continue;
        T* const orow = o + long(row) * p.ldo;
        MMAPP_UNROLL
        for (int gj = 0; gj < TN / VW; ++gj) {
          const int col = bn + col0 + gj * col_stride;
          if (p.vec_o && col + VW <= p.N) {
            Chunk v;
            if (scale) v = *reinterpret_cast<const Chunk*>(orow + col);
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) {
              const T c = acc[gi * VW + qi][gj * VW + q];
              v.v[q] = scale ? c + p.beta * v.v[q] : c;
            }
            *reinterpret_cast<Chunk*>(orow + col) = v;
          } else {
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) {
              const T c = acc[gi * VW + qi][gj * VW + q];
              if (col + q < p.N) orow[col + q] = scale ? c + p.beta * orow[col + q] : c;
            }
          }
        }
      }
    }
  }
};

}  // namespace detail
}  // namespace mmapp
