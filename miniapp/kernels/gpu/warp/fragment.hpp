// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/fragment.hpp — the warp level of gemm_tiled_warp (CUTLASS 2.x:
// gemm/warp/, the SIMT warp MMA and its fragment iterators): where a
// thread's TM x TN register tile of C lies in the block tile, the read of
// its A and B fragments of one K step from a scratch stage, and the TM x TN
// FMAs of that step (acc[i][j] += a[i] * b[j], i then j). A warp owns a
// WM x WN sub-tile, its 32 lanes a lanes_m x lanes_n grid, each lane's tile
// made of 16-byte fragments spaced fragment*lanes apart, so each of a warp's
// 16-byte scratch reads covers at most 128 contiguous bytes (switch 2 of
// tiled_gpu_warp.hpp); WM == 0: the block-strided mapping of tiled_gpu.hpp.
#pragma once

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/warp/scratch.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

namespace mmapp {
namespace detail {

/// One thread's warp-level MMA of a Cfg (GpuTile) team: its origin in the
/// block tile (row0, col0), the reads of its fragments (FragmentA a: a[i] =
/// As(k, row of i); FragmentB b: b[j] = Bs(k, column of j)) and their FMAs.
/// The fragments are the caller's local arrays (see GlobalTileLoader).
template <class Cfg, class T>
struct WarpMma {
  using Chunk = Chunk16<T>;
  using Stages = ScratchStages<Cfg, T>;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  static constexpr int VW = Chunk::width;  // elements per 16-byte fragment
  // Threads along m (n) that share a scratch row read: a warp's lanes, or the block's threads.
  static constexpr int lanes_m = Cfg::warp_tiled ? Cfg::WM / TM : BM / TM;
  static constexpr int lanes_n = Cfg::warp_tiled ? Cfg::WN / TN : BN / TN;
  static constexpr int warps_n = Cfg::warp_tiled ? BN / Cfg::WN : 1;
  static constexpr int row_stride = VW * lanes_m, col_stride = VW * lanes_n;  // between a thread's fragments
  static_assert(Cfg::frag_bytes == 16 || Cfg::frag_bytes == int(sizeof(T)), "fragment reads: 16 bytes or one element");
  static_assert(!Cfg::frag_pipe || BK % 2 == 0, "fragment double buffering: an even BK");

  using FragmentA = T[TM];
  using FragmentB = T[TN];

  int row0, col0;  ///< first row and column of this thread's first fragment, in the block tile

  /// Team member tid's place: warp tid / 32, lane tid % 32 (or block-strided without warp tiles).
  KOKKOS_INLINE_FUNCTION explicit WarpMma(const int tid) {
    if (Cfg::warp_tiled) {
      const int warp = tid / 32, lane = tid % 32;
      row0 = (warp / warps_n) * Cfg::WM + (lane / lanes_n) * VW;
      col0 = (warp % warps_n) * Cfg::WN + (lane % lanes_n) * VW;
    } else {
      row0 = (tid / lanes_n) * VW;
      col0 = (tid % lanes_n) * VW;
    }
  }

  /// a, b <- the fragments of K step k of stage s: 16-byte reads, or one
  /// element at a time (FragBytes == sizeof(T), switch 8).
  KOKKOS_INLINE_FUNCTION void load(const Stages& stages, const int s, const int k, FragmentA& a, FragmentB& b) const {
    const T* const As = stages.a(s) + row0 + k * Stages::lda_s;
    const T* const Bs = stages.b(s) + col0 + k * BN;
    if constexpr (Cfg::frag_bytes == 16) {
      MMAPP_UNROLL
      for (int g = 0; g < TM / VW; ++g) {
        const Chunk v = *reinterpret_cast<const Chunk*>(As + g * row_stride);
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) a[g * VW + q] = v.v[q];
      }
      MMAPP_UNROLL
      for (int g = 0; g < TN / VW; ++g) {
        const Chunk v = *reinterpret_cast<const Chunk*>(Bs + g * col_stride);
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) b[g * VW + q] = v.v[q];
      }
    } else {
      MMAPP_UNROLL
      for (int g = 0; g < TM / VW; ++g) {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) a[g * VW + q] = As[g * row_stride + q];
      }
      MMAPP_UNROLL
      for (int g = 0; g < TN / VW; ++g) {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) b[g * VW + q] = Bs[g * col_stride + q];
      }
    }
  }

  /// acc += a * b: TM x TN FMAs, i outer, j inner.
  KOKKOS_INLINE_FUNCTION static void fma(T (&acc)[TM][TN], const FragmentA& a, const FragmentB& b) {
    MMAPP_UNROLL
    for (int i = 0; i < TM; ++i) {
      MMAPP_UNROLL
      for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
    }
  }

  /// acc += As * Bs over the BK steps of one K tile on stage s, in step
  /// order: each step read into set 0 (fa[0], fb[0]) and multiplied; with
  /// the fragment pipeline (switch 7) step k+1 is read into the other set
  /// before the FMAs of step k. The FMAs and their order are the same
  /// either way.
  KOKKOS_INLINE_FUNCTION void tile(const Stages& stages, const int s, T (&acc)[TM][TN], FragmentA (&fa)[2],
                                   FragmentB (&fb)[2]) const {
    if constexpr (!Cfg::frag_pipe && Cfg::frag_bytes == 16) {
      MMAPP_UNROLL
      for (int k = 0; k < BK; ++k) {
        FragmentA a;
        FragmentB b;
        load(stages, s, k, a, b);
        fma(acc, a, b);
      }
    } else if constexpr (!Cfg::frag_pipe) {
      MMAPP_UNROLL
      for (int k = 0; k < BK; ++k) {
        load(stages, s, k, fa[0], fb[0]);
        fma(acc, fa[0], fb[0]);
      }
    } else {
      load(stages, s, 0, fa[0], fb[0]);
      MMAPP_UNROLL
      for (int k = 0; k < BK; ++k) {
        if (k + 1 < BK) load(stages, s, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
        fma(acc, fa[k & 1], fb[k & 1]);
      }
    }
  }
};

}  // namespace detail
}  // namespace mmapp
