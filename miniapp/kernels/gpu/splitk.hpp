// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// splitk.hpp — split-K for the GPU kernels (gemm_tiled_warp, gemv_*): how
// many K slices a problem is cut into, the workspace their partial tiles
// need, and the deterministic sum of the slices (splitk_reduce). K is cut
// into chunks of Kc; a team computes one output tile over one chunk and
// writes its partial tile to the workspace (slice s at work + s*M*N); the
// slices are then summed in a fixed order (groups of consecutive slices in
// ascending order, then the group sums in ascending order; the groups depend
// on S alone). Every partial is made by one team with a fixed sequence of
// operations and the sum's order is fixed, so C's bits do not depend on
// scheduling or team size; S depends on K and Kc only (not on M, N or the
// device), so a row split across MPI ranks gives the same bits too. The
// wave-balanced split (WaveSplit, splitk_wave_slices) is the exception: it
// picks S from the tile count and the device's team slots, to fill waves.
// SplitKPlan is the host-side prologue every split-K kernel starts with (S,
// the K chunk, where the partials go, the workspace check) and the reduce it
// ends with. Parallel mapping of splitk_reduce: see its comment.
#pragma once

#include "core/exec_spaces.hpp"
#include "core/long_range.hpp"
#include "core/types.hpp"
#include "kernels/gpu/chunk.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mmapp {
/// Largest split-K workspace a variant asks for; a problem that would need
/// more runs unsplit (S = 1).
inline constexpr std::size_t kSplitKMaxBytes = std::size_t(1) << 30;

/// Number of K slices of a split-K variant with chunk `kc` for an m x n x k
/// problem of `elem`-byte elements: ceil(k / kc), or 1 when kc <= 0, k <= kc
/// or the S partial m x n tiles would exceed kSplitKMaxBytes. Below that cap
/// S depends on k and kc only, so a row split across ranks keeps C's bits
/// (see the file comment).
inline int splitk_slices(long m, long n, long k, int kc, std::size_t elem) {
  if (kc <= 0 || k <= kc) return 1;
  const long s = (k + kc - 1) / kc;
  return double(s) * double(m) * double(n) * double(elem) > double(kSplitKMaxBytes) ? 1 : int(s);
}

/// K elements per slice of a wave-balanced split into `slices` slices:
/// ceil(k / slices) rounded up to a multiple of gcd(kc, 64) (splitk_chunk
/// is this capped at kc); k when slices <= 1. The slices it
/// makes are ceil(k / chunk) <= `slices`, none empty.
inline int splitk_wave_chunk(long k, int kc, int slices) {
  if (slices <= 1) return int(k);
  const int g = std::gcd(kc, 64);
  const long even = (k + slices - 1) / slices;
  return int((even + g - 1) / g * g);
}

/// K elements per slice when K is cut into `slices` = splitk_slices(...)
/// slices with chunk kc: the slices nearly equal, ceil(k / slices) rounded
/// up to a multiple of gcd(kc, 64) (every kernel's K tile and 16-byte chunk
/// divides both kc and 64, so each slice starts on a K tile and a chunk),
/// instead of slices of kc and a short last one (K = 2049, kc = 1024: 704,
/// 704 and 641 rather than 1024, 1024 and 1: the teams of the last slice no
/// longer idle through a wave of their own). At most kc, so the slices stay
/// `slices` (and no slice is empty): (slices - 1) * kc < k. Depends on k and
/// kc alone, like splitk_slices (the file comment's bits). k when slices <= 1.
inline int splitk_chunk(long k, int kc, int slices) {
  return slices <= 1 ? int(k) : std::min(kc, splitk_wave_chunk(k, kc, slices));
}

/// K elements a team is charged beyond its K slice in splitk_wave_slices'
/// estimate (its pipeline's fill and drain, its partial tile's store): the
/// fixed cost the wgmma tile's split times were fitted with
/// (shape_rule.cpp, kWgmmaTeamOverheadK; H200, 2026-11-25).
inline constexpr long kSplitTeamOverheadK = 128;

/// The estimated time of a launch of `tiles` output tiles x `slices` K slices
/// of `chunk` elements each on `slots` team slots (teams per SM x SMs): its
/// waves of teams, a partial last wave costing a whole one, x (chunk +
/// kSplitTeamOverheadK), in K elements (splitk_wave_slices' measure).
inline double splitk_waves_estimate(long tiles, long slices, long chunk, long slots) {
  return double((tiles * slices + slots - 1) / slots) * double(chunk + kSplitTeamOverheadK);
}

/// Slices of a wave-balanced split (a variant's split_waves, WaveSplit):
/// of tiles output tiles x S slices on `slots` team slots (teams per SM x
/// SMs), the S in [1, max_slices] with the least estimated time
/// ceil(tiles x S' / slots) x (chunk + kSplitTeamOverheadK), chunk =
/// splitk_wave_chunk(k, kc, S) and S' = ceil(k / chunk) the slices it makes
/// (waves of teams, a partial last wave costing a whole one: NVIDIA,
/// "Matrix Multiplication Background User's Guide", "Wave Quantization";
/// the fixed cost per team keeps S from growing past what fills the
/// waves); ties go to fewer slices. Returns S' (1: no split). max_slices:
/// splitk_slices(m, n, k, kc, elem), so the workspace of the fixed split by
/// kc holds the partials. Unlike the fixed split, S depends on the tiles
/// and the device's slots: C's bits may differ between devices and row
/// splits (the shape rule's choice of variant already does).
inline int splitk_wave_slices(long tiles, long k, int kc, int max_slices, long slots) {
  if (max_slices <= 1 || tiles <= 0 || slots <= 0) return 1;
  int best = 1;
  double best_time = splitk_waves_estimate(tiles, 1, k, slots);
  for (int s = 2; s <= max_slices; ++s) {
    const long chunk = splitk_wave_chunk(k, kc, s);
    const long made = (k + chunk - 1) / chunk;
    const double time = splitk_waves_estimate(tiles, made, chunk, slots);
    if (time < best_time) best = int(made), best_time = time;
  }
  return best;
}

/// The slots a wave-balanced split fills: `tiles` output tiles of the GEMM
/// and `slots` = teams per SM x SMs (0: the fixed split by Kc).
struct SplitWaves {
  long tiles = 0;
  long slots = 0;
};

/// Cfg (a GpuTile, GpuMmaTile or GpuWgmmaTile with split_kc > 0) with K split into
/// the slices that fill its teams' waves (splitk_wave_slices: chunks of
/// about k / S, S at most ceil(k / split_kc)) instead of chunks of
/// split_kc. Its tag says "wsplit" where Cfg's says "splitk".
template <class Cfg>
struct WaveSplit : Cfg {
  static_assert(Cfg::split_kc > 0, "a wave-balanced split: chunks of at least split_kc");
  static constexpr bool split_waves = true;
};

/// The SplitWaves of a call of a kernel with configuration Cfg (BM x BN
/// block tiles, min_blocks teams per SM, split_waves) on an M x N C on
/// `space`: its tiles and min_blocks x gpu_sm_estimate(space) slots when
/// Cfg is a WaveSplit, else none (the fixed split).
template <class Cfg, class Space>
SplitWaves split_waves_of(const Space& space, const long M, const long N) {
  if constexpr (!Cfg::split_waves) {
    (void)space, (void)M, (void)N;
    return {};
  } else {
    return {((M + Cfg::BM - 1) / Cfg::BM) * ((N + Cfg::BN - 1) / Cfg::BN), Cfg::min_blocks * gpu_sm_estimate(space)};
  }
}

/// Most teams a tail split (tail_split_plan) gives the last wave's tiles:
/// its partial tiles' workspace is at most this many BM x BN tiles (64 MiB
/// of 128x128 double tiles), whatever the device's slots.
inline constexpr long kTailMaxTeams = 512;
/// Least K elements per slice of a tail split: a slice shorter than this
/// would spend more on its pipeline's fill and its partial tile's store than
/// it saves (kSplitTeamOverheadK's order).
inline constexpr long kTailMinSliceK = 128;

/// The tail split of a launch of `tiles` whole-K teams on `slots` team
/// slots (teams per SM x SMs): the tiles of the whole waves (head) run
/// whole, the `tiles` mod `slots` tiles of the partial last wave are each
/// cut into `slices` K slices of `kc` elements (the last one shorter) that
/// run side by side in that wave, their partial tiles summed afterwards
/// (tail_split_reduce). This is the "data-parallel + one-tile Stream-K"
/// hybrid of M. Osama, D. Merrill, C. Cecka, M. Garland and J. D. Owens,
/// "Stream-K: Work-centric Parallel Decomposition for Dense Matrix-Matrix
/// Multiplication on the GPU", PPoPP 2023, section 4 (the whole waves
/// data-parallel, the remainder split in K), here with a fixed-order sum
/// instead of the paper's fix-up by atomics.
struct TailSplitPlan {
  int head = 0;    ///< tiles 0 .. head-1 run whole (the whole waves)
  int tiles = 0;   ///< tiles head .. head+tiles-1 are split (the last wave's)
  int slices = 1;  ///< K slices per split tile (1: no tail split)
  int kc = 0;      ///< K elements per slice

  bool active() const { return slices > 1; }
  /// The league: the whole tiles, then the split tiles' slices.
  long teams() const { return long(head) + long(tiles) * slices; }
  /// Partial tiles the split writes (tiles x slices; 0 without a split).
  long partials() const { return active() ? long(tiles) * slices : 0; }
};

/// tail_split_plan for `tiles` tiles of K = `k` on `slots` slots, slices
/// on multiples of gcd(kstep, 64) (kstep: the kernel's K tile): where at
/// least one wave is whole and the last is not, the rem = tiles mod slots
/// last tiles are cut into S = min(slots / rem, kTailMaxTeams / rem,
/// k / kTailMinSliceK) slices of splitk_wave_chunk(k, kstep, S) (the slices
/// it makes: at most S, none empty), so that the split tiles' teams fill at
/// most one wave. No split (slices 1, head = tiles) where S < 2: the last
/// wave is more than half full, K is short, or there is no whole wave.
/// The sum of a split tile's slices has another order than the whole K
/// loop's, and which tiles are split depends on the device's slots: C's
/// bits may differ between devices (as with the wave split, WaveSplit).
inline TailSplitPlan tail_split_plan(const long tiles, const long k, const long slots, const int kstep) {
  TailSplitPlan p;
  p.head = int(tiles);
  if (slots <= 0 || tiles <= slots || tiles % slots == 0) return p;
  const long rem = tiles % slots;
  const long s = std::min({slots / rem, kTailMaxTeams / rem, k / kTailMinSliceK});
  if (s < 2) return p;
  const int chunk = splitk_wave_chunk(k, kstep, int(s));
  const long made = (k + chunk - 1) / chunk;
  if (made < 2) return p;
  p.head = int(tiles - rem);
  p.tiles = int(rem);
  p.slices = int(made);
  p.kc = chunk;
  return p;
}

/// Bytes of `partials` partial tiles of BM x BN T (row-major, one after the
/// other at the workspace's start): what a tail split or a Stream-K plan
/// writes there.
template <class T, int BM, int BN>
constexpr std::size_t partials_bytes(const long partials) {
  return std::size_t(partials) * BM * BN * sizeof(T);
}

/// Bytes of a tail split's partial tiles for an m x n x k GEMM in BM x BN
/// tiles on any device: kTailMaxTeams tiles of BM x BN T (tail_split_plan
/// never makes more), 0 where no split can be made (fewer than two tiles,
/// or K under two slices of kTailMinSliceK).
template <class T, int BM, int BN>
std::size_t tail_split_workspace_bytes(const long m, const long n, const long k) {
  const long tiles = ((m + BM - 1) / BM) * ((n + BN - 1) / BN);
  if (tiles < 2 || k < 2 * kTailMinSliceK) return 0;
  return partials_bytes<T, BM, BN>(kTailMaxTeams);
}

/// Whether a GEMM's workspace `work` (a byte view, GemmArgs::work) holds
/// `partials` partial tiles of BM x BN T at its start, 16-byte aligned: where
/// a tail split or a Stream-K plan may write them (a workspace sized for
/// another shape: no such plan, the same result).
template <class T, int BM, int BN, class Work>
bool partials_fit(const Work& work, const long partials) {
  return std::size_t(work.extent(0)) >= partials_bytes<T, BM, BN>(partials) &&
         detail::aligned_to(work.data(), 16);
}

/// C(tile rows and columns) = the sum of each split tile's slices + beta *
/// C, for the tail split `tail` of a launch over tiles_m x tiles_n BM x BN
/// tiles whose tile index t maps to block coordinates by `coord(t)` (the
/// kernel's swizzle). work: the partial tiles, split tile u's slice s at
/// work + (u * slices + s) * BM * BN, row-major with ld BN, whole tiles
/// (rows and columns past C's hold zeros). One thread per element of the
/// split tiles (RangePolicy over tiles x BM x BN), the slices summed in
/// ascending order: a fixed order, so the bits do not depend on
/// scheduling. Elements outside C are skipped. Asynchronous.
template <int BM, int BN, class Space, class T, class Coord>
void tail_split_reduce(const Space& space, const TailSplitPlan& tail, const T* work, const Matrix<T, Space>& C,
                       const T beta, const Coord coord) {
  if (!tail.active()) return;
  const long M = C.extent(0), N = C.extent(1);
  const int head = tail.head, slices = tail.slices;
  constexpr long elems = long(BM) * BN;
  parallel_for_long(
      "mmapp::gemm_tail_split_reduce", space, long(tail.tiles) * elems, KOKKOS_LAMBDA(const long e) {
        const long u = e / elems, r = (e % elems) / BN, c = e % BN;
        const auto b = coord(head + int(u));
        const long i = long(b.m) * BM + r, j = long(b.n) * BN + c;
        if (i >= M || j >= N) return;
        const T* const p = work + u * slices * elems + r * BN + c;
        T s = p[0];
        for (int q = 1; q < slices; ++q) s += p[q * elems];
        C(i, j) = beta == T(0) ? s : s + beta * C(i, j);
      });
}

/// Workspace of a split-K variant (chunk Kc) for an m x n x k problem: S
/// partial m x n tiles of T, S = splitk_slices(m, n, k, Kc, sizeof(T)); 0
/// when S == 1.
template <class T, int Kc>
std::size_t splitk_workspace_bytes(long m, long n, long k) {
  const int s = splitk_slices(m, n, k, Kc, sizeof(T));
  return s > 1 ? std::size_t(s) * std::size_t(m) * std::size_t(n) * sizeof(T) : 0;
}

/// Level-1 group length of splitk_reduce for S slices: max(8, ceil(S / 256))
/// consecutive slices per group, so there are at most 256 groups. A function
/// of S alone: the partition, hence C's bits, never depends on the device,
/// the team size or the order in which teams run.
KOKKOS_INLINE_FUNCTION int splitk_group_len(const int slices) {
  const int l = (slices + 255) / 256;
  return l > 8 ? l : 8;
}

/// Element e of the sum of S slices (slice s's at work[s * slice_elems + e]) in
/// splitk_reduce's order: with L = splitk_group_len(S), each group of L
/// consecutive slices summed in ascending order, then the group sums in
/// ascending order (S <= L: one group, the slices in ascending order). One
/// thread does the whole sum; splitk_reduce's team form computes the same
/// operations, so both give the same bits. load(p): how an element is read.
template <class T, class Load>
KOKKOS_INLINE_FUNCTION T splitk_ordered_sum(const T* work, const long slice_elems, const int slices, const long e,
                                            const Load& load) {
  const int L = splitk_group_len(slices);
  T total = T(0);
  for (int s0 = 0; s0 < slices; s0 += L) {
    const int s1 = s0 + L < slices ? s0 + L : slices;
    T g = load(work + long(s0) * slice_elems + e);
    for (int p = s0 + 1; p < s1; ++p) g += load(work + long(p) * slice_elems + e);
    total = s0 == 0 ? g : total + g;
  }
  return total;
}

/// C = sum_{s=0}^{S-1} work[s] + beta * C, in a fixed order (deterministic).
/// work: S consecutive row-major M x N partials (ld N) in Space's memory; C:
/// M x N, any row stride; beta == 0: C not read. Asynchronous.
/// The order: with L = splitk_group_len(S) and G = ceil(S / L),
///   group g = ((w[gL] + w[gL+1]) + ...) + w[min(gL+L, S) - 1],
///   C     = ((group 0 + group 1) + ...) + group G-1   (+ beta C).
/// G == 1 (S <= 8): one thread per element of C (RangePolicy over M*N).
/// G > 1: a two-level team reduction: a team takes E = max(1, 256 / G)
/// consecutive elements; its threads (TeamThreadRange over E*G (element,
/// group) pairs) sum the groups into scratch, a barrier, then one thread per
/// element adds the G group sums in order. Which thread computes a group
/// changes nothing in the sum, so any team size gives the same bits. This
/// keeps problems with many slices and few outputs (a dot product: one
/// output, hundreds of slices) from summing every slice in one thread.
template <class Space, class T>
void splitk_reduce(const Space& space, const T* work, int slices, const Matrix<T, Space>& C, T beta) {
  const long M = C.extent(0), N = C.extent(1);
  const long mn = M * N;
  const int L = splitk_group_len(slices), G = (slices + L - 1) / L;
  if (G == 1) {
    parallel_for_long(
        "mmapp::gemm_splitk_reduce", space, mn, KOKKOS_LAMBDA(const long e) {
          const T s = splitk_ordered_sum(work, mn, slices, e, [](const T* p) { return *p; });
          const long i = e / N, j = e % N;
          C(i, j) = beta == T(0) ? s : s + beta * C(i, j);
        });
    return;
  }
  const int E = std::max(1, 256 / G);  // elements per team: the mapping only, not the order
  const long teams = (mn + E - 1) / E;
  const std::size_t scratch_bytes = std::size_t(E) * G * sizeof(T);
  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  const auto f = KOKKOS_LAMBDA(const member_t& team) {
    T* const red = static_cast<T*>(team.team_shmem().get_shmem(scratch_bytes));
    const long e0 = long(team.league_rank()) * E;
    // Level 1: group g of element e0 + el, slices in ascending order.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, E * G), [&](const int it) {
      const int el = it % E, g = it / E;
      const long e = e0 + el;
      if (e >= mn) return;
      const int s0 = g * L, s1 = s0 + L < slices ? s0 + L : slices;
      T s = work[long(s0) * mn + e];
      for (int p = s0 + 1; p < s1; ++p) s += work[long(p) * mn + e];
      red[g * E + el] = s;
    });
    team.team_barrier();
    // Level 2: the G group sums of each element in ascending order.
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, E), [&](const int el) {
      const long e = e0 + el;
      if (e >= mn) return;
      T s = red[el];
      for (int g = 1; g < G; ++g) s += red[g * E + el];
      const long i = e / N, j = e % N;
      C(i, j) = beta == T(0) ? s : s + beta * C(i, j);
    });
  };
  policy_t probe(space, teams, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  const int team_size = std::min({256, E * G, probe.team_size_max(f, Kokkos::ParallelForTag())});
  policy_t policy(space, teams, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for("mmapp::gemm_splitk_reduce2", policy, f);
}

/// Tickets of the in-launch sum (LastTeamSum): one counter per output tile of
/// a launch; a launch with more tiles sums its slices with splitk_reduce.
inline constexpr int kSplitKTickets = 4096;

/// The kSplitKTickets counters of the in-launch sum in Space's memory, zero
/// between launches: created (zeroed, fenced) on the first call, as the
/// cuBLAS handle is (vendor_blas.cpp), so in a run's warm-up, and released
/// when Kokkos finalizes. Each launch that uses them leaves each counter it
/// took at zero (splitk_last_team_sum); launches that use them must not
/// overlap (mmapp runs its GEMMs on one execution space instance).
template <class Space>
unsigned* splitk_tickets() {
  using View = Kokkos::View<unsigned*, typename Space::memory_space>;
  static View* tickets = nullptr;
  if (tickets == nullptr) {
    tickets = new View("mmapp::splitk_tickets", kSplitKTickets);
    Kokkos::deep_copy(*tickets, 0u);
    Kokkos::fence();
    Kokkos::push_finalize_hook([] {
      delete tickets;
      tickets = nullptr;
    });
  }
  return tickets->data();
}

/// *p read through the L2 cache, past the SM's L1 (CUDA: __ldcg): a partial
/// tile another team wrote in the same launch. A plain load elsewhere.
template <class T>
KOKKOS_INLINE_FUNCTION T splitk_load_cg(const T* p) {
#if defined(__CUDA_ARCH__)
  return __ldcg(p);
#else
  return *p;
#endif
}

/// The in-launch sum of a split-K tile (LastTeamSum), called by every
/// thread of a team of TeamSize threads after its slice's partial of output
/// tile `tile` (block rows bm.., columns bn.., BM x BN, clipped to M x N) is
/// stored in `work` (slice s's M x N partial at work + s * M * N,
/// row-major, ld N). Every thread fences its stores, then one thread takes
/// a ticket of the tile (tickets[tile], an atomic increment): the team that
/// takes the last of the S tickets resets it to zero and, alone, sums the
/// tile's S partials into C in splitk_ordered_sum's order (splitk_reduce's:
/// the same bits as the separate launch it saves), C(i, j) = sum + beta *
/// C(i, j) (beta == 0: C not read); the other teams return. The pattern of
/// the CUDA C++ Programming Guide's memory fence example ("Memory Fence
/// Functions": the last block to finish sums the partial results; the CUDA
/// sample threadFenceReduction). No team waits for another: no co-residency
/// of teams is needed. The sum's mapping: each thread sums up to 16 float
/// (8 double) elements of the tile at once (thread r's are r, r + TeamSize,
/// ...: coalesced), reading 4 slices of all of them before adding them, so
/// that 64 (32) of its loads are in flight together: about S / 4 L2 round
/// trips per batch instead of one per element. Still slower than the
/// separate launch on an H200 (2026-11-29, docs/performance.md, "Tensor
/// cores, thirty-first round": a median 8-9 us more on GEMMs under 60 us,
/// up to 140 us more for one tile in 100 slices, where one team sums what a
/// launch spreads over every SM). C: row stride ldc, elements.
template <int BM, int BN, int TeamSize, class Member, class T>
KOKKOS_INLINE_FUNCTION void splitk_last_team_sum(const Member& team, unsigned* const tickets, const int tile,
                                                 const int slices, const T* const work, T* const C, const long ldc,
                                                 const int M, const int N, const int bm, const int bn, const T beta) {
  Kokkos::memory_fence();  // this thread's partial stores, visible device-wide before the ticket
  team.team_barrier();
  int last = 0;
  Kokkos::single(
      Kokkos::PerTeam(team),
      [&](int& l) {
        l = Kokkos::atomic_fetch_add(&tickets[tile], 1u) == unsigned(slices - 1) ? 1 : 0;
        if (l) Kokkos::atomic_exchange(&tickets[tile], 0u);
      },
      last);
  if (!last) return;
  Kokkos::memory_fence();  // the other teams' partials, read after their tickets
  static_assert(double(BM) * BN * kSplitKTickets < 2147483648.0,
                "a slice's offsets in int: at most kSplitKTickets tiles");
  constexpr int per_thread = (BM * BN + TeamSize - 1) / TeamSize;
  constexpr int most = 64 / int(sizeof(T));                     // 16 float, 8 double: 64 loads of 4 slices
  constexpr int batch = per_thread < most ? per_thread : most;  // elements a thread sums at once
  constexpr int depth = 4;                                      // slices of them read at once
  const long mn = long(M) * N;
  const int L = splitk_group_len(slices);
  for (int b0 = 0; b0 < per_thread; b0 += batch) {
    int at[batch];  // the elements' offset in a slice (M N < 2^31: few tiles), -1 outside C
    T total[batch], g[batch];
    MMAPP_UNROLL
    for (int u = 0; u < batch; ++u) {
      const int idx = team.team_rank() + (b0 + u) * TeamSize;
      const int i = bm + idx / BN, j = bn + idx % BN;
      at[u] = b0 + u < per_thread && idx < BM * BN && i < M && j < N ? i * N + j : -1;
      total[u] = T(0);
    }
    for (int s0 = 0; s0 < slices; s0 += L) {  // splitk_ordered_sum's groups, element by element the same order
      const int s1 = s0 + L < slices ? s0 + L : slices;
      for (int p0 = s0; p0 < s1; p0 += depth) {
        T v[depth][batch];  // depth slices' loads in flight before the first add
        MMAPP_UNROLL
        for (int d = 0; d < depth; ++d) {
          const T* const w = work + long(p0 + d) * mn;
          MMAPP_UNROLL
          for (int u = 0; u < batch; ++u) v[d][u] = p0 + d < s1 && at[u] >= 0 ? splitk_load_cg(w + at[u]) : T(0);
        }
        MMAPP_UNROLL
        for (int d = 0; d < depth; ++d) {
          if (p0 + d >= s1) break;
          MMAPP_UNROLL
          for (int u = 0; u < batch; ++u) g[u] = p0 + d == s0 ? v[d][u] : g[u] + v[d][u];
        }
      }
      MMAPP_UNROLL
      for (int u = 0; u < batch; ++u) total[u] = s0 == 0 ? g[u] : total[u] + g[u];
    }
    MMAPP_UNROLL
    for (int u = 0; u < batch; ++u) {
      if (at[u] < 0) continue;
      const long i = at[u] / N, j = at[u] % N;
      T* const c = C + i * ldc + j;
      *c = beta == T(0) ? total[u] : total[u] + beta * *c;
    }
  }
}

/// Cfg (a split-K GpuMmaTile, any form but the tail split, Stream-K and
/// producer warps) whose slices are summed inside the GEMM's launch by the
/// last team of each tile (splitk_last_team_sum) instead of by a second
/// launch (splitk_reduce): the same bits, one launch fewer, but slower on
/// an H200 (splitk_last_team_sum's comment): the catalog lists it in the
/// ladder only. Launches of more than kSplitKTickets tiles keep the second
/// launch. Its tag adds "lsum".
template <class Cfg>
struct LastTeamSum : Cfg {
  static_assert(Cfg::split_kc > 0 && !Cfg::tail_split && !Cfg::stream_k && Cfg::producers == 0,
                "the in-launch sum: a split-K tile without the tail split, Stream-K or producer warps");
  static constexpr bool last_team_sum = true;
};

/// The split-K plan of one call of a GPU kernel with K chunk Kc (0: no
/// split): S = splitk_slices(M, N, K, Kc, sizeof(T)) slices of kc =
/// splitk_chunk(K, Kc, S) K elements each (the last one shorter; kc = K
/// when S == 1), or with `waves` (slots > 0: a wave-balanced split) S =
/// splitk_wave_slices(waves.tiles, K, Kc, that S, waves.slots) slices of
/// splitk_wave_chunk(K, Kc, S); with S > 1 the kernel writes slice
/// s's partial M x N tile, row-major with ld N, at work + s * M * N, and
/// reduce() sums them into C; with S == 1 it writes C itself (out, ldo).
/// M, N, K from args (C M x N, A M x K). Throws std::runtime_error
/// "<kernel>: split-K workspace too small or misaligned" when S > 1 and
/// args.work is under S * M * N * sizeof(T) bytes or not 16-byte aligned.
template <class T>
struct SplitKPlan {
  int slices;        ///< S
  int kc;            ///< K elements per slice
  T* work;           ///< args.work's data: the partials when S > 1
  T* out;            ///< where a team's output tile goes: work (S > 1) or C's data
  long ldo;          ///< out's leading dimension (elements): N (S > 1) or C's row stride
  long slice_elems;  ///< M * N: elements between slices in work

  template <class Space>
  SplitKPlan(const char* kernel, const GemmArgs<Space, T>& args, const int Kc, const SplitWaves waves = {}) {
    const int M = args.C.extent(0), N = args.C.extent(1), K = args.A.extent(1);
    slices = splitk_slices(M, N, K, Kc, sizeof(T));
    if (waves.slots > 0) {
      slices = splitk_wave_slices(waves.tiles, K, Kc, slices, waves.slots);
      kc = splitk_wave_chunk(K, Kc, slices);
    } else {
      kc = splitk_chunk(K, Kc, slices);
    }
    work = reinterpret_cast<T*>(args.work.data());
    if (slices > 1 && (args.work.extent(0) < std::size_t(slices) * M * N * sizeof(T) ||
                       !detail::aligned_to(work, 16)))
      throw std::runtime_error(std::string(kernel) + ": split-K workspace too small or misaligned");
    out = slices > 1 ? work : args.C.data();
    ldo = slices > 1 ? long(N) : long(args.C.stride(0));
    slice_elems = long(M) * N;
  }

  /// Bytes of args.work the partials take: S * M * N * sizeof(T) when S > 1, else 0.
  std::size_t work_bytes() const { return slices > 1 ? std::size_t(slices) * std::size_t(slice_elems) * sizeof(T) : 0; }

  /// With S > 1: C = the slices' sum + beta * C (splitk_reduce, asynchronous); nothing otherwise.
  template <class Space>
  void reduce(const Space& space, const Matrix<T, Space>& C, const T beta) const {
    if (slices > 1) splitk_reduce<Space, T>(space, work, slices, C, beta);
  }
};

}  // namespace mmapp
