// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/mainloop.hpp — the K loop of one gemm_tiled_warp team (CUTLASS 2.x:
// gemm/threadblock/mma_singlestage.h, mma_pipelined.h): the schedule of the
// global fetches (GlobalTileLoader), scratch stores, barriers and warp MMAs
// (WarpMma) over the team's K tiles [k_begin, k_end) in steps of BK. One
// schedule per Cfg::stages (switch 3 of tiled_gpu_warp.hpp), the fragment
// pipeline (switch 7) across tiles with two stages:
//   0  fetch, store, barrier, MMA, barrier;
//   1  the same with the next tile's fetch in registers during the MMA;
//   2  two scratch stages: while stage s is read, the next tile goes global
//      -> registers -> stage s^1, one barrier per K tile; two K tiles per
//      trip, so that both stages' scratch addresses are compile-time offsets;
//   2 + FragPipe: as 2, and the next tile's step-0 fragments are read right
//      after the barrier, before the FMAs of the current tile's last step.
// Every schedule does the FMAs of every tile's steps in K order: C's bits
// do not depend on the schedule.
#pragma once

#include "kernels/gpu/warp/fragment.hpp"
#include "kernels/gpu/warp/loader.hpp"
#include "kernels/gpu/warp/scratch.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <type_traits>

namespace mmapp {
namespace detail {

/// The K loop of a Cfg (GpuTile) team, by its schedule (file comment). The
/// register fragments (the loader's ra, rb; the warp MMA's two sets fa, fb)
/// are the kernel's local arrays, passed in: a Mainloop holds references to
/// them and to the components, as a lambda capturing by reference would.
/// (Declared here instead, the fragments gave one variant 6 more registers.)
template <class Cfg, class T, class Member>
struct Mainloop {
  using Loader = GlobalTileLoader<Cfg, T>;
  using Stages = ScratchStages<Cfg, T>;
  using Mma = WarpMma<Cfg, T>;
  static constexpr int BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  static_assert(Cfg::stages >= 0 && Cfg::stages <= 2, "stages: 0, 1 or 2");

  /// acc += A(block rows, k_begin:k_end) * B(k_begin:k_end, block columns)
  /// by the schedule of Cfg::stages and Cfg::frag_pipe; every team member
  /// calls it (it holds the team barriers).
  KOKKOS_INLINE_FUNCTION static void run(const Member& team, const Loader& gl, const Stages& st, const Mma& mma,
                                         T (&acc)[TM][TN], typename Loader::FragmentA& ra,
                                         typename Loader::FragmentB& rb, typename Mma::FragmentA (&fa)[2],
                                         typename Mma::FragmentB (&fb)[2], const int k_begin, const int k_end) {
    const Mainloop loop{team, gl, st, mma, acc, ra, rb, fa, fb};
    const int ktiles = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
    if constexpr (Cfg::stages == 2 && Cfg::frag_pipe)
      loop.pipelined_frag(k_begin, ktiles);
    else if constexpr (Cfg::stages == 2)
      loop.pipelined(k_begin, ktiles);
    else if constexpr (Cfg::stages == 1)
      loop.prefetched(k_begin, ktiles);
    else
      loop.single_stage(k_begin, ktiles);
  }

  const Member& team;
  const Loader& gl;
  const Stages& st;
  const Mma& mma;
  T (&acc)[TM][TN];
  typename Loader::FragmentA& ra;
  typename Loader::FragmentB& rb;
  typename Mma::FragmentA (&fa)[2];
  typename Mma::FragmentB (&fb)[2];

  /// Global -> registers: the K tile at k0.
  KOKKOS_INLINE_FUNCTION void fetch(const int k0) const { gl.fetch(k0, ra, rb); }
  /// Registers -> scratch stage s.
  KOKKOS_INLINE_FUNCTION void store(const int s) const { gl.store(st, s, ra, rb); }

  /// Stages = 0: fetch, store, barrier, MMA, barrier per K tile.
  KOKKOS_INLINE_FUNCTION void single_stage(const int k_begin, const int ktiles) const {
    for (int kt = 0; kt < ktiles; ++kt) {
      fetch(k_begin + kt * BK);
      store(0);
      team.team_barrier();
      mma.tile(st, 0, acc, fa, fb);
      team.team_barrier();
    }
  }

  /// Stages = 1: one stage, the next tile's global loads in registers during the MMA.
  KOKKOS_INLINE_FUNCTION void prefetched(const int k_begin, const int ktiles) const {
    if (ktiles > 0) fetch(k_begin);
    for (int kt = 0; kt < ktiles; ++kt) {
      store(0);
      team.team_barrier();
      if (kt + 1 < ktiles) fetch(k_begin + (kt + 1) * BK);
      mma.tile(st, 0, acc, fa, fb);
      team.team_barrier();
    }
  }

  /// Stages = 2: two scratch stages, one barrier per K tile.
  KOKKOS_INLINE_FUNCTION void pipelined(const int k_begin, const int ktiles) const {
    if (ktiles > 0) {
      fetch(k_begin);
      store(0);
    }
    team.team_barrier();
    // One K tile on stage Cur (a compile-time constant: the loop runs two
    // tiles per trip, so the scratch addresses of both stages are fixed
    // offsets, not recomputed per tile).
    auto tile = [&](const int kt, auto cur) {
      constexpr int Cur = decltype(cur)::value;
      const bool more = kt + 1 < ktiles;
      if (more) fetch(k_begin + (kt + 1) * BK);  // in flight during the MMA below
      mma.tile(st, Cur, acc, fa, fb);
      if (more) store(Cur ^ 1);  // the other stage: last read before the previous barrier
      team.team_barrier();
    };
    for (int kt = 0; kt < ktiles; kt += 2) {
      tile(kt, std::integral_constant<int, 0>{});
      if (kt + 1 < ktiles) tile(kt + 1, std::integral_constant<int, 1>{});
    }
  }

  /// Stages = 2 with the fragment pipeline across tiles: one barrier per K
  /// tile, between the FMAs of steps BK-2 and BK-1. Stage cur^1 was last
  /// read (its step BK-1 fragments) before the previous tile's barrier, so
  /// storing it before this barrier is safe; stage cur's last fragments are
  /// read before this barrier, and it is stored again only after it.
  KOKKOS_INLINE_FUNCTION void pipelined_frag(const int k_begin, const int ktiles) const {
    if (ktiles > 0) {
      fetch(k_begin);
      store(0);
    }
    team.team_barrier();
    if (ktiles > 0) mma.load(st, 0, 0, fa[0], fb[0]);
    // The FMAs of steps 0 .. BK-2 of the tile on stage cur, each with the
    // next step's fragments read ahead: step BK-1's are in fa[1], fb[1]
    // when it returns (BK even).
    auto steps = [&](const int cur) {
      MMAPP_UNROLL
      for (int k = 0; k + 1 < BK; ++k) {
        mma.load(st, cur, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
        Mma::fma(acc, fa[k & 1], fb[k & 1]);
      }
    };
    // One tile on stage Cur that is not the last (the next is fetched,
    // stored to the other stage and its step-0 fragments read); Cur a
    // compile-time constant: the loop runs two tiles per trip.
    auto tile = [&](const int kt, auto cur) {
      constexpr int Cur = decltype(cur)::value;
      fetch(k_begin + (kt + 1) * BK);  // in flight during the FMAs below
      steps(Cur);
      store(Cur ^ 1);
      team.team_barrier();
      mma.load(st, Cur ^ 1, 0, fa[0], fb[0]);  // BK even: step 0 uses set 0
      Mma::fma(acc, fa[1], fb[1]);             // step BK-1 of this tile
    };
    int kt = 0;
    for (; kt + 2 < ktiles; kt += 2) {
      tile(kt, std::integral_constant<int, 0>{});
      tile(kt + 1, std::integral_constant<int, 1>{});
    }
    if (kt + 1 < ktiles) {
      tile(kt, std::integral_constant<int, 0>{});
      ++kt;
    }
    if (ktiles > 0) {  // the last tile: nothing to fetch, no barrier
      steps(kt & 1);
      Mma::fma(acc, fa[1], fb[1]);
    }
  }
};

}  // namespace detail
}  // namespace mmapp
