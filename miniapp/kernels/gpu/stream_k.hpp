// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// stream_k.hpp — the Stream-K decomposition of a partial last wave of output
// tiles (M. Osama, D. Merrill, C. Cecka, M. Garland and J. D. Owens,
// "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix
// Multiplication on the GPU", PPoPP 2023, section 4, "data-parallel + one-tile
// Stream-K" hybrid): the tiles of the whole waves run whole, one team each;
// the K tiles (iterations) of the remaining tiles, laid end to end (tile by
// tile, each tile's in K order), are cut into equal runs, one per team of at
// most one wave, so every SM gets the same work however few tiles are left
// (a lone partial wave of 70 tiles on 132 SMs: each team about 0.53 of a
// tile's K loop instead of a whole one). A run crosses at most one tile
// boundary (a run is shorter than a tile), so a stream team computes at most
// two segments: the end of one tile's K loop, then the start of the next's.
// Each segment's partial tile goes to the workspace (team j's segment s at
// slot 2 j + s) and stream_k_reduce sums a tile's segments in ascending team
// order into C: a fixed order, so C's bits do not depend on scheduling (the
// paper fixes up with atomics and flags between teams; a separate sum needs
// no co-residency of teams). Parallel mapping of the reduce: one thread per
// element of the streamed tiles.
#pragma once

#include <Kokkos_Core.hpp>
#include <algorithm>
#include <cstddef>

#include "core/long_range.hpp"
#include "core/types.hpp"
#include "kernels/gpu/aligned_operands.hpp"
#include "kernels/gpu/splitk.hpp"

namespace mmapp {

/// K elements a stream team is charged beyond its run in stream_k_plan's
/// test of whether streaming pays: two partial tiles' stores and their share
/// of the reduce, kSplitTeamOverheadK each.
inline constexpr long kStreamKOverheadK = 2 * kSplitTeamOverheadK;

/// The Stream-K plan of a launch (file comment): tiles 0 .. head-1 whole,
/// tiles head .. head+tiles-1 streamed as tiles x tile_iters K tiles (each
/// tile's K tiles padded to a multiple of the pipeline's stages: the
/// padding is zero-filled) in runs of team_iters (a multiple of the stages,
/// shorter than a tile) over `teams` teams. Inactive (teams 0): every tile
/// whole.
struct StreamKPlan {
  int head = 0;        ///< tiles run whole (the whole waves)
  int tiles = 0;       ///< tiles streamed, after the head
  int tile_iters = 0;  ///< K tiles per streamed tile (padded)
  int team_iters = 0;  ///< K tiles per stream team (the last team's may be fewer)
  int teams = 0;       ///< stream teams (0: no streaming)

  KOKKOS_INLINE_FUNCTION bool active() const { return teams > 0; }
  /// The league: the whole tiles, then the stream teams.
  long league() const { return long(head) + teams; }
  /// Partial tiles the workspace holds: two slots per stream team.
  long partials() const { return 2L * teams; }
};

/// The plan of a launch as its teams read it back from its parameters P
/// (WarpGemmParams: tail_head, the first streamed tile; tiles, all of them;
/// sk_tile_iters; sk_team_iters), for stream_k_segment, which does not read
/// `teams` (left 0).
template <class P>
KOKKOS_INLINE_FUNCTION StreamKPlan stream_k_plan_of(const P& p) {
  StreamKPlan plan;
  plan.head = p.tail_head;
  plan.tiles = p.tiles - p.tail_head;
  plan.tile_iters = p.sk_tile_iters;
  plan.team_iters = p.sk_team_iters;
  return plan;
}

/// One stream segment: streamed tile `tile` (0-based among the streamed
/// tiles), its K tiles [it0, it1) (padded numbering), partial slot `slot`.
struct StreamKSegment {
  int tile, it0, it1, slot;
};

/// Stream team j's segment s (0 or 1) of plan p; false where the team has
/// no such segment (its run ends inside its first tile).
KOKKOS_INLINE_FUNCTION bool stream_k_segment(const StreamKPlan& p, const int j, const int s, StreamKSegment& seg) {
  const long total = long(p.tiles) * p.tile_iters;
  const long g0 = long(j) * p.team_iters, g1 = g0 + p.team_iters < total ? g0 + p.team_iters : total;
  const int u = int(g0 / p.tile_iters), it0 = int(g0 % p.tile_iters);
  const long left = p.tile_iters - it0, first = left < g1 - g0 ? left : g1 - g0;  // K tiles of the first segment
  if (s == 0) {
    seg = {u, it0, it0 + int(first), 2 * j};
    return true;
  }
  if (g0 + first >= g1) return false;
  seg = {u + 1, 0, int(g1 - g0 - first), 2 * j + 1};
  return true;
}

/// The Stream-K plan for `tiles` output tiles of K = `k` on `slots` team
/// slots (teams per SM x SMs) for a kernel with K tiles of `kstep` and a
/// pipeline of `stages` stages (segments start on a stage-0 boundary, so
/// every run and padded tile is a multiple of it): head = the tiles of the
/// whole waves; the rest (rem) streamed, tile_iters = ceil(k / kstep)
/// rounded up to `stages`, team_iters = ceil(rem x tile_iters / teams)
/// rounded up to `stages` for teams = min(slots, kTailMaxTeams / 2), at
/// least kTailMinSliceK of K. Inactive where every wave is whole, or a
/// run with kStreamKOverheadK added is no shorter than a whole tile's K
/// (the last wave nearly full, or K short). C's bits depend on the slots
/// (which tiles stream and where the runs cut them), as with the tail split.
inline StreamKPlan stream_k_plan(const long tiles, const long k, const long slots, const int kstep, const int stages) {
  StreamKPlan p;
  p.head = int(tiles);
  if (slots <= 0 || tiles <= 0 || k <= 0 || kstep <= 0 || stages <= 0) return p;
  const long rem = tiles % slots;
  if (rem == 0) return p;
  using detail::round_up;
  const long tile_iters = round_up((k + kstep - 1) / kstep, stages), total = rem * tile_iters;
  const long teams = std::min(slots, kTailMaxTeams / 2);
  const long run =
      std::max(round_up((total + teams - 1) / teams, stages), round_up((kTailMinSliceK + kstep - 1) / kstep, stages));
  if (run * kstep + kStreamKOverheadK >= tile_iters * kstep) return p;
  p.head = int(tiles - rem);
  p.tiles = int(rem);
  p.tile_iters = int(tile_iters);
  p.team_iters = int(run);
  p.teams = int((total + run - 1) / run);
  return p;
}

/// Bytes of the partial tiles of any Stream-K plan (stream_k_plan, with
/// any slots) of an m x n x k GEMM in BM x BN tiles of T, K tiles of kstep
/// and `stages` stages: two BM x BN tiles per team, for as many teams as
/// runs of the shortest length fit in the K tiles of all tiles, at most
/// kTailMaxTeams / 2; 0 for an empty C or K.
template <class T, int BM, int BN>
std::size_t stream_k_workspace_bytes(const long m, const long n, const long k, const int kstep, const int stages) {
  const long tiles = ((m + BM - 1) / BM) * ((n + BN - 1) / BN);
  if (tiles <= 0 || k <= 0) return 0;
  using detail::round_up;
  const long iters = tiles * round_up((k + kstep - 1) / kstep, stages);
  const long shortest = round_up((kTailMinSliceK + kstep - 1) / kstep, stages);
  const long teams = std::min(kTailMaxTeams / 2, (iters + shortest - 1) / shortest);
  return partials_bytes<T, BM, BN>(2 * teams);
}

/// C(streamed tiles) = the sum of each streamed tile's segments + beta * C,
/// for plan `p` of a launch over BM x BN tiles whose tile index t maps to
/// block coordinates by `coord(t)` (the kernel's swizzle). work: the partial
/// tiles, slot q at work + q * BM * BN, row-major with ld BN, whole tiles
/// (rows and columns past C's hold zeros). Streamed tile u's segments are
/// those of teams floor(u x tile_iters / team_iters) to floor(((u + 1) x
/// tile_iters - 1) / team_iters), summed in that order (a team that started
/// in the tile before holds u in its slot 1). One thread per element
/// (RangePolicy over tiles x BM x BN); elements outside C are skipped.
/// Asynchronous.
template <int BM, int BN, class Space, class T, class Coord>
void stream_k_reduce(const Space& space, const StreamKPlan& p, const T* work, const Matrix<T, Space>& C, const T beta,
                     const Coord coord) {
  if (!p.active()) return;
  const long M = C.extent(0), N = C.extent(1);
  constexpr long elems = long(BM) * BN;
  parallel_for_long(
      "mmapp::gemm_stream_k_reduce", space, long(p.tiles) * elems, KOKKOS_LAMBDA(const long e) {
        const long u = e / elems, r = (e % elems) / BN, c = e % BN;
        const auto b = coord(p.head + int(u));
        const long i = long(b.m) * BM + r, j = long(b.n) * BN + c;
        if (i >= M || j >= N) return;
        const long start = u * p.tile_iters, end = start + p.tile_iters;
        T s = T(0);
        for (long t = start / p.team_iters; t * p.team_iters < end; ++t) {
          const long slot = 2 * t + (t * p.team_iters < start ? 1 : 0);
          const T v = work[slot * elems + r * BN + c];
          s = t == start / p.team_iters ? v : s + v;
        }
        C(i, j) = beta == T(0) ? s : s + beta * C(i, j);
      });
}

}  // namespace mmapp
