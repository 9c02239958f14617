// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// shape_rule.cpp — the GPU and host shape rules (see shape_rule.hpp).
#include "kernels/shape_rule.hpp"

#include "kernels/gpu/aligned_operands.hpp"  // operand_copied: which misaligned operands the kernels copy
#include "kernels/gpu/splitk.hpp"            // splitk_slices: how many K slices a split variant makes
#include "kernels/gpu/stream_k.hpp"          // stream_k_plan: where Stream-K streams the last wave

#include <algorithm>
#include <cstdio>

namespace mmapp {

namespace {

/// Tiles of `t` covering an m x n C.
long tiles_of(const RuleTile& t, long m, long n) { return ((m + t.bm - 1) / t.bm) * ((n + t.bn - 1) / t.bn); }

/// The fraction of `tiles` tiles of `t` that an m x n C fills.
double use_of(const RuleTile& t, long tiles, long m, long n) {
  return double(m) * double(n) / (double(tiles) * t.bm * t.bn);
}

/// Waves of `teams` teams, `slots` at a time.
long waves_of(long teams, long slots) { return (teams + slots - 1) / slots; }

/// The fraction of its waves' slots that `teams` teams fill, `slots` at a time.
double wave_fill(long teams, long slots) {
  const long waves = waves_of(teams, slots);
  return waves > 0 ? double(teams) / double(waves * slots) : 1.0;
}

/// The K split of `t` on an m x n x k C of `elem`-byte elements, `slots` teams at a time: its
/// slices and K elements per slice, as the kernel's SplitKPlan makes them (splitk.hpp: chunks of
/// t.split_kc, or with t.waves the slices that fill the waves); {1, k} when t is not split.
struct RuleSplit {
  int slices;
  long chunk;
};
RuleSplit rule_split(const RuleTile& t, long m, long n, long k, std::size_t elem, long slots) {
  if (t.split_kc <= 0) return {1, k};
  const int fixed = splitk_slices(m, n, k, t.split_kc, elem);
  if (!t.waves) return {fixed, splitk_chunk(k, t.split_kc, fixed)};
  const int s = splitk_wave_slices(tiles_of(t, m, n), k, t.split_kc, fixed, slots);
  return {s, splitk_wave_chunk(k, t.split_kc, s)};
}

/// The rule's choice and its reason for the report.
GpuRuleChoice chose(GpuRuleChoice c, const std::string& rule, std::string* why) {
  if (why) *why = "shape rule: " + rule;
  return c;
}

/// Steps 0-2: GEMV-like shapes (M or N tiny); `none` when the shape is not one.
GpuRuleChoice gemv_like(bool is_double, long m, long n, std::string* why) {
  using C = GpuRuleChoice;
  if (m == 1 && n == 1) return chose(C::gemv_dot, "M = N = 1: gemv_dot, K split by 8192", why);
  if (m <= 8 || (is_double && m <= 16))
    return m == 1  ? chose(C::gemv_cols_1, "M = 1: gemv_cols, K split by 256", why)
           : m <= 8 ? chose(C::gemv_cols_8, "M <= 8: gemv_cols, K split by 256", why)
                    : chose(C::gemv_cols_8, "M <= 16 (double): gemv_cols in groups of 8 rows, K split by 256", why);
  if (n == 1) return chose(C::gemv_rows_1, "N = 1: gemv_rows, K split by 2048", why);
  if (is_double && n <= 4) return chose(C::gemv_rows_4, "N <= 4: gemv_rows, 4 rows per member", why);
  if (n <= 8) return chose(C::small_splitk, "N <= 8: small tile, K split by 1024", why);
  return C::none;
}

/// Step 3 (float): whether the 128x256 tile fills its tiles and their waves,
/// with K long enough. (Rows of A and B that are not 16-byte aligned are
/// copied to aligned ones by the kernel: aligned_operands.hpp.)
bool huge_fits(long m, long n, long k, long sms) {
  const RuleTile& h = rule_tiles::kFloatHuge;
  const long tiles = tiles_of(h, m, n);
  return use_of(h, tiles, m, n) >= 0.75 && wave_fill(tiles, sms) >= 0.9 && k >= 512;
}

// The DMMA tiles' measured fraction of cuBLAS DGEMM on large squares (one
// H200, 2026-11-24, docs/performance.md "Tensor cores (issue 21)"): the
// deep 128x64x16 tile 0.82-0.91, the register-path 128x64x8 and 64x64x16
// tiles 0.71-0.76; and the slack the big tile is given against the small
// one (the estimate's spread: on large squares the two differ by a partial wave).
constexpr double kDmmaDeepEfficiency = 0.88;
constexpr double kDmmaEfficiency = 0.75;
constexpr double kDmmaBigSlack = 1.1;
// K up to which the big deep tile runs on m16n8k8 rather than m16n8k4: at
// 16384 x 16384 x 64 the m16n8k8 form reached 74.7% of cuBLAS DGEMM and the
// m16n8k4 one 63.1% (H200, 2026-11-24, docs/performance.md). Since the thirty-fifth round the big
// deep tile runs at K <= 768 only where its tiles fit one wave (kDmmaSmallDeepMaxK).
constexpr long kDmmaShortK = 128;
// Up to K 768 (one slice of 1024), the 64x64 deep tile at three teams per SM (dmma_small_splitk_deep,
// K in one slice) where the deep 128x64 tile would run, but where the 128x64 tiles fit one wave of
// two per SM and the 64x64 tiles take more than one of three. One H200, 2026-11-29
// (docs/performance.md, "Tensor cores, thirty-fourth round" call 5 and "thirty-fifth round" call
// 1, `tile: auto`, ms, the deep 128x64 tile -> the 64x64 deep tile): 3000^2 x 64 0.058 -> 0.043,
// 3000^2 x 160 0.099 -> 0.078, 5000 x 1300 x 560 0.209 -> 0.179, 10000^2 x 300 1.432 -> 1.337,
// 3000 x 6000 x 768 0.594 -> 0.570, 4096^2 x 16 0.056 -> 0.049, 3000 x 5000 x 48 0.074 -> 0.060,
// 2048 x 10000 x 62 0.122 -> 0.099, 1536^2 x 400 0.095 -> 0.060; 1200 x 5000 x 480 (790 tiles: 3
// full waves) 0.142 -> 0.146 the one loss over a wave. One wave of 128x64 tiles against two of
// 64x64 ones: 128 x 16384 x 300 (256 tiles) 0.046 -> 0.047, 200 x 8192 x 300 0.042 -> 0.045, 600 x
// 3001 x 401 0.080 -> 0.082; with the 64x64 tiles in one wave the 64x64 tile (513 x 2048 x 130
// 0.029 -> 0.024, 768 x 2048 x 700 0.077 -> 0.065). Past 768 (3000 x 3000 x 1000 0.453 -> 0.408,
// 4096^2 x 800 0.547 -> 0.576, 6000 x 2500 x 900 0.659 -> 0.613) the ws tile below beats both.
// This replaced the 128x64 tile on m16n8k8 up to K 384 over a wave of its tiles (thirty-third round).
constexpr long kDmmaSmallDeepMaxK = 768;
// Where the big deep tile would run, the warp-specialized 128x128 tile (dmma_deep_ws; sm_90a) from
// K = 769 over at least two waves of its tiles (to the thirty-fifth round from K = 1024). One H100,
// 2026-11-27 (docs/performance.md, "Tensor cores, eighteenth round"), % of cuBLAS DGEMM, 128x64
// deep tile -> it: 2048^3 91.3 -> 99.0, 4096^3 87.2 -> 93.1, 8192^3 87.3 -> 96.5, 12288^3 81.7 ->
// 95.4, 6144^3 86.1 -> 92.0, 8192 x 2048 x 4096 87.1 -> 93.3; slower at K 300 and 512 (6000^2 x 300
// -2.5%, 8192^2 x 512 -1.5%) and at 2000^2 x 8192 (256 tiles, 1.9 waves: -3.9%). From K 769 (past
// kDmmaSmallDeepMaxK, the 64x64 deep tile's), one H200, 2026-11-29 ("thirty-fifth round", call 1,
// `tile: auto`, ms, 128x64 deep tile -> ws tile): 3000^2 x 1000 0.453 -> 0.405, 6000 x 2500 x 900
// 0.659 -> 0.560, 2000 x 7000 x 960 0.578 -> 0.563, 4096^2 x 800 0.547 -> 0.544.
//
// There, where the last wave of 128x128 tiles is partial and tail_split_plan splits it (at most half
// full), the tile with that wave's tiles cut in K (dmma_deep_ws_tail). One H200, 2026-11-28
// (docs/performance.md, "Tensor cores, twenty-sixth round"), % of cuBLAS DGEMM, whole -> split:
// 8192^3 90.6 / 92.5 -> 92.3 / 97.7, 5120^3 91.1 -> 96.6, 6144^3 92.7 -> 95.1, 9216^3 93.4 -> 94.3,
// 10240^3 95.0 -> 95.9; 4096^3 (its last wave 100 of 132 tiles: no split) unchanged.
constexpr long kDmmaWsMinK = kDmmaSmallDeepMaxK + 1;
constexpr long kDmmaWsMinWaves = 2;
// Where the 128x64 tile would split (its last wave ragged), the ws tile instead past one wave of
// its 128x128 tiles (one per SM) that C fills to at least kDmmaWsSplitMinUse (K split: past 1024). One
// H200, 2026-11-29 (docs/performance.md, "Tensor cores, thirty-fourth round", call 1, `tile: auto`
// with the odd operands copied, ms, the split 64x64 deep tile the rule took -> the ws tile's tail
// split; cuBLAS DGEMM): 6000 x 777 x 3001 (329 tiles, 0.87 used) 0.960 -> 0.788 (0.776), 6000 x 777
// x 16001 4.839 -> 4.029 (3.748), 2500 x 1000 x 3001 (160, 0.95) 0.434 -> 0.365 (0.446), 4000 x
// 777 x 2049 0.463 -> 0.437, 3000 x 777 x 4567 (168) 0.647 -> 0.615, 6000 x 500 x 1025 (188, 0.97)
// 0.237 -> 0.218, 3000 x 1000 x 1025 (192, 0.98) 0.219 -> 0.202, 6000 x 500 x 8191 1.352 -> 1.379
// (the one loss there). On 24 aligned shapes the step takes (call 2): 19 faster by 1-23% (10000 x
// 256 x 8192 1.009 -> 0.778, 1500^2 x 8192 0.834 -> 0.760), 5 slower by 3-8% (1000 x 3000 and 3000
// x 1000 from K 4096: 3000 x 1000 x 30000 3.916 -> 4.217); on 10 drawn at random after (call 3) 9
// faster by 3-23%. Under a wave it lost (1999 x 777 x 4567, 112 tiles: 0.455 -> 0.501; 3000 x 500 x
// 4567, 96: 0.403 -> 0.502); C filling its tiles to less than 0.84 was not measured on this step.
constexpr double kDmmaWsSplitMinUse = 0.84;
// Few waves of 128x128 tiles that cover C exactly, long K: the ws tile whole waves and its last
// (or lone) partial wave split (the tail split) or streamed (Stream-K, dmma_deep_ws_sk), whatever
// the rule takes after. One H200, 2026-11-28 (docs/performance.md, "Tensor cores, twenty-seventh
// round"): the ws tile ran 16 to 132 tiles of K 8192 in 0.606-0.625 ms, one team per SM at the same
// speed however few; % of cuBLAS DGEMM, the rule then -> Stream-K: 512^2 x 8192 (16 tiles) 84.7 ->
// 97.2, 1024^2 x 4096 (64) 81.4 -> 93.7; 2560^2 x 16384 (400: 3 waves and 4) 85.6 -> 106.4 with
// the tail split (twenty-sixth round), 105.4 streamed. Not where tiles cross C's edges: an edge
// tile's K loop runs slower (its masked rows and columns), and the streamed ws tile lost to the
// rule's split 64x64 tile on every such shape measured (1000^2 x 8192 -5%, 778 x 1234 x 4320 -11%,
// 900^2 x 6000 -12%, 300^2 x 50000 -27%) but 1500^2 x 8192 (+9%); nor at 4096^3 and 8192^3 (ws and
// its tail split within 1-3% of Stream-K), nor outside K 4096-16384 (not measured; past it, long K
// over very few tiles keeps the deep tile's wave split: 256^2 x 262144 at 89.7-93.0, eleventh and
// twelfth rounds).
// Streamed only where a team's run is at most half a tile's K loop (measured at 1/8 and 1/2).
constexpr long kDmmaSkMinK = 4096;
constexpr long kDmmaSkMaxK = 16384;
constexpr long kDmmaSkMaxWaves = 4;

/// Step 5's test: whether the split 96x96 tile `mid` takes an m x n x k C
/// of `elem`-byte elements instead of the split 64x64 tile `small`: its
/// tiles cover no more than `slack` times the cells of the 64x64 ones (at
/// as many, its larger tile is as fast or faster: 160x160 and 192x192 on an
/// H200, docs/performance.md), the split makes more teams than tiles, and
/// at least one team per SM (`sms`).
bool mid_split_pays(const RuleTile& mid, const RuleTile& small, long m, long n, long k, std::size_t elem, long sms,
                    double slack = 1.0) {
  const long tiles_mid = tiles_of(mid, m, n), tiles_small = tiles_of(small, m, n);
  const long teams = tiles_mid * splitk_slices(m, n, k, mid.split_kc, elem);
  return double(tiles_mid) * mid.bm * mid.bn <= slack * double(tiles_small) * small.bm * small.bn &&
         teams > tiles_mid && teams >= sms;
}

// The DMMA tiles' team slots per SM (their launch bounds on sm_90: two
// teams, the split 64x64 deep tile three since the twelfth round; the waves
// of dmma_wave_time and the split test count two), and
// the cells the 96x96 DMMA tile may cover beyond the 64x64 one's: its warps
// run 12 MMAs per K step against 8 (H200, 2026-11-24, call 14: double
// 777x1234x4321, 1.2% more cells, 78.4% of cuBLAS DGEMM split against 72.7%
// for the 64x64 tile unsplit; docs/performance.md).
constexpr long kDmmaTeamsPerSm = rule_tiles::kDmmaTeamsPerSm;
constexpr double kDmmaMidSlack = 1.05;
// Where step 5 takes the 96x96 DMMA tile split by 1024 (two teams per SM), how much faster the
// split 64x64 deep tile (three per SM since the twelfth round) must be estimated (split_wave_time)
// to run instead: 0.92, as the 96x96 tile ran up to 8.5% faster against it than estimated. One
// H100, 2026-11-28 (twenty-second round), % of cuBLAS DGEMM, 96x96 -> 64x64 (the 64x64 tile's
// time over the 96x96's), estimate 0.89 each: 778 x 1234 x 4320 68.5 -> 77.2 (0.886), 1234 x 778
// x 4320 69.9 -> 78.6, 900 x 900 x 6000 72.7 -> 78.4 (0.926), 777 x 1234 x 4321 74.1 -> 76.7
// (0.966); one H100, twelfth round, estimate 1.067: 200 x 96 x 400000 70.0 against 61.0 (1.15),
// and 96 x 96 x 500000 (estimate 1.67) 75.6 against 62.2. The wave split (dmma_mid_wsplit) is not
// compared, nor are 96x96 teams fewer than a wave of two per SM: teams alone on an SM, which
// split_wave_time charges as a pair, were not measured against the 64x64 tile (96 x 1000 x 12000:
// 132 teams, estimate 0.67).
constexpr double kDmmaSmallOverMidGain = 0.92;

// How much faster the waves of a split tile must be estimated (split_wave_time)
// than those of the unsplit tile it replaces where that one already makes
// one team per slot: the margin for what the estimate leaves out (the
// partial sums' traffic and reduction, a smaller tile's lower speed per
// cell). Against the same tile unsplit, 0.8 (H200, 2026-11-24, call 18:
// double 1500 x 1500 x 8192, estimate 0.75, 54.5% -> 68.6% of cuBLAS
// DGEMM); against the float 128x128 tile, faster per cell than the split
// tiles, 0.65 (estimates 0.56 at 1500 x 1500 x 8192: 49.6% -> 79.5% of
// cuBLAS SGEMM; 0.75 at 3072^3, where the split measured 86.6% against
// 89.7%).
constexpr double kSplitWaveGain = 0.8;
constexpr double kSplitWaveGainFromBig = 0.65;
// The big DMMA tile needs its one partial wave of teams to fill this much of
// the slots when K would split: at 1200 x 1200 x 16384, 190 tiles on 264
// slots ran at 43.9% of cuBLAS DGEMM (call 18), 128 x 16384 x 16384's 256
// at 92.7% (call 12).
constexpr double kDmmaBigMinFill = 0.9;
// Float's big tile split by 1024 or 640 (gpu_shape_rule, step 4): the least fill of
// its teams' waves, and the most fill of the unsplit big tiles' waves or of
// the split by 4096's where it replaces them (H200, calls 19-20: 79-84% of
// cuBLAS SGEMM at fills of 0.87-0.97 where those filled 0.55-0.76 and ran
// at 9-72%).
constexpr double kBigSplitMinFill = 0.85;
constexpr double kBigMaxRaggedFill = 0.8;
// ... and the least use of its tiles' cells: C that fills a 128x128 tile
// to 56% (96x96, 192x192) takes the 96x96 split tile (96x96x500000: 129%).
constexpr double kBigSplitMinUse = 0.75;
// splitk_reduce_time's multiply-adds per byte (shape_rule.hpp).
constexpr double kSplitReduceFmaPerByte = 6.0;
// The deep DMMA tile split by 1024 (dmma_deep_splitk): the least use of its
// tiles' cells and fill of its teams' waves (H200, call 21: 68-81% of cuBLAS
// DGEMM where both were at least 0.93, against 62-72% for the rule's choice
// then; 54-67% against 68-86% where the use was 0.61-0.86), and the most
// fill of the unsplit tiles' waves where they are many (2500 x 2500 x 4096:
// 800 tiles fill 4 waves to 0.76, 69.3% unsplit, 78.2% split).
constexpr double kDmmaDeepSplitMinUse = 0.9;
constexpr double kDmmaDeepSplitMinFill = 0.9;
// The same test where the operands are read in place (odd K or N against too little reuse for a
// copy: the register path), which left the 64x64 tile unsplit there to the thirty-first round: the
// register-path 64x64 tile split by 1024 where its tiles fill at most kDmmaRegSplitMaxWaves waves
// (two teams per SM). One H200, 2026-11-29 (thirty-second round, call 2, `tile: auto` medians, ms,
// unsplit -> split; cuBLAS DGEMM): 1500 x 1000 x 4567 (384 tiles, 1.5 waves) 0.620 -> 0.500
// (0.391), 1999 x 777 x 4567 (1.6) 0.613 -> 0.560 (0.418), 1999 x 777 x 16001 2.106 -> 1.884
// (1.350), 3000 x 500 x 4567 (1.4) 0.569 -> 0.526 (0.394), 3000 x 777 x 4567 (2.3) 0.907 -> 0.842
// (0.613), 2500 x 1000 x 3001 (2.4) 0.577 -> 0.564 (0.435), 2500 x 1000 x 16001 2.909 -> 2.644
// (1.997), 6000 x 300 x 16001 (1.8) 2.229 -> 2.214 (1.991); past 2.5 waves the split lost: 3000 x
// 1000 x 1025 (2.8) 0.223 -> 0.260, 3000 x 1000 x 8191 1.601 -> 1.652, 6000 x 500 x 8191 (2.8)
// 1.632 -> 1.754, 6000 x 777 x 3001 (4.6) 1.028 -> 1.159, 6000 x 777 x 16001 5.234 -> 5.843.
constexpr double kDmmaRegSplitMaxWaves = 2.5;
// Long K over few tiles: where the split by 1024 makes at least kWaveSplitMinSlices slices (K >
// 15 x 1024) and the tiles take at most kWaveSplitMaxTileShare of the team slots (the deep big
// tile: kDeepWaveSplitMaxTileShare, below), the deep big tile and the 96x96 tile split into the
// slices that fill their waves instead
// (dmma_deep_wsplit, dmma_mid_wsplit): fewer, longer slices, fewer partials to write and sum
// (H200, 2026-11-25, eleventh round, % of cuBLAS DGEMM, split by 1024 -> wave split: 256 x 256 x
// 262144, 128x64, 78.6 -> 89.7 (256 slices of 1024 -> 33 of 8000); 640 x 480 x 20000, 96x96, 68.3 -> 74.8 (20 ->
// 15); 2500 x 128 x 30000, 128x64, 76.4 -> 76.8). With fewer slices the wave split was no better
// or slower, not understood: 1000 x 1000 x 8192, 128x64, 8 slices of 1024 at 67.9 against 2 of
// 4096 at 57.2 (128 tiles on 264 slots); 777 x 1234 x 4321, 96x96, 71.2 -> 71.6 (5 -> 2, 117
// tiles); 1500^2 x 8192 71.3 -> 71.1 (288 tiles). 640 x 480 and 2500 x 128: 35 and 40 tiles.
// Call 2, shapes not used to set these: 128x64, 2500 x 128 x 30000 77.9 -> 78.3, 500 x 300 x
// 50000 74.5 -> 70.3 (20 tiles, 13 slices in one wave); 96x96, 640 x 480 x 20000 67.1 -> 73.5;
// where the 96x96 wave split made a single wave it lost: 200 x 96 x 400000 72.7 -> 69.8, 96 x 96 x
// 500000 84.8 -> 82.8 (160 x 160 x 200000 70.7 -> 71.9): the 96x96 tile takes it only where its
// slices fill at least kMidWaveSplitMinWaves waves (no dynamic balancing across SMs in one wave).
constexpr int kWaveSplitMinSlices = 16;
constexpr double kWaveSplitMaxTileShare = 0.25;
// Twelfth round (one H100, 2026-11-27, docs/performance.md): where the deep big tile would split,
// the 64x64 split tile at three teams per SM (dmma_small_splitk_deep, 3 cp.async stages) ran
// faster than it, % of cuBLAS DGEMM, 128x64 split by 1024 -> 64x64: 1000 x 1000 x 8192 68.8 ->
// 74.6, 1000 x 640 x 32768 75.3 -> 78.8, 1200^2 x 16384 75.2 -> 81.8, 1500^2 x 8192 72.9 -> 76.7;
// wave split -> 64x64: 500 x 300 x 50000 (20 tiles) 66.0 -> 79.3, 2500 x 128 x 30000 (40 tiles)
// 72.8 -> 77.3; but not with very few tiles and very long K, where the wave split's long slices
// keep the 128x64 tile's lower traffic per cell and few partials: 256 x 256 x 262144 (8 tiles)
// 93.0 against 79.1, 128 x 128 x 131072 (2 tiles) 100.4 against 93.0. The deep big tile splits
// only into waves, and only where its tiles take at most 1/32 of the slots (8 of 264; the bound
// lies between 8 and 20 tiles, not measured closer).
constexpr double kDeepWaveSplitMaxTileShare = 1.0 / 32.0;
constexpr long kMidWaveSplitMinWaves = 2;

/// Whether the DMMA tile `t` (split by 1024, kDmmaTeamsPerSm teams per SM) takes the wave split
/// on an m x n x k C (the comment above), its tiles taking at most `max_tile_share` of the slots
/// and its wave split (`waves`) filling at least `min_waves` waves.
bool dmma_wave_split(const RuleTile& t, const RuleTile& waves, long m, long n, long k, std::size_t elem, long sms,
                     long min_waves, double max_tile_share) {
  const long slots = kDmmaTeamsPerSm * sms;
  return splitk_slices(m, n, k, t.split_kc, elem) >= kWaveSplitMinSlices &&
         double(tiles_of(t, m, n)) <= max_tile_share * double(slots) &&
         waves_of(tiles_of(t, m, n) * rule_split(waves, m, n, k, elem, slots).slices, slots) >= min_waves;
}

// Few 64x64 tiles, K from kSmallWavesMinK to kSmallWavesMaxK (issue 21, thirtieth round): where the
// 64x64 tiles split by 1024 make fewer teams than a wave (three per SM on the deep tile, two on the
// register path), the 64x64 tile with K split into the slices that fill its waves in chunks of at
// least 128 (rule_tiles::kDoubleMmaSmallWaves: dmma_small_wsplit, or dmma_small_reg_wsplit where the
// operands are read in place), where few_teams_time puts it at most kSplitWaveGain of the split by
// 1024's. Below the split, the time of a team's short K loop is a few microseconds, about a
// kernel launch: each team is charged kSplitTeamOverheadK beyond its slice, as splitk_wave_slices
// does. One H200, 2026-11-28 (docs/performance.md, "Tensor cores, thirtieth round"), `tile: auto`
// medians, us, deep 64x64 split by 1024 -> wave split by 128 (cuBLAS DGEMM): 100 x 100 x 1000 48.9
// -> 22.0 (25.5), 64 x 64 x 1024 49.4 -> 21.0 (24.3), 300 x 100 x 1024 48.4 -> 22.2 (31.4), 200 x
// 200 x 512 37.1 -> 20.7 (29.3), 500 x 500 x 1000 48.8 -> 38.5 (39.5), 600 x 600 x 1000 50.4 ->
// 45.2 (43.9), 100 x 100 x 2000 50.3 -> 21.9 (24.0), 64 x 64 x 4096 51.3 -> 23.1 (25.1); at K = 256
// (two slices) no gain or a loss: 600 x 600 x 256 24.2 -> 28.8, 400 x 400 x 256 22.3 -> 23.1.
// On the register path (operands read in place: odd N or K against few rows or columns) the
// step asks fewer 64x64 tiles than slots, not fewer teams, and an estimate of at most
// kSmallRegWavesGain, as the split by 1024 is all it replaces there; `tile: auto` medians, us, split by
// 1024 -> wave split (cuBLAS DGEMM): 2730 x 85 x 3871 148.3 -> 114.2 (100.3), 529 x 485 x 3688 121.9 ->
// 101.5 (86.4), 377 x 817 x 3382 125.5 -> 100.0 (88.1), 562 x 164 x 15015 159.2 -> 149.1 (139.2, estimate
// 0.82), 901 x 189 x 3454 76.7 -> 74.5 (67.6, 0.81), 1517 x 485 x 1451 126.8 -> 115.3 (89.8, 0.86),
// 869 x 791 x 1052 88.5 -> 79.1 (70.2, 0.84: one slice).
constexpr long kSmallWavesMinK = 257;
constexpr long kSmallWavesMaxK = 16384;
// Neither step takes GEMV-like shapes (M or N <= 16), whose paths stay as measured before.
constexpr long kSmallWavesMinMn = 16;
constexpr double kSmallRegWavesGain = 0.9;
// The sum of the slices (splitk_reduce: a launch of its own, a few microseconds) in few_teams_time's
// units, K elements of a 64x64 team: as much as a team's fixed cost. Without it, 129 x 4000 x 300
// (189 tiles, one slice against two of 192: estimate 0.75) took the split and ran 35.2 us against
// 29.4-30.7 unsplit; with it, 0.95, and 300 x 300 x 300 (25 tiles, 0.9) stays unsplit too (22.4 us
// split against 24.2: `tile: auto`, one H200, 2026-11-28).
constexpr long kSplitReduceOverheadK = 128;

/// The estimate splitk_wave_slices minimizes for `tiles` output tiles cut into `sp` (rule_split's
/// slices and chunk) on `slots` team slots: the waves of teams times each team's K slice plus
/// kSplitTeamOverheadK, and where K is split, the sum of the slices (kSplitReduceOverheadK).
double few_teams_time(long tiles, const RuleSplit& sp, long slots) {
  return splitk_waves_estimate(tiles, sp.slices, sp.chunk, slots) +
         (sp.slices > 1 ? double(kSplitReduceOverheadK) : 0.0);
}

/// The selection text of a wave split that makes one slice (waves_split_text, small_waves_choice).
constexpr const char* kOneSliceText = "K whole (the wave split makes one slice)";

/// The few-tiles step (the comment above) on a build with the deep DMMA tiles: dmma_small_wsplit
/// (`deep`: A's and B's rows aligned or copied) or dmma_small_reg_wsplit; `none` where it declines.
GpuRuleChoice small_waves_choice(bool deep, long m, long n, long k, std::size_t elem, long sms, std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  if (k < kSmallWavesMinK || k > kSmallWavesMaxK || std::min(m, n) <= kSmallWavesMinMn) return C::none;
  const long slots = (deep ? rt::kDmmaSmallDeepTeamsPerSm : kDmmaTeamsPerSm) * sms;
  // The split by 1024 and the wave split, both of the 64x64 tiles.
  const RuleSplit by1024 = rule_split(rt::kDoubleMmaSmallSplitK, m, n, k, elem, slots);
  const long tiles = tiles_of(rt::kDoubleMmaSmallSplitK, m, n), teams_1024 = tiles * by1024.slices;
  if (deep ? teams_1024 >= slots : tiles >= slots) return C::none;
  const RuleSplit ws = rule_split(rt::kDoubleMmaSmallWaves, m, n, k, elem, slots);
  if (few_teams_time(tiles, ws, slots) >
      (deep ? kSplitWaveGain : kSmallRegWavesGain) * few_teams_time(tiles, by1024, slots))
    return C::none;
  const std::string head = "FP64 tensor cores, few 64x64 tiles (" + std::to_string(tiles) + " on " +
                           std::to_string(slots) + " slots, " + std::to_string(teams_1024) +
                           " teams split by 1024): " +
                           (ws.slices == 1 ? std::string(kOneSliceText)
                                           : "K split into " + std::to_string(ws.slices) + " slices of " +
                                                 std::to_string(ws.chunk) + " filling the waves");
  return deep ? chose(C::dmma_small_wsplit, head + ", three teams per SM, 3 cp.async stages", why)
              : chose(C::dmma_small_reg_wsplit, head + ", operands read in place", why);
}

// Float on a small C (sm_90a, after wgmma_choice declines): where M and N are 17 to
// kFloatSmallWavesMaxMn (or one of them past it and the other past kFloatThinWavesMinMn: a thin C),
// the SIMT 64x64 tiles split by 1024 make fewer teams than their slots
// (kFloatSmallTeamsPerSm per SM) and K >= kFloatSmallWavesMinK, a
// 3xTF32 tile with K split into the slices that fill its waves: the mma.sync 64x64 register-path
// tile in chunks of at least 32 (tf32_small_wsplit: operands split in the K loop, one launch besides
// the sum of the slices) where M N K < kFloatSmallRegMaxMnk (or the wider bounds below, from K =
// kFloatSmallRegMinK), else the pre-split 64x128 wgmma tile in chunks of at least 128
// (wgmma_pre64_wsplit: faster per flop, two launches more for the split of A and B). One H200,
// 2026-11-28 (docs/performance.md, "Tensor cores, thirtieth round"), `tile: auto` medians, us, SIMT
// 64x64 unsplit -> register 3xTF32 / pre-split 64x128 (cuBLAS SGEMM): 100 x 100 x 1000 61.3 -> 23.6
// / 26.8 (20.3), 128 x 128 x 512 35.0 -> 22.3 / 23.0 (19.9), 300 x 300 x 512 40.0 -> 25.7 / 31.2
// (31.7), 66 x 267 x 393 34.6 -> 25.2 / 26.0 (30.8); 200 x 200 x 1500 87.5 -> 33.7 / 24.6 (25.5),
// 100 x 100 x 5000 258.0 -> 30.4 / 28.2 (28.3). At K <= 256 the unsplit SIMT tile is as fast (K =
// 256: 85-151% of cuBLAS SGEMM). Where cuBLAS SGEMM runs at its floor (about 20 us), a split (two
// launches) stays near 80% of it.
constexpr long kFloatSmallWavesMinK = 257;
// Forty-fourth round (one H200, 2026-12-02, `tile: auto` with cold operands, medians of two, ms; the
// rule before -> the mma.sync tile split in chunks of at least 32 (cuBLAS SGEMM)): the chunk of 128
// left each team eight K tiles at K 1024 waiting on DRAM; chunks of 32 (or 64, within 0.003 ms
// everywhere) won on every small C of the round-30 deck up to 8.5e7 multiply-adds: 100 x 100 x 1000
// 0.028 -> 0.020 (0.020), 64 x 247 x 1348 0.033 -> 0.022 (0.025), 400 x 64 x 512 0.026 -> 0.022
// (0.024), 256 x 256 x 1000 (6.6e7, the 64x128 tile before) 0.029 -> 0.024 (0.025), 128 x 640 x
// 1000 (8.2e7) 0.028 -> 0.025, 400 x 400 x 512 (8.2e7) 0.030 -> 0.026, 200 x 200 x 1500 0.029 ->
// 0.027; the 64x128 tile stayed ahead from 9e7 (300 x 300 x 1000 0.028 against 0.028-0.030, 500 x
// 500 x 1000 0.036 against 0.042). K 192-256 too, below kFloatSmallRegMaxMnk (the unsplit SIMT tile
// before): 100 x 100 x 192 0.023 -> 0.019, 200 x 200 x 192 0.023 -> 0.019, 300 x 300 x 256 0.027
// -> 0.021, 400 x 64 x 256 0.026 -> 0.019; at K 128 they tie (100 x 100 x 128 0.020 / 0.019), and
// past it (600 x 600 x 256) the SIMT tile stays ahead (0.027 against 0.030).
constexpr long kFloatSmallRegMinK = 192;
constexpr double kFloatSmallRegWideMaxMnk = 8.5e7;
constexpr long kFloatSmallRegWideMaxK = 1536;
// Past kFloatSmallWavesMaxMn rows or columns (a thin C), the step only where the other side is over
// kFloatThinWavesMinMn: there the 64x128 tile's wave split beat the SIMT tiles the rule took before
// (thirty-first round, one H200, 2026-11-29, `tile: auto` medians, us, SIMT rule -> pre-split 64x128
// wave split (cuBLAS SGEMM): 76 x 1783 x 465 47 -> 30 (35), 1783 x 76 x 465 40 -> 30 (32), 2000 x 100
// x 1000 65 -> 36 (40), 1100 x 100 x 1000 66 -> 33 (30), 100 x 6000 x 511 57 -> 41 (46), 1500 x 200 x
// 500 40 -> 34 (37), 2730 x 85 x 3871 150 -> 107 (114), 85 x 2730 x 3871 135 -> 118 (81); these two,
// whose operands are unaligned, now go to wgmma_choice's pre-split wave split before this step); at 64 or
// fewer the SIMT tiles split by 1024 or 256 stay ahead of every 3xTF32 tile (4096 x 40 x 8192 159
// against 208 at best, 64 x 4096 x 4096 84 against 102, 2000 x 60 x 10000 129-135 against 144).
constexpr long kFloatSmallWavesMaxMn = 1024;
constexpr long kFloatThinWavesMinMn = 64;
constexpr double kFloatSmallRegMaxMnk = 4.8e7;

// A thin C of 64 columns (rows) or fewer against more than 1024 rows (columns), float: where step 5
// splits the 64x64 tile by 1024, the same tile with K split into the slices that fill its waves in
// chunks of at least 256 (small_wsplit). One H200, 2026-11-29 (docs/performance.md, "Tensor cores,
// thirty-first round"), `tile: auto` medians, us, split by 1024 -> wave split (cuBLAS SGEMM): 5000 x
// 50 x 2000 112 -> 77 (76), 1500 x 32 x 6000 96 -> 60 (55), 3000 x 48 x 4000 103 -> 74 (71), 2000 x 60
// x 10000 144 -> 115 (115), 30 x 5000 x 3000 96 -> 81 (63), 50 x 3000 x 1500 58 -> 41 (37), 20 x 2000
// x 20000 198 -> 181 (98), 6000 x 20 x 6000 213 -> 184 (131); no slower where the split by 1024
// already fills a wave (4096 x 40 x 8192 164 -> 162, 40 x 8192 x 8192 267 -> 264, 64 x 4096 x 4096 83
// -> 78).

/// True for a thin C of few columns (the comment above): M or N 17 to kFloatThinWavesMinMn (the
/// small-C step takes those past it), the other past kFloatSmallWavesMaxMn.
bool thin_waves(long m, long n) {
  return std::min(m, n) > kSmallWavesMinMn && std::min(m, n) <= kFloatThinWavesMinMn &&
         std::max(m, n) > kFloatSmallWavesMaxMn;
}

/// The float small-C step (the comment above); `none` where it declines.
GpuRuleChoice float_small_waves_choice(long m, long n, long k, long sms, std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  const double mnk = double(m) * double(n) * double(k);
  // The mma.sync tile below kFloatSmallRegMaxMnk, or (M and N to kFloatSmallWavesMaxMn: measured on
  // a small C only) below kFloatSmallRegWideMaxMnk with K to kFloatSmallRegWideMaxK; K
  // kFloatSmallRegMinK-256 on that tile alone, on a small C alone (the comments above).
  const bool small_c = std::max(m, n) <= kFloatSmallWavesMaxMn;
  const bool reg =
      mnk < kFloatSmallRegMaxMnk || (mnk < kFloatSmallRegWideMaxMnk && k <= kFloatSmallRegWideMaxK && small_c);
  if (k < kFloatSmallRegMinK || (k < kFloatSmallWavesMinK && !(reg && small_c)) ||
      std::min(m, n) <= kSmallWavesMinMn ||
      (std::max(m, n) > kFloatSmallWavesMaxMn && std::min(m, n) <= kFloatThinWavesMinMn))
    return C::none;
  // The SIMT 64x64 tiles' teams split by their chunk (1024), as small_waves_choice counts the DMMA tiles'.
  const long simt_slots = rt::kFloatSmallTeamsPerSm * sms;
  const long teams = tiles_of(rt::kFloatSmallSplitK, m, n) *
                     rule_split(rt::kFloatSmallSplitK, m, n, k, sizeof(float), simt_slots).slices;
  if (teams >= simt_slots) return C::none;
  const RuleTile& t = reg ? rt::kFloatTf32SmallWaves : rt::kFloatWgmmaPre64Waves;
  const int slices = rule_split(t, m, n, k, sizeof(float), (reg ? rt::kFloatTf32SmallTeamsPerSm : 1) * sms).slices;
  const std::string head = "3xTF32, small C (" + std::to_string(teams) + " SIMT 64x64 teams split by 1024): ";
  const std::string tail = ", K split into " + std::to_string(slices) + " slices filling the waves";
  return reg ? chose(C::tf32_small_wsplit, head + "64x64 tiles on mma.sync, operands split in the K loop" + tail, why)
             : chose(C::wgmma_pre64_wsplit, head + "64x128 tiles on wgmma, operands split once" + tail, why);
}

// Float with C's rows not in 16-byte chunks (N not a multiple of 4), so that the SIMT tiles store
// C element by element, and short K, where the store of C sets the time: the 3xTF32 tiles, which
// stage their C tile in scratch and store whole rows (StagedC; N even stored pairs before the
// forty-fourth round, N = 2 mod 4 cutting most sectors in two: WarpGemmParams::stages_rows).
//   - K <= kFloatUnalignedCMaxK, at least kFloatUnalignedCMinRows rows and kFloatUnalignedCMinCells
//     cells of C: from kFloatOddCWgmmaCells cells the pre-split 64x128 wgmma tile
//     (wgmma_pre64_wsplit; one K tile per team, so one stage of scratch and two teams per SM), else
//     the mma.sync 64x64 tile (tf32_small_wsplit); K <= 32 makes one slice.
//   - K up to kFloatOddCWgmmaMaxK, from kFloatOddCDeepMinCells cells: the pre-split 128x128 wgmma
//     tile (wgmma_big).
// These bounds were measured on N odd (N even then stored pairs, the mma.sync tile ahead at any size:
// 3229 x 9110 x 16 below); N even takes them since its C is staged too, not yet measured so.
// One H200, 2026-11-29 (docs/performance.md, "Tensor cores, thirty-seventh round", `tile: auto`, ms:
// the SIMT tile the rule took, the 64x64 mma.sync tile, the 64x128 wgmma tile; cuBLAS SGEMM):
// 3229 x 9109 x 16 -, 0.129, 0.117 (0.083); 3229 x 9109 x 32 0.179, -, 0.114 (0.105); 6000 x 6001 x
// 24 0.203, -, 0.138 (0.109); 8000 x 4001 x 16 -, 0.138, 0.128 (0.085); 1000 x 9109 x 8 -, 0.048,
// 0.052 (0.040); 2000 x 3001 x 16 -, 0.037, 0.040 (0.036); 1500 x 1501 x 32 0.046, 0.026, 0.031
// (0.028); 3229 x 9110 x 16 (N even) 0.171-0.174, 0.100-0.106, 0.111-0.112 (0.093-0.101). The
// 128x128 wgmma tile: 3229 x 9109 x 48 0.190 -> 0.141 (0.121), 2000 x 3001 x 64 0.073 -> 0.045
// (0.053).
constexpr long kFloatUnalignedCMaxK = 32;
constexpr long kFloatUnalignedCMinRows = 128;
constexpr double kFloatUnalignedCMinCells = 2e6;
constexpr double kFloatOddCWgmmaCells = 1.5e7;
constexpr long kFloatOddCWgmmaMaxK = 64;
constexpr double kFloatOddCDeepMinCells = 6e6;
// Past those bounds (forty-fourth round, one H200, 2026-12-02, `tile: auto` with cold operands, ms:
// the SIMT tile the rule took -> the mma.sync 64x64 tile split in chunks of 32 / the pre-split
// 128x128 wgmma tile (cuBLAS SGEMM)): K <= 64 from kFloatUnalignedCShortMinCells cells, the mma.sync
// tile: 433 x 4501 x 17 0.038 -> 0.021 / 0.028 (0.025), 2658 x 917 x 48 0.048 -> 0.027 / 0.032
// (0.033), 1200 x 1201 x 56 0.038 -> 0.024 / 0.026 (0.027), 300 x 5001 x 40 0.030 -> 0.022 / 0.027
// (0.034), 1000 x 2001 x 33 0.041 -> 0.026 / 0.026 (0.035); K 65-kFloatUnalignedCWgmmaMaxK from
// kFloatUnalignedCWgmmaMinCells cells, the 128x128 tile: 1352 x 1013 x 89 0.043 -> 0.029 / 0.025
// (0.030), 2000 x 1501 x 100 0.056 -> 0.042 / 0.035 (0.040), 4177 x 175 x 94 0.034 -> 0.033 / 0.026
// (0.034), 388 x 3173 x 118 0.038 -> 0.028 / 0.024 (0.028), 5000 x 301 x 80 0.039 -> 0.026 / 0.027
// (0.035). Under 5.4e5 cells the SIMT tiles stay as fast (185 x 2923 x 61: 0.027, the two 0.027 and
// 0.025). Aligned rows (N a multiple of 4) keep the SIMT tiles (2658 x 916 x 48 0.025, 1352 x 1012 x
// 89 0.025).
constexpr double kFloatUnalignedCShortMinCells = 1e6;
constexpr long kFloatUnalignedCWgmmaMaxK = 128;
constexpr double kFloatUnalignedCWgmmaMinCells = 7e5;

/// The float step for C's rows not in 16-byte chunks at short K (the comment above); `none` where
/// it declines.
GpuRuleChoice float_unaligned_c_choice(long m, long n, long k, std::string* why) {
  using C = GpuRuleChoice;
  const double cells = double(m) * double(n);
  if (n % 4 == 0 || m < kFloatUnalignedCMinRows) return C::none;
  // N even but not a multiple of 4 as N odd: both stage C (WarpGemmParams::stages_rows) since the
  // forty-fourth round; before, N even stored pairs and took the mma.sync tile at any size.
  const std::string rows = n % 2 != 0 ? "N odd" : "N not a multiple of 4";
  // The reason for `choice` at K up to `max_k`: its tile (`what`), then how C is stored.
  const auto pick = [&](const C choice, const long max_k, const char* what) {
    return chose(choice,
                 "3xTF32, " + rows + " and K <= " + std::to_string(max_k) + ": " + what +
                     ", C staged in scratch and stored by whole rows",
                 why);
  };
  if (k <= kFloatUnalignedCMaxK && cells >= kFloatUnalignedCMinCells)
    return cells >= kFloatOddCWgmmaCells
               ? pick(C::wgmma_pre64_wsplit, kFloatUnalignedCMaxK, "64x128 tiles on wgmma, operands split once")
               : pick(C::tf32_small_wsplit, kFloatUnalignedCMaxK, "64x64 tiles on mma.sync");
  if (k <= kFloatOddCWgmmaMaxK && cells >= kFloatOddCDeepMinCells)
    return pick(C::wgmma_big, kFloatOddCWgmmaMaxK, "128x128 tiles on wgmma, operands split once");
  if (k <= kFloatOddCWgmmaMaxK && cells >= kFloatUnalignedCShortMinCells)
    return pick(C::tf32_small_wsplit, kFloatOddCWgmmaMaxK, "64x64 tiles on mma.sync, K split in chunks of at least 32");
  if (k <= kFloatUnalignedCWgmmaMaxK && cells >= kFloatUnalignedCWgmmaMinCells)
    return pick(C::wgmma_big, kFloatUnalignedCWgmmaMaxK, "128x128 tiles on wgmma, operands split once");
  return C::none;
}

}  // namespace

double split_wave_time(const RuleTile& t, long m, long n, long k, long teams_per_sm, long sms, std::size_t elem) {
  const RuleSplit sp = rule_split(t, m, n, k, elem, teams_per_sm * sms);
  const long waves = waves_of(tiles_of(t, m, n) * sp.slices, teams_per_sm * sms);
  return double(waves) * double(teams_per_sm) * double(t.bm) * double(t.bn) * double(sp.chunk);
}

double splitk_reduce_time(long m, long n, int slices, long sms, std::size_t elem) {
  if (slices <= 1) return 0.0;
  return kSplitReduceFmaPerByte * double(slices + 1) * double(m) * double(n) * double(elem) / double(sms);
}

double dmma_wave_time(const RuleTile& t, long m, long n, long sms, double efficiency) {
  const long waves = waves_of(tiles_of(t, m, n), kDmmaTeamsPerSm * sms);
  return double(waves) * (double(t.bm) * t.bn / (64.0 * 64.0)) / efficiency;
}

// The float wgmma tile splitting its operands in the K loop (3xTF32, one team per SM; H200,
// 2026-11-25, docs/performance.md "Tensor cores, eighth round"), the rule's where M < 512 or N <
// 128: the split by 1024 where its teams fill at least two waves to 70% (513 x 1025 x 2049: 135
// teams on 132 SMs, 53% of cuBLAS SGEMM against 83%), and where M*N fills its 128x128 tiles at
// least kWgmmaSplitUseRatio as full as the fullest SIMT tile (64x64, 96x96 or 128x128) fills its
// own: 3xTF32 on wgmma runs a tile's cell about 1/0.6 times as fast as the SIMT tiles (4096^3:
// 167.6% of cuBLAS SGEMM against about 100). Twentieth round (one H100, 2026-11-27, % of cuBLAS
// SGEMM, the in-loop wave split against the SIMT tile the rule took, (wgmma use / SIMT use)): it
// gained at 0.62-0.77 (150 x 6000 x 20000 92.3 / 65.5 (0.75), 129 x 6000 x 20000 90.1 / 63.6 (0.75),
// 70 x 6000 x 20000 88.3 / 69.1 (0.75), 150 x 1024 x 100000 72.8 / 50.1 (0.75), 200 x 148 x
// 100000 116.0 / 97.4 (0.75), 4096 x 72 x 8192 105.3 / 89.8 (0.76), 1000 x 72 x 20000 115.3 /
// 102.0 (0.77), 300 x 148 x 50000 84.8 / 78.4 (0.62); 153 x 4096 x 8192 tied, 79.2 / 79.1 (0.75))
// and lost at 0.5-0.56 (96 x 148 x 100000 98.9 / 104.9 (0.56), 140 x 140 x 300000 73.2 / 84.6
// (0.56), 4096 x 40 x 8192 86.4 / 108.1, 40 x 8192 x 8192 51.9 / 78.0, 20 x 8192 x 20000 34.0 /
// 50.3 (0.5)). On twelve shapes not used to fit it (ratios 0.49-0.75) the rule took the faster
// tile, or one within 2% of it, on eleven; at 260 x 152 x 60000 (0.56) the SIMT tile ran 75.5
// against 85.6. A plain use threshold (0.6 of the wgmma tile's cells, to that round) left M 129-153
// and N under 77 on the SIMT tiles.
constexpr double kWgmmaSplitUseRatio = 0.6;
constexpr double kWgmmaSplitMinFill = 0.7;
// The tiles on operands split once per GEMM (GpuWgmmaTile::presplit; "Tensor cores, ninth round")
// where M >= 512 and N >= 128: below, the pass costs more than it saves (24.5% of cuBLAS SGEMM
// against 82.2 for the in-loop split at 100 x 100 x 300000, both padded to 128 rows; 47.1 against
// 93.0 at 200 x 3000 x 5000: B's transposing pass, N K elements, against M N K products), so the
// split tile splits in its K loop there and needs aligned (or copied) operands.
constexpr long kWgmmaPresplitMinM = 512, kWgmmaPresplitMinN = 128;
// wgmma_presplit_time's constants (H200, 2026-11-25, docs/performance.md "Tensor cores, tenth
// round"): a team's fixed cost (prologue, epilogue) in K elements: a wave of K 64 took 9.3 us
// (16384^2 x 64, 125 waves in 1.158 ms), of K 256 18.2 us (8192^2 x 256, 32 waves in 0.581 ms),
// a + b K with a / b = 131; and the multiply-adds the tile runs per byte the pass moves, 16:
// measured with the pass in whole sectors (twelfth round, one H100, 2026-11-27, Nsight Compute):
// 98 us for 640 x 480 x 20000's 277 MB, 330 us for 2500 x 128 x 30000's 968 MB, 21.5 us for 512 x
// 128 x 8192's 63 MB (2.8-2.9 TB/s), against the tile's 161 us for one wave of 128x128x3520 at
// 640 x 480 x 20000 (15.9-16.8; the tenth round's 11 was fitted with the earlier pass, 2.8x slower
// there).
constexpr double kWgmmaTeamOverheadK = double(kSplitTeamOverheadK);  // splitk.hpp's wave split charges the same
constexpr double kWgmmaFmaPerByte = 16.0;
// The in-loop split tile (wgmma_splitk_inplace: no pass, each team splits its K tiles) against the
// pre-split tile: its team's time per K element, 1.6 times the pre-split tile's (big squares on
// an H200, tenth round: 148.6/170.8/181.5% of cuBLAS SGEMM at 4096/8192/12288^3 against
// 97.1/98.0/103.2%, 1.53-1.76; twelfth round, one H100: 640 x 480 x 20000, 1.4; 2500 x 128 x 30000,
// 1.8). Where M >= 512 and N >= 128 it is taken where its estimate is at most kSplitWaveGain of the
// pre-split tile's best (twelfth round, % of cuBLAS SGEMM, in-loop against pre-split: 2500 x 128
// x 30000 87.0 against 67.9 (estimates 0.77); 3000 x 200 x 5000 97.2 against 104.7 (0.97)).
constexpr double kWgmmaInloopSlowdown = 1.6;
// Where C is one column of tiles (N <= 128), at most 0.95 (thirteenth round, one H100,
// 2026-11-27): there the pre-split tile reads A's two parts (8 bytes an element) for only 128
// columns of C, the most A traffic per flop of any N, where the in-loop tile reads A (4 bytes);
// the estimates count the tile's time in products, not bytes. Measured, the in-loop tile ran
// 0.73 of the pre-split tile's time at 5000 x 128 x 20000 (estimate 0.82: 100.1% of cuBLAS
// SGEMM against 73.3), 0.86 at 3000 x 128 x 12000 (estimate 0.94: 80.9 against 69.5), 1.68 at
// 512 x 128 x 8192 (estimate 2.04). With two columns and more the estimate errs the other way
// (3000 x 200 x 5000: 0.97, ran 1.08), so kSplitWaveGain stays there.
constexpr double kWgmmaInloopOneColumnGain = 0.95;
// The least K, and the least efficiency (m n k / (sms x wgmma_presplit_time)), at which the
// pre-split tile is taken over the SIMT rule. K = 64 leaves a team two thirds overhead: 91.6% of
// cuBLAS SGEMM against the SIMT tile's 105.9 at 16384^2 x 64, 150.4 against 106.8 at K = 256
// (8192^2 x 256). Efficiency 0.34 (513 x 1025 x 2049, split by 512 or 2048): 83.8-88.5 against
// 67.9; 0.21 (600^3): 95.5 against 91.6; 0.14 (513^3): 77.8 against 79.1 (tenth round); 0.246
// (512 x 256 x 2048, 8 slices filling the waves): 123.5 against 82.3 (eleventh round).
constexpr long kWgmmaPresplitMinK = 128;
// Since the epilogue's pair stores, K from 64 where the 128x128 tiles fill at least three waves
// (kWgmmaShortPresplitMinWaves; thirty-third round, one H200, `tile: auto` medians, ms, the SIMT
// tiles' best -> the pre-split tile): 4096^2 x 64 0.073 -> 0.062, 8192^2 x 64 0.259 -> 0.220,
// 16384 x 4096 x 64 0.254 -> 0.226, 5000 x 4000 x 80 0.103 -> 0.087, 5001 x 3999 x 77 0.168 ->
// 0.159. Over fewer tiles it ties or loses: 4096 x 1500 x 100 (384 tiles) 0.051 both, 2048^2 x 64
// (256) 0.028 -> 0.030, 777 x 2048 x 64 0.020 -> 0.024, 1000^2 x 127 0.023 -> 0.027; and K 32-48
// ties or loses at any size (4096^2 x 32 0.050 -> 0.052; 16384 x 4096 x 48 0.199 -> 0.198).
constexpr long kWgmmaShortPresplitMinK = 64;
constexpr double kWgmmaShortPresplitMinWaves = 3.0;
constexpr double kWgmmaMinEfficiency = 0.2;
// How much faster a split of the pre-split tile must be estimated than the whole tile: 0.9, not
// kSplitWaveGain's 0.8 (seventeenth round, one H100, 2026-11-27, two runs of 14 shapes whose best
// split was estimated 0.81-0.90 of the whole tile, 72-320 tiles on 132 SMs, % of cuBLAS SGEMM,
// whole / that split: 1000 x 3000 x 8192 128.8 / 150.4 (waves, 0.81), 1500 x 3000 x 100000 140.7 /
// 164.9 (by 2048, 0.82), 300 x 3000 x 3000 87.9 / 98.4 (by 1024, 0.82), 480 x 3000 x 20000 117.3 /
// 137.1 (waves, 0.84), 640 x 8192 x 8192 122.3 / 131.6 (waves, 0.89), 300 x 4096 x 4096 98.8 /
// 102.8 (by 1024, 0.90); 13 of 14 gain 4-24 points in two runs, 2000 x 1500 x 2048 ties, 150.9 / 148.5 (by
// 1024, 0.87)). Where every split is estimated above 0.9 the tile stays whole (3072^3: by 2048 at
// 0.97).
constexpr double kWgmmaSplitGain = 0.9;

double wgmma_presplit_time(const RuleTile& t, long m, long n, long k, long sms, double fma_per_byte) {
  constexpr long kTileK = 32;  // the wgmma tile's K tile: the pass pads K to it, a slice takes whole ones
  const auto up = [](long x, long q) { return (x + q - 1) / q * q; };
  const RuleSplit sp = rule_split(t, m, n, k, sizeof(float), sms);  // one team per SM
  const int slices = sp.slices;
  const long chunk = up(sp.chunk, kTileK);
  const long waves = waves_of(tiles_of(t, m, n) * slices, sms);
  const double pass_bytes = 12.0 * double(up(m, t.bm) + up(n, t.bn)) * double(up(k, kTileK));
  const double reduce_bytes = slices > 1 ? double(slices + 1) * double(m) * double(n) * sizeof(float) : 0.0;
  const double fpb = fma_per_byte > 0.0 ? fma_per_byte : kWgmmaFmaPerByte;
  return double(waves) * t.bm * t.bn * (double(chunk) + kWgmmaTeamOverheadK) +
         fpb * (pass_bytes + reduce_bytes) / double(sms);
}

double wgmma_inloop_split_time(const RuleTile& t, long m, long n, long k, long sms) {
  const RuleSplit sp = rule_split(t, m, n, k, sizeof(float), sms);
  const long waves = waves_of(tiles_of(t, m, n) * sp.slices, sms);
  const double reduce_bytes = sp.slices > 1 ? double(sp.slices + 1) * double(m) * double(n) * sizeof(float) : 0.0;
  return kWgmmaInloopSlowdown * double(waves) * t.bm * t.bn * (double(sp.chunk) + kWgmmaTeamOverheadK) +
         kWgmmaFmaPerByte * reduce_bytes / double(sms);
}

namespace {

// Where the rule takes the in-loop split tile, K is split into the slices that fill its waves
// (wgmma_inplace_wsplit, splitk_wave_slices: its estimate is never above the split by 1024's) where
// that splits K at all, else by 1024. The fourteenth and fifteenth rounds took the wave split only
// where the split by 1024 left its waves under 0.8 full; measured since, the wave split ran at or
// above the split by 1024 on every shape where both ran, full waves included (% of cuBLAS SGEMM,
// wave split against the split by 1024: one H200, fifteenth round, 3000 x 128 x 12000 93.3 / 80.6,
// 100 x 100 x 300000 105.3 / 82.1, 5000 x 128 x 20000 99.3 / 99.5, 8192 x 128 x 8192 95.8 / 91.9;
// one H100, sixteenth round, 256 x 256 x 262144 91.6 / 84.2 (1024 teams, 0.97 full, against 132 in
// one wave: each team's fixed cost eight times over), 300 x 300 x 100000 89.7 / 83.6, 256 x 1024 x
// 16384 95.5 / 92.7, 400 x 800 x 20000 92.3 / 80.5, 200 x 3000 x 5000 92.8 / 93.4, 450 x 6000 x
// 2048 109.8 / 109.9; docs/performance.md "Tensor cores, sixteenth round").
// Where C is one column of tiles (N <= 128) and the split by 1024 in the loop is estimated slower
// than kWgmmaInloopOneColumnGain of the pre-split tile, the in-loop wave split is still taken where
// its own estimate is at most kSplitWaveGain of the pre-split tile's (fifteenth round, one H200,
// 2026-11-27: the estimates put it at 0.60-0.74 of the pre-split wave split on every N = 128
// shape measured, M 400-8192, K 4096-50000, and it ran 0.82-0.94 of its time; at 512 x 128 x
// 8192, the rule's pre-split wave split before, 92.4% of cuBLAS SGEMM against 81.5, estimate
// 0.74, where the split by 1024's was 2.04).
constexpr double kInloopWavesOverPresplitGain = kSplitWaveGain;
// Under M 512 (N >= 128, K >= kWgmmaThinMinK), the pre-split tile (presplit_best) where the estimate of the
// in-loop split (inloop_split's) is at least kThinPresplitInloopRatio of its own: there the
// estimates put the in-loop tile 0.05-0.2 too fast against the measured ratio (the pass's cost
// counted in full), and the measured ratio crosses 1 where the estimate's is 0.89-0.94 (seventeenth
// round, one H100, 2026-11-27, 27 shapes, M 100-480, N 256-8192, K 1025-262144, the pre-split and
// in-loop wave splits forced, % of cuBLAS SGEMM, pre-split / in-loop (estimated in-loop / pre-split
// time): 400 x 4096 x 4096 131.3 / 97.3 (1.15), 300 x 2000 x 1025 95.8 / 67.5 (1.20), 450 x 450 x
// 50000 112.8 / 98.9 (0.94), 320 x 640 x 30000 87.4 / 84.1 (0.94), 200 x 3000 x 5000 96.3 / 92.8
// (0.97); the in-loop split ahead at 200 x 1000 x 8192 93.0 / 96.8 (0.89), 256 x 1024 x 16384 90.2
// / 95.5 (0.86), 300 x 300 x 100000 84.0 / 89.7 (0.82), 128 x 4096 x 4096 66.8 / 93.8 (0.69);
// misplaced by the ratio only 100 x 6000 x 1025 72.8 / 68.6 (0.88) and 200 x 2048 x 20000 99.9 /
// 97.6 (0.89)).
constexpr double kThinPresplitInloopRatio = 0.92;
// The least K of the thin step (M < 512, N >= 128: the pre-split tile priced at the device's
// bandwidth) and of wgmma_choice's last step where the split by 1024 leaves K whole (the in-loop wave
// split alone), and the least efficiency (presplit_allowed's) of the thin step. To the twenty-eighth
// round the thin step began past K 1024 and the last step needed the split by 1024, so K <= 1024
// took the SIMT tiles; one H200, 2026-11-28 (docs/performance.md, "Tensor cores, twenty-ninth round",
// `tile: auto`, ms, the SIMT rule -> the pre-split 128x128 tile as the thin step now takes it):
// 300 x 4000 x 1000 0.114 -> 0.080 (whole; cuBLAS SGEMM 0.096), 129 x 6000 x 1000 0.114 -> 0.087
// (whole; 0.096), 200 x 1000 x 1000 0.066 -> 0.040 (4 slices filling the wave, efficiency 0.19;
// 0.042), 150 x 3000 x 800 0.072 -> 0.054 (by 512; 0.058), 100 x 6000 x 1024 0.088 -> 0.074 (by
// 512; 0.066), 100 x 6000 x 512 0.051 -> 0.049 (waves; 0.049), 256 x 2048 x 700 0.041 -> 0.045
// (waves; 0.048), 120 x 4000 x 1000 0.063 -> 0.055 (waves; 0.056; the in-loop wave split 0.051);
// K 300 (100 x 6000 x 300) the SIMT tile 0.036 against 0.039. N under 128 (4096 x 100 x 1000): the in-loop
// wave split, 0.066 -> 0.052 (0.060).
constexpr long kWgmmaThinMinK = 512;
constexpr double kThinMinEfficiency = 0.17;
// The thin step's pass at the device's memory bandwidth per SM (gpu_shape_rule's mem_bandwidth):
// kWgmmaFmaPerByte (16) was measured on an H100 (3.35 TB/s, 132 SMs); the pass runs at the memory's
// speed, the tile at the SMs', so a device with more bandwidth per SM pays proportionally fewer
// multiply-adds per byte (an H200, 4.8 TB/s in NVIDIA's data sheet: 11). Measured (twenty-first round, one H200,
// 2026-11-27, % of cuBLAS SGEMM, pre-split / in-loop wave splits): 145 x 2000 x 50000 84.9 / 72.4,
// 150 x 1024 x 100000 80.0 / 72.1, 140 x 3000 x 30000 89.7 / 78.0, 180 x 2048 x 40000 95.8 / 81.6,
// 190 x 4096 x 16384 90.2 / 77.1, 100 x 6000 x 1025 82.0 / 67.2, where one H100 ran 73.7 / 71.2,
// 66.5 / 72.8 and 78.3 / 78.5 at the first three (twentieth round): the pre-split tile 10-19%
// more TFLOP/s on the H200, the in-loop tile as many. Only here: at M >= 512 the H200 measured the
// in-loop tile ahead where this scaling would move N = 128 to the pass (fifteenth round).
// The H100 80GB HBM3 as CUDA reports it (gpu_memory_bandwidth: 2 x 2619 MHz x 5120 bits, 3.352e12).
constexpr double kRuleBandwidthPerSm = 2.0 * 2619e6 * 5120.0 / 8.0 / 132.0;

/// kWgmmaFmaPerByte at `mem_bandwidth` bytes per second on `sms` SMs (<= 0: the H100's, unscaled).
double thin_fma_per_byte(double mem_bandwidth, long sms) {
  return mem_bandwidth > 0.0 ? kWgmmaFmaPerByte * kRuleBandwidthPerSm * double(sms) / mem_bandwidth : kWgmmaFmaPerByte;
}

/// ", the pass at X.X TB/s" for the selection text where the device's bandwidth was given, else "".
std::string bandwidth_text(double mem_bandwidth) {
  if (mem_bandwidth <= 0.0) return "";
  char buf[48];
  std::snprintf(buf, sizeof buf, ", the pass at %.1f TB/s", mem_bandwidth / 1e12);
  return buf;
}

/// The use (use_of) of the fullest of the float SIMT tiles (64x64, 96x96, 128x128) on an m x n C.
double simt_best_use(long m, long n) {
  namespace rt = rule_tiles;
  double best = 0.0;
  for (const RuleTile* t : {&rt::kFloatSmall, &rt::kFloatMidSplitK, &rt::kFloatBig})
    best = std::max(best, use_of(*t, tiles_of(*t, m, n), m, n));
  return best;
}

/// The selection text of a K split into `slices` slices that fill the waves (the wave splits').
std::string waves_split_text(int slices) {
  return slices == 1 ? std::string(kOneSliceText)
                     : "K split into " + std::to_string(slices) + " slices filling the waves";
}

/// Which in-loop split tile the rule takes (the comment above): wgmma_inplace_wsplit (*split = "K
/// split into S slices filling the waves") where its split makes slices, else wgmma_splitk_inplace
/// ("K split by 1024"); `split` may be null.
GpuRuleChoice inloop_split(long m, long n, long k, long sms, std::string* split) {
  const int slices = rule_split(rule_tiles::kFloatWgmmaInloopWaves, m, n, k, sizeof(float), sms).slices;
  if (slices > 1) {
    if (split) *split = waves_split_text(slices);
    return GpuRuleChoice::wgmma_inplace_wsplit;
  }
  if (split) *split = "K split by 1024";
  return GpuRuleChoice::wgmma_splitk_inplace;
}

/// inloop_split's tile chosen, its selection text "3xTF32 on wgmma, 128x128 tiles: " + the split +
/// `tail`.
GpuRuleChoice inloop_chose(long m, long n, long k, long sms, const std::string& tail, std::string* why) {
  std::string split;
  const GpuRuleChoice c = inloop_split(m, n, k, sms, &split);
  return chose(c, "3xTF32 on wgmma, 128x128 tiles: " + split + tail, why);
}

/// The pre-split tile of least wgmma_presplit_time (its tile, rule choice and estimate): of the
/// 128x128 tile whole, split by 512, 1024 and 2048 and split into the slices that fill its waves
/// (kFloatWgmmaWaves), a split only at most kWgmmaSplitGain of the whole tile's estimate (what the
/// estimate leaves out).
struct PresplitFit {
  const RuleTile* tile;
  GpuRuleChoice choice;
  double time;
};
PresplitFit presplit_best(long m, long n, long k, long sms, double fma_per_byte = kWgmmaFmaPerByte) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  const PresplitFit splits[] = {{&rt::kFloatWgmmaSplitK512, C::wgmma_splitk512, 0.0},
                                {&rt::kFloatWgmmaSplitK, C::wgmma_splitk, 0.0},
                                {&rt::kFloatWgmmaSplitK2048, C::wgmma_splitk2048, 0.0},
                                {&rt::kFloatWgmmaWaves, C::wgmma_wsplit, 0.0}};
  const double t_whole = wgmma_presplit_time(rt::kFloatWgmma, m, n, k, sms, fma_per_byte);
  PresplitFit best{&rt::kFloatWgmma, C::wgmma_big, t_whole};
  for (const PresplitFit& f : splits) {
    if (rule_split(*f.tile, m, n, k, sizeof(float), sms).slices <= 1) continue;
    const double t = wgmma_presplit_time(*f.tile, m, n, k, sms, fma_per_byte);
    if (t <= kWgmmaSplitGain * t_whole && t < best.time) best = {f.tile, f.choice, t};
  }
  return best;
}

/// Whether the pre-split tile `best` may run at all: K >= kWgmmaPresplitMinK (or K >=
/// kWgmmaShortPresplitMinK over at least kWgmmaShortPresplitMinWaves waves of 128x128 tiles) and an
/// efficiency (m n k / (sms x its estimate)) of at least `min_efficiency`.
bool presplit_allowed(const PresplitFit& best, long m, long n, long k, long sms,
                      double min_efficiency = kWgmmaMinEfficiency) {
  const bool long_enough =
      k >= kWgmmaPresplitMinK || (k >= kWgmmaShortPresplitMinK &&
                                  tiles_of(rule_tiles::kFloatWgmma, m, n) >= kWgmmaShortPresplitMinWaves * double(sms));
  return long_enough && double(m) * double(n) * double(k) >= min_efficiency * double(sms) * best.time;
}

/// The rule's choice and selection text for the pre-split tile `best` (`tail` appended to the text).
GpuRuleChoice presplit_chose(const PresplitFit& best, long m, long n, long k, long sms, const std::string& tail,
                             std::string* why) {
  if (best.choice == GpuRuleChoice::wgmma_big)
    return chose(best.choice, "3xTF32 on wgmma, 128x128 tiles, operands split once" + tail, why);
  const std::string split =
      best.tile->waves ? waves_split_text(rule_split(*best.tile, m, n, k, sizeof(float), sms).slices)
                       : "K split by " + std::to_string(best.tile->split_kc);
  return chose(best.choice, "3xTF32 on wgmma, 128x128 tiles, operands split once: " + split + tail, why);
}

/// The pre-split step of wgmma_choice (M >= kWgmmaPresplitMinM, N >= kWgmmaPresplitMinN):
/// presplit_best's tile where presplit_allowed, else none. The in-loop split tile instead (split by
/// 1024 or inloop_split's wave split) where `inplace_ok` and wgmma_inloop_split_time of the split by
/// 1024 is at most kSplitWaveGain of the pre-split estimate (kWgmmaInloopOneColumnGain where N <= 128:
/// one column of tiles); where N <= 128, the in-loop wave split where its own estimate is at most
/// kInloopWavesOverPresplitGain of it.
GpuRuleChoice wgmma_presplit_choice(long m, long n, long k, long sms, bool inplace_ok, std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  const PresplitFit best = presplit_best(m, n, k, sms);
  if (!presplit_allowed(best, m, n, k, sms)) return C::none;
  const double t_best = best.time;
  const bool one_column = n <= rt::kFloatWgmma.bn;
  const double inloop_gain = one_column ? kWgmmaInloopOneColumnGain : kSplitWaveGain;
  // The in-loop tile where its split by 1024 is estimated within inloop_gain of the pre-split tile, or
  // (one column) its wave split within kInloopWavesOverPresplitGain; inloop_split picks the split.
  const bool by_1024_wins = rule_split(rt::kFloatWgmmaSplitK, m, n, k, sizeof(float), sms).slices > 1 &&
                            wgmma_inloop_split_time(rt::kFloatWgmmaSplitK, m, n, k, sms) <= inloop_gain * t_best;
  const bool waves_win =
      one_column && rule_split(rt::kFloatWgmmaInloopWaves, m, n, k, sizeof(float), sms).slices > 1 &&
      wgmma_inloop_split_time(rt::kFloatWgmmaInloopWaves, m, n, k, sms) <= kInloopWavesOverPresplitGain * t_best;
  if (inplace_ok && (by_1024_wins || waves_win)) {
    return inloop_chose(m, n, k, sms, ", operands split in the K loop (the pass would cost more)", why);
  }
  return presplit_chose(best, m, n, k, sms, best.choice == C::wgmma_big ? "" : ", the least estimated time", why);
}

}  // namespace

// The thin C that takes the pre-split wave split where the in-loop tile would read its operands in
// place (wgmma_choice's last step): M or N past kFloatSmallWavesMaxMn and K from
// kWgmmaThinPresplitMinK. One H200, 2026-11-29, `tile: auto` medians, us, the rule before (the
// small-C step's 64x128 tile, or the SIMT tiles) -> the pre-split 128x128 wave split: 6422 x 79 x
// 7926 414 (96x96 by 1024) -> 340, 65 x 6422 x 7926 397 -> 371, 100 x 6422 x 3871 256 -> 211, 79 x
// 6422 x 15525 909 -> 685, 4000 x 65 x 2047 85 -> 78, 2500 x 79 x 2047 60 -> 58, 1500 x 79 x 3871 70
// -> 64, 2730 x 85 x 3871 104 -> 96, 85 x 2730 x 3871 116 -> 101; 1500 x 100 x 2047 45 -> 48 the one
// loss at K over 1024; at K 513 the 64x128 tile stays (8000 x 100 x 513: 45 against 58). At or under
// 1024 rows and columns the small-C step's tiles, measured in the thirtieth round, stay.
// With operands read in place and 65-128 rows (one row of the 128-row tiles), the in-loop split
// instead, from this K (thirty-second round). The thirty-first round's `tile: auto` medians on one
// H200, us, pre-split -> in-loop wave split (cuBLAS SGEMM): 65 x 6422 x 7926 371 -> 333 (279), 100
// x 6422 x 3871 211 -> 201 (160), 79 x 6422 x 15525 685 -> 612 (541), 85 x 2730 x 3871 101 -> 102-103
// (76-77); the thirty-second's (call 1, both forced on 45 shapes, M 65, 80, 97, 112, 128, N 2731,
// 4001, 6422, K 1500, 3871, 9001): the in-loop tile ahead or within 1% on all 45, by 3-10% at K
// 1500 and 9001 (65 x 4001 x 1500 67 -> 60, 65 x 6422 x 9001 417 -> 380). The pass transposes all
// of the large operand, B, for one use each; where one column of tiles (N <= 128) has it pass over
// A, untransposed, the two tiles tie (6422 x 79 x 7926 340 / 341, 2730 x 85 x 3871 96-99 / 101-102,
// 8000 x 65 x 15525 781 / 765, 4000 x 65 x 2047 78 / 73). Under K 1024 the pre-split tile stays
// (100 x 6000 x 511: 49 against 56; 76 x 1783 x 465: 34 against 49). On aligned operands the
// pre-split tile stayed until the in-loop loader tested its chunks one by one (forty-first round):
// before, one row of tiles short of 128 rows failed its whole-tile test and loaded every element
// alone. One H200, 2026-12-01, `tile: auto` (median of two, us), pre-split wave split -> in-loop
// wave split: 112 x 6000 x 1500 98 -> 87, 100 x 6000 x 1024 71 -> 63, 116 x 3000 x 3000 86 -> 71,
// 124 x 8192 x 1024 86 -> 68, 104 x 1200 x 5000 70 -> 53, 90 x 1800 x 4096 76 -> 55, 100 x 4000 x
// 1100 63 -> 45, 108 x 2048 x 8192 138 -> 105, 128 x 1500 x 2048 46 -> 44; 100 x 6000 x 2048 117 ->
// 106 (the pre-split split by 1024, the rule before: 114-118). So aligned or not, one row of tiles
// takes the in-loop split from this K.
constexpr long kWgmmaThinPresplitMinK = 1024;

// Except where the in-loop tile needs A copied first (K not a multiple of 4 over N of 1024 or more
// columns, aligned_operands.hpp), K is under kOneRowCopyMaxK and C has at most kOneRowCopyMaxN
// columns: there the copy's launch costs more than the pass it saves, and the pre-split tile, whose
// pass writes A aligned anyway, stays. One H200, 2026-12-02 (docs/performance.md, "Tensor cores,
// forty-fifth round"), `tile: auto` with cold operands, median of two, ms, in-loop wave split (the
// rule) -> pre-split wave split or split by 1024 (cuBLAS SGEMM): 100 x 6000 x 1025 0.080-0.082 ->
// 0.074-0.075 (0.061-0.063), 112 x 6000 x 1025 0.081 -> 0.074 (0.061), 100 x 4000 x 1025 0.059 ->
// 0.052 (0.053); the same tile reading aligned A, 100 x 6000 x 1100, 0.070 against 0.076, and 100 x
// 6000 x 1024 0.064 against 0.070: the copy, not K's tail, costs the 10 us; 100 x 7000 x 1025 0.082
// -> 0.079 timed (0.080 both as candidates). From 8000 columns the pass costs about as much as the
// copy or more (100 x 8000 x 1030: 0.081 in-loop against 0.087; 100 x 12000 x 1025 0.107 against
// 0.109), and from K 1536 too (candidates: 128 x 6000 x 1537 0.093 in-loop against 0.098, 0.096
// both timed; 120 x 6000 x 2051 0.107 against 0.118).
constexpr long kOneRowCopyMaxN = 7000;
constexpr long kOneRowCopyMaxK = 1536;

// Float, C of one column of 128x128 tiles (N <= 128; from M 512, N under 128: N 128 is
// wgmma_presplit_choice's) whose operands the in-loop tile would read unaligned (rows not 16-byte
// aligned, too little reuse for a copy), where the wgmma step took the pre-split tile's wave split:
// the in-loop wave split reading them in place (WgmmaInPlace), where that split makes slices. The
// pass reads A and writes its two parts, which the GEMM reads once each (one column of tiles):
// five passes over A against one. One H100, 2026-12-07 (docs/performance.md, "Tensor cores,
// fifty-first round"), `tile: auto` found this tile or its plain form fastest on 8000 x 65 x 15525
// (74.0 -> 125.1% of cuBLAS SGEMM), 4000 x 100 x 7926 and 6422 x 80 x 9001; then the 12 audit shapes
// the step moves, the same run, ms, the pre-split tile (forced) -> this tile (cuBLAS SGEMM): 8000 x
// 65 x 15525 1.009 -> 0.595 (0.744), 6422 x 80 x 9001 0.486 -> 0.310 (0.363), 6422 x 79 x 7926 0.431
// -> 0.278 (0.327), 4000 x 100 x 7926 0.282 -> 0.177 (0.224), 2730 x 85 x 3871 0.113 -> 0.080
// (0.112), 1500 x 100 x 2047 0.047 -> 0.043 (0.046): faster on all 12, by 1.09-1.70x. Not measured
// on an H200, where the pass costs less (the rule before ran these shapes at 94-129% of cuBLAS
// SGEMM in the forty-eighth round's audits).
constexpr long kOneColumnInPlace = 128;

namespace {

/// The in-loop 128x128 wave split reading unaligned rows in place (wgmma_inplace_wsplit_a) for an m x
/// n x k float GEMM on `sms` SMs, its reason ending in `unaligned` (which rows, where); none, `why`
/// untouched, where that split makes one slice. Taken by one_row_a_in_place and kOneColumnInPlace's step.
GpuRuleChoice inplace_wsplit_a(long m, long n, long k, long sms, const char* unaligned, std::string* why) {
  const int slices = rule_split(rule_tiles::kFloatWgmmaInloopWaves, m, n, k, sizeof(float), sms).slices;
  if (slices <= 1) return GpuRuleChoice::none;
  return chose(
      GpuRuleChoice::wgmma_inplace_wsplit_a,
      "3xTF32 on wgmma, 128x128 tiles: " + waves_split_text(slices) + ", operands split in the K loop, " + unaligned,
      why);
}

}  // namespace

/// The wgmma step of gpu_shape_rule (its comment): wgmma_presplit_choice's where M >= 512 and N >=
/// 128; where M < 512, N >= 128 and K >= kWgmmaThinMinK, presplit_best's tile where presplit_allowed
/// (efficiency kThinMinEfficiency) and the
/// estimate of the in-loop split inloop_split would take is at least kThinPresplitInloopRatio of its
/// (the pass priced at `mem_bandwidth`, bytes per second: thin_fma_per_byte);
/// else the in-loop split tile (inloop_split's: wgmma_splitk_inplace or wgmma_inplace_wsplit) or
/// none; `inplace_ok`: the operands are aligned or copied, as the in-place split tile needs; where
/// they are not, a thin C (kFloatSmallWavesMaxMn, kWgmmaThinPresplitMinK) takes the pre-split
/// tile's wave split (wgmma_wsplit) instead, the rest none; with 65-128 rows and K >= 1024 the
/// in-loop split wherever these would take the pre-split tile, aligned operands or not, but for A
/// copied over at most kOneRowCopyMaxN columns (kWgmmaThinPresplitMinK's comment, kOneRowCopyMaxN's).
GpuRuleChoice wgmma_choice(long m, long n, long k, long sms, double mem_bandwidth, bool inplace_ok,
                           std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  if (m >= kWgmmaPresplitMinM && n >= kWgmmaPresplitMinN) return wgmma_presplit_choice(m, n, k, sms, inplace_ok, why);
  const RuleTile& big = rt::kFloatWgmma;
  // 65-128 rows (one row of the 128-row tiles, past the 64-row tiles'), K from
  // kWgmmaThinPresplitMinK, operands aligned or not: where the pre-split tile would run, the in-loop
  // split instead (kWgmmaThinPresplitMinK's comment).
  const bool one_row = m > big.bm / 2 && m <= big.bm && k >= kWgmmaThinPresplitMinK;
  const bool one_row_copies_a = operand_copied<float>(m, k, n) && n <= kOneRowCopyMaxN && k < kOneRowCopyMaxK;
  // Where the wave split leaves K whole and the split by 1024 is estimated slower than K whole
  // (splitk_waves_estimate: waves x (K per team + kSplitTeamOverheadK)), K stays whole: 100 x
  // 12000 x 1025 (94 tiles) ran 0.124 ms split by 1024 (188 teams, two waves) against 0.108 whole,
  // `tile: auto`'s pick (forty-fifth round).
  const auto one_row_inloop = [&] {
    const std::string tail = std::string(", operands split in the K loop") + (inplace_ok ? "" : ", read in place") +
                             " (one row of tiles: the pass would transpose B for one use)";
    const RuleTile& by_1024 = rt::kFloatWgmmaSplitK;
    const long tiles = tiles_of(by_1024, m, n);
    const RuleSplit sp = rule_split(by_1024, m, n, k, sizeof(float), sms);
    const bool whole = splitk_waves_estimate(tiles, sp.slices, sp.chunk, sms) > splitk_waves_estimate(tiles, 1, k, sms);
    if (whole && inloop_split(m, n, k, sms, nullptr) == C::wgmma_splitk_inplace)
      return chose(C::wgmma_inplace_wsplit,
                   "3xTF32 on wgmma, 128x128 tiles: K whole (estimated faster than split by 1024)" + tail, why);
    return inloop_chose(m, n, k, sms, tail, why);
  };
  if (n >= kWgmmaPresplitMinN && k >= kWgmmaThinMinK) {
    const double fpb = thin_fma_per_byte(mem_bandwidth, sms);
    const PresplitFit best = presplit_best(m, n, k, sms, fpb);
    std::string split;
    const bool waves = inloop_split(m, n, k, sms, &split) == C::wgmma_inplace_wsplit;
    const RuleTile& inloop = waves ? rt::kFloatWgmmaInloopWaves : rt::kFloatWgmmaSplitK;
    if (presplit_allowed(best, m, n, k, sms, kThinMinEfficiency) &&
        wgmma_inloop_split_time(inloop, m, n, k, sms) >= kThinPresplitInloopRatio * best.time) {
      if (one_row && !one_row_copies_a) return one_row_inloop();
      return presplit_chose(best, m, n, k, sms,
                            " (M < 512: the pass pays, by the estimates" + bandwidth_text(mem_bandwidth) + ")", why);
    }
  }
  const long tiles = tiles_of(big, m, n);
  // From K = kWgmmaThinMinK (shorter K: the SIMT tiles, whose teams carry less fixed cost); where the
  // split by 1024 leaves K whole, the wave split alone (fills' second test).
  if (k < kWgmmaThinMinK ||
      use_of(big, tiles, m, n) < kWgmmaSplitUseRatio * simt_best_use(m, n))
    return C::none;
  // A split whose teams fill their waves (at least min_waves) to kWgmmaSplitMinFill, estimated at
  // most kSplitWaveGain of the unsplit tile's time.
  const auto fills = [&](const RuleTile& t, long min_waves) {
    const int slices = rule_split(t, m, n, k, sizeof(float), sms).slices;
    const long teams = tiles * slices;
    return slices > 1 && waves_of(teams, sms) >= min_waves && wave_fill(teams, sms) >= kWgmmaSplitMinFill &&
           split_wave_time(t, m, n, k, 1, sms, sizeof(float)) + splitk_reduce_time(m, n, slices, sms, sizeof(float)) <=
               kSplitWaveGain * split_wave_time(big, m, n, k, 1, sms, sizeof(float));
  };
  // The split by 1024 in two waves or more (513 x 1025 x 2049 above), or the wave split in one or more:
  // 200 x 1000 x 8192 (16 tiles x 8 slices, 0.97 of 132 SMs) ran at 96.8% of cuBLAS SGEMM against the
  // SIMT rule's 77.2, 128 x 4096 x 4096 (32 x 4) 93.8 against 81.5, 100 x 2000 x 10000 (16 x 8) 93.2
  // against 79.1 (one H100, sixteenth round), where the split by 1024 made 128-160 teams: one wave,
  // or two under 0.7 full. On one H200 (same round, 24 shapes the SIMT tiles took before) 23 gained,
  // by up to 43 points; 100 x 6000 x 1025 lost (69.2 -> 64.8: 2 slices of 513 on 47 tiles).
  // With K <= 1024 (the split by 1024 one slice) the wave split alone, where the thin step above
  // declines: 4096 x 100 x 1000 (kWgmmaThinMinK's comment).
  if (!fills(rt::kFloatWgmmaSplitK, 2) && !fills(rt::kFloatWgmmaInloopWaves, 1)) return C::none;
  // A thin C (kFloatSmallWavesMaxMn, kWgmmaThinPresplitMinK) whose operands the in-loop tile would
  // read in place, element by element (rows not 16-byte aligned, C reusing them too little for a
  // copy): the pre-split tile's wave split, whose pass writes them aligned; with 65-128 rows the
  // in-loop split (one_row).
  if (!inplace_ok && (std::max(m, n) <= kFloatSmallWavesMaxMn || k < kWgmmaThinPresplitMinK)) return C::none;
  if (one_row && !inplace_ok) return one_row_inloop();
  // One column of tiles (N <= 128): the wave split reading the unaligned operands in place
  // (kOneColumnInPlace's comment).
  if (!inplace_ok && n <= kOneColumnInPlace)
    if (const C c = inplace_wsplit_a(m, n, k, sms, "unaligned rows read in place (one column of tiles)", why);
        c != C::none)
      return c;
  if (!inplace_ok)
    return chose(C::wgmma_wsplit,
                 "3xTF32 on wgmma, 128x128 tiles, operands split once (rows not 16-byte aligned): " +
                     waves_split_text(rule_split(rt::kFloatWgmmaWaves, m, n, k, sizeof(float), sms).slices),
                 why);
  std::string split;
  const C c = inloop_split(m, n, k, sms, &split);
  const char* tail = c == C::wgmma_splitk_inplace ? ", the teams filling their waves" : ", operands split in the K loop";
  return chose(c, "3xTF32 on wgmma, 128x128 tiles: " + split + tail, why);
}

namespace {

// Float C of 65-128 rows (one row of the 128x128 tiles) from K kWgmmaThinPresplitMinK, with K not a
// multiple of 4 over 1024 or more columns (A copied first by the plain tiles: operand_copied) and B
// aligned, where the wgmma step takes a tile and the in-loop wave split makes slices: that wave split
// reading A in place (WgmmaInPlace, tiled_gpu_wgmma.hpp), no copy launch, rather than the pre-split
// tile (kOneRowCopyMaxN's exception) or the in-loop tile copying A. One H200, 2026-12-02
// (docs/performance.md, "Tensor cores, forty-eighth round"), the same run, ms, the rule before -> the
// wave split reading A in place (cuBLAS SGEMM): 110 x 6000 x 1029 0.073 -> 0.070 (0.061), 128 x 6000
// x 1025 0.076 -> 0.075 (0.064), 100 x 6000 x 1030 0.075 -> 0.070 (0.064), 105 x 6000 x 1027 0.076 ->
// 0.072 (0.070), all pre-split before; the round's second job, the same run, the audit shapes it moved, ms,
// pre-split / in-loop copying A -> reading it in place: 100 x 4000 x 1025 0.061 / 0.057 -> 0.047
// (0.048), 112 x 4000 x 3001 0.117 / 0.094 -> 0.085 (0.087), 88 x 1252 x 7391 0.100 / 0.075 -> 0.065
// (0.070), 100 x 8000 x 1030 0.087 / 0.081 -> 0.071 (0.077), 128 x 2000 x 1025 0.050 / 0.051 ->
// 0.041 (0.036): faster on all 15. Under K 1024 the pre-split tile stays (100 x 4000 x 1023 ran 0.045
// against its 0.050: one shape, not a step), and with B unaligned too the rule's tiles (120 x 9001 x
// 1025, the in-loop tile copying A, ran 0.106 against this tile's 0.097: one shape, not a step; the
// step would move 24 audit shapes unmeasured). The C^T tiles (65-96 rows) read A in place the same
// way (rows_t_chose).

/// The step above applied to the wgmma step's choice `c`: wgmma_inplace_wsplit_a where it holds, else `c`.
GpuRuleChoice one_row_a_in_place(GpuRuleChoice c, long m, long n, long k, long sms, std::string* why) {
  namespace rt = rule_tiles;
  const bool one_row = m > rt::kFloatWgmma.bm / 2 && m <= rt::kFloatWgmma.bm && k >= kWgmmaThinPresplitMinK;
  if (c == GpuRuleChoice::none || !one_row || !operand_copied<float>(m, k, n) || n % detail::Chunk16<float>::width != 0)
    return c;
  const GpuRuleChoice a = inplace_wsplit_a(m, n, k, sms, "A's unaligned rows read in place (one row of tiles)", why);
  return a == GpuRuleChoice::none ? c : a;
}

// Whether odd operands that the copy bounds leave in place (CopyRule::dmma), K 112-768 (one slice),
// take the 64x64 deep tile, its unaligned operands read element-wise (aligned_operands.hpp), where
// its tiles fill one wave of three per SM and the register-path 64x64 tiles take more than one of
// two. One H200, 2026-11-29 (docs/performance.md, "Tensor cores, thirty-fifth round", calls 1-2,
// `tile: auto` and the rule, ms, the register path's best -> the deep tile in place; cuBLAS DGEMM):
// 450 x 2501 x 399 (320 tiles) 0.068 -> 0.061 (0.050), 480 x 2689 x 377 (344) 0.063 -> 0.062, 2000
// x 601 x 377 (320) 0.068 -> 0.059, 900 x 1201 x 301 0.059 -> 0.056, 1801 x 700 x 255 0.044 ->
// 0.040, 2200 x 700 x 199 0.042 -> 0.035, 1500 x 1001 x 301 0.063 -> 0.056, 150 x 7001 x 300 0.058
// -> 0.049, 6000 x 200 x 127 0.033 -> 0.027, 388 x 3173 x 118 0.037 -> 0.033; 700 x 1801 x 257
// 0.053 -> 0.053; 1100 x 1001 x 255 (288 tiles) 0.050 -> 0.048-0.053. At K 97 and under the
// register path stays ahead (600 x 2301 x 97 0.035 against 0.038, 960 x 1345 x 45 0.028 against
// 0.033), and with its tiles in one wave of two per SM (640 x 1283 x 480, 210 tiles: 0.046 against
// 0.055; 1000 x 1001 x 257, 256: 0.036 against 0.041) or past one wave of three (1700 x 1001 x 255,
// 432: 0.055 against 0.067).
constexpr long kDmmaInPlaceMinK = 112;
bool inplace_deep_wave(long m, long n, long k, long sms) {
  const long tiles = tiles_of(rule_tiles::kDoubleMmaSmallSplitK, m, n);
  return k >= kDmmaInPlaceMinK && k <= kDmmaSmallDeepMaxK && tiles > kDmmaTeamsPerSm * sms &&
         tiles <= rule_tiles::kDmmaSmallDeepTeamsPerSm * sms;
}

// A thin C over a long K whose unaligned operand the copy bounds leave in place (B with N odd, reused
// along 192 rows or fewer; forty-fourth round): M 65-kDmmaThinMidMaxM where the 96-row tiles pad M no
// more than the 64-row ones, N from kDmmaThinMidMinN, K from kDmmaThinMidMinK: the deep 96x96 tile
// split by 1024, reading that operand in place, rather than the register path's tiles. One H200,
// 2026-12-02, `tile: auto` with cold operands, ms: the rule before -> the 96x96 tile (the deep
// 64x64 tile's best; cuBLAS DGEMM): 160 x 8191 x 6000 0.727 (128x64, register path) -> 0.562
// (0.603; 0.473), 192 x 6001 x 4000 0.358 (64x64 split by 1024) -> 0.300 (0.335; 0.256), 78 x 7255
// x 5502 0.395 (64x64 wave split) -> 0.267 (0.348; 0.287). On aligned operands the deep steps above
// decide (there the 64x64 deep tile beat the 96x96 one on 150 x 6000 x 6000, 0.316 against 0.363,
// and 192 x 3000 x 8000, 0.232 against 0.256: left as they are, at 76-85% of DGEMM).
// Forty-fifth round (docs/performance.md), the same, ms: K from 700, and K split into the slices
// that fill the waves (the split by 1024 made two waves of 2 x 94 tiles at 190 x 9001 x 2000): the
// register path's best -> the 96x96 wave split (the split by 1024; cuBLAS DGEMM): 150 x 12001 x 1000
// 0.210 -> 0.153 (0.152; 0.139), 190 x 9001 x 2000 0.264 -> 0.246 (0.300 or more; 0.228), 80 x 16001 x
// 700 0.100 -> 0.096 (0.104; 0.087); at 4000 and more, the rule's split by 1024 -> the wave split:
// 130 x 7001 x 4000 0.408 -> 0.344 (0.305), 78 x 7255 x 5502 0.273 -> 0.264, 160 x 8191 x 6000 0.564
// -> 0.565, 192 x 6001 x 4000 0.302 -> 0.303. At K 512 and under the 64x64 tiles stay (100 x 20001
// x 512 0.112-0.125 on them; 128 x 20001 x 300 0.067-0.082).
// Forty-sixth round (docs/performance.md; three runs, `tile: auto` timed, ms, the rule before -> the
// best variant; cuBLAS DGEMM):
// - Two rows of 96-row tiles (M 129-192) under K kDmmaThinMidAnyTilesMinK need at least one tile
//   per SM: with fewer the register path's 64x64 tile won, 143 x 4893 x 1743 (102 tiles) 0.152 ->
//   0.135 (0.100-0.105) and 185 x 5303 x 1126 (112) 0.104 -> 0.092 (0.074-0.083); with more the
//   96x96 tile kept winning (190 x 9001 x 2000, 188 tiles; 150 x 12001 x 1000, 252). At K 4000 it
//   won over fewer (192 x 6001 x 4000, 126 tiles, round 44); between 1743 and 4000, not measured,
//   the bound sits at 2048.
// - One row of them (M 65-kDmmaThinMidShortKMaxM) from K kDmmaThinMidShortKMinK, over at least one
//   tile per SM (as measured: 209-313 tiles): 65 x 20001 x 512 0.122-0.124 (64x64, two rows of
//   tiles) -> 0.080-0.084 (0.080-0.100), 70 x 30001 x 256 0.083-0.085 (128x64) -> 0.077-0.080
//   (0.071-0.081). At 96 rows, where the 128x64 tile pads less, a tie (96 x 16001 x 400 0.066-0.068
//   against 0.067-0.068): M 81-96 keeps K 700.
constexpr long kDmmaThinMidMaxM = 192;
constexpr long kDmmaThinMidMinN = 4096;
constexpr long kDmmaThinMidMinK = 700;
constexpr long kDmmaThinMidAnyTilesMinK = 2048;
constexpr long kDmmaThinMidShortKMaxM = 80;
constexpr long kDmmaThinMidShortKMinK = 256;
bool thin_inplace_mid(long m, long n, long k, long sms) {
  if (m <= 64 || m > kDmmaThinMidMaxM || detail::round_up(m, 96) > detail::round_up(m, 64) || n < kDmmaThinMidMinN)
    return false;
  const bool tile_per_sm = tiles_of(rule_tiles::kDoubleMmaMidWaves, m, n) >= sms;
  if (k < kDmmaThinMidMinK) return m <= kDmmaThinMidShortKMaxM && k >= kDmmaThinMidShortKMinK && tile_per_sm;
  return m <= 96 || k >= kDmmaThinMidAnyTilesMinK || tile_per_sm;
}

// The same thin C over B in place at short K, M 97-kDmmaThinMidMaxM (where thin_inplace_mid does
// not take it), N from kDmmaThinMidMinN, K kDmmaThinMidShortKMinK-kDmmaSmallDeepMaxK (one slice),
// where the rule would take the register path's 64x64 tile (dmma_small; not where it takes the
// 128x64 one, unmeasured): the 64x64 deep tile at three teams per SM (3 cp.async stages). Forty-fifth
// and forty-sixth rounds, four runs, `tile: auto` timed, ms, register path -> it (cuBLAS DGEMM):
// 100 x 20001 x 512 0.122-0.127 -> 0.118-0.121 (0.082-0.101), 120 x 24001 x 512 0.127-0.128 ->
// 0.123-0.125 (0.101-0.119), 128 x 20001 x 300 0.082-0.085 -> 0.080-0.083 (0.063-0.078), 180 x
// 15001 x 600 0.142-0.144 -> 0.140-0.143 (0.119-0.126).
bool thin_inplace_short(long m, long n, long k) {
  return m > 96 && m <= kDmmaThinMidMaxM && n >= kDmmaThinMidMinN && k >= kDmmaThinMidShortKMinK &&
         k <= kDmmaSmallDeepMaxK;
}

// Odd operands left in place (CopyRule::dmma) where the rule takes the register path's 64x64 tile
// with K whole (dmma_small: no wave split), K kDmmaInPlaceMinK-kDmmaSmallDeepMaxK and at most one
// 64x64 tile per SM (forty-ninth round): the 64x64 deep tile reading them in place, element by element,
// copying nothing (dmma_small_splitk_deep_el_inplace). With a team per SM at most, the deep tile's
// three cp.async stages hide the loads that the register path waits for. One H100, 2026-12-07
// (docs/results/2026-12-07/round49), `tile: auto` medians, ms, the register path -> the deep tile
// in place (cuBLAS DGEMM):
//   - call 1: 142 x 97 x 253 (6 tiles) 0.0262 -> 0.0233 (0.0184), 129 x 127 x 257 (6) 0.0268 ->
//     0.0241 (0.0191), 777 x 333 x 257 (78) 0.0269 -> 0.0256 (0.0250), 2000 x 199 x 401 (128)
//     0.0352 -> 0.0324 (0.0291);
//   - call 2, the 24 shapes the step moves (the audit decks' 11, 13 more): faster on 20, by up to
//     21% (640 x 640 x 255 0.0285 -> 0.0226, 68 x 406 x 153 0.0262 -> 0.0209), the median 0.94 of
//     the time; slower on 4 (245 x 514 x 227 by 0.7%, 983 x 153 x 180 0.0231 -> 0.0283, 777 x 333 x
//     257 0.0287 -> 0.0321, 129 x 127 x 257 0.0280 -> 0.0309), where call 1 had the last two
//     faster: at 20-30 us these GEMMs are about a launch, and runs differ by 10%. As the rule, all
//     24 at 83-121% of cuBLAS.
// Over more tiles than SMs the register path stays ahead: 1500 x 401 x 601 (168 tiles) 0.053
// against 0.058, 1500 x 333 x 777 (144) 0.064 against 0.067 (and round 35's register-path wins at
// 210-256 tiles, inplace_deep_wave's comment); at K 101, a tie (100 x 100 x 101, 0.0182 against
// 0.0184).
bool few_tiles_inplace_short(long m, long n, long k, long sms) {
  return k >= kDmmaInPlaceMinK && k <= kDmmaSmallDeepMaxK && tiles_of(rule_tiles::kDoubleMmaSmallSplitK, m, n) <= sms;
}

// The in-place steps' tiles (inplace_deep_wave, thin_inplace_mid, thin_inplace_short) in their
// ElemChunks forms (tiled_gpu_mma.hpp): the operand whose rows are not 16-byte aligned goes through
// the cp.async tiles' interior and edge paths, element by element, instead of the masked path on
// every K tile. One H200, 2026-12-02 (docs/performance.md, "Tensor cores, forty-seventh round"),
// three runs in the same job, ms: the tile before -> its ElemChunks form (cuBLAS DGEMM):
// - the 64x64 deep tile split by 1024: 100 x 20001 x 512 0.118-0.121 -> 0.088-0.091 (0.083-0.093),
//   120 x 24001 x 512 0.123-0.127 -> 0.104-0.106 (0.102-0.108), 128 x 20001 x 300 0.081-0.082 ->
//   0.058-0.061 (0.063-0.066), 180 x 15001 x 600 0.142-0.143 -> 0.116-0.119 (0.118-0.124), 450 x
//   2501 x 399 0.060-0.064 -> 0.053-0.056 (0.048-0.054);
// - the 96x96 wave split: 65 x 20001 x 512 0.080-0.083 -> 0.074-0.076 (0.079-0.087), 150 x 12001 x
//   1000 0.155-0.157 -> 0.144-0.147 (0.140-0.153), 190 x 9001 x 2000 0.246-0.250 -> 0.221-0.226
//   (0.214-0.233), 160 x 8191 x 6000 0.561-0.564 -> 0.509-0.510 (0.450-0.455; the 64x64 deep tile's
//   ElemChunks form split by 1024 ran 0.475-0.479: one shape, not a step).
// With both operands aligned the ElemChunks form is slower (100 x 20000 x 512: 0.082-0.085 against
// 0.075-0.077), but these steps run only where an operand is read in place unaligned.
constexpr const char* kInPlaceElemText =
    "operands the copy bounds leave in place read in place, their unaligned rows element by element";

// Operands the DMMA tiles copy by their own bounds alone (CopyRule::dmma: reused along 193-1023 rows
// or columns, aligned_operands.hpp) in a GEMM of at most kDmmaElInPlaceMaxWork M·N·K, where the rule
// takes the 64x64 deep tile (copying them) or the 96x96 tiles (and so the register path, reading them
// in place): the 64x64 deep tile's ElemChunks form copying nothing (ElemChunks<Cfg, false>), its
// unaligned rows element by element, without the copies' two launches. One H200, 2026-12-02
// (docs/performance.md, "Tensor cores, forty-eighth round"), the same run, ms, the rule before ->
// this tile (the 64x64 deep tile copying, forced; cuBLAS DGEMM): 1001^3 0.097 -> 0.089 (0.096;
// 0.073), 1001 x 1003 x 999 0.093 -> 0.088 (0.089; 0.070), 513 x 1025 x 2049 (register path) 0.118
// -> 0.114 (0.127; 0.095), 377 x 817 x 3382 (register path) 0.099 -> 0.090 (0.100; 0.090); within 2%
// either way on 999^3, 801 x 803 x 2001, 700 x 900 x 3001 and 555 x 555 x 5555. In a larger GEMM the
// copies weigh less: 900 x 901 x 9001 (7.3e9) ran 0.527 against 0.512 for the copying tile. The
// round's second job, the audit shapes the step moved, ms, the 64x64 deep tile copying -> this tile
// (cuBLAS DGEMM): 402 x 699 x 4390 0.109 -> 0.097 (0.094), 688 x 2275 x 436 0.058 -> 0.051 (0.051),
// 869 x 791 x 1052 0.072 -> 0.066 (0.069), 4510 x 504 x 369 0.074 -> 0.070 (0.065), 1001^3 0.095 ->
// 0.088 (0.070); none of the 15 slower. Not for the deep wave split (dmma_small_wsplit: 600 x 1001 x
// 1001), whose form copying nothing the catalog lacks.
constexpr double kDmmaElInPlaceMaxWork = 2e9;

// Past kDmmaElInPlaceMaxWork the same where every operand the DMMA bounds alone copy is reused along
// at most kDmmaElInPlaceMaxReuse rows or columns of C (five 64-wide tiles or fewer), whatever tile
// the rule would take: the copy reads and writes that operand once more, against the GEMM's one read
// per tile row or column of C, and so weighs most there. One H100, 2026-12-07 (docs/performance.md,
// "Tensor cores, fifty-first round"): `tile: auto` took this tile on 3707 x 194 x 7611, 194 x 3707 x
// 7611, 2000 x 200 x 9999, 300 x 8191 x 4096, 256 x 8191 x 8192 and 200 x 5001 x 6000; then the 12
// audit shapes the step moves, the same run, ms, the tile before (forced) -> this tile (cuBLAS
// DGEMM): 200 x 5001 x 6000 0.552 -> 0.400 (0.372), 256 x 8191 x 8192 (128x64) 1.095 -> 0.825
// (0.789), 300 x 8191 x 4096 (64x64, K whole) 0.674 -> 0.537 (0.480), 3707 x 194 x 7611 0.538 ->
// 0.457 (0.376), 194 x 3707 x 7611 0.531 -> 0.449 (0.377), 2000 x 200 x 9999 0.367 -> 0.315 (0.263),
// 2500 x 300 x 5001 0.311 -> 0.264 (0.272), 6000 x 300 x 16001 2.243 -> 2.076 (2.410), 20000 x 300 x
// 999 (ws 128x128) 0.487 -> 0.466 (0.471), 1638 x 315 x 4235 0.187 -> 0.183 (0.154); 2% slower on
// 5069 x 239 x 5331 (0.530 -> 0.540) and 8000 x 256 x 4095 (128x64, 0.564 -> 0.575). Along 900 rows
// and columns the copy pays (900 x 901 x 9001 above). Not measured on an H200, whose bandwidth
// makes the copy cheaper.
constexpr long kDmmaElInPlaceMaxReuse = 320;

/// Whether the operands of an m x n x k double GEMM that the DMMA bounds alone copy (operand_copied
/// by CopyRule::dmma, not by the tiles' bounds) are each reused along at most kDmmaElInPlaceMaxReuse
/// rows or columns of C (A along N, B along M); false where there is no such operand.
bool dmma_copies_thin(long m, long n, long k) {
  const auto dmma_only = [](long rows, long cols, long reuse) {
    return operand_copied<double, CopyRule::dmma>(rows, cols, reuse) && !operand_copied<double>(rows, cols, reuse);
  };
  const bool a = dmma_only(m, k, n), b = dmma_only(k, n, m);
  return (a || b) && (!a || n <= kDmmaElInPlaceMaxReuse) && (!b || m <= kDmmaElInPlaceMaxReuse);
}

/// The double tensor-core steps of gpu_shape_rule (its comment) on `sms` SMs: `deep_tiles` and
/// `sm90a` as there; `deep`: A and B are aligned or copied (the cp.async tiles may run).
GpuRuleChoice dmma_choice(long m, long n, long k, long sms, bool deep_tiles, bool deep, bool sm90a, std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  const std::size_t elem = sizeof(double);
  const RuleTile& mb = rt::kDoubleMmaBig;
  const RuleTile& msm = rt::kDoubleMmaSmall;
  const RuleTile& ms = rt::kDoubleMmaSmallSplitK;
  const long tiles_mb = tiles_of(mb, m, n);
  const double use_mb = use_of(mb, tiles_mb, m, n);
  const long slots = kDmmaTeamsPerSm * sms;
  const bool k_splits = splitk_slices(m, n, k, ms.split_kc, elem) > 1;
  const bool big_sparse = tiles_mb < kDmmaBigMinFill * double(slots) && k_splits;
  const std::string ws_why =
      "FP64 tensor cores, 128x128x16 tiles on m16n8k16, warp-specialized (a producer warpgroup), 4 cp.async stages";
  const long tiles_ws = tiles_of(rt::kDoubleMmaWs, m, n), ws_slots = rt::kDmmaWsTeamsPerSm * sms;
  const TailSplitPlan tail = tail_split_plan(tiles_ws, k, ws_slots, rt::kDmmaWsKTile);
  const auto tail_why = [&] {
    return ws_why + ", the last wave's " + std::to_string(tail.tiles) + " tiles split into " +
           std::to_string(tail.slices) + " K slices";
  };
  if (deep && sm90a && m % rt::kDoubleMmaWs.bm == 0 && n % rt::kDoubleMmaWs.bn == 0 && k >= kDmmaSkMinK &&
      k <= kDmmaSkMaxK && tiles_ws < kDmmaSkMaxWaves * ws_slots) {
    if (tail.active()) return chose(C::dmma_deep_ws_tail, tail_why(), why);
    const StreamKPlan sk = stream_k_plan(tiles_ws, k, ws_slots, rt::kDmmaWsKTile, rt::kDmmaWsStages);
    if (sk.active() && 2L * sk.team_iters <= sk.tile_iters)
      return chose(C::dmma_deep_ws_sk,
                   ws_why + ", C in whole tiles: the last " + std::to_string(sk.tiles) +
                       " tiles' K tiles streamed over " + std::to_string(sk.teams) + " teams",
                   why);
  }
  if (deep_tiles)
    if (const C c = small_waves_choice(deep, m, n, k, elem, sms, why); c != C::none) return c;
  // Where the 128x64 tile would split (its split's teams fill their waves, its own tiles end short):
  // the deep 64x64 tile split (or the deep big tile's wave split); with the operands read in place,
  // the register-path 64x64 tile split by 1024 where its tiles fill at most kDmmaRegSplitMaxWaves
  // waves and the steps below would leave it unsplit (reg_split).
  bool big_would_split = false;
  if (k_splits) {
    const long teams = tiles_mb * splitk_slices(m, n, k, rt::kDoubleMmaBigSplitK.split_kc, elem);
    const bool unsplit_short = tiles_mb < sms || big_sparse || wave_fill(tiles_mb, slots) < kBigMaxRaggedFill;
    big_would_split =
        use_mb >= kDmmaDeepSplitMinUse && wave_fill(teams, slots) >= kDmmaDeepSplitMinFill && unsplit_short;
  }
  // There, past a wave of the ws tile's 128x128 tiles that C fills well, from K = 1024: the ws tile
  // (its partial last wave split in K where tail_split_plan splits it) rather than a split tile.
  if (deep && big_would_split && sm90a && k >= kDmmaWsMinK && tiles_ws > ws_slots &&
      use_of(rt::kDoubleMmaWs, tiles_ws, m, n) >= kDmmaWsSplitMinUse) {
    if (tail.active()) return chose(C::dmma_deep_ws_tail, tail_why() + " (128x64 tiles would split)", why);
    return chose(C::dmma_deep_ws, ws_why + " (128x64 tiles would split)", why);
  }
  if (deep && big_would_split) {
    const RuleTile& mbs = rt::kDoubleMmaBigSplitK;
    if (dmma_wave_split(mbs, rt::kDoubleMmaBigWaves, m, n, k, elem, sms, 1, kDeepWaveSplitMaxTileShare))
      return chose(C::dmma_deep_wsplit,
                   "FP64 tensor cores, 128x64x16 tiles, 3 cp.async stages: " +
                       waves_split_text(rule_split(rt::kDoubleMmaBigWaves, m, n, k, elem, slots).slices) +
                       " (long K over very few tiles)",
                   why);
    return chose(C::dmma_small_splitk_deep,
                 "FP64 tensor cores, 128x64 tiles would split: 64x64 tiles at three teams per SM, K split by 1024, "
                 "3 cp.async stages",
                 why);
  }
  const long tiles_ms = tiles_of(ms, m, n);
  const bool reg_split = !deep && big_would_split && tiles_ms <= kDmmaRegSplitMaxWaves * double(slots);
  // The deep 128x64 tile past kDmmaSmallDeepMaxK, or where its tiles fit one wave and the 64x64 deep
  // tile's take more than one; else, up to it, that tile below (K in one slice).
  const bool big_k =
      !deep || k > kDmmaSmallDeepMaxK || (tiles_mb <= slots && tiles_ms > rt::kDmmaSmallDeepTeamsPerSm * sms);
  if (big_k && use_mb >= 0.5 && tiles_mb >= sms && !big_sparse && !reg_split &&
      dmma_wave_time(mb, m, n, sms, deep ? kDmmaDeepEfficiency : kDmmaEfficiency) <=
          kDmmaBigSlack * dmma_wave_time(msm, m, n, sms, kDmmaEfficiency)) {
    if (deep && k <= kDmmaShortK)
      return chose(
          C::dmma_deep_k8,
          "FP64 tensor cores, 128x64x16 tiles on m16n8k8, 3 cp.async stages: K <= " + std::to_string(kDmmaShortK), why);
    if (deep && sm90a && k >= kDmmaWsMinK && tiles_ws >= kDmmaWsMinWaves * sms) {
      if (tail.active()) return chose(C::dmma_deep_ws_tail, tail_why(), why);
      return chose(C::dmma_deep_ws, ws_why, why);
    }
    return deep ? chose(C::dmma_deep, "FP64 tensor cores, 128x64x16 tiles, 3 cp.async stages", why)
                : chose(C::dmma_big, "FP64 tensor cores, 128x64 tiles", why);
  }
  // Split where the 64x64 tiles leave team slots empty, or (ragged) fill
  // them but end in a wave so partial that the split's waves are faster
  // (1500 x 1500 x 8192: 576 tiles on 264 slots, 2.2 waves in 3).
  const bool few = tiles_ms < slots;
  const bool ragged = !few && split_wave_time(ms, m, n, k, kDmmaTeamsPerSm, sms, elem) <=
                                  kSplitWaveGain * split_wave_time(msm, m, n, k, kDmmaTeamsPerSm, sms, elem);
  if ((few || ragged) && k_splits) {
    const std::string tiles_why = few ? "few 64x64 tiles" : "64x64 tiles in ragged waves";
    if (deep && mid_split_pays(rt::kDoubleMmaMidSplitK, ms, m, n, k, elem, sms, kDmmaMidSlack)) {
      const std::string lead = std::string("FP64 tensor cores, ") + (few ? "few tiles" : "64x64 tiles in ragged waves");
      const std::string head = lead + ", 96x96 no emptier than 64x64: K split ";
      if (dmma_wave_split(rt::kDoubleMmaMidSplitK, rt::kDoubleMmaMidWaves, m, n, k, elem, sms, kMidWaveSplitMinWaves,
                          kWaveSplitMaxTileShare))
        return chose(C::dmma_mid_wsplit,
                     head + "into " + std::to_string(rule_split(rt::kDoubleMmaMidWaves, m, n, k, elem, slots).slices) +
                         " slices filling the waves (long K over few tiles), 4 cp.async stages",
                     why);
      // The split by 1024 unless its teams fill a wave of two per SM and the split 64x64 deep tile's
      // waves are estimated at most kDmmaSmallOverMidGain of its own (split_wave_time: two teams per
      // SM against three).
      const long mid_teams =
          tiles_of(rt::kDoubleMmaMidSplitK, m, n) * splitk_slices(m, n, k, rt::kDoubleMmaMidSplitK.split_kc, elem);
      if (mid_teams < slots ||
          split_wave_time(ms, m, n, k, rt::kDmmaSmallDeepTeamsPerSm, sms, elem) >
              kDmmaSmallOverMidGain * split_wave_time(rt::kDoubleMmaMidSplitK, m, n, k, kDmmaTeamsPerSm, sms, elem))
        return chose(C::dmma_mid_splitk_deep, head + "by 1024, 4 cp.async stages", why);
      return chose(C::dmma_small_splitk_deep,
                   lead +
                       ", 64x64 at three teams per SM estimated faster than 96x96: K split by 1024, 3 cp.async "
                       "stages",
                   why);
    }
    return deep ? chose(C::dmma_small_splitk_deep,
                        "FP64 tensor cores, " + tiles_why + ": K split by 1024, 3 cp.async stages", why)
                : chose(C::dmma_small_splitk, "FP64 tensor cores, " + tiles_why + ": K split by 1024", why);
  }
  // K in one slice (K <= 1024): where the deep tiles run, the 64x64 deep tile at three teams per SM
  // (the split form, one slice here) rather than the register-path 64x64 tile at two. One H200,
  // 2026-11-28 (docs/performance.md, "Tensor cores, twenty-ninth round"), `tile: auto`, ms, register
  // -> deep: 1000^3 0.082 -> 0.068 (cuBLAS DGEMM 0.059), 1234 x 778 x 1000 0.080 -> 0.069, 2000 x 500
  // x 1000 0.083 -> 0.066, 1500^2 x 1000 0.173 -> 0.137 (576 tiles: ragged waves); whole tiles tie
  // (1024^3: 0.067 -> 0.066).
  if (deep && !k_splits)
    return chose(C::dmma_small_splitk_deep,
                 "FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (K in one slice)", why);
  // K splits, but neither few tiles nor ragged waves: the 64x64 deep tile unsplit at three teams per
  // SM (4959 x 287 x 6412: 390 tiles on 396 slots, one wave; at two per SM on the register path,
  // 1.5 waves).
  if (deep)
    return chose(C::dmma_small_deep, "FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages", why);
  if (reg_split)
    return chose(C::dmma_small_splitk,
                 "FP64 tensor cores, 128x64 tiles would split: 64x64 tiles, K split by 1024 (operands read in place)",
                 why);
  return chose(C::dmma_small, "FP64 tensor cores, 64x64 tiles", why);
}

}  // namespace

namespace {

// Float C of 65-128 rows (more than the 64-row tiles', one row of the 128-row tiles) against more
// than kFloatSmallWavesMaxMn columns (thirty-ninth round, docs/performance.md). The C^T tiles
// (GpuWgmmaTile::rows_n) take M as wgmma's N, rounded up to 16, where the 128-row tiles pad it to
// 128, at two teams of 64 columns per SM. One H200, 2026-11-30, `tile: auto` (medians of two, ms;
// cuBLAS SGEMM in brackets; calls 4 and 5 of docs/results/2026-11-30):
//   - K kRowsNShortMinK-kRowsNShortMaxK over more than kRowsNShortMinN columns, where the rule took
//     the SIMT tiles: 96 x 30001 x 128 the 96-row tile 0.040-0.042, the SIMT 128x128 and 64x64
//     tiles 0.051-0.054 and 0.054-0.055 (0.039-0.043); 65 x 20001 x 128 the 80-row tile 0.033
//     against 0.049 and 0.042 (0.038); 88 x 9109 x 200 0.037 against 0.039 (64x64); 80 x 12288 x
//     64 0.019 against 0.019; the in-loop 128x128 tile (past 96 rows) on 120 x 12345 x 64 0.021-0.022
//     against 0.029-0.030 (0.024-0.028), 128 x 9109 x 256 0.038-0.040 against 0.044 (0.043), 112 x
//     20001 x 128 0.042 against 0.053 (0.043). So the 80- and 96-row C^T tiles to M 96 (wgmma_t80,
//     wgmma_t96), past it the in-loop 128x128 tile (inloop_chose). At 8192 columns and fewer the
//     SIMT 64x64 tile stays ahead or ties: 96 x 4096 x 64 0.015 against the 96-row tile's 0.018,
//     81 x 2000 x 64 0.017 against 0.019, 100 x 6000 x 256 0.031 against the in-loop tile's 0.040,
//     97 x 3001 x 250 0.033 against 0.043, 128 x 8192 x 96 0.019 against 0.023; 70 x 5000 x 256
//     0.032 against the 80-row tile's 0.030 (0.032 as the rule, timed).
//   - K >= kWgmmaThinPresplitMinK, M 65-80: the 80-row tile against the in-loop 128x128 wave
//     split (the rule before, but at 65 x 3000 x 2000, aligned, the pre-split wave split: 0.063):
//     65 x 8191 x 1024 0.067 / 0.071, 65 x 6422 x 3871 0.182 / 0.192, 80 x 4001 x 1500 0.057 /
//     0.057, 65 x 3000 x 2000 0.058 / 0.058. Past 96 rows the 112- and 128-row tiles lose there
//     (100 x 6000 x 2048 0.152, the 112-row tile, against 0.116 pre-split; 128 x 4096 x 4096 0.151,
//     the 128-row tile, against 0.116), so those keep the rule before.
//   - K >= kWgmmaThinPresplitMinK, M 81-96 (fortieth round, with tf32_split4's shorter split, which
//     took the 96-row tile from 243 registers to 227): the 96-row tile. One H200, 2026-12-01,
//     `tile: auto` against the rule before (ms, cuBLAS SGEMM in brackets): 90 x 7000 x 1800 0.111
//     against 0.120 pre-split (0.100), 88 x 6000 x 1600 0.084 against 0.095 (0.076), 85 x 2730 x
//     3871 0.093 against 0.095 in-loop (0.081); in round 39, before tf32_split4, 0.099 / 0.099.
//     Against the in-loop wave split it ties or wins by a few % on most shapes (96 x 4096 x 4096
//     0.108 against 0.116, 92 x 3000 x 8000 0.163 against 0.167) and loses on some (93 x 2600 x
//     2600 0.065 against 0.057, 85 x 6422 x 1300 0.086 against 0.082); as the rule, each of the 13
//     such shapes of call 5 (docs/results/2026-12-01) ran at 84.6-111.4% of cuBLAS.
//     From kRowsNT96LongKMinN columns only: below them the pre-split 64x128 tile of the rule before
//     wins (81 x 1100 x 1024 0.032 against 0.040, 96 x 1500 x 1100 0.034 against 0.038), and at
//     2000-3000 columns the tiles are close (88 x 2000 x 4000 0.067, the 96-row tile first; 93 x
//     2600 x 2600 0.066 against the in-loop tile's 0.063; 92 x 3000 x 8000 0.164 against the SIMT
//     96x96 tile's 0.161; all 95-112% of cuBLAS).
//   - K 257-1023: the small-C step's 64x128 tile and the pre-split tiles stay (76 x 1783 x 465:
//     0.025 against the 80-row tile's 0.035; 100 x 6000 x 511 0.039 against 0.053-0.061).
//   - Forty-seventh round: the C^T tiles read an A whose rows are not 16-byte aligned (K not a
//     multiple of 4) in place, element by element (WgmmaInPlace, tiled_gpu_wgmma.hpp), where they
//     copied it to aligned rows first (reused along N >= 1024: aligned_operands.hpp); the rule's
//     wgmma_t80 and wgmma_t96 are those forms (catalog_gpu.hpp). One H200, 2026-12-02, ms, the
//     tile copying A -> reading it in place (cuBLAS SGEMM): 90 x 6000 x 1025 0.076 -> 0.067
//     (0.058), 88 x 6000 x 1030 0.076 -> 0.067 (0.059), 96 x 6000 x 1025 0.076 -> 0.067 (0.058),
//     80 x 6000 x 1025 0.072 -> 0.063 (0.057), 70 x 6000 x 1025 0.072 -> 0.061 (0.057), 75 x 3000
//     x 1025 0.049 -> 0.039 (0.039), 65 x 4001 x 1025 0.055 -> 0.044 (0.062), 72 x 9000 x 1027
//     0.093 -> 0.082 (0.081), 90 x 6000 x 1501 0.093 -> 0.086 (0.074), 90 x 6000 x 2049 0.110 ->
//     0.102 (0.091), 90 x 12000 x 1025 0.109 -> 0.100 (0.097); with A aligned the two forms are the
//     same kernel (90 x 6000 x 1024 0.063 and 0.063).
constexpr long kRowsNShortMinK = 64, kRowsNShortMaxK = 256, kRowsNShortMinN = 8192, kRowsNT96LongKMinN = 2000;

/// The C^T tile of 80 rows (`t80`) or 96 with K split into the slices that fill its waves, `head`
/// leading the reason; A's rows unaligned (K not a multiple of 4) read in place.
GpuRuleChoice rows_t_chose(bool t80, long m, long n, long k, long sms, const std::string& head, std::string* why) {
  namespace rt = rule_tiles;
  const RuleTile& t = t80 ? rt::kFloatWgmmaT80 : rt::kFloatWgmmaT96;
  const int slices = rule_split(t, m, n, k, sizeof(float), rt::kFloatWgmmaRowsNTeamsPerSm * sms).slices;
  const bool a_unaligned = k % detail::Chunk16<float>::width != 0;
  return chose(t80 ? GpuRuleChoice::wgmma_t80 : GpuRuleChoice::wgmma_t96,
               head + "C^T tiles of " + std::to_string(t.bm) + " x 64 (C's rows as wgmma's N): " +
                   waves_split_text(slices) + (a_unaligned ? ", A's unaligned rows read in place" : ""),
               why);
}

/// The C^T step (the comment above); `none` where it declines.
GpuRuleChoice rows_n_choice(long m, long n, long k, long sms, std::string* why) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  if (m <= 64 || m > 128 || n <= kFloatSmallWavesMaxMn) return C::none;
  const bool short_k = k >= kRowsNShortMinK && k <= kRowsNShortMaxK && n > kRowsNShortMinN;
  const bool long_k = k >= kWgmmaThinPresplitMinK &&
                      (m <= rt::kFloatWgmmaT80.bm || (m <= rt::kFloatWgmmaT96.bm && n >= kRowsNT96LongKMinN));
  if (!short_k && !long_k) return C::none;
  if (m > rt::kFloatWgmmaT96.bm)
    return inloop_chose(m, n, k, sms, ", operands split in the K loop (65-128 rows, K 64-256)", why);
  return rows_t_chose(m <= rt::kFloatWgmmaT80.bm, m, n, k, sms, "3xTF32 on wgmma, ", why);
}

// A small C over a long K (forty-fourth round): M 65 to kLongKRowsTMaxM (three rows of the 96-row
// tiles; measured to 260), N to kFloatSmallWavesMaxMn, K from
// kLongKRowsTMinK, where the 128x128 tiles cover C to less than kLongKRowsTMaxUse: the C^T tile
// (80 or 96 rows, whichever pads M less; 80 on a tie) with K split into the slices that fill its
// waves. One H200, 2026-12-02, `tile: auto` with cold operands, ms: the rule before -> the C^T tile
// (the in-loop 128x128 wave split; cuBLAS SGEMM): 68 x 213 x 15525 0.062 (the 64x128 tile) -> 0.040
// (0.041; 0.046), 80 x 80 x 200000 0.158 (SIMT 96x96 by 1024) -> 0.138 (0.144; 0.174), 150 x 150 x
// 100000 0.317 -> 0.195 (0.247; 0.222), 260 x 152 x 60000 0.293 -> 0.188 (t96; 0.219; 0.218), 260 x
// 152 x 20000 0.105 (pre-split 128x128) -> 0.075 (t96; 0.090; 0.091). Where the 128x128 tiles cover
// more the in-loop tile wins (200 x 200 x 50000, 61%: 0.135 against 0.181; 300 x 100 x 40000 0.094
// against 0.106; 128 x 256 x 30000 0.065 against 0.090), and at K 8000 and under the rule's tiles
// (65 x 128 x 8000 0.027 against 0.032, 72 x 195 x 3804 0.027 against 0.031). Nor where the C^T
// tile pads M nearly as much as the 128-row tile (its use of M under kLongKRowsTMinRowGain times
// the 128-row tile's): 200 x 148 x 100000 (0.83 against 0.78 of the rows) took 7.7% longer on the
// 80-row tile than on the in-loop 128x128 one (the round's check at 7a48f42, the audit decks).
constexpr long kLongKRowsTMinK = 15000;
constexpr double kLongKRowsTMinRowGain = 1.2;
constexpr long kLongKRowsTMaxM = 288;
constexpr double kLongKRowsTMaxUse = 0.5;

/// The long-K small-C step (the comment above); `none` where it declines.
GpuRuleChoice long_k_rows_t_choice(long m, long n, long k, long sms, std::string* why) {
  namespace rt = rule_tiles;
  if (k < kLongKRowsTMinK || m <= 64 || m > kLongKRowsTMaxM || n > kFloatSmallWavesMaxMn ||
      use_of(rt::kFloatWgmma, tiles_of(rt::kFloatWgmma, m, n), m, n) >= kLongKRowsTMaxUse)
    return GpuRuleChoice::none;
  const auto row_use = [m](const RuleTile& t) { return double(m) / double(detail::round_up(m, t.bm)); };
  const bool t80 = row_use(rt::kFloatWgmmaT80) >= row_use(rt::kFloatWgmmaT96);
  if (row_use(t80 ? rt::kFloatWgmmaT80 : rt::kFloatWgmmaT96) < kLongKRowsTMinRowGain * row_use(rt::kFloatWgmma))
    return GpuRuleChoice::none;
  return rows_t_chose(t80, m, n, k, sms, "3xTF32 on wgmma, a small C over a long K: ", why);
}

// A tall, thin C (forty-ninth round): N kTallThinMinN-kTallThinMaxN (one or two 64-column tiles
// and a few columns past them), K kTallThinMinK-kTallThinMaxK, the 80-row C^T tile making at least
// one team per SM, where the wgmma steps decline: the 80 x 64 C^T tile (wgmma_t80), K split in its
// waves, in place of the SIMT tiles; and in place of the small-C step's 64x128 wave split
// (wgmma_pre64_wsplit) from K kTallThinSmallCMinK over at least kTallThinSmallCMinTeams teams per
// SM. The 128-column tiles there cover C's columns half (N just past 128), the SIMT tiles run at
// the FMA rate, and the C^T tile pads N to 64 columns in more than three times the 128x128 tiles'
// teams. One H100, 2026-12-07 (docs/results/2026-12-07/round49, calls 1-2), ms, the rule before ->
// the C^T tile (cuBLAS SGEMM); in call 1 the rule's run against `tile: auto`'s median of the C^T
// tile, in call 2 `tile: auto`'s median of the tile before against the rule's run:
//   - SIMT before: 20000 x 129 x 300 0.103 -> 0.084 (0.101; call 1), 20097 x 127 x 561 0.183 ->
//     0.108 (0.135), 26700 x 133 x 309 0.164 -> 0.117 (0.152), 25327 x 89 x 573 0.183 -> 0.144
//     (0.183), 39948 x 67 x 900 0.360 -> 0.272 (0.401); 32614 x 120 x 777 0.218 -> 0.227 (0.197).
//   - The small-C step before: 9000 x 130 x 700 0.114 -> 0.102 (0.084; call 1) and 0.115 -> 0.105
//     (0.093), 9000 x 130 x 1000 0.161 -> 0.135 (0.119; call 1) and 0.161 -> 0.139 (0.147), 12000 x
//     96 x 800 0.126 -> 0.113 (0.098), 12012 x 112 x 815 0.131 -> 0.117 (0.099), 16000 x 72 x 512
//     0.093 -> 0.087 (0.098), 8000 x 100 x 513 0.054 -> 0.053 (0.069). Under K 512 or over fewer
//     teams it lost: 4000 x 130 x 600 (150 teams) 0.041 -> 0.058, 5929 x 99 x 458 0.040 -> 0.050,
//     14081 x 79 x 261 0.053 -> 0.059.
//   - Not in place of the 128x128 wgmma tiles, where it won and lost about equally: 9000 x 128 x 700
//     0.074 -> 0.067, 7000 x 136 x 1024 0.093 -> 0.085, but 16460 x 130 x 313 0.072 -> 0.086, 8192 x
//     128 x 1024 0.071 -> 0.088, 3669 x 131 x 932 0.061 -> 0.070; nor past N 136 (call 1, `tile:
//     auto`: 9000 x 160 x 700 0.103 -> 0.105, 9000 x 258 x 700 0.104 -> 0.150) or K 1024 (4000 x 131
//     x 1500 0.084 -> 0.093).
constexpr long kTallThinMinN = 65, kTallThinMaxN = 136, kTallThinMinK = 256, kTallThinMaxK = 1024;
constexpr long kTallThinSmallCMinK = 512;
constexpr double kTallThinSmallCMinTeams = 1.5;

/// The tall-thin C^T step (the comment above) where the rule would take `c` (none: the SIMT tiles
/// follow); `c` itself where it declines.
GpuRuleChoice tall_thin_t80(GpuRuleChoice c, long m, long n, long k, long sms, std::string* why) {
  const long teams = tiles_of(rule_tiles::kFloatWgmmaT80, m, n);
  if (n < kTallThinMinN || n > kTallThinMaxN || k < kTallThinMinK || k > kTallThinMaxK || teams < sms) return c;
  if (c == GpuRuleChoice::wgmma_pre64_wsplit) {
    if (k < kTallThinSmallCMinK || double(teams) < kTallThinSmallCMinTeams * double(sms)) return c;
  } else if (c != GpuRuleChoice::none) {
    return c;
  }
  return rows_t_chose(true, m, n, k, sms, "3xTF32 on wgmma, a tall thin C: ", why);
}

}  // namespace

namespace {

// Float with N not a multiple of 4 and K kBasicSmallMinK-kBasicSmallMaxK where the SIMT steps end
// at the 64x64 tile (C's rows not in 16-byte chunks: every tile stores them element by element, and
// at short K that store weighs): the block-tiled kernel's 64x64x8 tile, 4x4 per thread. A likely
// reason, not measured: its 256 threads per team issue the stores twice as wide as the warp-tiled
// tile's 128. One H200, `tile: auto` medians on cold operands (forty-fourth and forty-fifth
// rounds), ms, the warp-tiled 64x64x16 tile -> the block-tiled one: 185 x 2923 x 61 0.028 -> 0.020
// (cuBLAS SGEMM 0.021-0.027, every vendor run noisy), 150 x 3001 x 61 0.028 -> 0.020, 200 x 2501 x
// 50 0.026 -> 0.019; on warm operands (thirtieth and thirty-first rounds) 1261 x 77 x 55 and 1292 x
// 163 x 38 0.63-0.74 of the time (the latter once 0.95). At K 74-75 mixed (627 x 109 x 74
// 0.86-1.06, 207 x 306 x 75 0.67-1.00), from K 130 within 10% either way, and with N a multiple of
// 4 the warp-tiled tile ran faster (median 1.12 of its time for the block-tiled one). Under K 33
// (two K tiles of 16 or fewer) the warp-tiled tile stays, unmeasured against it and at 125-139% of
// cuBLAS SGEMM (67 x 639 x 21, 134 x 617 x 16, 322 x 133 x 27; forty-fifth round). Under
// kBasicSmallMaxCells cells of C, as measured (to 5.4e5; from 1e6 cells the tensor-core step for N
// not a multiple of 4 takes these shapes where wgmma runs, float_unaligned_c_choice).
constexpr long kBasicSmallMinK = 33, kBasicSmallMaxK = 64;
constexpr double kBasicSmallMaxCells = 1e6;

}  // namespace

GpuRuleChoice gpu_shape_rule(bool is_double, long m, long n, long k, long sm_count, std::string* why,
                             bool tensor_cores, bool deep_tiles, bool sm90a, double mem_bandwidth) {
  using C = GpuRuleChoice;
  namespace rt = rule_tiles;
  if (const C c = gemv_like(is_double, m, n, why); c != C::none) return c;
  const std::size_t elem = is_double ? sizeof(double) : sizeof(float);
  const long sms = sm_count;
  if (!is_double && sm90a)
    if (const C c = rows_n_choice(m, n, k, sms, why); c != C::none) return c;
  if (!is_double && sm90a)
    if (const C c = long_k_rows_t_choice(m, n, k, sms, why); c != C::none) return c;
  if (!is_double && sm90a)
    if (const C c = wgmma_choice(m, n, k, sms, mem_bandwidth,
                                 operand_aligned_or_copied<float>(m, k, n) && operand_aligned_or_copied<float>(k, n, m),
                                 why);
        c != C::none)
      return one_row_a_in_place(c, m, n, k, sms, why);
  if (!is_double && sm90a)
    if (const C c = float_small_waves_choice(m, n, k, sms, why); c != C::none)
      return tall_thin_t80(c, m, n, k, sms, why);
  if (!is_double && sm90a)
    if (const C c = float_unaligned_c_choice(m, n, k, why); c != C::none) return c;
  if (!is_double && sm90a)
    if (const C c = tall_thin_t80(C::none, m, n, k, sms, why); c != C::none) return c;
  if (is_double && tensor_cores) {
    // The deep tiles copy 16-byte chunks with cp.async: each operand's rows
    // 16-byte aligned (N, K even) or copied to aligned ones first, where C
    // reuses the copy enough (operand_copied by CopyRule::dmma: along more
    // than 192 rows or columns in a GEMM of 5e8 M·N·K or more); else (an odd
    // N against few rows of C, say) the register-path tiles, which read in place.
    const bool deep = deep_tiles && operand_aligned_or_copied<double, CopyRule::dmma>(m, k, n) &&
                      operand_aligned_or_copied<double, CopyRule::dmma>(k, n, m);
    // The three in-place steps below take the ElemChunks forms of their tiles (kInPlaceElemText).
    if (deep_tiles && !deep && inplace_deep_wave(m, n, k, sms))
      return chose(C::dmma_small_splitk_deep_el,
                   std::string("FP64 tensor cores, 64x64 tiles in one wave at three teams per SM (more on the register "
                               "path), 3 cp.async stages, ") +
                       kInPlaceElemText,
                   why);
    if (deep_tiles && !deep && thin_inplace_mid(m, n, k, sms)) {
      const int slices = rule_split(rt::kDoubleMmaMidWaves, m, n, k, elem, kDmmaTeamsPerSm * sms).slices;
      return chose(C::dmma_mid_wsplit_el,
                   std::string("FP64 tensor cores, a thin C over a ") + (k < kDmmaThinMidMinK ? "short" : "long") +
                       " K: 96x96 tiles, " + waves_split_text(slices) + ", 4 cp.async stages, " + kInPlaceElemText,
                   why);
    }
    const C c = dmma_choice(m, n, k, sms, deep_tiles, deep, sm90a, why);
    if (deep_tiles && !deep && c == C::dmma_small && thin_inplace_short(m, n, k))
      return chose(C::dmma_small_splitk_deep_el,
                   std::string("FP64 tensor cores, a thin C over a short K: 64x64 tiles at three teams per SM, 3 "
                               "cp.async stages (K in one slice), ") +
                       kInPlaceElemText,
                   why);
    if (deep_tiles && !deep && c == C::dmma_small && few_tiles_inplace_short(m, n, k, sms))
      return chose(C::dmma_small_splitk_deep_el_inplace,
                   std::string("FP64 tensor cores, at most one 64x64 tile per SM over a short K: 64x64 tiles at three "
                               "teams per SM, 3 cp.async stages (K in one slice), odd operands read in place, element "
                               "by element"),
                   why);
    // Operands copied by the DMMA tiles' bounds alone (reused along 193-1023 rows or columns) where
    // the 96x96 tile would take them: read in place instead (kDmmaCopyMinReuse's comment).
    const bool below_tiles_bound =
        !(operand_aligned_or_copied<double>(m, k, n) && operand_aligned_or_copied<double>(k, n, m));
    // Where the copies' launches weigh, neither: the 64x64 deep tile copying nothing
    // (kDmmaElInPlaceMaxWork's comment).
    const double work = double(m) * double(n) * double(k);
    const bool small_gemm = work <= kDmmaElInPlaceMaxWork &&
                            (c == C::dmma_small_splitk_deep || c == C::dmma_mid_splitk_deep || c == C::dmma_mid_wsplit);
    // Past that work, copies reused along few rows or columns (kDmmaElInPlaceMaxReuse's comment).
    const bool thin_copies = work > kDmmaElInPlaceMaxWork && dmma_copies_thin(m, n, k);
    if (deep && below_tiles_bound && (small_gemm || thin_copies))
      return chose(C::dmma_small_splitk_deep_el_inplace,
                   std::string("FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (") +
                       (splitk_slices(m, n, k, rt::kDoubleMmaSmallSplitK.split_kc, elem) > 1 ? "K split by 1024"
                                                                                             : "K in one slice") +
                       "), odd operands read in place, element by element (" +
                       (small_gemm ? std::string("a GEMM too small for their copies")
                                   : "copies reused along at most " + std::to_string(kDmmaElInPlaceMaxReuse) +
                                         " rows or columns") +
                       ")",
                   why);
    if (deep && below_tiles_bound && (c == C::dmma_mid_splitk_deep || c == C::dmma_mid_wsplit))
      return dmma_choice(m, n, k, sms, deep_tiles, false, sm90a, why);
    return c;
  }
  const RuleTile& big = is_double ? rt::kDoubleBig : rt::kFloatBig;
  const RuleTile& big_split = is_double ? rt::kDoubleBigSplitK : rt::kFloatBigSplitK;
  const RuleTile& small = is_double ? rt::kDoubleSmall : rt::kFloatSmall;
  const RuleTile& small_split = is_double ? rt::kDoubleSmallSplitK : rt::kFloatSmallSplitK;
  const long tiles = tiles_of(big, m, n);
  const long enough = is_double ? 2 * sms : sms;
  const std::string big_name = std::to_string(big.bm) + "x" + std::to_string(big.bn);
  if (!is_double && huge_fits(m, n, k, sms))
    return chose(C::huge, "128x256 tiles (8x16 per thread) filling their waves", why);
  const long tiles64 = tiles_of(small, m, n);
  // Teams per SM (the launch bounds of catalog_gpu.hpp's tiles): the big and 96x96 tiles two, the
  // float small tile kFloatSmallTeamsPerSm, the double one three.
  const long small_spm = is_double ? 3 : rt::kFloatSmallTeamsPerSm;
  const long small_slots = small_spm * sms;
  const RuleTile& mid_split = is_double ? rt::kDoubleMidSplitK : rt::kFloatMidSplitK;
  const bool small_splits = tiles64 * splitk_slices(m, n, k, small_split.split_kc, elem) > tiles64;
  const bool mid = mid_split_pays(mid_split, small_split, m, n, k, elem, sms);  // step 5's split: 96x96, else 64x64
  // Step 5's split, where it is estimated faster than `unsplit` (at `spm` teams per SM) by
  // kSplitWaveGain: the 96x96 or the 64x64 tile split by 1024.
  auto split_beats = [&](const RuleTile& unsplit, const long spm, const double gain) {
    if (!small_splits) return false;
    const double t_split = mid ? split_wave_time(mid_split, m, n, k, 2, sms, elem)
                               : split_wave_time(small_split, m, n, k, small_spm, sms, elem);
    return t_split <= gain * split_wave_time(unsplit, m, n, k, spm, sms, elem);
  };
  // Step 5's split tile; `few`: its reason's words for fewer tiles than slots, else ragged waves of `tiles`.
  auto split_choice = [&](const bool few, const std::string& tiles) {
    if (mid)
      return chose(C::mid_splitk,
                   (few ? "few tiles" : tiles + " in ragged waves") + ", 96x96 no emptier than 64x64: K split by 1024",
                   why);
    if (!is_double && thin_waves(m, n))
      return chose(C::small_wsplit,
                   (few ? "few 64x64 tiles" : tiles + " in ragged waves") + ", a thin C: " +
                       waves_split_text(rule_split(rt::kFloatSmallWaves, m, n, k, elem, small_slots).slices),
                   why);
    return chose(C::small_splitk, (few ? "few 64x64 tiles" : tiles + " in ragged waves") + ": K split by 1024", why);
  };
  const double big_use = use_of(big, tiles, m, n);
  if (big_use >= 0.5) {
    // The big tile split by 4096: its teams, and the count they must reach.
    const long teams_4k = tiles * splitk_slices(m, n, k, big_split.split_kc, elem);
    const long split_enough = std::max(enough, (3 * sms + 1) / 2);
    if (!is_double) {
      const long slots = 2 * sms;  // the big tile's teams per SM: two
      // The chunk, 1024 or 640: the split whose waves and reduction are estimated least, 1024 on a
      // tie (700 x 1300 x 5000: 66 tiles x 8 slices of 640 fill 2 waves of 264 exactly, x 5
      // slices of 1024 fill 2 waves to 0.63). Teams no more than the SMs run one per SM, each at
      // about the pair's speed (128 x 128 x 131072: 128 teams of 1024 at 99.3% of cuBLAS SGEMM,
      // 205 of 640 at 84.6%; H200, 2026-11-24, call 23).
      struct Fit {
        const RuleTile* tile;
        GpuRuleChoice choice;
      };
      const Fit fits[] = {{&rt::kFloatBigSplitK1024, C::big_splitk1024}, {&rt::kFloatBigSplitK640, C::big_splitk640}};
      const auto estimate = [&](const Fit& f) {
        const int s = splitk_slices(m, n, k, f.tile->split_kc, elem);
        const long spm = tiles * s <= sms ? 1 : 2;
        return split_wave_time(*f.tile, m, n, k, spm, sms, elem) + splitk_reduce_time(m, n, s, sms, elem);
      };
      Fit fit = fits[0];
      double fit_time = estimate(fit);
      for (const Fit& f : fits)
        if (const double t = estimate(f); t < fit_time) fit = f, fit_time = t;
      const long teams_fit = tiles * splitk_slices(m, n, k, fit.tile->split_kc, elem);
      const bool fills_fit = teams_fit > tiles && wave_fill(teams_fit, slots) >= kBigSplitMinFill &&
                            big_use >= kBigSplitMinUse;
      // At most one full wave and a ragged one: with more, the last wave weighs less (3072^3: 576
      // tiles in 3 waves of 264, 87.9% of cuBLAS SGEMM unsplit against 84.9% split, call 20).
      const bool big_ragged =
          tiles >= enough && tiles <= 2 * slots && wave_fill(tiles, slots) < kBigMaxRaggedFill;
      const bool split_4k_short =
          tiles < enough && (teams_4k < split_enough || wave_fill(teams_4k, slots) < kBigSplitMinFill);
      if (fills_fit && (big_ragged || split_4k_short))
        return chose(fit.choice,
                     (big_ragged ? "128x128 tiles in ragged waves: K split by " : "few 128x128 tiles: K split by ") +
                         std::to_string(fit.tile->split_kc) + ", the teams filling their waves",
                     why);
    }
    if (tiles >= enough) {
      // 1500 x 1500 x 8192 float: 144 big tiles on 264 slots, one team per SM.
      if (split_beats(big, 2, kSplitWaveGainFromBig)) return split_choice(false, big_name + " tiles");
      // Float's big tiles under 3/4 used: the 64x64 tile where its waves are estimated at most
      // kSplitWaveGain of theirs (9000 x 130 x 700: 142 tiles half used in one wave of 264, 52-59%
      // of cuBLAS SGEMM; H200, 2026-11-25, docs/performance.md "Tensor cores, tenth round").
      if (!is_double && big_use < kBigSplitMinUse &&
          split_wave_time(small, m, n, k, small_spm, sms, elem) <= kSplitWaveGain * split_wave_time(big, m, n, k, 2, sms, elem))
        return chose(C::small, "128x128 tiles under 3/4 used: 64x64 tiles, their waves shorter", why);
      return chose(C::big, big_name + " tiles", why);
    }
    if (teams_4k >= split_enough)
      return chose(C::big_splitk, "few " + big_name + " tiles: K split by 4096", why);
  }
  // The float small tile runs kFloatSmallTeamsPerSm teams per SM: fewer tiles than that leave SMs
  // half idle (777x1234x4321 on an H200: 260 tiles, 63.1% of cuBLAS SGEMM; split by 1024, 72.7%).
  // (Double's "few" stays fewer tiles than SMs, as measured.)
  const long few_tiles = is_double ? sms : small_slots;
  if (tiles64 < few_tiles && small_splits) return split_choice(true, "");
  if (tiles64 >= few_tiles && split_beats(small, small_spm, kSplitWaveGain)) return split_choice(false, "64x64 tiles");
  if (!is_double && n % 4 != 0 && k >= kBasicSmallMinK && k <= kBasicSmallMaxK &&
      double(m) * double(n) < kBasicSmallMaxCells)
    return chose(C::basic_small,
                 "N not a multiple of 4, K " + std::to_string(kBasicSmallMinK) + "-" +
                     std::to_string(kBasicSmallMaxK) + ": 64x64x8 tiles of the block-tiled kernel, 4x4 per thread",
                 why);
  return chose(C::small, "64x64 tiles", why);
}

bool host_rule_takes_rows(long m, long mr, std::string* why) {
  if (m >= mr) return false;
  if (why) *why = "host rule: m < " + std::to_string(mr) + " rows (the packed kernel's micro-tile)";
  return true;
}

}  // namespace mmapp
