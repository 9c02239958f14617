// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/async_pipeline.hpp — the cp.async multistage main loop of a
// gemm_tiled_mma team (tiled_gpu_mma.hpp, GpuMmaTile with Async; CUTLASS
// 2.x gemm/threadblock/mma_multistage.h): global -> scratch copies that do
// not pass through registers (warp/async_copy.hpp), S = 2, 3 or 4 scratch
// stages, one team barrier per K tile:
//   prologue: K tiles 0 .. S-2 issued into stages 0 .. S-2, one committed
//             group per tile;
//   K tile kt: wait until at most S-2 groups are pending (this thread's
//             copies of tile kt landed), team barrier (every thread's
//             copies of tile kt visible; every warp done with tile kt-1),
//             issue tile kt+S-1 into the stage of tile kt-1 and commit,
//             then the warps' MMAs on stage kt mod S.
// A group is committed per K tile even when it is empty (past the last
// tile), so that "at most S-2 pending" always means "tile kt landed".
// The loop runs S K tiles per trip so that every stage index is a
// compile-time constant (scratch offsets folded into the addresses, as the
// register path's two-stage loop does).
// Scratch: the caller's (MmaScratch: A as [m][k] with pitch lda_s, B as
// [k][n] with pitch ldb_s, 16-byte aligned rows). Loads: zero outside the
// matrix and the team's K range [k_begin, k_end), by cp.async's zero fill.
#pragma once

#include <Kokkos_Core.hpp>
#include <type_traits>

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/warp/async_copy.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/unroll.hpp"

namespace mmapp {
namespace detail {

/// One thread's part of the cp.async multistage pipeline of a Cfg
/// (GpuMmaTile with async) team with scratch Scratch (MmaScratch): its
/// 16-byte chunks of the BM x BK tile of A (As[m][k]) and the BK x BN tile
/// of B (Bs[k][n]) of one K tile, chunk c = tid + l * team_size at row c /
/// chunks-per-row, as the register path's (GlobalTileLoader::fetch_masked
/// and its store). A chunk of an operand that may be read in 16-byte chunks
/// (vec_a / vec_b: base aligned, row stride a multiple of a chunk) is one
/// cp_async16 with src_bytes the part inside the matrix and the team's K
/// range ([0, M) x [k0, k_end) of A, [k0, k_end) x [0, N) of B), the rest
/// zero-filled (0 bytes: all zero, nothing read); otherwise (rows not
/// 16-byte aligned: odd K or N of double, say) each element of the chunk is
/// one cp_async_elem of its 4 or 8 bytes, zero-filled outside (until the
/// thirty-first round, element loads through registers stored to scratch
/// at once: the copy waited for its loads). Threads: the
/// threads that load (tid < Threads): the whole team, or a warp-specialized
/// team's producer warps (warp/ws_pipeline.hpp). Rolled: the chunk loops
/// kept rolled (those producers, left with few registers by setmaxnreg).
template <class Cfg, class T, class Scratch, int Threads = Cfg::team_size, bool Rolled = false>
struct AsyncTileLoader {
  using Chunk = Chunk16<T>;
  static constexpr int VW = Chunk::width;
  static constexpr int a_per_row = Cfg::BK / VW, b_per_row = Cfg::BN / VW;  // chunks per tile row
  static constexpr int la = Cfg::BM * Cfg::BK / VW / Threads;        // chunks per thread
  static constexpr int lb = Cfg::BK * Cfg::BN / VW / Threads;
  static_assert((Cfg::BM * Cfg::BK / VW) % Threads == 0 && (Cfg::BK * Cfg::BN / VW) % Threads == 0,
                "A and B tiles: a whole number of 16-byte chunks per thread");

  /// f(l) for l < n, unrolled (or kept rolled: Rolled).
  template <int n, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void chunks(const F& f) {
    chunk_loop<n, Rolled>(f);
  }

  const WarpGemmParams<T>& p;  ///< A, B, lda, ldb, M, N, vec_a, vec_b
  int bm, bn, tid, k_end;      ///< the block tile's first row and column; thread; end of the team's K range

  /// Issues the K tile at k0 into stage s of st (asynchronous where vec_a /
  /// vec_b; the caller commits the group). An operand whose K tile lies
  /// wholly inside the matrix and the team's K range (interior tiles: all
  /// but the edges) takes issue_interior's path, without the per-chunk
  /// bounds and zero fill; a K tile inside the K range of a block tile on
  /// C's last block row or column takes issue_interior's addressing with
  /// the rows and columns past C zero-filled (issue_edge); an operand whose
  /// rows are not 16-byte aligned takes the same two paths element by element
  /// where Cfg::elem_chunks (issue_chunks' Elems), else the masked path; the
  /// K tiles past the K range take the masked path below.
  KOKKOS_INLINE_FUNCTION void issue(const Scratch& st, const int s, const int k0) const {
    const bool k_inside = k0 + Cfg::BK <= k_end;
    if constexpr (Cfg::elem_chunks) {
      // Also an operand read element by element (rows not 16-byte aligned): the same addressing,
      // its chunks as cp_async_elem copies (ElemChunks, tiled_gpu_mma.hpp).
      if (k_inside) {
        if (bm + Cfg::BM <= p.M && bn + Cfg::BN <= p.N)
          issue_chunks<false, true>(st, s, k0);
        else
          issue_chunks<true, true>(st, s, k0);
        return;
      }
    }
    if (p.vec_a && p.vec_b && k_inside) {
      if (bm + Cfg::BM <= p.M && bn + Cfg::BN <= p.N)
        issue_interior(st, s, k0);
      else
        issue_edge(st, s, k0);
      return;
    }
    issue_masked(st, s, k0);
  }

  /// issue_interior for a K tile inside the K range of an edge block tile
  /// (rows past M or columns past N): the same chunks and addresses, a
  /// chunk of A whose row lies past M zero-filled, a chunk of B the part
  /// of it before column N copied and the rest zero-filled. A thread's
  /// rows and columns are the same in every K tile, so the bounds cost a
  /// compare per chunk, not the masked path's K arithmetic (the
  /// warp-specialized producers, at 24 registers, ran an edge tile's K
  /// loop at about half the speed of an interior one on the masked path:
  /// docs/performance.md, "Tensor cores, twenty-seventh round").
  KOKKOS_INLINE_FUNCTION void issue_edge(const Scratch& st, const int s, const int k0) const {
    issue_chunks<true>(st, s, k0);
  }

  /// issue() for a K tile of A and B wholly inside (no bounds, no zero
  /// fill): thread tid's chunk l of A is chunk tid + l * Threads of the
  /// tile, in row tid / a_per_row + (l * Threads) / a_per_row at column
  /// tid % a_per_row + (l * Threads) % a_per_row (exact when Threads and
  /// a_per_row divide one another), likewise B's: a base pointer plus a
  /// compile-time step per chunk.
  KOKKOS_INLINE_FUNCTION void issue_interior(const Scratch& st, const int s, const int k0) const {
    issue_chunks<false>(st, s, k0);
  }

  /// issue_interior's chunks, with (Edge) or without the row and column bounds of issue_edge; with
  /// Elems, an operand whose rows are not 16-byte aligned (vec_a / vec_b false) is copied element by
  /// element (cp_async_elem; the ElemChunks tiles: without them such operands take issue_masked's
  /// path on every K tile, its per-chunk row, column and bounds arithmetic included).
  template <bool Edge, bool Elems = false>
  KOKKOS_INLINE_FUNCTION void issue_chunks(const Scratch& st, const int s, const int k0) const {
    static_assert((Threads % a_per_row == 0 || a_per_row % Threads == 0) &&
                      (Threads % b_per_row == 0 || b_per_row % Threads == 0),
                  "a thread's chunks: rows and columns a fixed step apart");
    const int ra = tid / a_per_row, ka = (tid % a_per_row) * VW;
    const int rb = tid / b_per_row, nb = (tid % b_per_row) * VW;
    const T* const ga = p.A + long(bm + ra) * p.lda + (k0 + ka);
    const T* const gb = p.B + long(k0 + rb) * p.ldb + (bn + nb);
    T* const As = st.a(s) + ra * Scratch::lda_s + ka;
    T* const Bs = st.b(s) + rb * Scratch::ldb_s + nb;
    chunks<la>([&](const int l) {
      const int dr = l * Threads / a_per_row, dk = l * Threads % a_per_row * VW;
      if constexpr (Elems) {
        if (!p.vec_a) {
          const bool in = !Edge || dr < p.M - (bm + ra);  // the chunk's row inside C
          elems(As + dr * Scratch::lda_s + dk, ga + long(dr) * p.lda + dk, p.A, in ? VW : 0);
          return;
        }
      }
      if constexpr (Edge) {
        const bool in = dr < p.M - (bm + ra);  // the chunk's row inside C
        cp_async16(As + dr * Scratch::lda_s + dk, in ? ga + long(dr) * p.lda + dk : p.A, in ? 16 : 0);
      } else {
        cp_async16(As + dr * Scratch::lda_s + dk, ga + long(dr) * p.lda + dk, 16);
      }
    });
    chunks<lb>([&](const int l) {
      const int dr = l * Threads / b_per_row, dn = l * Threads % b_per_row * VW;
      if constexpr (Elems) {
        if (!p.vec_b) {
          const int left = Edge ? p.N - (bn + nb + dn) : VW, n = left < 0 ? 0 : (left > VW ? VW : left);  // inside C
          elems(Bs + dr * Scratch::ldb_s + dn, gb + long(dr) * p.ldb + dn, p.B, n);
          return;
        }
      }
      if constexpr (Edge) {
        const int left = p.N - (bn + nb + dn), n = left < 0 ? 0 : (left > VW ? VW : left);  // inside C
        cp_async16(Bs + dr * Scratch::ldb_s + dn, n > 0 ? gb + long(dr) * p.ldb + dn : p.B, n * int(sizeof(T)));
      } else {
        cp_async16(Bs + dr * Scratch::ldb_s + dn, gb + long(dr) * p.ldb + dn, 16);
      }
    });
  }

  /// One chunk element by element: the first n of VW elements from src to dst (cp_async_elem), the
  /// rest zero-filled without a read (from `base`, a valid address of the operand).
  KOKKOS_FORCEINLINE_FUNCTION static void elems(T* const dst, const T* const src, const T* const base, const int n) {
    MMAPP_UNROLL
    for (int q = 0; q < VW; ++q) cp_async_elem<sizeof(T)>(dst + q, q < n ? src + q : base, q < n ? int(sizeof(T)) : 0);
  }

  /// issue() for an edge K tile: per chunk, the part inside the matrix and
  /// the team's K range, the rest zero-filled (file comment of the struct).
  KOKKOS_INLINE_FUNCTION void issue_masked(const Scratch& st, const int s, const int k0) const {
    T* const As = st.a(s);
    T* const Bs = st.b(s);
    chunks<la>([&](const int l) {
      const int c = tid + l * Threads, r = c / a_per_row, kq = (c % a_per_row) * VW;
      const int gr = bm + r, gk = k0 + kq;
      T* const dst = As + r * Scratch::lda_s + kq;
      const int left = gr < p.M ? k_end - gk : 0;  // elements of the chunk inside
      const int n = left < 0 ? 0 : (left > VW ? VW : left);
      if (p.vec_a) {
        cp_async16(dst, n > 0 ? p.A + long(gr) * p.lda + gk : p.A, n * int(sizeof(T)));
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q)
          cp_async_elem<sizeof(T)>(dst + q, q < n ? p.A + long(gr) * p.lda + gk + q : p.A, q < n ? int(sizeof(T)) : 0);
      }
    });
    chunks<lb>([&](const int l) {
      const int c = tid + l * Threads, r = c / b_per_row, nq = (c % b_per_row) * VW;
      const int gk = k0 + r, gc = bn + nq;
      T* const dst = Bs + r * Scratch::ldb_s + nq;
      const int left = gk < k_end ? p.N - gc : 0;
      const int n = left < 0 ? 0 : (left > VW ? VW : left);
      if (p.vec_b) {
        cp_async16(dst, n > 0 ? p.B + long(gk) * p.ldb + gc : p.B, n * int(sizeof(T)));
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q)
          cp_async_elem<sizeof(T)>(dst + q, q < n ? p.B + long(gk) * p.ldb + gc + q : p.B, q < n ? int(sizeof(T)) : 0);
      }
    });
  }
};

/// step(kt, std::integral_constant<int, kt mod S>{}) for kt = 0 .. ktiles - 1, S K tiles per trip
/// (S = 2, 3 or 4), so that every stage index is a compile-time constant.
template <int S, class Step>
KOKKOS_FORCEINLINE_FUNCTION void stage_loop(const int ktiles, const Step& step) {
  static_assert(S >= 2 && S <= 4, "2, 3 or 4 stages");
  for (int kt = 0; kt < ktiles; kt += S) {
    step(kt, std::integral_constant<int, 0>{});
    if (kt + 1 < ktiles) step(kt + 1, std::integral_constant<int, 1>{});
    if constexpr (S > 2)
      if (kt + 2 < ktiles) step(kt + 2, std::integral_constant<int, 2 % S>{});
    if constexpr (S > 3)
      if (kt + 3 < ktiles) step(kt + 3, std::integral_constant<int, 3 % S>{});
  }
}

/// The multistage main loop (file comment) over the K tiles of BK in
/// [k_begin, k_end) of one team: S stages of st, loads by al (an
/// AsyncTileLoader), compute(std::integral_constant<int, s>) the warps'
/// work on stage s. Every thread of the team calls it (team barriers).
template <int S, int BK, class Member, class Scratch, class Loader, class Compute>
KOKKOS_INLINE_FUNCTION void async_mainloop(const Member& team, const Scratch& st, const Loader& al, const int k_begin,
                                           const int k_end, const Compute& compute) {
  static_assert(S >= 2 && S <= 4, "2, 3 or 4 stages");
  const int ktiles = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
  MMAPP_UNROLL
  for (int s = 0; s < S - 1; ++s) {
    if (s < ktiles) al.issue(st, s, k_begin + s * BK);
    cp_async_commit();
  }
  stage_loop<S>(ktiles, [&](const int kt, auto cur) {
    constexpr int Cur = decltype(cur)::value;
    cp_async_wait<S - 2>();
    team.team_barrier();
    if (kt + S - 1 < ktiles) al.issue(st, (Cur + S - 1) % S, k_begin + (kt + S - 1) * BK);
    cp_async_commit();
    compute(cur);
  });
  cp_async_wait<0>();  // only empty groups are left
}

}  // namespace detail
}  // namespace mmapp
