// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/epilogue.hpp — the end of a gemm_tiled_warp team (CUTLASS 2.x:
// epilogue/threadblock/): each thread writes its TM x TN register tile of
// C to the output, C itself (with + beta * C) or, with split-K, its slice's
// partial tile in the workspace; 16 bytes at a time where the output is
// 16-byte aligned and the chunk lies inside, element by element (masked)
// otherwise. The thread's fragments are spaced as WarpMma's reads (switch 2
// of tiled_gpu_warp.hpp), so a warp's stores coalesce. Also pair_store: the
// tensor-core epilogues' unit (each lane's accumulators come in pairs of
// adjacent columns: PTX ISA, mma.m16n8k8 / wgmma D fragments), and StagedC
// with store_staged_rows: gemm_tiled_mma's C tile through scratch, stored by
// whole rows, where C's rows take no pairs (N odd).
#pragma once

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/warp/fragment.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/gpu/warp/scratch.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace mmapp {
namespace detail {

/// Two adjacent elements of T as one access (float2, double2: one STG.64 /
/// STG.128 on CUDA).
template <class T>
struct alignas(2 * sizeof(T)) Pair {
  T v[2];
};

/// dst[0..1] <- (c0, c1) (+ beta * dst when `scale`) for the columns col,
/// col + 1 < N: one Pair store where `pair` (dst aligned to a Pair: the
/// caller's WarpGemmParams::pair_o and an even col) and both columns lie
/// inside, element by element otherwise. The tensor-core epilogues' store:
/// a warp's pairs fill whole 32-byte sectors where single elements would
/// half fill twice as many (H200, 2026-11-29: double 4096^2 x 16 on the DMMA
/// 128x64 tile 0.102 ms with single stores, 0.061 with pairs, cuBLAS DGEMM
/// 0.063-0.070; docs/performance.md, thirty-third round).
template <class T>
KOKKOS_FORCEINLINE_FUNCTION void pair_store(T* const dst, const int col, const int N, const bool pair, const bool scale,
                                            const T beta, const T c0, const T c1) {
  if (pair && col + 1 < N) {
    Pair<T> v{{c0, c1}};
    if (scale) {
      const Pair<T> o = *reinterpret_cast<const Pair<T>*>(dst);
      v.v[0] = c0 + beta * o.v[0];
      v.v[1] = c1 + beta * o.v[1];
    }
    *reinterpret_cast<Pair<T>*>(dst) = v;
  } else {
    if (col < N) dst[0] = scale ? c0 + beta * dst[0] : c0;
    if (col + 1 < N) dst[1] = scale ? c1 + beta * dst[1] : c1;
  }
}

/// The C tile of a BM x BN team of TeamSize threads staged in its level-0
/// scratch, over the stages (their K loop done), for store_staged_rows:
/// row-major, rows padded by 32 bytes (ld elements; 16-byte aligned rows,
/// and the 8 rows of a fragment's stores start 8 banks apart). Where C's
/// rows take no pairs (N odd), writing C through it turns half-filled
/// 32-byte sectors into whole rows (H200, 2026-11-29:
/// docs/performance.md, "Tensor cores, thirty-sixth round").
template <int BM, int BN, int TeamSize, class T>
struct StagedC {
  static constexpr int ld = BN + 32 / int(sizeof(T));  ///< row pitch, elements
  /// Bytes of the tile, with 16 of alignment slack (the stages' own).
  static constexpr std::size_t bytes = std::size_t(BM) * ld * sizeof(T) + 16;
  /// Whether this build's Kokkos lets a team have it (team_scratch_limit).
  static constexpr bool fits = bytes <= team_scratch_limit(TeamSize);
  /// Level-0 scratch per team of a launch with `stages` bytes of stages:
  /// enough for the tile too where it is `staged`.
  static constexpr std::size_t launch_bytes(const std::size_t stages, const bool staged) {
    return staged && bytes > stages ? bytes : stages;
  }
};

/// Bytes of the tile a thread of store_staged_rows reads from scratch (and,
/// with beta, from C) before it stores any of them: 16 floats, 8 doubles.
inline constexpr int kStagedRowsBatchBytes = 64;

/// Thread `tid`'s share of a team's row-wise store of a BM x BN tile staged
/// in scratch (row-major, pitch lds elements; the tensor-core epilogue where
/// out's rows take no pairs or no 16-byte chunks: WarpGemmParams::stages_rows):
/// out(bm + r, bn + c) <- s[r lds + c]
/// (+ beta * out when S == 1 and beta != 0) for bm + r < M and bn + c < N,
/// out, ldo, M, N, S and beta from p (WarpGemmParams), slice as Epilogue::store.
/// The team's TeamSize threads (a multiple of BN) take the tile's elements in
/// row-major order, so that a warp writes whole rows of consecutive columns:
/// every 32-byte sector of out full where pairs at an odd row stride leave
/// two stores a sector, each half of it (CUTLASS's shared-memory epilogue,
/// epilogue/threadblock/epilogue.h, does the same for its vectors). Thread
/// tid keeps column tid % BN and takes every (TeamSize / BN)-th row from row
/// tid / BN, in batches of up to kStagedRowsBatchBytes: every load of a batch
/// issued before its first store. Element by element (a scratch load, a
/// store to C, the next load: the compiler may not move a load above a store
/// it cannot tell apart from it), the staged epilogue cost the 64x128 wgmma
/// tile 43 us on float 8000 x 4001 x 16: 110 us against 67 at N = 4000,
/// pairs from registers (H200, Nsight Compute, 2026-11-29). In batches the
/// tile ran it in 0.097 ms against 0.127 (the app's medians; 0.089 at N =
/// 4000): docs/performance.md, "Tensor cores, thirty-eighth round".
template <int BM, int BN, int TeamSize, class T>
KOKKOS_INLINE_FUNCTION void store_staged_rows(const T* const s, const int lds, const WarpGemmParams<T>& p,
                                              const int slice, const int bm, const int bn, const int tid) {
  static_assert(TeamSize % BN == 0 && BM % (TeamSize / BN) == 0, "a thread keeps one column, whole rounds of rows");
  constexpr int step = TeamSize / BN, per = BM / step;  // rows a round of the team covers; rows per thread
  constexpr int batch = kStagedRowsBatchBytes / int(sizeof(T));
  // Rows per batch: all of them, or the largest power of two up to `batch` that divides them (8 of
  // the C^T tiles' 40 and 56 rows per thread).
  constexpr int G = per <= batch ? per : ((per & -per) < batch ? (per & -per) : batch);
  static_assert(per % G == 0, "whole batches");
  const int rows = p.M - bm < BM ? p.M - bm : BM, cols = p.N - bn < BN ? p.N - bn : BN;
  const int r0 = tid / BN, c = tid % BN;
  if (c >= cols) return;
  const bool scale = p.scales_c();
  const long dstep = long(step) * p.ldo;
  T* const o = p.slice_out(slice);
  const T* const src = s + r0 * lds + c;
  long off = long(bm + r0) * p.ldo + (bn + c);  // of row r0 + j0 step, at batch j0
  for (int j0 = 0; j0 < per; j0 += G) {
    T v[G];
    long at = off;
    MMAPP_UNROLL
    for (int g = 0; g < G; ++g, at += dstep) {  // loads: the staged values (and C's, with beta)
      v[g] = src[(j0 + g) * step * lds];
      if (scale && r0 + (j0 + g) * step < rows) v[g] += p.beta * o[at];
    }
    MMAPP_UNROLL
    for (int g = 0; g < G; ++g, off += dstep)  // stores
      if (r0 + (j0 + g) * step < rows) o[off] = v[g];
  }
}

/// A tensor-core team's epilogue through its level-0 scratch where C's rows
/// take no pairs (N odd): a team barrier (every warp's reads of the stages
/// done, the stages then free), `stage(s)` (the thread writes its
/// accumulators to its places in the BM x BN tile at s, row-major, pitch
/// lds elements), a second barrier, and the thread's share of the row-wise
/// store (store_staged_rows, the arguments as there). gemm_tiled_mma and
/// gemm_tiled_wgmma stage their tiles this way (StagedC).
template <int BM, int BN, int TeamSize, class Member, class T, class Stage>
KOKKOS_INLINE_FUNCTION void store_through_scratch(const Member& team, T* const s, const int lds,
                                                  const WarpGemmParams<T>& p, const int slice, const int bm,
                                                  const int bn, const int tid, const Stage& stage) {
  team.team_barrier();
  stage(s);
  team.team_barrier();
  store_staged_rows<BM, BN, TeamSize>(s, lds, p, slice, bm, bn, tid);
}

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
    T* const o = p.slice_out(slice);
    const bool scale = p.scales_c();
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
