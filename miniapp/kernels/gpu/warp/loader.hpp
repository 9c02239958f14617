// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/loader.hpp — the global -> register -> scratch path of gemm_tiled_warp
// (CUTLASS 2.x: the threadblock's global tile iterators and their register
// fragments, gemm/threadblock/mma_pipelined.h's IteratorA/B): each thread
// fetches its 16-byte chunks of one BM x BK tile of A and one BK x BN tile
// of B into registers (zero outside the matrix and the team's K range), and
// stores them to a scratch stage (A transposed). Three fetch paths, the same
// values from each (switches 1 and 9 of tiled_gpu_warp.hpp):
//   lean    a thread whose chunks lie inside A and B, on a full K tile: two
//           per-thread origins at fixed strides, no bounds tests;
//   edge    the others where the fragment pipeline is on: the same origins
//           and per-thread bit masks, bounds-tested;
//   masked  the others otherwise, and any team size: each chunk's row and
//           column from its index, bounds-tested.
// Chunk c of a tile (c = tid + l * team) is row c / chunks-per-row, chunk
// column c % chunks-per-row, for A and B alike.
#pragma once

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/gpu/warp/scratch.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

namespace mmapp {
namespace detail {

/// One thread's global loads of the K tiles of a Cfg (GpuTile) team: the
/// three fetch paths (file comment) into its register fragments ra
/// (FragmentA) and rb (FragmentB), and their store to scratch. The team's
/// block tile starts at row bm of A and column bn of B; its K tiles end at
/// k_end. The fragments are the caller's local arrays (as in CUTLASS's main
/// loops), not members: an array with run-time indices (before unrolling)
/// in the same object as the scalars would keep the scalars in memory
/// through the early optimisations, and ptxas would then allocate
/// registers differently.
template <class Cfg, class T>
struct GlobalTileLoader {
  using Chunk = Chunk16<T>;
  using Stages = ScratchStages<Cfg, T>;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, team_size = Cfg::team_size;
  static constexpr int VW = Chunk::width;
  static constexpr int a_per_row = BK / VW, b_per_row = BN / VW;  // chunks per tile row
  static constexpr int la = BM * BK / VW / team_size, lb = BK * BN / VW / team_size;  // chunks per thread
  static_assert((BM * BK / VW) % team_size == 0 && (BK * BN / VW) % team_size == 0,
                "A and B tiles: a whole number of 16-byte chunks per thread");
  // Switch 9: lean loads need whole tile rows per round of chunks. Where
  // they do, round l of a thread's chunks lies l * rows_a (rows_b) rows below
  // round 0, in the same columns, so every chunk is addressed from two
  // per-thread origins at fixed strides, and which of them lie inside A and
  // B is a per-thread bit mask set once.
  static constexpr bool lean_ok = Cfg::vec && team_size % a_per_row == 0 && team_size % b_per_row == 0;
  // The edge loads from the lean origins and masks where the fragment
  // pipeline puts the kernel at the 255-register ceiling: with them nothing
  // beyond the lean path's state stays live across the K loop. The others
  // keep the per-chunk bounds tests, which ptxas fits in fewer registers for
  // them (docs/performance.md, "FP64: why the two-stage fragment pipeline
  // spilled").
  static constexpr bool edge_masks = lean_ok && Cfg::frag_pipe;
  static constexpr int rows_a = team_size / (a_per_row > 0 ? a_per_row : 1);  // rows between rounds
  static constexpr int rows_b = team_size / (b_per_row > 0 ? b_per_row : 1);

  using FragmentA = Chunk[la];  ///< this thread's chunks of A's K tile (round l: ra[l])
  using FragmentB = Chunk[lb];  ///< this thread's chunks of B's K tile

  const WarpGemmParams<T>& p;  // A, B, lda, ldb, M, N, vec_a, vec_b: read where used, from the kernel's parameters
  int bm, bn, tid, k_end;
  int ka, rb0;              // round 0: A's K offset, B's K row
  long a_org, b_org;        // round 0's chunk at k0 = 0: A at a_org + k0, B at b_org + k0 * ldb
  long sa, sb;              // between rounds
  unsigned a_rows, b_cols;  // bit l: A round l inside M; bit q: B column q inside N
  bool lean;                // every chunk inside, both matrices 16-byte loadable

  /// Thread tid's loads for the block tile at (bm, bn) over K tiles ending at k_end.
  KOKKOS_INLINE_FUNCTION GlobalTileLoader(const WarpGemmParams<T>& params, const int bm_, const int bn_, const int tid_,
                                          const int k_end_)
      : p(params), bm(bm_), bn(bn_), tid(tid_), k_end(k_end_) {
    const int ra0 = tid / a_per_row;  // round 0 of A: row
    ka = (tid % a_per_row) * VW;
    rb0 = tid / b_per_row;
    const int nb = (tid % b_per_row) * VW;  // round 0 of B: column
    a_org = long(bm + ra0) * p.lda + ka;
    b_org = long(rb0) * p.ldb + bn + nb;
    sa = long(rows_a) * p.lda;
    sb = long(rows_b) * p.ldb;
    a_rows = 0;
    b_cols = 0;
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) a_rows |= (bm + ra0 + l * rows_a < p.M ? 1u : 0u) << l;
    MMAPP_UNROLL
    for (int q = 0; q < VW; ++q) b_cols |= (bn + nb + q < p.N ? 1u : 0u) << q;
    lean = lean_ok && p.vec_a && p.vec_b && a_rows == (1u << la) - 1 && b_cols == (1u << VW) - 1;
  }

  /// The K tile at k0 into ra, rb (zero outside [0, M) x [k0, k_end) and
  /// [k0, k_end) x [0, N)), by the path that applies.
  KOKKOS_INLINE_FUNCTION void fetch(const int k0, FragmentA& ra, FragmentB& rb) const {
    if (lean_ok && lean && k0 + BK <= k_end)
      fetch_lean(k0, ra, rb);
    else if constexpr (edge_masks)
      fetch_edge(k0, ra, rb);
    else
      fetch_masked(k0, ra, rb);
  }

  /// Lean path: every chunk inside, a full K tile.
  KOKKOS_INLINE_FUNCTION void fetch_lean(const int k0, FragmentA& ra, FragmentB& rb) const {
    const T* const a = p.A + a_org + k0;
    const T* const b = p.B + b_org + long(k0) * p.ldb;
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) ra[l] = *reinterpret_cast<const Chunk*>(a + l * sa);
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l) rb[l] = *reinterpret_cast<const Chunk*>(b + l * sb);
  }

  /// Edge path: the lean origins and bit masks, the K bound tested per chunk.
  KOKKOS_INLINE_FUNCTION void fetch_edge(const int k0, FragmentA& ra, FragmentB& rb) const {
    const int gka = k0 + ka;
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) {
      const bool row_in = (a_rows >> l) & 1u;
      const long off = a_org + l * sa + k0;
      if (p.vec_a && row_in && gka + VW <= k_end) {
        ra[l] = *reinterpret_cast<const Chunk*>(p.A + off);
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) ra[l].v[q] = (row_in && gka + q < k_end) ? p.A[off + q] : T(0);
      }
    }
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l) {
      const bool row_in = k0 + rb0 + l * rows_b < k_end;
      const long off = b_org + long(k0) * p.ldb + l * sb;
      if (p.vec_b && row_in && b_cols == (1u << VW) - 1) {
        rb[l] = *reinterpret_cast<const Chunk*>(p.B + off);
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) rb[l].v[q] = (row_in && ((b_cols >> q) & 1u)) ? p.B[off + q] : T(0);
      }
    }
  }

  /// Masked path (any team size): each chunk's row and column from its index, bounds-tested.
  KOKKOS_INLINE_FUNCTION void fetch_masked(const int k0, FragmentA& ra, FragmentB& rb) const {
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) {
      const int c = tid + l * team_size, r = c / a_per_row, kq = (c % a_per_row) * VW;
      const int gr = bm + r, gk = k0 + kq;
      const T* src = p.A + long(gr) * p.lda + gk;
      if (p.vec_a && gr < p.M && gk + VW <= k_end) {
        ra[l] = *reinterpret_cast<const Chunk*>(src);
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) ra[l].v[q] = (gr < p.M && gk + q < k_end) ? src[q] : T(0);
      }
    }
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l) {
      const int c = tid + l * team_size, r = c / b_per_row, nq = (c % b_per_row) * VW;
      const int gk = k0 + r, gc = bn + nq;
      const T* src = p.B + long(gk) * p.ldb + gc;
      if (p.vec_b && gk < k_end && gc + VW <= p.N) {
        rb[l] = *reinterpret_cast<const Chunk*>(src);
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) rb[l].v[q] = (gk < k_end && gc + q < p.N) ? src[q] : T(0);
      }
    }
  }

  /// The fetched tile (ra, rb) -> scratch stage s of `stages`: A transposed
  /// (one element per store), B as 16-byte chunks.
  KOKKOS_INLINE_FUNCTION void store(const Stages& stages, const int s, const FragmentA& ra, const FragmentB& rb) const {
    T* const As = stages.a(s);
    T* const Bs = As + Stages::a_elems;  // stages.b(s), as an offset from As (ptxas: one address less live)
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) {
      const int c = tid + l * team_size, r = c / a_per_row, kq = (c % a_per_row) * VW;
      MMAPP_UNROLL
      for (int q = 0; q < VW; ++q) As[(kq + q) * Stages::lda_s + r] = ra[l].v[q];
    }
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l) {
      const int c = tid + l * team_size, r = c / b_per_row, nq = (c % b_per_row) * VW;
      *reinterpret_cast<Chunk*>(Bs + r * BN + nq) = rb[l];
    }
  }
};

}  // namespace detail
}  // namespace mmapp
