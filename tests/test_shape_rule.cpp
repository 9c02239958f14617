// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The shape rules (miniapp/kernels/shape_rule.hpp) on the host, no GPU
// needed: gpu_shape_rule on every class it tells apart, float and double,
// at 132 SMs (the H200) and at 108 and 80 where the SM count changes the
// choice, on shapes that are no multiple of the tiles; the choice and the
// reason the report prints. Each expectation is worked out from the rule's
// definition in the comment beside it (tiles = ceil(M / BM) * ceil(N / BN),
// use = M*N / (tiles * BM * BN), slices = ceil(K / chunk)). Also the host
// rule, and the catalog's names and rule tags on every enabled space.
#include "core/exec_spaces.hpp"
#include "kernels/catalog.hpp"
#include "kernels/kernel_names.hpp"
#include "kernels/shape_rule.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <array>
#include <string>
#include <type_traits>
#include <vector>

namespace {

using mmapp::GpuRuleChoice;
using C = GpuRuleChoice;

struct Case {
  bool is_double;
  long m, n, k, sms;
  GpuRuleChoice choice;
  std::string why;
};

const std::string kDot = "shape rule: M = N = 1: gemv_dot, K split by 8192";
const std::string kCols1 = "shape rule: M = 1: gemv_cols, K split by 256";
const std::string kCols8 = "shape rule: M <= 8: gemv_cols, K split by 256";
const std::string kCols16 = "shape rule: M <= 16 (double): gemv_cols in groups of 8 rows, K split by 256";
const std::string kRows1 = "shape rule: N = 1: gemv_rows, K split by 2048";
const std::string kRows4 = "shape rule: N <= 4: gemv_rows, 4 rows per member";
const std::string kNarrow = "shape rule: N <= 8: small tile, K split by 1024";
const std::string kHuge = "shape rule: 128x256 tiles (8x16 per thread) filling their waves";
const std::string kBigF = "shape rule: 128x128 tiles";
const std::string kBigD = "shape rule: 64x128 tiles";
const std::string kBigSplitF = "shape rule: few 128x128 tiles: K split by 4096";
const std::string kBigSplitD = "shape rule: few 64x128 tiles: K split by 4096";
const std::string kMid = "shape rule: few tiles, 96x96 no emptier than 64x64: K split by 1024";
const std::string kSmallSplit = "shape rule: few 64x64 tiles: K split by 1024";
const std::string kSmall = "shape rule: 64x64 tiles";
const std::string kSmallOverBig = "shape rule: 128x128 tiles under 3/4 used: 64x64 tiles, their waves shorter";
const std::string kSmallRaggedBigD = "shape rule: 64x128 tiles in ragged waves: K split by 1024";
const std::string kSmallRagged = "shape rule: 64x64 tiles in ragged waves: K split by 1024";
const std::string kBig1kRagged = "shape rule: 128x128 tiles in ragged waves: K split by 1024, the teams filling their waves";
const std::string kBig1kFew = "shape rule: few 128x128 tiles: K split by 1024, the teams filling their waves";
const std::string kBig640Few = "shape rule: few 128x128 tiles: K split by 640, the teams filling their waves";
const std::string kBig640Ragged = "shape rule: 128x128 tiles in ragged waves: K split by 640, the teams filling their waves";

/// Each case's choice and reason from gpu_shape_rule with the catalog flags
/// `tensor_cores` and `deep_tiles` (the SIMT rule by default).
void check(const std::vector<Case>& cases, bool tensor_cores = false, bool deep_tiles = false, bool sm90a = false) {
  for (const Case& c : cases) {
    INFO((c.is_double ? "double " : "float ") << c.m << "x" << c.n << "x" << c.k << " on " << c.sms << " SMs");
    std::string why = "unset";
    CHECK(mmapp::gpu_shape_rule(c.is_double, c.m, c.n, c.k, c.sms, &why, tensor_cores, deep_tiles, sm90a) ==
          c.choice);
    CHECK(why == c.why);
    CHECK(mmapp::gpu_shape_rule(c.is_double, c.m, c.n, c.k, c.sms, nullptr, tensor_cores, deep_tiles, sm90a) ==
          c.choice);  // why is optional
  }
}

const std::string kDmmaBig = "shape rule: FP64 tensor cores, 128x64 tiles";
const std::string kDmmaSplit = "shape rule: FP64 tensor cores, few 64x64 tiles: K split by 1024";
const std::string kDmmaSmall = "shape rule: FP64 tensor cores, 64x64 tiles";

}  // namespace

TEST_CASE("GPU shape rule: GEMV-like shapes (M or N tiny)", "[rule]") {
  check({
      // M = N = 1, whatever K: a dot product.
      {false, 1, 1, 4000000, 132, C::gemv_dot, kDot},
      {true, 1, 1, 3, 132, C::gemv_dot, kDot},
      // M = 1 (N > 1): the one-row gemv_cols.
      {false, 1, 8192, 8192, 132, C::gemv_cols_1, kCols1},
      {true, 1, 2, 77, 80, C::gemv_cols_1, kCols1},
      // 2 <= M <= 8: gemv_cols in a group of 8 rows, both dtypes, N = 1 included (M is asked first).
      {false, 8, 8192, 8192, 132, C::gemv_cols_8, kCols8},
      {true, 5, 1000, 77, 132, C::gemv_cols_8, kCols8},
      {false, 3, 1, 1000, 108, C::gemv_cols_8, kCols8},
      // 9 <= M <= 16: double only, two groups of 8 rows.
      {true, 16, 8192, 8192, 132, C::gemv_cols_8, kCols16},
      {true, 9, 100, 100, 80, C::gemv_cols_8, kCols16},
      // N = 1 (M > 16, or float M > 8): gemv_rows split by 2048.
      {false, 100, 1, 100, 132, C::gemv_rows_1, kRows1},
      {true, 17, 1, 5000, 132, C::gemv_rows_1, kRows1},
      {false, 9, 1, 5000, 108, C::gemv_rows_1, kRows1},
      // Double 2 <= N <= 4: gemv_rows with 4 rows per member.
      {true, 1000, 4, 5000, 132, C::gemv_rows_4, kRows4},
      {true, 1000, 2, 77, 80, C::gemv_rows_4, kRows4},
      // N <= 8 otherwise (float 2 <= N <= 8, double 5 <= N <= 8): the small tile split by 1024.
      {false, 1000, 4, 5000, 132, C::small_splitk, kNarrow},
      {false, 1000, 8, 5000, 132, C::small_splitk, kNarrow},
      {true, 1000, 5, 5000, 132, C::small_splitk, kNarrow},
      {true, 17, 8, 5000, 108, C::small_splitk, kNarrow},
  });
}

TEST_CASE("GPU shape rule: float 128x256 tiles only where they fill their tiles and waves", "[rule]") {
  check({
      // 8192^3: 64 x 32 = 2048 huge tiles, fully used; 132 SMs: 16 waves, 2048 / 2112 = 0.97 >= 0.9;
      // 108 SMs: 19 waves, 2048 / 2052 = 0.998. K >= 512: huge.
      {false, 8192, 8192, 8192, 132, C::huge, kHuge},
      {false, 8192, 8192, 8192, 108, C::huge, kHuge},
      // 2000x6000x2000: 16 x 24 = 384 huge tiles, use 12e6 / (384 * 32768) = 0.95. 132 SMs: 3 waves,
      // 384 / 396 = 0.97: huge. 108 SMs: 4 waves, 384 / 432 = 0.89 < 0.9: not; then 16 x 47 = 752 big
      // tiles >= 108, use 0.97: big. 80 SMs: 5 waves, 384 / 400 = 0.96: huge.
      {false, 2000, 6000, 2000, 132, C::huge, kHuge},
      {false, 2000, 6000, 2000, 108, C::big, kBigF},
      {false, 2000, 6000, 2000, 80, C::huge, kHuge},
      // 3072^3 on 132 SMs: 24 x 12 = 288 huge tiles, 3 waves, 288 / 396 = 0.73: big (576 tiles >= 132).
      // Step 5's split (32 x 32 = 1024 96x96 tiles x 3 slices of 1024 = 3072 teams on 264 slots, 12
      // waves x 2 x 9216 x 1024) is estimated at 0.75 of the big tile's 3 waves x 2 x 16384 x 3072:
      // above 0.65, big. Nor the big tile split by 1024: the big tiles make more than two waves.
      {false, 3072, 3072, 3072, 132, C::big, kBigF},
      // 1500x1500x8192: 12 x 12 = 144 big tiles >= 132, one wave on 264 slots filled to 0.55 < 0.8,
      // use 0.98. The chunk (split_wave_time + splitk_reduce_time, units of 1e6): 1024, 8 slices,
      // 1152 teams in 5 waves (fill 0.87 >= 0.85): 5 x 2 x 16384 x 1024 = 167.8, + 6 x 9 x 1500^2 x
      // 4 / 132 = 3.7; 640, 13 slices, 1872 teams in 8 waves: 167.8 + 5.7. Split by 1024.
      // 2500x2500x4096: 400 tiles, 2 waves filled to 0.76; 1024: 1600 teams in 7 waves, 234.9 +
      // 5.7; 640: 7 slices, 2800 teams in 11 waves (0.96), 230.7 + 9.1, the least: split by 640.
      {false, 1500, 1500, 8192, 132, C::big_splitk1024, kBig1kRagged},
      {false, 2500, 2500, 4096, 132, C::big_splitk640, kBig640Ragged},
      // 129x33792x1024: 2 x 132 = 264 huge tiles fill 2 waves of 132 exactly, but use = 129 / 256 = 0.50
      // < 3/4: not huge. The big tiles (2 x 264 = 528 >= 132, use 0.504 < 3/4) take 2 waves of 264,
      // 2 x 2 x 128^2 x 1024 = 67.1e6; the 64x64 ones 3 x 528 = 1584 in 3 waves of 528, 3 x 4 x 64^2 x
      // 1024 = 50.3e6 <= 0.8 x 67.1e6: small (9000 x 130 x 700 measured: docs/performance.md, tenth round).
      {false, 129, 33792, 1024, 132, C::small, kSmallOverBig},
      {false, 9000, 130, 700, 132, C::small, kSmallOverBig},
      // N or K not a multiple of 4 (rows not 16-byte aligned; the kernel copies them to aligned ones):
      // as aligned. 4097x4095: 33 x 16 = 528 huge tiles, use 0.97, 4 waves of 132 exactly: huge.
      {false, 4097, 4095, 4093, 132, C::huge, kHuge},
      {false, 8192, 8192, 8191, 132, C::huge, kHuge},
      // K = 256 < 512: big (64 x 64 = 4096 tiles).
      {false, 8192, 8192, 256, 132, C::big, kBigF},
      // Double never takes the 128x256 tile: 8192^3 is 128 x 64 = 8192 big tiles >= 2 * 132.
      {true, 8192, 8192, 8192, 132, C::big, kBigD},
      {true, 2000, 6000, 2000, 132, C::big, kBigD},  // 32 x 47 = 1504 tiles, use 0.97
  });
}

TEST_CASE("GPU shape rule: the big tile, split by 4096 where it has too few tiles", "[rule]") {
  check({
      // Float 200x8192x8192 (huge: 2 x 32 = 64 tiles, one wave 64 / 132 = 0.48: no). Big: 2 x 64 = 128
      // tiles, use 0.78. 132 SMs: 128 < 132; 2 slices of 4096 make 256 teams >= max(132, 198), filling
      // 0.97 of a wave: split by 4096. 108 SMs: 128 >= 108, one wave on 216 slots filled to 0.59; 8
      // slices of 1024 make 1024 teams filling 5 waves to 0.95: split by 1024.
      {false, 200, 8192, 8192, 132, C::big_splitk, kBigSplitF},
      {false, 200, 8192, 8192, 108, C::big_splitk1024, kBig1kRagged},
      // Double 200x8192x8192: 4 x 64 = 256 tiles, use 0.78. 132 SMs: 256 < 264; 2 slices: 512 >= 264:
      // split. 108 SMs: 256 >= 216, 2 waves on 216 slots; the 64x64 split (4096 teams on 3 x 108
      // slots, 13 waves x 3 x 4096 x 1024) is estimated at 0.61 of 2 x 2 x 8192 x 8192: split.
      {true, 200, 8192, 8192, 132, C::big_splitk, kBigSplitD},
      {true, 200, 8192, 8192, 108, C::small_splitk, kSmallRaggedBigD},
      // 500x500x100000: float 4 x 4 = 16 tiles (use 0.95) x 25 slices = 400 >= 198 but filling 2 waves
      // of 264 to 0.76; 98 slices of 1024 make 1568 teams filling 6 to 0.99: split by 1024. Double 8 x
      // 4 = 32 tiles (use 0.95) x 25 = 800 >= 264.
      {false, 500, 500, 100000, 132, C::big_splitk1024, kBig1kFew},
      {true, 500, 500, 100000, 132, C::big_splitk, kBigSplitD},
      // Float 777x1234x4321 (N % 4 != 0): 7 x 10 = 70 tiles, use 0.84, 2 slices of 4096: 140 teams
      // < 198. The chunk (units of 1e6): 1024, 5 slices of 896, 350 teams in 2 waves of 264 (fill
      // 0.66): 2 x 2 x 16384 x 896 = 58.7, + 6 x 6 x 777 x 1234 x 4 / 132 = 1.0; 640, 7 slices of
      // 640, 490 teams in 2 waves (0.93): 41.9 + 1.4, the least: split by 640. 80 SMs: 140 >=
      // max(80, 120): big split by 4096. 1000x1000x8192: 64 big tiles x 2 < 198; 1024: 8 slices,
      // 512 teams filling 2 waves to 0.97, 67.1 + 1.6; 640: 13 slices in 4 waves (0.79), 83.9 +
      // 2.5: split by 1024. 2048x2048x8192: 128 huge tiles fill 97% of a wave: huge, before any
      // split.
      {false, 777, 1234, 4321, 132, C::big_splitk640, kBig640Few},
      // 700x1300x5000: 6 x 11 = 66 big tiles, use 0.84, x 2 slices of 4096 = 132 < 198. 1024: 5
      // slices, 330 teams in 2 waves (0.63), 67.1 + 1.0; 640: 8 slices, 528 teams filling 2 waves
      // exactly, 41.9 + 1.3: split by 640 (H200, call 23: 90.1% of cuBLAS SGEMM, 78.5% by 1024).
      {false, 700, 1300, 5000, 132, C::big_splitk640, kBig640Few},
      {false, 1000, 1000, 8192, 132, C::big_splitk1024, kBig1kFew},
      // 1200x1200x16384: 100 big tiles x 4 slices of 4096 = 400 teams fill 2 waves to 0.76. The
      // chunk: 1024, 16 slices in 7 waves (0.87), 234.9 + 4.4; 640, 26 slices, 2600 teams in 10
      // waves (0.98), 209.7 + 7.1, the least: split by 640. 3000x200x5000: 24 x 2 = 48 big tiles,
      // use 0.76; 96 teams of 4096 are too few (< 198); 1024: 240 teams fill one wave to 0.91, 33.6
      // + 0.7; 640: 384 in 2 (0.73), 41.9 + 1.0: split by 1024.
      {false, 1200, 1200, 16384, 132, C::big_splitk640, kBig640Few},
      {false, 3000, 200, 5000, 132, C::big_splitk1024, kBig1kFew},
      {false, 200, 3000, 5000, 132, C::big_splitk1024, kBig1kFew},
      {false, 2048, 2048, 8192, 132, C::huge, kHuge},
      {false, 777, 1234, 4321, 80, C::big_splitk, kBigSplitF},
      // Double 777x1234x4321: 13 x 10 = 130 tiles, use 0.90, 2 slices: 260 teams. 132 SMs: 260 < 264,
      // 260 64x64 tiles >= 132: small. 108 SMs: 260 >= 216: split.
      {true, 777, 1234, 4321, 132, C::small, kSmall},
      {true, 777, 1234, 4321, 108, C::big_splitk, kBigSplitD},
      // Double 64x64x1048576: 1 tile, use 1/2, 256 slices. 132 SMs: 256 < 264: not split big; one 64x64
      // tile < 132 with 1024 slices, 96x96 no fuller (9216 >= 4096 cells): small split. 108 SMs: 256 >= 216.
      {true, 64, 64, 1048576, 132, C::small_splitk, kSmallSplit},
      {true, 64, 64, 1048576, 108, C::big_splitk, kBigSplitD},
  });
}

TEST_CASE("GPU shape rule: few small tiles split by 1024, 96x96 where it covers fewer cells, else 64x64", "[rule]") {
  check({
      // 96x96x500000, double: 2 x 1 = 2 big tiles (use 0.56) x 123 slices = 246 < 264; 2 x 2 = 4 64x64
      // tiles < 132 with 489 slices; one 96x96 tile covers 9216 < 4 * 4096 cells, 489 teams >= 132:
      // 96x96 split. 108 SMs: 246 >= max(216, 162): the big tile split.
      {true, 96, 96, 500000, 132, C::mid_splitk, kMid},
      {true, 96, 96, 500000, 108, C::big_splitk, kBigSplitD},
      // 96x96x500000, float: 1 big tile (use 0.56) x 123 = 123 < 198 (132 SMs) and < 162 (108 SMs): 4
      // 64x64 tiles split by 1024, and the 96x96 tile as for double. 80 SMs: 123 >= max(80, 120): the
      // big tile split.
      {false, 96, 96, 500000, 132, C::mid_splitk, kMid},
      {false, 96, 96, 500000, 108, C::mid_splitk, kMid},
      {false, 96, 96, 500000, 80, C::big_splitk, kBigSplitF},
      // 96x200x400000, float: 1 x 2 = 2 big tiles (use 0.59) x 98 = 196 < 198; 2 x 4 = 8 64x64 tiles
      // (32768 cells) against 1 x 3 = 3 96x96 (27648), 3 x 391 = 1173 teams: 96x96 split. Double: 2 x
      // 2 = 4 big tiles (use 0.59) x 98 = 392 >= 264: the big tile split first.
      {false, 96, 200, 400000, 132, C::mid_splitk, kMid},
      {true, 96, 200, 400000, 132, C::big_splitk, kBigSplitD},
      // 288x96x300000, float: 3 x 1 = 3 big tiles (use 0.56) x 74 = 222 >= 198: the big tile split
      // before step 5 (where 3 96x96 tiles would cover fewer cells than 5 x 2 64x64 ones).
      {false, 288, 96, 300000, 132, C::big_splitk, kBigSplitF},
      // 100x100x300000: the 96x96 tiles (2 x 2, 36864 cells) are no fuller than 64x64 (16384): 64x64
      // split, both dtypes (float: 1 big tile x 74 = 74 < 198; double 2 x 74 = 148 < 264).
      {false, 100, 100, 300000, 132, C::small_splitk, kSmallSplit},
      {true, 100, 100, 300000, 132, C::small_splitk, kSmallSplit},
      // 160x160x200000 and 192x192x200000: as many cells either way (9 x 4096 = 4 x 9216): 96x96
      // (float 192x192: 2 x 2 big tiles, use 0.56, x 49 = 196 < 198). Double 160x160: 3 x 2 = 6 big
      // tiles, use 0.52, x 49 = 294 >= 264: the big tile split first.
      {false, 160, 160, 200000, 132, C::mid_splitk, kMid},
      {true, 160, 160, 200000, 132, C::big_splitk, kBigSplitD},
      {false, 192, 192, 200000, 132, C::mid_splitk, kMid},
      // 161x161: 3 x 3 64x64 tiles against 2 x 2 96x96 (36864 cells each): 96x96; 193x193: 4 x 4
      // (65536) against 3 x 3 (82944): 64x64.
      {false, 161, 161, 200000, 132, C::mid_splitk, kMid},
      {false, 193, 193, 200000, 132, C::small_splitk, kSmallSplit},
      // 64x64 C: exactly 64x64 tiles, fuller than 96x96 ones (one big tile, use 1/4 < 3/4). 128x128
      // float: one big tile, use 1. Its chunk: 1024, 128 teams, no more than the SMs, one per SM:
      // 1 x 16384 x 1024 = 16.8 (+ 0.4); 640, 205 teams in one wave of 264, 2 x 16384 x 640 = 21.0:
      // 1024, whose 128 teams fill 0.48 < 0.85 of the slots: no big split; the 64x64 split.
      {false, 64, 64, 1048576, 132, C::small_splitk, kSmallSplit},
      {false, 128, 128, 131072, 132, C::small_splitk, kSmallSplit},
      {true, 128, 128, 131072, 132, C::small_splitk, kSmallSplit},  // 2 x 1 big tiles x 32 = 64 < 264
      // Fewer 96x96 teams than SMs: the 96x96 team's 2.25x work per slice would set the time. 96x96:
      // K = 132 x 1024 makes 132 slices (teams) on 132 SMs: 96x96; one chunk less: 64x64. K = 2048:
      // 2 teams.
      {false, 96, 96, 135168, 132, C::mid_splitk, kMid},
      {true, 96, 96, 135168, 132, C::mid_splitk, kMid},
      {false, 96, 96, 134144, 132, C::small_splitk, kSmallSplit},
      {true, 96, 96, 134144, 132, C::small_splitk, kSmallSplit},
      {false, 96, 96, 2048, 132, C::small_splitk, kSmallSplit},
      {true, 96, 96, 2048, 108, C::small_splitk, kSmallSplit},
      // Float 16x8192x8192 (M > 8): big use 0.125, huge use 0.125; 1 x 128 = 128 64x64 tiles. 132 SMs:
      // 128 < 4 x 132 slots, 8 slices: split (1 x 86 96x96 tiles cover more cells); 108 SMs: 128 <
      // 4 x 108, split as well. Double (no tensor cores) on 108 SMs: 128 >= 108, not few; one wave
      // on 3 x 108 slots (1 x 3 x 4096 x 8192) against the split's 1024 teams in 4 waves (4 x 3 x
      // 4096 x 1024): 0.5 <= 0.8, ragged: split.
      {false, 16, 8192, 8192, 132, C::small_splitk, kSmallSplit},
      {false, 16, 8192, 8192, 108, C::small_splitk, kSmallSplit},
      {true, 17, 8192, 8192, 108, C::small_splitk, kSmallRagged},
      // Few tiles but K <= 1024 (one slice): neither split pays, small. 100^3: 1 big tile, 4 64x64
      // tiles; 300^3: 9 big tiles (float), 25 64x64 tiles; float 9x100x100: 2 64x64 tiles; 96x96x1024.
      {false, 100, 100, 100, 132, C::small, kSmall},
      {true, 100, 100, 100, 132, C::small, kSmall},
      {false, 300, 300, 300, 132, C::small, kSmall},
      {true, 300, 300, 1000, 80, C::small, kSmall},
      {false, 9, 100, 100, 132, C::small, kSmall},
      {false, 96, 96, 1024, 132, C::small, kSmall},
      {true, 96, 96, 1024, 132, C::small, kSmall},
  });
}

TEST_CASE("GPU shape rule with FP64 tensor cores: DMMA past the GEMV-like shapes, float unchanged", "[rule]") {
  const std::vector<Case> cases{
      // 8191^3: 64 x 128 = 8192 128x64 tiles (use ~1) >= 132: the big DMMA tile.
      {true, 8191, 8191, 8191, 132, C::dmma_big, kDmmaBig},
      // 1500x1500x77: 12 x 24 = 288 tiles >= 132, use 0.98, but 2 waves of 264 (two teams per SM):
      // 2 x 2 / 0.75 = 5.3 against the 64x64 tile's 576 tiles in 3 waves, 3 / 0.75 = 4.0 (x 1.1 =
      // 4.4): the small tile.
      {true, 1500, 1500, 77, 132, C::dmma_small, kDmmaSmall},
      // 777x1234x4321: 7 x 20 = 140 big tiles (half a wave: 2.7) against 13 x 20 = 260 small
      // ones in one wave (1.3): not the big tile (H200: 43% of cuBLAS on it). 260 < 2 x 132 team
      // slots and 5 slices: the small tile split by 1024. 1500x1500x8192: 576 small tiles >= 264,
      // not few, but in 3 waves of 264 (3 x 2 x 4096 x 8192) against the split's 4608 teams in 18
      // (18 x 2 x 4096 x 1024): 0.75 <= 0.8, ragged waves: split.
      {true, 777, 1234, 4321, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 1500, 1500, 8192, 132, C::dmma_small_splitk,
       "shape rule: FP64 tensor cores, 64x64 tiles in ragged waves: K split by 1024"},
      // 5000x3001x777: 40 x 47 = 1880 big tiles in 8 waves (21.3) against 15 waves of small (20.0
      // x 1.1 = 22.0): the big tile.
      {true, 5000, 3001, 777, 132, C::dmma_big, kDmmaBig},
      // 70x1000x5000: 1 x 16 = 16 128x64 tiles (use 0.55) < 132; 2 x 16 = 32 64x64 tiles < 132, 5 slices.
      {true, 70, 1000, 5000, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 96, 96, 500000, 132, C::dmma_small_splitk, kDmmaSplit},
      // 200x200x64: 8 big tiles < 132, 16 64x64 tiles, one slice: the small DMMA tile.
      {true, 200, 200, 64, 132, C::dmma_small, kDmmaSmall},
      // 129x4000x300: 2 x 63 = 126 big tiles (use 0.4999) < 132, 3 x 63 = 189 64x64 tiles >= 132.
      {true, 129, 4000, 300, 132, C::dmma_small, kDmmaSmall},
      // GEMV-like shapes keep their kernels; float keeps its SIMT choices.
      {true, 16, 8192, 8192, 132, C::gemv_cols_8, kCols16},
      {true, 1000, 4, 5000, 132, C::gemv_rows_4, kRows4},
      {true, 1000, 6, 5000, 132, C::small_splitk, kNarrow},
      {false, 300, 300, 300, 132, C::small, kSmall},
  };
  check(cases, true);
  // Without tensor cores the same double shape takes the SIMT big tile.
  CHECK(mmapp::gpu_shape_rule(true, 8191, 8191, 8191, 132, nullptr, false) == C::big);
}

TEST_CASE("GPU shape rule with the deep DMMA tiles: any N and K, m16n8k8 for short K", "[rule]") {
  const std::string kDeep = "shape rule: FP64 tensor cores, 128x64x16 tiles, 3 cp.async stages";
  const std::string kDeepK8 = "shape rule: FP64 tensor cores, 128x64x16 tiles on m16n8k8, 3 cp.async stages: K <= 128";
  const std::string kDeepSplit = "shape rule: FP64 tensor cores, few 64x64 tiles: K split by 1024, 3 cp.async stages";
  const std::string kThinCopiesInPlace =
      "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (K split by 1024), odd "
      "operands read in place, element by element (copies reused along at most 320 rows or columns)";
  const std::string kDeepOneSlice =
      "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (K in one slice)";
  const std::string kDeepBigSplit =
      "shape rule: FP64 tensor cores, 128x64 tiles would split: 64x64 tiles at three teams per SM, K split by 1024, 3 "
      "cp.async stages";
  const std::string kDeepMid =
      "shape rule: FP64 tensor cores, few tiles, 96x96 no emptier than 64x64: K split by 1024, 4 cp.async stages";
  const std::string kDeepMidRagged =
      "shape rule: FP64 tensor cores, 64x64 tiles in ragged waves, 96x96 no emptier than 64x64: K split by 1024, "
      "4 cp.async stages";
  const std::string kDeepSmallOverMid =
      "shape rule: FP64 tensor cores, few tiles, 64x64 at three teams per SM estimated faster than 96x96: K split by "
      "1024, 3 cp.async stages";
  // Long K over few tiles (at least 16 slices of 1024, tiles at most a quarter of the 264 slots --
  // 128x64 tiles: at most 1/32 of them; for 96x96 its slices filling two waves or more): K split
  // into the S slices that fill the waves (splitk_wave_slices).
  const auto big_waves = [](int s) {
    return "shape rule: FP64 tensor cores, 128x64x16 tiles, 3 cp.async stages: K split into " + std::to_string(s) +
           " slices filling the waves (long K over very few tiles)";
  };
  const auto small_waves = [](int tiles, int slots, int teams, int s, int kc) {
    return "shape rule: FP64 tensor cores, few 64x64 tiles (" + std::to_string(tiles) + " on " + std::to_string(slots) +
           " slots, " + std::to_string(teams) + " teams split by 1024): K split into " + std::to_string(s) +
           " slices of " + std::to_string(kc) + " filling the waves, three teams per SM, 3 cp.async stages";
  };
  const auto mid_waves = [](int s) {
    return "shape rule: FP64 tensor cores, few tiles, 96x96 no emptier than 64x64: K split into " + std::to_string(s) +
           " slices filling the waves (long K over few tiles), 4 cp.async stages";
  };
  const std::vector<Case> cases{
      // Even N and K: the deep forms of the big tile and of the split small tile.
      {true, 8192, 8192, 8192, 132, C::dmma_deep, kDeep},
      {true, 4096, 4096, 4096, 132, C::dmma_deep, kDeep},
      // 128x16384x16384: 256 big tiles in one wave, 2 / 0.88 = 2.3, against 512 small in 2 (2.7).
      {true, 128, 16384, 16384, 132, C::dmma_deep, kDeep},
      {true, 16384, 128, 16384, 132, C::dmma_deep, kDeep},
      // 256x256x262144: 2 x 4 = 8 128x64 tiles, use 1, x 256 slices = 2048 teams filling 8 waves of 264
      // to 0.97: the deep big tile split, and with 256 slices of 1024 over 8 tiles the wave split:
      // 33 slices of 8000, 264 teams in one wave (128x128x131072: 2 tiles, 128 slices of 1024).
      {true, 256, 256, 262144, 132, C::dmma_deep_wsplit, big_waves(33)},
      // 96x96x500000: the 96x96 DMMA split tile (one tile of 9216 cells against four 64x64, 489
      // teams >= 132); 108 SMs as well. 96x200x400000: 1 x 4 128x64 tiles (< 132), 8 64x64 tiles
      // (32768 cells) against 3 96x96 (27648).
      // K long over few tiles, but the 96x96 wave split would fill a single wave (one tile on 264
      // slots: 261 slices of 1920): split by 1024.
      {true, 96, 96, 500000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 96, 96, 500000, 108, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 96, 200, 400000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 200, 96, 400000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      // As many cells either way: 160x160 (2 x 3 128x64 tiles < 132) and 192x192: 96x96.
      {true, 160, 160, 200000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 192, 192, 200000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      // Where 96x96 tiles cover more cells (100x100, 64x64, 128x128) or make fewer teams than SMs
      // (96x96x134144: 131 slices), the split 64x64 deep tile.
      {true, 100, 100, 300000, 132, C::dmma_small_splitk_deep, kDeepSplit},
      {true, 64, 64, 1048576, 132, C::dmma_small_splitk_deep, kDeepSplit},
      {true, 128, 128, 131072, 132, C::dmma_deep_wsplit, big_waves(128)},
      {true, 96, 96, 134144, 132, C::dmma_small_splitk_deep, kDeepSplit},
      {true, 96, 96, 135168, 132, C::dmma_mid_splitk_deep, kDeepMid},
      // 640x480x20000: 7 x 5 = 35 96x96 tiles, 20 slices of 1000: 15 slices of 1344 fill 2 waves.
      // 2500x128x30000: 20 x 2 = 40 128x64 tiles, 30 slices: over 1/32 of the 264 slots (8.25), so
      // not the wave split but the 64x64 split tile; 500x300x50000: 4 x 5 = 20 128x64 tiles, the same.
      {true, 640, 480, 20000, 132, C::dmma_mid_wsplit, mid_waves(15)},
      {true, 2500, 128, 30000, 132, C::dmma_small_splitk_deep, kDeepBigSplit},
      {true, 500, 300, 50000, 132, C::dmma_small_splitk_deep, kDeepBigSplit},
      // 1500x1500x8192: 12 x 24 = 288 128x64 tiles, use 0.98, 2 waves of 264 filled to 0.55; x 8
      // slices = 2304 teams filling 9 to 0.97: the deep big tile split by 1024. 1200x1200x16384: 10 x
      // 19 = 190 tiles (use 0.93) < 0.9 x 264; 3040 teams fill 12 waves to 0.96: the same (16
      // slices, but 190 tiles over a quarter of the slots: not the wave split).
      {true, 1500, 1500, 8192, 132, C::dmma_small_splitk_deep, kDeepBigSplit},
      {true, 1200, 1200, 16384, 132, C::dmma_small_splitk_deep, kDeepBigSplit},
      // 1050x1050x8192: 9 x 17 = 153 128x64 tiles, use 0.88 < 0.9: not split; 153 < 0.9 x 264 and K
      // splits: not the big tile. 17 x 17 = 289 64x64 tiles in 2 waves of 264 (2 x 8192) against the
      // split's 2312 teams in 9 (9 x 1024): 0.56 <= 0.8, ragged: split, on 11 x 11 96x96 tiles
      // (1.12e6 cells against 1.18e6; 968 teams in 4 waves of 264, 4 x 2 x 96^2, as long as the 64x64
      // tile's 6 waves of 396, 6 x 3 x 64^2: a tie keeps 96x96).
      {true, 1050, 1050, 8192, 132, C::dmma_mid_splitk_deep, kDeepMidRagged},
      // K <= 1024 (one slice of 1024): no split, the deep 64x64 tile at three teams per SM rather
      // than the register-path one. 1000^3: 8 x 16 = 128 128x64 tiles < 132, 256 64x64 tiles < 264
      // slots; 1500 x 1500 x 1000: 576 64x64 tiles (ragged), 288 128x64 in 2 waves (5.3 > 4.4, as
      // above); short K (1500 x 1500 x 77) the same.
      {true, 1000, 1000, 1000, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 1234, 778, 1000, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 2000, 500, 1000, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 1500, 1500, 1000, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 1500, 1500, 77, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      // 600 x 600 x 256: 100 tiles, but K = 256 (two slices of 128 at most): the one slice.
      {true, 600, 600, 256, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      // 129 x 4000 x 300: 189 tiles, two slices of 192 in one wave against one of 300, with the sum of
      // the slices charged (kSplitReduceOverheadK): estimate 0.95, the one slice.
      {true, 129, 4000, 300, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      // Few tiles, K 257-16384: where the split by 1024 makes fewer teams than the 396 slots, K split
      // into the slices that fill the waves in chunks of at least 128 (few_teams_time): 96 x 96 x 1024,
      // 4 tiles, 8 slices of 128; 600 x 600 x 1000, 100 tiles, 3 of 384 (300 teams); 100 x 100 x 8192,
      // 4 tiles, 64 slices of 128.
      {true, 96, 96, 1024, 132, C::dmma_small_wsplit, small_waves(4, 396, 4, 8, 128)},
      {true, 600, 600, 1000, 132, C::dmma_small_wsplit, small_waves(100, 396, 100, 3, 384)},
      {true, 100, 100, 8192, 132, C::dmma_small_wsplit, small_waves(4, 396, 32, 64, 128)},
      // 800 x 800 x 2048: 169 tiles x 2 slices, 338 teams in one wave: the wave split would make the
      // same slices (estimate 1.0): split by 1024. 1000 x 1000 x 1000: 256 tiles, two slices would
      // take two waves (1280 against 1128): the one slice.
      {true, 800, 800, 2048, 132, C::dmma_small_splitk_deep, kDeepSplit},
      // K splits, neither few tiles nor ragged waves: the deep 64x64 tile unsplit at three teams per SM
      // (4959 x 287 x 6412: 390 tiles on 396 slots; N odd, B copied for 4959 rows).
      {true, 4959, 287, 6412, 132, C::dmma_small_deep,
       "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages"},
      // Odd N and K in a GEMM under 5e8 M·N·K (operands not copied, CopyRule::dmma): the register
      // path; 144 tiles on its 264 slots, 2 slices of 512 in one wave (the thirty-fourth round's
      // bounds; 1001 x 1003 x 999, 1.0e9, is copied by the DMMA bounds alone: the deep 64x64 tile, copying
      // nothing since the forty-eighth round).
      {true, 701, 703, 999, 132, C::dmma_small_reg_wsplit,
       "shape rule: FP64 tensor cores, few 64x64 tiles (121 on 264 slots, 121 teams split by 1024): K split into 2 "
       "slices of 512 filling the waves, operands read in place"},
      {true, 1001, 1003, 999, 132, C::dmma_small_splitk_deep_el_inplace,
       "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (K in one slice), odd "
       "operands read in place, element by element (a GEMM too small for their copies)"},
      // The register path's few tiles (86 on 264 slots; the estimate within 0.9 of the split by 1024's):
      // 2730 x 85 x 3871, 344 teams split by 1024 in two waves, 3 slices of 1344 in one.
      {true, 2730, 85, 3871, 132, C::dmma_small_reg_wsplit,
       "shape rule: FP64 tensor cores, few 64x64 tiles (86 on 264 slots, 344 teams split by 1024): K split into 3 "
       "slices of 1344 filling the waves, operands read in place"},
      {true, 97, 101, 306, 132, C::dmma_small_reg_wsplit,
       "shape rule: FP64 tensor cores, few 64x64 tiles (4 on 264 slots, 4 teams split by 1024): K split into 3 "
       "slices of 128 filling the waves, operands read in place"},
      // GEMV-like N (<= 16): not the step (N = 12, double: the 64x64 tile as before).
      {true, 1000, 12, 1000, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      // An odd N or K (rows not in 16-byte chunks): the same deep tiles (the
      // kernel copies such operands to aligned ones: aligned_operands.hpp).
      {true, 8192, 8191, 8192, 132, C::dmma_deep, kDeep},
      {true, 8192, 8192, 8191, 132, C::dmma_deep, kDeep},
      {true, 4097, 4095, 4093, 132, C::dmma_deep, kDeep},
      {true, 5000, 3001, 777, 132, C::dmma_deep, kDeep},
      // Odd N or K against at most 192 rows or columns of C, or in a GEMM under 5e8 M·N·K (the copy
      // would cost more than it saves: CopyRule::dmma, A copied along N, B along M): the
      // register-path tiles; but a thin C of 65-192 rows over N >= 4096 and K >= 700 (192 x 4097 x
      // 4096), the deep 96x96 tile reading B in place (forty-fourth and forty-fifth rounds, below).
      {true, 96, 96, 499999, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 96, 97, 500000, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 33, 8191, 65537, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 192, 4097, 4096, 132, C::dmma_mid_wsplit_el,
       "shape rule: FP64 tensor cores, a thin C over a long K: 96x96 tiles, K split into 3 slices filling the "
       "waves, 4 cp.async stages, operands the copy bounds leave in place read in place, their unaligned rows "
       "element by element"},
      // From 193 the deep tile; along at most 320 (fifty-first round) it reads the operand in place.
      {true, 193, 4097, 4096, 132, C::dmma_small_splitk_deep_el_inplace, kThinCopiesInPlace},
      {true, 4097, 192, 4097, 132, C::dmma_small_splitk, kDmmaSplit},
      {true, 4097, 193, 4097, 132, C::dmma_small_splitk_deep_el_inplace, kThinCopiesInPlace},
      {true, 4097, 321, 4097, 132, C::dmma_small_deep,
       "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages"},
      {true, 1023, 4097, 119, 132, C::dmma_big, kDmmaBig},  // 4.99e8 M·N·K
      {true, 1023, 4097, 4096, 132, C::dmma_deep, kDeep},
      {true, 96, 98, 500000, 132, C::dmma_small_splitk_deep, kDeepSplit},  // 96x96 tiles: more cells
      // K up to 768 (one slice) where the big deep tile would run: the 64x64 deep tile at three
      // teams per SM (thirty-fifth round); past 768 the big one. But where the 128x64 tiles fit one
      // wave of 264 slots and the 64x64 tiles take more than one of 396: the big tile, on m16n8k8
      // up to K 128.
      {true, 16384, 16384, 64, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 16383, 16385, 127, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 8192, 8192, 384, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 8192, 8192, 768, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 8192, 8192, 769, 132, C::dmma_deep, kDeep},
      {true, 2048, 2048, 200, 132, C::dmma_small_splitk_deep, kDeepOneSlice},  // 512 128x64 tiles > 264
      {true, 128, 16384, 300, 132, C::dmma_deep, kDeep},                       // 256 128x64 tiles, 512 64x64 ones
      {true, 1024, 2048, 700, 132, C::dmma_deep, kDeep},                       // 256, 512
      {true, 128, 16384, 128, 132, C::dmma_deep_k8, kDeepK8},                  // 256, 512
      {true, 128, 16384, 129, 132, C::dmma_deep, kDeep},
      {true, 768, 2048, 700, 132, C::dmma_small_splitk_deep, kDeepOneSlice},  // 384 64x64 tiles: one wave
      // Few big tiles (half a wave), 260 small tiles < 2 x 132 slots: split; 96x96 tiles cover 1.2%
      // more cells than 64x64 ones (<= 5%), but 117 of them x 5 slices (chunk 896) take 3 waves of
      // 264 (3 x 2 x 96^2 x 896), the 64x64 tile's 1300 teams 4 waves of 396 (4 x 3 x 64^2 x 896,
      // 0.89 <= 0.92 of that): the 64x64 split, both ways round; 900x900x6000 (10 x 10 96x96 tiles x
      // 6 slices in 3 waves, 15 x 15 64x64 in 4) the same. 1234x400x30000 (0.917): 64x64;
      // 1234x400x100000 (0.933) and 1500x778x12000 (ragged, 0.952): 96x96. 96x1000x12000: 11 96x96
      // tiles x 12 slices = 132 teams, under a wave of 264 (estimate 0.67): 96x96. 700x1300x5000: 8 x
      // 14 = 112 96x96 tiles (1.03M cells) against 11 x 21 = 231 64x64 (0.95M, ratio 1.09): the 64x64
      // split.
      {true, 778, 1234, 4320, 132, C::dmma_small_splitk_deep, kDeepSmallOverMid},
      {true, 1234, 778, 4320, 132, C::dmma_small_splitk_deep, kDeepSmallOverMid},
      {true, 900, 900, 6000, 132, C::dmma_small_splitk_deep, kDeepSmallOverMid},
      {true, 1234, 400, 30000, 132, C::dmma_small_splitk_deep, kDeepSmallOverMid},
      {true, 1234, 400, 100000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 1500, 778, 12000, 132, C::dmma_mid_splitk_deep, kDeepMidRagged},
      {true, 96, 1000, 12000, 132, C::dmma_mid_splitk_deep, kDeepMid},
      {true, 700, 1300, 5000, 132, C::dmma_small_splitk_deep, kDeepSplit},
      // GEMV-like shapes and float: unchanged.
      {true, 16, 8192, 8192, 132, C::gemv_cols_8, kCols16},
      {false, 300, 300, 300, 132, C::small, kSmall},
  };
  check(cases, true, true);
  // With the sm_90a tiles, where the big deep tile would run (K >= 769) and at least two waves of
  // 128x128 tiles (264 on 132 SMs): the warp-specialized 128x128 tile; not over 256 tiles (2000^2
  // or 2048^2: 16 x 16), nor where the rule splits, nor at K <= 768 (the 64x64 deep tile).
  const std::string kWs = "shape rule: FP64 tensor cores, 128x128x16 tiles on m16n8k16, warp-specialized (a producer "
                          "warpgroup), 4 cp.async stages";
  // Where its last wave is at most half full, that wave's tiles split in K (tail_split_plan: S =
  // min(132 / rem, 512 / rem, K / 128) slices of K / S on multiples of 16): 8192^3, 64 x 64 = 4096
  // tiles, 31 waves and 4 tiles in 32 slices of 256 (S = 33: 8192 / 33 rounds up to 256); 5120^3,
  // 1600 = 12 x 132 + 16, 8 slices of 640; 2304^2 x 4096, 324 = 2 x 132 + 60, 2 of 2048; 9216 x
  // 9216 x 1024, 5184 = 39 x 132 + 36, 3 of 352 (the last 320). Not split: 4096^3 (1024 = 7 x 132 +
  // 100), 12288^3 (9216 = 69 x 132 + 108), 4097 x 4095 (33 x 32 = 1056: 8 whole waves), 8192 x 2048
  // (1024), nor on 170 SMs 8192^3 (4096 = 24 x 170 + 16: 10 slices of 832, 512 / 16 = 32 > 170 / 16).
  const auto tail = [&](int tiles, int slices) {
    return kWs + ", the last wave's " + std::to_string(tiles) + " tiles split into " + std::to_string(slices) +
           " K slices";
  };
  const std::vector<Case> ws_cases{
      {true, 4096, 4096, 4096, 132, C::dmma_deep_ws, kWs},
      {true, 12288, 12288, 12288, 132, C::dmma_deep_ws, kWs},
      {true, 8192, 8192, 8192, 132, C::dmma_deep_ws_tail, tail(4, 32)},
      {true, 8192, 8191, 8192, 132, C::dmma_deep_ws_tail, tail(4, 32)},  // odd N: copied
      {true, 8192, 8192, 8192, 170, C::dmma_deep_ws_tail, tail(16, 10)},
      {true, 5120, 5120, 5120, 132, C::dmma_deep_ws_tail, tail(16, 8)},
      {true, 9216, 9216, 1024, 132, C::dmma_deep_ws_tail, tail(36, 3)},
      {true, 4097, 4095, 4093, 132, C::dmma_deep_ws, kWs},
      {true, 8192, 2048, 1024, 132, C::dmma_deep_ws, kWs},
      {true, 2304, 2304, 4096, 132, C::dmma_deep_ws_tail, tail(60, 2)},  // 18 x 18 = 324 tiles >= 264
      {true, 2048, 2048, 4096, 132, C::dmma_deep, kDeep},                // 256 tiles: under two waves
      {true, 2304, 2304, 4096, 170, C::dmma_deep, kDeep},                // 324 < 340
      {true, 8192, 8192, 1023, 132, C::dmma_deep_ws_tail, tail(4, 7)},   // from K 769 (thirty-fifth round)
      {true, 8192, 8192, 769, 132, C::dmma_deep_ws_tail, tail(4, 6)},
      {true, 3000, 3000, 1000, 132, C::dmma_deep_ws_tail, tail(48, 2)},  // 576 = 4 x 132 + 48
      {true, 2000, 2000, 900, 132, C::dmma_deep, kDeep},                 // 256 tiles: under two waves
      {true, 8192, 8192, 768, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 6000, 6000, 300, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      {true, 16384, 16384, 64, 132, C::dmma_small_splitk_deep, kDeepOneSlice},
      // Where the 128x64 tile would split, more 128x128 tiles than SMs filled to 0.84 (144, 0.95):
      // the ws tile, its last wave split (thirty-fourth round).
      {true, 1500, 1500, 8192, 132, C::dmma_deep_ws_tail, tail(12, 11) + " (128x64 tiles would split)"},
      {true, 256, 256, 262144, 132, C::dmma_deep_wsplit, big_waves(33)},
      {true, 1023, 4097, 119, 132, C::dmma_big, kDmmaBig},  // register path: no sm_90a tile
  };
  check(ws_cases, true, true, true);
  // C in whole 128x128 tiles, K >= 4096, fewer than four waves (528 tiles on 132 SMs): the tail
  // split where it splits, else Stream-K where stream_k_plan streams (runs of ceil(tiles x K/16 /
  // 132) K tiles, rounded up to 4): 512^2 x 8192, 16 tiles of 512 K tiles in runs of 64 (63 up)
  // over 128 teams; 1024^2 x 4096, 64 tiles of 256 in runs of 128 (125 up) over 128 teams; 1024 x
  // 2048 x 8192, 128 tiles (a wave nearly full: a run of 500 saves too little) and 2048^2 x 4096
  // (256 tiles: 132 + 124, runs of 244 of 256): not streamed, the rule's tiles as before; 2560^2 x
  // 16384, 400 tiles = 3 x 132 + 4: the tail split, 33 slices (4 x 33 = 132); on 170 SMs 2304^2 x
  // 4096, 324 tiles = 170 + 154 in runs of 232 of 256 (more than half a tile): not streamed. Not where C is not
  // whole tiles (1000^2 x 8192, 1500^2 x 8192), K < 4096 (1024^2 x 2048) or > 16384 (256^2 x
  // 262144: the wave split, above), four waves (2816 x 3072 x 4096: 22 x 24 = 528 tiles), nor
  // without the sm_90a tiles.
  const auto sk = [&](int tiles, int teams) {
    return kWs + ", C in whole tiles: the last " + std::to_string(tiles) + " tiles' K tiles streamed over " +
           std::to_string(teams) + " teams";
  };
  const std::vector<Case> sk_cases{
      {true, 512, 512, 8192, 132, C::dmma_deep_ws_sk, sk(16, 128)},
      {true, 1024, 1024, 4096, 132, C::dmma_deep_ws_sk, sk(64, 128)},
      {true, 2560, 2560, 16384, 132, C::dmma_deep_ws_tail, tail(4, 32)},
      {true, 1000, 1000, 8192, 132, C::dmma_small_splitk_deep, kDeepBigSplit},
      {true, 1500, 1500, 8192, 132, C::dmma_deep_ws_tail, tail(12, 11) + " (128x64 tiles would split)"},
  };
  check(sk_cases, true, true, true);
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {1024, 2048, 8192}, {2048, 2048, 4096}, {1024, 1024, 2048}, {2816, 3072, 4096}, {1000, 1000, 8192}}) {
    INFO(m << "x" << n << "x" << k);
    const C c = mmapp::gpu_shape_rule(true, m, n, k, 132, nullptr, true, true, true);
    CHECK(c != C::dmma_deep_ws_sk);
  }
  CHECK(mmapp::gpu_shape_rule(true, 1024, 1024, 4096, 132, nullptr, true, true, false) != C::dmma_deep_ws_sk);
  // Deep tiles are a form of the tensor-core tiles: without tensor cores, none.
  CHECK(mmapp::gpu_shape_rule(true, 8192, 8192, 8192, 132, nullptr, false, true) == C::big);
  // A thin C with B left unaligned in place (N odd, 192 rows or fewer; forty-fourth round, from K
  // 700 and the wave split since the forty-fifth, the bounds below since the forty-sixth): M 65-192
  // where 96-row tiles pad M no more than 64-row ones, N >= 4096, K >= 700: the deep 96x96 tile, K
  // split into the slices that fill its waves, reading B in place. Two rows of those tiles (M
  // 129-192) under K 2048 only over at least one tile per SM (190 x 9001 x 2000: 188 tiles); one row
  // of M 65-80 from K 256, also over one tile per SM (65 x 20001 x 512: 209).
  const auto thin_text = [](const char* k_kind, long slices) {
    return std::string("shape rule: FP64 tensor cores, a thin C over a ") + k_kind + " K: 96x96 tiles, " +
           (slices == 1 ? std::string("K whole (the wave split makes one slice)")
                        : "K split into " + std::to_string(slices) + " slices filling the waves") +
           ", 4 cp.async stages, operands the copy bounds leave in place read in place, their unaligned rows element "
           "by element";
  };
  for (const auto& [m, n, k, slices] : std::vector<std::array<long, 4>>{{160, 8191, 6000, 3},
                                                                        {192, 6001, 4000, 2},
                                                                        {78, 7255, 5502, 3},
                                                                        {130, 7001, 4000, 7},
                                                                        {96, 8191, 4096, 3},
                                                                        {150, 12001, 1000, 1},
                                                                        {190, 9001, 2000, 4},
                                                                        {80, 16001, 700, 3},
                                                                        {130, 4859, 2048, 2},
                                                                        {96, 5063, 1355, 4},
                                                                        {65, 20001, 512, 1},
                                                                        {70, 30001, 256, 1}}) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    CHECK(mmapp::gpu_shape_rule(true, m, n, k, 132, &why, true, true, true) == C::dmma_mid_wsplit_el);
    CHECK(why == thin_text(k < 700 ? "short" : "long", slices));
  }
  // Not at 100 rows (192 against 128), 64 rows, K under 700 past 80 rows or under 256, N under 4096,
  // B aligned (N even: the deep tiles' own steps), two rows of tiles fewer than the SMs under K 2048
  // (143 x 4893 x 1743: 2 x 51 = 102; 130 x 4859 x 2047), one row fewer than the SMs under K 700 (65
  // x 4943 x 668: 52), nor without the deep tiles.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{100, 6001, 6000},
                                                                {64, 8191, 6000},
                                                                {160, 8191, 699},
                                                                {81, 20001, 512},
                                                                {96, 16001, 400},
                                                                {70, 30001, 255},
                                                                {160, 4095, 6000},
                                                                {160, 8192, 6000},
                                                                {143, 4893, 1743},
                                                                {185, 5303, 1126},
                                                                {130, 4859, 2047},
                                                                {65, 4943, 668}}) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    mmapp::gpu_shape_rule(true, m, n, k, 132, &why, true, true, true);
    CHECK(why.find("a thin C over a") == std::string::npos);
  }
  // The same thin C at K 256-768 where the 96-row tiles pad more (M 97-192) or too few teams fill
  // them, and the rule would take the register path's 64x64 tile: the 64x64 deep tile at three teams
  // per SM (forty-sixth round), in its ElemChunks form (forty-seventh). Not where it takes the 128x64
  // tile (104 x 16235 x 386), past K 768, under K 256, N under 4096, nor B aligned (100 x 20000 x 512:
  // the deep tiles' own step, the plain tile).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {100, 20001, 512}, {120, 24001, 512}, {128, 20001, 300}, {180, 15001, 600}, {190, 4097, 700}}) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    CHECK(mmapp::gpu_shape_rule(true, m, n, k, 132, &why, true, true, true) == C::dmma_small_splitk_deep_el);
    CHECK(why == "shape rule: FP64 tensor cores, a thin C over a short K: 64x64 tiles at three teams per SM, 3 "
                 "cp.async stages (K in one slice), operands the copy bounds leave in place read in place, their "
                 "unaligned rows element by element");
  }
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {104, 16235, 386}, {100, 20001, 769}, {100, 20001, 255}, {100, 4095, 512}, {100, 20000, 512}}) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    mmapp::gpu_shape_rule(true, m, n, k, 132, &why, true, true, true);
    CHECK(why.find("a thin C over a short K: 64x64") == std::string::npos);
  }
  CHECK(mmapp::gpu_shape_rule(true, 100, 20000, 512, 132, nullptr, true, true, true) == C::dmma_small_splitk_deep);
  CHECK(mmapp::gpu_shape_rule(true, 100, 20001, 512, 132, nullptr, true, false, true) != C::dmma_small_splitk_deep_el);
  CHECK(mmapp::gpu_shape_rule(true, 160, 8191, 6000, 132, nullptr, true, false, true) != C::dmma_mid_wsplit_el);
}

TEST_CASE("GPU shape rule without tensor cores (run.math: simt): the SIMT choice, never DMMA", "[rule]") {
  // Over a grid of shapes and SM counts: with tensor_cores = false the rule
  // is the plain SIMT rule (the default argument) and never names a DMMA
  // tile; float is the same with or without; with them double differs from
  // the SIMT choice only by taking a DMMA tile (past the GEMV-like shapes).
  const auto dmma = [](C c) {
    return c == C::dmma_big || c == C::dmma_small || c == C::dmma_small_splitk || c == C::dmma_deep ||
           c == C::dmma_small_splitk_deep || c == C::dmma_deep_k8 || c == C::dmma_mid_splitk_deep ||
           c == C::dmma_mid_wsplit || c == C::dmma_deep_wsplit || c == C::dmma_deep_ws || c == C::dmma_deep_ws_tail ||
           c == C::dmma_deep_ws_sk || c == C::dmma_small_splitk_deep_el || c == C::dmma_mid_wsplit_el ||
           c == C::dmma_small_splitk_deep_el_inplace;
  };
  long n_dmma = 0, n_shapes = 0;
  for (const bool is_double : {false, true})
    for (const long sms : {1L, 16L, 108L, 132L})
      for (const long m : {1L, 2L, 9L, 17L, 64L, 100L, 513L, 4096L, 20000L})
        for (const long n : {1L, 3L, 5L, 64L, 250L, 4097L})
          for (const long k : {1L, 31L, 1024L, 70000L}) {
            INFO((is_double ? "double " : "float ") << m << "x" << n << "x" << k << " on " << sms << " SMs");
            std::string why_simt, why_plain, why_tc;
            const C simt = mmapp::gpu_shape_rule(is_double, m, n, k, sms, &why_simt, false);
            const C plain = mmapp::gpu_shape_rule(is_double, m, n, k, sms, &why_plain);
            const C tc = mmapp::gpu_shape_rule(is_double, m, n, k, sms, &why_tc, true);
            ++n_shapes;
            CHECK_FALSE(dmma(simt));
            CHECK(simt == plain);
            CHECK(why_simt == why_plain);
            CHECK(why_simt.find("tensor") == std::string::npos);
            if (!is_double) CHECK(tc == simt);
            if (is_double) CHECK((tc == simt) != dmma(tc));
            n_dmma += dmma(tc);
          }
  CHECK(n_dmma > n_shapes / 8);  // the grid does reach the tensor-core choices (288 of 864 shapes)
}

TEST_CASE("GPU shape rule with wgmma: float takes 3xTF32 on wgmma where it measured faster", "[rule]") {
  const auto rule = [](bool is_double, long m, long n, long k, bool wgmma, std::string* why = nullptr) {
    return mmapp::gpu_shape_rule(is_double, m, n, k, 132, why, true, true, wgmma);
  };
  std::string why;
  // Long K over many 128x128 tiles: unsplit, operands split once (H200, 2026-11-25: 149-182% of
  // cuBLAS SGEMM).
  CHECK(rule(false, 8192, 8192, 8192, true, &why) == C::wgmma_big);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles, operands split once");
  CHECK(rule(false, 2048, 2048, 2048, true) == C::wgmma_big);
  CHECK(rule(false, 2000, 6000, 2000, true) == C::wgmma_big);
  // Odd sizes: the pass that splits the operands reads them in any alignment.
  CHECK(rule(false, 4097, 4095, 4093, true) == C::wgmma_big);
  // Short K over many tiles: whole tiles (H200, 2026-11-25: 127-150% of cuBLAS SGEMM, the SIMT
  // tiles 83-107%).
  CHECK(rule(false, 6000, 6000, 300, true) == C::wgmma_big);
  CHECK(rule(false, 8192, 8192, 256, true) == C::wgmma_big);
  CHECK(rule(false, 4000, 500, 500, true) == C::wgmma_big);
  CHECK(rule(false, 5000, 3001, 777, true) == C::wgmma_big);
  // Few tiles: K split by the chunk of least estimated time (1000 x 1000 x 8192: 64 tiles x 2
  // slices of 4096 filling one wave, against 4 of 2048 in 2 waves, 8 of 1024 in 4 and 16 of 512
  // in 8; 1000^3: 64 tiles x 2 slices of 512 in one wave; 777 x 1234 x 4321: 70 tiles x 5 slices
  // of 896 in 3 waves, the wave split's as well, with a smaller reduction).
  CHECK(rule(false, 1000, 1000, 8192, true, &why) == C::wgmma_wsplit);
  CHECK(why.find("K split into 2 slices filling the waves") != std::string::npos);
  CHECK(rule(false, 700, 1300, 5000, true) == C::wgmma_wsplit);
  CHECK(rule(false, 640, 480, 20000, true) == C::wgmma_wsplit);
  // 512 x 256 x 2048: 8 tiles x 8 slices of 256, efficiency 0.246 >= 0.2 (SIMT before the wave
  // split: 0.166 by 512); 600^3: 0.217.
  CHECK(rule(false, 512, 256, 2048, true) == C::wgmma_wsplit);
  CHECK(rule(false, 600, 600, 600, true) == C::wgmma_wsplit);
  CHECK(rule(false, 1000, 1000, 1000, true, &why) == C::wgmma_splitk512);
  CHECK(why.find("K split by 512") != std::string::npos);
  CHECK(rule(false, 777, 1234, 4321, true, &why) == C::wgmma_splitk);
  CHECK(why.find("K split by 1024") != std::string::npos);
  CHECK(rule(false, 1500, 1500, 8192, true) == C::wgmma_splitk);
  CHECK(rule(false, 3000, 200, 5000, true) == C::wgmma_splitk);
  // A large operand against few products: the pass over 2560 x 30016 of A costs more than splitting
  // in the K loop (estimates 1.56e8 against 2.0e8: at most 0.8): the in-loop split tile, where the
  // operands allow it; the pre-split tile where they do not (B's rows misaligned, too few rows of C
  // to copy them).
  CHECK(rule(false, 2500, 128, 30000, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why.find("operands split in the K loop (the pass would cost more)") != std::string::npos);
  CHECK(rule(false, 2500, 129, 30000, true) != C::wgmma_inplace_wsplit);
  // One column of tiles (N <= 128): the in-loop tile up to 0.95 of the pre-split estimate (5000 x 128 x
  // 20000: 0.82; 3000 x 128 x 12000: 0.94), not beyond (512 x 128 x 8192: 2.04); two columns keep
  // 0.8 (3000 x 200 x 5000: 0.97; 3000 x 256 x 8192: 0.94).
  CHECK(rule(false, 5000, 128, 20000, true) == C::wgmma_inplace_wsplit);
  CHECK(rule(false, 3000, 128, 12000, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 5 slices filling the waves, operands split "
               "in the K loop (the pass would cost more)");
  // Where the split by 1024 is estimated slower (512 x 128 x 8192: 2.04), the in-loop wave split at
  // most 0.8 of the pre-split estimate (0.74; measured 92.4% of cuBLAS SGEMM against 81.5, fifteenth
  // round); not with two columns of tiles (N = 129; 512 x 256 x 2048, below).
  CHECK(rule(false, 512, 128, 8192, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 32 slices filling the waves, operands split "
               "in the K loop (the pass would cost more)");
  CHECK(rule(false, 512, 129, 8192, true) != C::wgmma_inplace_wsplit);
  CHECK(rule(false, 3000, 256, 8192, true) != C::wgmma_inplace_wsplit);
  CHECK(rule(false, 513, 1025, 2049, true) == C::wgmma_splitk512);
  // Many tiles: unsplit, though a split would fill its waves better (3072^3: 576 tiles in 5 waves;
  // split by 2048, 1152 teams in 9, estimated 0.97 of the whole tile's time, not 0.8).
  CHECK(rule(false, 3072, 3072, 3072, true) == C::wgmma_big);
  // Few tiles in a partial wave: a split estimated at most 0.9 of the whole tile (kWgmmaSplitGain;
  // seventeenth round, one H100, % of cuBLAS SGEMM, whole against the split: 1000 x 3000 x 8192, 192
  // tiles, 128.8 / 150.4 in waves at 0.81; 1500 x 3000 x 100000 140.7 / 164.9 by 2048 at 0.82; 640 x
  // 8192 x 8192 122.3 / 131.6 in waves at 0.89).
  CHECK(rule(false, 1000, 3000, 8192, true) == C::wgmma_wsplit);
  CHECK(rule(false, 1500, 3000, 100000, true) == C::wgmma_splitk2048);
  CHECK(rule(false, 640, 8192, 8192, true) == C::wgmma_wsplit);
  // M under 512 (N >= 128, K > 1024): the pre-split tile where the in-loop split's estimate is at least
  // 0.92 of its (seventeenth round, one H100, % of cuBLAS SGEMM, pre-split / in-loop: 200 x 3000 x 5000
  // 96.9 / 92.8, estimate 0.97; 400 x 4096 x 4096 131.3 / 97.3, 1.15; 450 x 450 x 50000 112.8 / 98.9,
  // 0.94; 300 x 2000 x 1025 95.8 / 67.5, 1.20), any alignment (the pass reads elements); K <= 1024 and
  // estimates under 0.92 keep the step below (200 x 1000 x 8192 93.0 / 96.8, 0.89).
  CHECK(rule(false, 200, 3000, 5000, true, &why) == C::wgmma_splitk);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles, operands split once: K split by 1024 (M < 512: the pass "
               "pays, by the estimates)");
  CHECK(rule(false, 400, 4096, 4096, true, &why) == C::wgmma_big);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles, operands split once (M < 512: the pass pays, by the "
               "estimates)");
  CHECK(rule(false, 450, 450, 50000, true) == C::wgmma_wsplit);
  CHECK(rule(false, 300, 2000, 1025, true) == C::wgmma_splitk);
  CHECK(rule(false, 301, 2001, 1025, true) == C::wgmma_splitk);  // odd M, N, K: the pass reads any alignment
  CHECK(rule(false, 400, 4096, 1024, true) == C::wgmma_big);     // K from 512 (kWgmmaThinMinK)
  CHECK(rule(false, 400, 4096, 511, true) != C::wgmma_big);
  CHECK(rule(false, 400, 4096, 4096, false) != C::wgmma_big);
  // M under 512 or N under 128, otherwise: the split tile splitting in its K loop (aligned operands only).
  CHECK(rule(false, 100, 100, 300000, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why.find("operands split once") == std::string::npos);
  CHECK(why.find("K split into 131 slices filling the waves, operands split in the K loop") != std::string::npos);
  CHECK(rule(false, 100, 101, 300000, true) != C::wgmma_splitk_inplace);  // B's rows misaligned, not copied
  CHECK(rule(false, 100, 101, 300000, true) != C::wgmma_inplace_wsplit);
  // The wave split in one wave, where the split by 1024 made one wave, or two under 0.7 full: the SIMT
  // tile before (one H100, sixteenth round: 96.8% of cuBLAS SGEMM against 77.2, 93.8 against 81.5,
  // 93.2 against 79.1): 16 tiles x 8 slices, 32 x 4, 16 x 8 on 132 SMs.
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{200, 1000, 8192}, {128, 4096, 4096}, {100, 2000, 10000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(false, m, n, k, true, &why) == C::wgmma_inplace_wsplit);
    CHECK(why.find("slices filling the waves, operands split in the K loop") != std::string::npos);
    CHECK(rule(false, m, n, k, false) != C::wgmma_inplace_wsplit);
  }
  // The in-loop tile's K split into the slices that fill its waves wherever that splits K, full waves
  // of the split by 1024 included (sixteenth round, one H100, % of cuBLAS SGEMM, wave split against the
  // split by 1024: 300 x 300 x 100000 89.7 / 83.6, 256 x 256 x 262144 91.6 / 84.2); by 1024 where the
  // wave split's workspace (chunks of 256: 1024 slices of 100 x 3000) would pass kSplitKMaxBytes.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{8192, 128, 8192},
                                                                {2500, 128, 30000},
                                                                {300, 300, 100000},
                                                                {1024, 128, 16384},
                                                                {1000, 128, 12000},
                                                                {1500, 128, 8192},
                                                                {777, 128, 30000},
                                                                {400, 128, 50000},
                                                                {256, 256, 262144}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(false, m, n, k, true) == C::wgmma_inplace_wsplit);
  }
  // Tiles under 60% used, where the SIMT tiles are no fuller: the in-loop wave split where the 128x128
  // tile's use is at least 0.6 of the fullest SIMT tile's (twentieth round, one H100: M 129-153 and
  // M or N 65-76, 0.75; 300 x 148, 0.62); the SIMT choice where it is under (0.5-0.56: 96 x 148, 140 x
  // 140, 40 x 8192, 4096 x 40, 2000 x 60; 64 x 4096 and 4096 x 64, whose 64x64 tiles are full, above).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{150, 6000, 20000},
                                                                {129, 6000, 20000},
                                                                {153, 4096, 8192},
                                                                {150, 1024, 100000},
                                                                {300, 148, 50000},
                                                                {200, 200, 50000},
                                                                {4096, 72, 8192},
                                                                {1000, 72, 20000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(false, m, n, k, true, &why) == C::wgmma_inplace_wsplit);
    CHECK(why.find("slices filling the waves, operands split in the K loop") != std::string::npos);
  }
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{40, 8192, 8192},
                                                                {4096, 40, 8192},
                                                                {2000, 60, 10000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(false, m, n, k, true) == rule(false, m, n, k, false));
  }
  // K <= 1024 (the split by 1024 one slice), on an H200 (4.8 TB/s): from K 512 the thin step (M <
  // 512) takes the pre-split tile, from efficiency 0.17 (200 x 1000 x 1000: 16 tiles x 4 slices, 0.19);
  // under K 512 the SIMT tiles (100 x 6000 x 300). N under 128 (4096 x 100 x 1000, not the thin step):
  // the in-loop wave split where it fills its wave to 0.7 (32 tiles x 4 slices, 0.97); not where it
  // fills less (2000 x 100 x 1000: 16 tiles x 4 slices, 0.48).
  const auto h200 = [](long m, long n, long k, bool wgmma, std::string* why = nullptr) {
    return mmapp::gpu_shape_rule(false, m, n, k, 132, why, true, true, wgmma, 4.8e12);
  };
  CHECK(h200(300, 4000, 1000, true, &why) == C::wgmma_big);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles, operands split once (M < 512: the pass pays, by the "
               "estimates, the pass at 4.8 TB/s)");
  CHECK(h200(200, 1000, 1000, true, &why) == C::wgmma_wsplit);
  CHECK(why.find("K split into 4 slices filling the waves (M < 512") != std::string::npos);
  CHECK(h200(150, 3000, 800, true) == C::wgmma_splitk512);
  CHECK(h200(100, 6000, 512, true) == C::wgmma_wsplit);
  CHECK(h200(4096, 100, 1000, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 4 slices filling the waves, operands split "
               "in the K loop");
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{64, 8192, 1024}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == h200(m, n, k, false));
  }
  CHECK(rule(false, 100, 3000, 262144, true, &why) == C::wgmma_splitk_inplace);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split by 1024, the teams filling their waves");
  // A small C (M, N 17-1024, few SIMT teams, K > 256): 3xTF32 split into the slices that fill the
  // waves, on mma.sync in chunks of at least 32 below 4.8e7 multiply-adds (100 x 100 x 1000: 32
  // slices over 4 tiles), or below 8.5e7 with K to 1536 (200 x 200 x 1500, 400^3; forty-fourth
  // round), on the pre-split 64x128 wgmma tile above (513^3, 300 x 300 x 1000; 100 x 100 x 5000, K
  // past 1536). K 192-256 on the mma.sync tile alone (300 x 300 x 256, 400 x 400 x 256, 100 x 100 x
  // 192), else the SIMT tile (600 x 600 x 256, 9.2e7; 100 x 100 x 128, K under 192).
  CHECK(h200(100, 100, 1000, true, &why) == C::tf32_small_wsplit);
  CHECK(why == "shape rule: 3xTF32, small C (4 SIMT 64x64 teams split by 1024): 64x64 tiles on mma.sync, operands "
               "split in the K loop, K split into 32 slices filling the waves");
  CHECK(h200(200, 200, 1500, true, &why) == C::tf32_small_wsplit);
  CHECK(why == "shape rule: 3xTF32, small C (32 SIMT 64x64 teams split by 1024): 64x64 tiles on mma.sync, operands "
               "split in the K loop, K split into 24 slices filling the waves");
  CHECK(h200(400, 400, 400, true) == C::tf32_small_wsplit);
  CHECK(h200(187, 190, 743, true) == C::tf32_small_wsplit);
  CHECK(h200(513, 513, 513, true) == C::wgmma_pre64_wsplit);
  CHECK(h200(300, 300, 1000, true) == C::wgmma_pre64_wsplit);
  CHECK(h200(100, 100, 5000, true) == C::wgmma_pre64_wsplit);
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{300, 300, 256}, {400, 400, 256}, {100, 100, 192}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == C::tf32_small_wsplit);
  }
  CHECK(h200(600, 600, 256, true) == h200(600, 600, 256, false));
  CHECK(h200(100, 2000, 200, true) == h200(100, 2000, 200, false));  // K under 257 on a small C only
  CHECK(h200(100, 100, 128, true) == h200(100, 100, 128, false));
  // A thin C (thirty-first round): M or N past 1024, the other past 64, few SIMT teams, where
  // wgmma_choice declines: the same step (1100 x 100 x 1000: 18 x 2 tiles, one slice by 1024, on 528
  // SIMT slots; 76 x 1783 x 465: 56 x 1; 2000 x 100 x 1000, 100 x 6000 x 511). Not the small-C step:
  // M or N <= 16; over 1024 with the other side 64 or less (4096 x 40 x 8192, 64 x 4096 x 4096, 2000 x
  // 60 x 10000: the SIMT wave split below, with or without wgmma); K <= 256.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {1100, 100, 1000}, {1783, 76, 465}, {76, 1783, 465}, {2000, 100, 1000}, {100, 6000, 511}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == C::wgmma_pre64_wsplit);
  }
  CHECK(h200(1100, 100, 1000, true, &why) == C::wgmma_pre64_wsplit);
  CHECK(why == "shape rule: 3xTF32, small C (36 SIMT 64x64 teams split by 1024): 64x128 tiles on wgmma, operands "
               "split once, K split into 6 slices filling the waves");
  CHECK(h200(12, 300, 1000, true) == h200(12, 300, 1000, false));
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {4096, 40, 8192}, {64, 4096, 4096}, {2000, 60, 10000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == h200(m, n, k, false));
  }
  // A thin C of 17-64 columns (rows) against more than 1024 rows (columns), where step 5 splits the
  // 64x64 tile (thirty-first round): the same tile with K split into the slices that fill its waves,
  // with or without wgmma (a SIMT tile); double keeps the split by 1024; 16 columns are GEMV-like.
  for (const bool wgmma : {true, false})
    for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
             {5000, 50, 2000}, {1500, 32, 6000}, {30, 5000, 3000}, {4096, 40, 8192}, {6000, 20, 6000}}) {
      INFO(m << "x" << n << "x" << k << " wgmma " << wgmma);
      CHECK(h200(m, n, k, wgmma) == C::small_wsplit);
    }
  CHECK(h200(5000, 50, 2000, true, &why) == C::small_wsplit);
  CHECK(why == "shape rule: few 64x64 tiles, a thin C: K split into 6 slices filling the waves");
  CHECK(mmapp::gpu_shape_rule(true, 5000, 50, 2000, 132, nullptr, false) == C::small_splitk);
  // A thin C past 1024 rows (columns) whose operands the in-loop tile would read in place (K or N
  // not a multiple of 4, C reusing the operand too little for a copy): the pre-split tile's wave
  // split (thirty-first round), but in one column of tiles (N <= 128) the in-loop wave split reading
  // them in place (fifty-first round); with aligned rows (K 7928) the in-loop tile as before; at
  // most 1024 rows and columns (68 x 213 x 15525) or K under 1024 the small-C step as before.
  CHECK(h200(6422, 79, 7926, true, &why) == C::wgmma_inplace_wsplit_a);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 5 slices filling the waves, operands split "
        "in the K loop, unaligned rows read in place (one column of tiles)");
  CHECK(h200(2730, 85, 3871, true) == C::wgmma_inplace_wsplit_a);
  CHECK(h200(6422, 129, 7926, true) != C::wgmma_inplace_wsplit_a);
  // M in one row of the 128-row tiles (thirty-second round): the in-loop wave split, reading the
  // operands in place; one column of tiles (N <= 128), the pre-split tile; from 129 rows (two rows
  // of tiles) the thin step's pre-split tile.
  // (65-80 rows take the C^T tile there since the thirty-ninth round, 81-96 since the fortieth: the
  // test below.)
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{97, 2730, 3871}, {100, 6422, 3871}, {128, 6422, 7926}, {100, 4001, 2047}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == C::wgmma_inplace_wsplit);
  }
  CHECK(h200(100, 6422, 7926, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 5 slices filling the waves, operands split "
               "in the K loop, read in place (one row of tiles: the pass would transpose B for one use)");
  // The same where the thin step (M < 512) would take the pre-split tile: K 1500 over 65-128 rows
  // in place and, since the in-loop loader's per-chunk loads (forty-first round: 112 x 6000 x 1500
  // 0.087 ms against the pre-split tile's 0.098, 100 x 6000 x 1024 0.063 against 0.071), aligned
  // operands too; 65 x 3000 x 2000 (the 80-row C^T tile) and 129 rows (two rows of tiles) keep
  // theirs. (With A copied, K not a multiple of 4: the form reading A in place, the test below.)
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{128, 6422, 1500}, {112, 6000, 1500}, {116, 3000, 3000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == C::wgmma_inplace_wsplit);
  }
  CHECK(h200(112, 6000, 1500, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 2 slices filling the waves, operands split "
               "in the K loop (one row of tiles: the pass would transpose B for one use)");
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{65, 3000, 2000}, {129, 4001, 1500}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) != C::wgmma_inplace_wsplit);
    CHECK(h200(m, n, k, true) != C::none);
  }
  // With A copied first (K not a multiple of 4 over 1024 columns or more) and B aligned: the in-loop
  // wave split reading A in place (forty-eighth round: 100 x 6000 x 1030 0.075 ms pre-split, 0.079
  // in-loop copying A, 0.069-0.070 reading it in place), where the pre-split tile (over at most 7000
  // columns and K under 1536, forty-fifth round) or the in-loop tile copying A ran before. With B
  // unaligned too (97 x 2731 x 1025) the pre-split tile stays, its pass writing both aligned.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{100, 6000, 1025},
                                                                {112, 6000, 1025},
                                                                {100, 4000, 1025},
                                                                {100, 7000, 1025},
                                                                {105, 6000, 1027},
                                                                {100, 8000, 1030},
                                                                {128, 6000, 1537}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) == C::wgmma_inplace_wsplit_a);
  }
  CHECK(h200(97, 2731, 1025, true, &why) == C::wgmma_wsplit);
  CHECK(why.find("operands split once") != std::string::npos);
  CHECK(h200(100, 6000, 1100, true) == C::wgmma_inplace_wsplit);
  // One row of tiles where the wave split leaves K whole and the split by 1024 would take another
  // wave: K whole (100 x 12000 x 1025: 94 tiles, 188 teams split; forty-fifth round); over a long K
  // the split by 1024 stays (97 x 18413 x 65127: the wave split's workspace past its cap).
  CHECK(h200(100, 12000, 1025, true, &why) == C::wgmma_inplace_wsplit);
  CHECK(why == "shape rule: 3xTF32 on wgmma, 128x128 tiles: K whole (estimated faster than split by 1024), operands "
               "split in the K loop (one row of tiles: the pass would transpose B for one use)");
  CHECK(h200(97, 18413, 65127, true, &why) == C::wgmma_splitk_inplace);
  CHECK(h200(129, 2730, 3871, true) == C::wgmma_wsplit);
  CHECK(h200(6422, 65, 7926, true) == C::wgmma_inplace_wsplit_a);
  CHECK(h200(6422, 80, 7928, true) == C::wgmma_inplace_wsplit);
  // A small C over a long K (forty-fourth round): M 65-288, N to 1024, K from 15000, the 128x128
  // tiles under half used: the C^T tile that pads M less (80 rows on a tie), K split in waves;
  // not past 288 rows (300 x 148 x 50000: the in-loop split above), at half use or more (200 x 200 x
  // 50000, 128 x 256 x 30000), nor under K 15000 (65 x 128 x 8000: the small-C step), nor where
  // the C^T tile pads M nearly as much as the 128-row tile (200 x 148 x 100000: 0.83 against 0.78).
  CHECK(h200(68, 213, 15525, true, &why) == C::wgmma_t80);
  CHECK(why.find("3xTF32 on wgmma, a small C over a long K: C^T tiles of 80 x 64") != std::string::npos);
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{80, 80, 200000}, {150, 150, 100000}, {140, 140, 300000}})
    CHECK(h200(m, n, k, true) == C::wgmma_t80);
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{260, 152, 60000}, {96, 148, 100000}, {260, 152, 20000}})
    CHECK(h200(m, n, k, true) == C::wgmma_t96);
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{
           {300, 148, 50000}, {200, 200, 50000}, {128, 256, 30000}, {65, 128, 8000}, {200, 148, 100000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k, true) != C::wgmma_t80);
    CHECK(h200(m, n, k, true) != C::wgmma_t96);
  }
  CHECK(mmapp::gpu_shape_rule(false, 68, 213, 15525, 132, nullptr, true, true, false, 4.8e12) != C::wgmma_t80);
  CHECK(h200(8000, 100, 513, true) == C::wgmma_t80);           // K under 1024, a tall thin C: the C^T tile
  CHECK(h200(3000, 100, 513, true) == C::wgmma_pre64_wsplit);  // fewer teams: the small-C step
  // Not wgmma, and the SIMT choice unchanged: K under 64 (16384^2 x 48: the teams' fixed cost);
  // K = 256 over a small C (the SIMT tile as fast); half-used tiles (64 x 4096 x 4096); GEMV-like
  // shapes. Double: the flag (the sm_90a tiles) changes only the deep 128x64 tile's shapes, to the
  // warp-specialized 128x128 one.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {16384, 16384, 48}, {64, 4096, 4096}, {4096, 64, 4096}, {8, 8192, 8192}, {8192, 1, 8192}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(false, m, n, k, true) == rule(false, m, n, k, false));
  }
  // From K 64 the pre-split tile over three waves of its tiles (thirty-third round: 8192^2 x 64 0.220 ms
  // against the SIMT tile's 0.263); over fewer, the SIMT choice (2048^2 x 64: 256 tiles).
  CHECK(rule(false, 16384, 16384, 64, true) == C::wgmma_big);
  CHECK(rule(false, 8192, 8192, 64, true) == C::wgmma_big);
  CHECK(rule(false, 5000, 4000, 80, true) == C::wgmma_big);
  CHECK(rule(false, 2048, 2048, 64, true) == rule(false, 2048, 2048, 64, false));
  CHECK(rule(false, 1000, 1000, 127, true) == rule(false, 1000, 1000, 127, false));
  CHECK(rule(true, 8192, 8192, 8192, true) == C::dmma_deep_ws_tail);
  CHECK(rule(true, 4096, 4096, 4096, true) == C::dmma_deep_ws);
  CHECK(rule(true, 8192, 8192, 8192, false) == C::dmma_deep);
  // Over a grid: the flag changes float only to a wgmma tile and double only to the warp-specialized
  // 128x128 tile (whole, tail split or streamed); neither without the flag.
  long n_wgmma = 0;
  for (const long m : {9L, 100L, 513L, 4096L, 20000L})
    for (const long n : {5L, 64L, 250L, 4096L})
      for (const long k : {31L, 1024L, 70000L}) {
        INFO(m << "x" << n << "x" << k);
        const C w = rule(false, m, n, k, true), plain = rule(false, m, n, k, false);
        const bool is_wgmma = w == C::wgmma_big || w == C::wgmma_splitk || w == C::wgmma_splitk512 ||
                              w == C::wgmma_splitk2048 || w == C::wgmma_splitk_inplace || w == C::wgmma_wsplit ||
                              w == C::wgmma_inplace_wsplit || w == C::wgmma_pre64_wsplit || w == C::tf32_small_wsplit ||
                              w == C::wgmma_t80 || w == C::wgmma_t96;
        CHECK((w == plain) != is_wgmma);
        for (const C c : {C::wgmma_big, C::wgmma_splitk, C::wgmma_splitk512, C::wgmma_splitk2048,
                          C::wgmma_splitk_inplace, C::wgmma_wsplit, C::wgmma_inplace_wsplit, C::wgmma_pre64_wsplit,
                          C::tf32_small_wsplit, C::wgmma_t80, C::wgmma_t96})
          CHECK(plain != c);
        const C dw = rule(true, m, n, k, true), dp = rule(true, m, n, k, false);
        const bool ws = dw == C::dmma_deep_ws || dw == C::dmma_deep_ws_tail || dw == C::dmma_deep_ws_sk;
        CHECK((dw == dp || (ws && dp != dw)));
        CHECK(dp != C::dmma_deep_ws);
        CHECK(dp != C::dmma_deep_ws_tail);
        CHECK(dp != C::dmma_deep_ws_sk);
        n_wgmma += is_wgmma;
      }
  CHECK(n_wgmma > 5);
}

TEST_CASE("split_wave_time: waves of teams x one team's share of its SM", "[rule]") {
  namespace rt = mmapp::rule_tiles;
  // 1500x1500x8192 double on 132 SMs, two teams per SM (264 slots): 24 x 24 = 576 64x64 tiles in
  // ceil(576 / 264) = 3 waves of K 8192; split by 1024, 8 slices of 1024: 4608 teams in 18 waves.
  CHECK(mmapp::split_wave_time(rt::kDoubleMmaSmall, 1500, 1500, 8192, 2, 132, 8) == 3.0 * 2 * 64 * 64 * 8192);
  CHECK(mmapp::split_wave_time(rt::kDoubleMmaSmallSplitK, 1500, 1500, 8192, 2, 132, 8) ==
        18.0 * 2 * 64 * 64 * 1024);
  // K = 2049 by 1024: 3 slices of splitk_chunk's 704; 9 x 17 = 153 tiles x 3 = 459 teams, 2 waves.
  CHECK(mmapp::split_wave_time(rt::kDoubleMmaSmallSplitK, 513, 1025, 2049, 2, 132, 8) == 2.0 * 2 * 64 * 64 * 704);
  // K <= the chunk: one slice of K; a partial wave costs a whole one (1 tile on 132 x 4 slots).
  CHECK(mmapp::split_wave_time(rt::kFloatSmallSplitK, 10, 10, 1000, 4, 132, 4) == 1.0 * 4 * 64 * 64 * 1000);
  // 777x1234x4321 float by 640: 7 slices of 640, 70 tiles x 7 = 490 teams, 2 waves of 264.
  CHECK(mmapp::split_wave_time(rt::kFloatBigSplitK640, 777, 1234, 4321, 2, 132, 4) == 2.0 * 2 * 128 * 128 * 640);
  // The wave split: 640x480x20000 in 7 x 5 = 35 96x96 tiles on 264 slots, 15 slices of 1344
  // (ceil(20000 / 15) = 1334 rounded up to 64): 525 teams in 2 waves.
  CHECK(mmapp::split_wave_time(rt::kDoubleMmaMidWaves, 640, 480, 20000, 2, 132, 8) == 2.0 * 2 * 96 * 96 * 1344);
}

TEST_CASE("splitk_reduce_time: the reduction's traffic in multiply-adds per SM", "[rule]") {
  // (slices + 1) partials and C of m x n elements, 6 multiply-adds per byte, over the SMs.
  CHECK(mmapp::splitk_reduce_time(777, 1234, 7, 132, 4) == Catch::Approx(6.0 * 8 * 777 * 1234 * 4 / 132));
  CHECK(mmapp::splitk_reduce_time(100, 100, 2, 100, 8) == Catch::Approx(6.0 * 3 * 100 * 100 * 8 / 100));
  // Unsplit: no reduction.
  CHECK(mmapp::splitk_reduce_time(777, 1234, 1, 132, 4) == 0.0);
  CHECK(mmapp::splitk_reduce_time(777, 1234, 0, 132, 4) == 0.0);
}

TEST_CASE("GPU shape rule with wgmma: C^T tiles for 65-96 rows against more than 1024 columns", "[rule]") {
  const auto h200 = [](long m, long n, long k, std::string* why = nullptr) {
    return mmapp::gpu_shape_rule(false, m, n, k, 132, why, true, true, true, 4.8e12);
  };
  std::string why;
  // K >= 1024, 65-80 rows (thirty-ninth round): the 80-row C^T tile, K split into the slices that fill
  // its waves of two teams per SM (65 x 6422 x 3871: 101 tiles x 5 slices on 264 slots).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{65, 6422, 7926},
                                                                {79, 6422, 15525},
                                                                {70, 6000, 20000},
                                                                {65, 4001, 1500},
                                                                {80, 4001, 1500},
                                                                {65, 8191, 1024}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k) == C::wgmma_t80);
  }
  // K >= 1024, 81-96 rows (fortieth round): the 96-row C^T tile.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {85, 2730, 3871}, {90, 7000, 1800}, {88, 6000, 1600}, {81, 2000, 1024}, {96, 20001, 9000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k) == C::wgmma_t96);
  }
  // ... from 2000 columns: below, the choice from before (the pre-split 64x128 tile's wave split).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{81, 1100, 1024}, {96, 1500, 1100}, {90, 1999, 4000}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k) != C::wgmma_t96);
    CHECK(h200(m, n, k) != C::wgmma_t80);
  }
  CHECK(h200(65, 6422, 3871, &why) == C::wgmma_t80);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, C^T tiles of 80 x 64 (C's rows as wgmma's N): K split into 5 slices "
        "filling the waves, A's unaligned rows read in place");
  // K 64-256 over more than 8192 columns: the 80- and 96-row tiles to 96 rows, the in-loop 128x128
  // tile past them (where the SIMT tiles ran before); at 8192 columns or fewer the SIMT tiles stay.
  CHECK(h200(96, 30001, 128, &why) == C::wgmma_t96);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, C^T tiles of 96 x 64 (C's rows as wgmma's N): K whole (the wave split "
        "makes one slice)");
  CHECK(h200(81, 8193, 64) == C::wgmma_t96);
  CHECK(h200(70, 20001, 256) == C::wgmma_t80);
  // A's rows unaligned (K not a multiple of 4): the same tiles, reading A in place (forty-seventh
  // round: the catalog's wgmma_t80 and wgmma_t96 are the WgmmaInPlace forms); the reason says so.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{90, 6000, 1025}, {88, 6000, 1030}, {72, 9000, 1027}}) {
    INFO(m << "x" << n << "x" << k);
    const C c = h200(m, n, k, &why);
    CHECK((c == C::wgmma_t80 || c == C::wgmma_t96));
    CHECK(why.find(", A's unaligned rows read in place") != std::string::npos);
    CHECK(h200(m, n, k + 4 - k % 4, &why) == c);
    CHECK(why.find("read in place") == std::string::npos);
  }
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {96, 4096, 64}, {81, 2000, 64}, {70, 5000, 256}, {100, 6000, 256}, {97, 3001, 250}, {128, 8192, 96}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200(m, n, k) == mmapp::gpu_shape_rule(false, m, n, k, 132, nullptr, true, true, false, 4.8e12));
  }
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{120, 12345, 64}, {128, 9109, 256}, {112, 20001, 128}}) {
    INFO(m << "x" << n << "x" << k);
    const C c = h200(m, n, k, &why);
    CHECK((c == C::wgmma_splitk_inplace || c == C::wgmma_inplace_wsplit));
    CHECK(why.find("operands split in the K loop (65-128 rows, K 64-256)") != std::string::npos);
  }
  // Not the step: K under 64 or 257-1023 (the small-C and thin steps), 97-128 rows at K >= 1024, at
  // most 1024 columns, 64 or 129 rows, double, no wgmma.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{72, 5000, 63},
                                                                {76, 1783, 465},
                                                                {100, 6000, 511},
                                                                {80, 6000, 1023},
                                                                {97, 2730, 3871},
                                                                {100, 6000, 2048},
                                                                {80, 1024, 2000},
                                                                {64, 8192, 1024},
                                                                {129, 4001, 128},
                                                                {129, 4001, 1500}}) {
    INFO(m << "x" << n << "x" << k);
    const C c = h200(m, n, k);
    CHECK(c != C::wgmma_t80);
    CHECK(c != C::wgmma_t96);
  }
  CHECK(h200(76, 1783, 465) == C::wgmma_pre64_wsplit);
  CHECK(h200(97, 2730, 3871) == C::wgmma_inplace_wsplit);
  CHECK(mmapp::gpu_shape_rule(true, 70, 6000, 20000, 132, nullptr, true, true, true, 4.8e12) != C::wgmma_t80);
  CHECK(mmapp::gpu_shape_rule(false, 70, 6000, 20000, 132, nullptr, true, true, false, 4.8e12) != C::wgmma_t80);
}

TEST_CASE("wgmma_presplit_time: waves of 128x128 teams with their fixed cost, the pass and the reduction", "[rule]") {
  namespace rt = mmapp::rule_tiles;
  // 1000 x 1000 x 8192 by 2048: 8 x 8 = 64 tiles x 4 slices of 2048 = 256 teams, 2 waves of 132;
  // the pass over A and B padded to 1024 x 8192 each, 12 bytes per element; 5 m x n float partials
  // and C; 16 multiply-adds per byte, over the SMs.
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmmaSplitK2048, 1000, 1000, 8192, 132) ==
        Catch::Approx(2.0 * 128 * 128 * (2048 + 128) + 16.0 * (12.0 * 2048 * 8192 + 5.0 * 1000 * 1000 * 4) / 132));
  // K = 2049 by 512: 5 slices of splitk_chunk's 448, 45 tiles x 5 = 225 teams in 2 waves; K padded
  // to 2080 for the pass, M to 640 and N to 1152.
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmmaSplitK512, 513, 1025, 2049, 132) ==
        Catch::Approx(2.0 * 128 * 128 * (448 + 128) + 16.0 * (12.0 * (640 + 1152) * 2080 + 6.0 * 513 * 1025 * 4) / 132));
  // Unsplit: K rounded up to 32 (300 -> 320), no reduction; 47 x 47 = 2209 tiles in 17 waves.
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmma, 6000, 6000, 300, 132) ==
        Catch::Approx(17.0 * 128 * 128 * (320 + 128) + 16.0 * 12.0 * (6016 + 6016) * 320 / 132));
  // The wave split: 1000 x 1000 x 8192 in 64 tiles on 132 slots, 2 slices of 4096 in one wave; 3
  // m x n partials' traffic (2 slices and C).
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmmaWaves, 1000, 1000, 8192, 132) ==
        Catch::Approx(1.0 * 128 * 128 * (4096 + 128) + 16.0 * (12.0 * 2048 * 8192 + 3.0 * 1000 * 1000 * 4) / 132));
  // A split that makes one slice is the unsplit tile.
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmmaSplitK2048, 3000, 3000, 2000, 132) ==
        mmapp::wgmma_presplit_time(rt::kFloatWgmma, 3000, 3000, 2000, 132));
  // A given rate of multiply-adds per byte prices the pass instead of 16 (the thin step on a device
  // with more bandwidth per SM); 16 is the default.
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmma, 6000, 6000, 300, 132, 11.0) ==
        Catch::Approx(17.0 * 128 * 128 * (320 + 128) + 11.0 * 12.0 * (6016 + 6016) * 320 / 132));
  CHECK(mmapp::wgmma_presplit_time(rt::kFloatWgmma, 6000, 6000, 300, 132, 16.0) ==
        mmapp::wgmma_presplit_time(rt::kFloatWgmma, 6000, 6000, 300, 132));
}

TEST_CASE("GPU shape rule with wgmma: below M 512 the pass is priced at the device's bandwidth per SM", "[rule]") {
  const auto rule = [](long m, long n, long k, double bandwidth, std::string* why = nullptr) {
    return mmapp::gpu_shape_rule(false, m, n, k, 132, why, true, true, true, bandwidth);
  };
  const auto presplit = [](C c) {
    return c == C::wgmma_big || c == C::wgmma_splitk || c == C::wgmma_splitk512 || c == C::wgmma_splitk2048 ||
           c == C::wgmma_wsplit;
  };
  std::string why;
  // An H100's bandwidth as CUDA reports it (2 x 2619 MHz x 5120 bits on 132 SMs, where the pass was
  // measured) or none reported: the same choices over a grid.
  const double h100 = 2.0 * 2619e6 * 5120 / 8;
  for (const long m : {9L, 100L, 129L, 150L, 300L, 513L, 4096L})
    for (const long n : {64L, 128L, 1024L, 6000L})
      for (const long k : {1025L, 8192L, 20000L, 100000L}) {
        INFO(m << "x" << n << "x" << k);
        CHECK(rule(m, n, k, h100) == rule(m, n, k, 0.0));
      }
  // An H200 (4.8 TB/s): M 129-300 with K long over 1000-6000 columns takes the pre-split tile, where
  // the H100 keeps the in-loop split (twenty-first round: 80.0-95.8% of cuBLAS SGEMM against 72.1-81.6).
  // One row of tiles (65-128 rows) keeps the in-loop split on both since the forty-first round (A
  // aligned: with A copied the H200 takes the pre-split tile since the forty-fifth, the test above).
  CHECK(rule(100, 6000, 1100, 4.8e12) == C::wgmma_inplace_wsplit);
  CHECK(rule(100, 6000, 1100, h100) == C::wgmma_inplace_wsplit);
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{145, 2000, 50000},
                                                                {150, 1024, 100000},
                                                                {140, 3000, 30000},
                                                                {180, 2048, 40000},
                                                                {190, 4096, 16384}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(m, n, k, h100) == C::wgmma_inplace_wsplit);
    CHECK(presplit(rule(m, n, k, 4.8e12, &why)));
    CHECK(why.find("(M < 512: the pass pays, by the estimates, the pass at 4.8 TB/s)") != std::string::npos);
  }
  // M >= 512 or N < 128 (the in-loop split ahead on an H200 there, fifteenth round): not the thin
  // step, the bandwidth changes nothing.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{5000, 128, 20000},
                                                                {2500, 128, 30000},
                                                                {3000, 128, 12000},
                                                                {512, 128, 8192},
                                                                {4096, 72, 8192},
                                                                {8192, 8192, 8192}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(rule(m, n, k, 4.8e12) == rule(m, n, k, 0.0));
  }
}

TEST_CASE("wgmma_inloop_split_time: 1.6 x the split tile's waves, no pass, the reduction", "[rule]") {
  // 2500 x 128 x 30000: 20 tiles x 30 slices of 1024 = 600 teams, 5 waves of 132; 31 m x n float
  // partials and C; no pass over A and B.
  namespace rt = mmapp::rule_tiles;
  CHECK(mmapp::wgmma_inloop_split_time(rt::kFloatWgmmaSplitK, 2500, 128, 30000, 132) ==
        Catch::Approx(1.6 * 5 * 128 * 128 * (1024 + 128) + 16.0 * 31.0 * 2500 * 128 * 4 / 132));
  // K within one chunk: one slice, no reduction.
  CHECK(mmapp::wgmma_inloop_split_time(rt::kFloatWgmmaSplitK, 1000, 1000, 1000, 132) ==
        Catch::Approx(1.6 * 1 * 128 * 128 * (1000 + 128)));
  // The wave split: 3000 x 128 x 12000, 24 tiles on 132 slots: 5 slices of 2432 (12000 / 5 rounded
  // up to 64) in one wave, against the split by 1024's 12 slices in 3 waves; 6 partials' traffic.
  CHECK(mmapp::wgmma_inloop_split_time(rt::kFloatWgmmaInloopWaves, 3000, 128, 12000, 132) ==
        Catch::Approx(1.6 * 1 * 128 * 128 * (2432 + 128) + 16.0 * 6.0 * 3000 * 128 * 4 / 132));
  CHECK(mmapp::wgmma_inloop_split_time(rt::kFloatWgmmaSplitK, 3000, 128, 12000, 132) ==
        Catch::Approx(1.6 * 3 * 128 * 128 * (1024 + 128) + 16.0 * 13.0 * 3000 * 128 * 4 / 132));
}

TEST_CASE("host shape rule: fewer rows than the micro-tile take the rows kernel", "[rule]") {
  std::string why = "unset";
  CHECK(mmapp::host_rule_takes_rows(1, 8, &why));
  CHECK(why == "host rule: m < 8 rows (the packed kernel's micro-tile)");
  CHECK(mmapp::host_rule_takes_rows(5, 6, &why));
  CHECK(why == "host rule: m < 6 rows (the packed kernel's micro-tile)");
  CHECK(mmapp::host_rule_takes_rows(7, 8, nullptr));
  why = "unset";
  for (const long m : {8L, 9L, 4096L}) CHECK_FALSE(mmapp::host_rule_takes_rows(m, 8, &why));
  CHECK_FALSE(mmapp::host_rule_takes_rows(1, 0, &why));  // no micro-tile: never
  CHECK(why == "unset");                                 // untouched when false
}

TEMPLATE_LIST_TEST_CASE("gpu_memory_bandwidth: 0 on host spaces, the device's peak on a GPU", "[rule]",
                        mmapp::EnabledSpaces) {
  using Space = TestType;
  const double bandwidth = mmapp::gpu_memory_bandwidth(Space());
  INFO(Space::name() << ": " << bandwidth << " B/s");
  if constexpr (mmapp::is_host_space_v<Space>) {
    CHECK(bandwidth == 0.0);
  } else {
    // CUDA reports the memory clock and bus width of every GPU: a few hundred GB/s (a workstation
    // card) to tens of TB/s; an H100 SXM 3.35e12, an H200 4.8e12. 0 would leave the rule at the H100's.
    CHECK(bandwidth > 1e11);
    CHECK(bandwidth < 1e14);
  }
}

TEMPLATE_LIST_TEST_CASE("catalog: the kernel names, and one variant per shape-rule choice", "[rule]",
                        mmapp::EnabledSpaces) {
  using Space = TestType;
  const auto check_space = [](auto zero) {
    using T = decltype(zero);
    const auto all = mmapp::kernel_variants<Space, T>();
    const auto& names = mmapp::kernel_names();
    for (const auto& v : all) CHECK(std::find(names.begin(), names.end(), v.name) != names.end());
    for (const auto& name : names) CHECK_FALSE(mmapp::variants_named<Space, T>(name).empty());
    if constexpr (!mmapp::is_host_space_v<Space>) {
      std::vector<C> chosen{C::gemv_dot, C::gemv_cols_1, C::gemv_cols_8, C::gemv_rows_1, C::small_splitk,
                            C::big, C::big_splitk, C::small, C::mid_splitk};
      if constexpr (std::is_same_v<T, float>)
        for (const C c : {C::big_splitk1024, C::big_splitk640}) chosen.push_back(c);
      if constexpr (std::is_same_v<T, double>) {
        chosen.push_back(C::gemv_rows_4);
        // The DMMA variants: all three or none (a build for sm_80 and later has them).
        const auto n_dmma = std::count_if(all.begin(), all.end(), [](const auto& v) {
          return v.rule == C::dmma_big || v.rule == C::dmma_small || v.rule == C::dmma_small_splitk;
        });
        CHECK((n_dmma == 0 || n_dmma == 3));
        if (n_dmma == 3) {
          chosen.push_back(C::dmma_big);
          chosen.push_back(C::dmma_small);
          chosen.push_back(C::dmma_small_splitk);
        }
        // The deep DMMA tiles (sm_90 on the in-tree Kokkos): all four or none, and only with the others.
        const auto n_deep = std::count_if(all.begin(), all.end(), [](const auto& v) {
          return v.rule == C::dmma_deep || v.rule == C::dmma_small_splitk_deep || v.rule == C::dmma_deep_k8 ||
                 v.rule == C::dmma_mid_splitk_deep;
        });
        CHECK((n_deep == 0 || (n_deep == 4 && n_dmma == 3)));
        if (n_deep == 4) {
          chosen.push_back(C::dmma_deep);
          chosen.push_back(C::dmma_small_splitk_deep);
          chosen.push_back(C::dmma_deep_k8);
          chosen.push_back(C::dmma_mid_splitk_deep);
        }
        // The warp-specialized tile, its tail split and Stream-K (sm_90a on the in-tree Kokkos): all
        // three or none, only with the deep tiles.
        const auto n_ws = std::count_if(all.begin(), all.end(), [](const auto& v) {
          return v.rule == C::dmma_deep_ws || v.rule == C::dmma_deep_ws_tail || v.rule == C::dmma_deep_ws_sk;
        });
        CHECK((n_ws == 0 || (n_ws == 3 && n_deep == 4)));
        if (n_ws > 0) {
          chosen.push_back(C::dmma_deep_ws);
          chosen.push_back(C::dmma_deep_ws_tail);
          chosen.push_back(C::dmma_deep_ws_sk);
        }
      } else {
        chosen.push_back(C::huge);
      }
      for (const C c : chosen) {
        INFO("rule choice " << int(c));
        CHECK(std::count_if(all.begin(), all.end(), [&](const auto& v) { return v.rule == c; }) == 1);
      }
    } else {
      CHECK(std::none_of(all.begin(), all.end(), [](const auto& v) { return v.rule != C::none; }));
    }
  };
  check_space(float(0));
  check_space(double(0));
}

namespace {
/// The double rule on an H200 (132 SMs, 4.8 TB/s) with every tensor-core tile compiled.
C h200_double(long m, long n, long k, std::string* why = nullptr) {
  return mmapp::gpu_shape_rule(true, m, n, k, 132, why, true, true, true, 4.8e12);
}
/// The float rule there, with the sm_90a tiles or (sm90a false) without them.
C h200_float(long m, long n, long k, std::string* why = nullptr, bool sm90a = true) {
  return mmapp::gpu_shape_rule(false, m, n, k, 132, why, true, true, sm90a, 4.8e12);
}
}  // namespace

TEST_CASE("GPU shape rule, double with operands read in place: the 64x64 tile split where the 128x64 tile would be",
          "[rule]") {
  std::string why;
  // Odd K (A's rows not 16-byte aligned) reused along at most 192 columns of C (not copied:
  // CopyRule::dmma; the register path) where the 128x64 tile's split fills its waves and its own
  // tiles end short, the 64x64 tiles in at most 2.5 waves of 264 slots (thirty-second round):
  // split by 1024.
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{8192, 192, 4567}, {8192, 191, 4567}, {10000, 192, 16001}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) == C::dmma_small_splitk);
  }
  CHECK(h200_double(8192, 192, 4567, &why) == C::dmma_small_splitk);
  CHECK(why ==
        "shape rule: FP64 tensor cores, 128x64 tiles would split: 64x64 tiles, K split by 1024 (operands read in place)");
}

TEST_CASE("GPU shape rule, double with odd K or N reused along 193-1023 rows or columns: copied, the deep tiles",
          "[rule]") {
  std::string why;
  // The thirty-second round's register-path shapes: A (odd K) or B (odd N) reused along more than
  // 192 rows or columns in a GEMM of at least 5e8 M·N·K is copied (CopyRule::dmma), so the deep
  // tiles' steps apply as to even K and N: where the 128x64 tile would split, the split 64x64 deep
  // tile, or the ws 128x128 tile past a wave of its tiles filled to 0.84 (kDmmaWsSplitMinUse), its
  // last wave split in K where tail_split_plan splits it (thirty-fourth round).
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{1500, 1000, 4567}, {1999, 777, 4567}, {1999, 777, 16001}, {3000, 500, 4567}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) == C::dmma_small_splitk_deep);
    CHECK(h200_double(m, n, k) == h200_double(m, n + 1, k + 1));  // as with both even
  }
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {2500, 1000, 3001}, {3000, 777, 4567}, {3000, 1000, 1025}, {6000, 500, 8191}, {6000, 777, 16001}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) == C::dmma_deep_ws_tail);
  }
  CHECK(h200_double(6000, 777, 3001, &why) == C::dmma_deep_ws_tail);
  CHECK(why ==
        "shape rule: FP64 tensor cores, 128x128x16 tiles on m16n8k16, warp-specialized (a producer warpgroup), 4 "
        "cp.async stages, the last wave's 65 tiles split into 2 K slices (128x64 tiles would split)");
  // 224 tiles of 128x128 on 132 slots: the tail (92 tiles) too full to split; the ws tile whole.
  CHECK(h200_double(4000, 777, 2049) == C::dmma_deep_ws);
  // Under a wave of 128x128 tiles (1999 x 777: 112), or C filling them to less than 0.84 (8000 x
  // 320: 189 tiles, 0.83): the split 64x64 deep tile as before. K in one slice: the 64x64 deep tile
  // up to 768; past it the ws tile where the big tile would run (329 tiles: two waves or more).
  CHECK(h200_double(1999, 777, 4568) == C::dmma_small_splitk_deep);
  CHECK(h200_double(8000, 320, 4096) == C::dmma_small_splitk_deep);
  CHECK(h200_double(6000, 777, 768) == C::dmma_small_splitk_deep);
  CHECK(h200_double(6000, 777, 1000) == C::dmma_deep_ws_tail);
  // The copy's bounds: along 192 columns, or under 5e8 M·N·K, A stays in place (the register path).
  CHECK(h200_double(4097, 192, 4097) == C::dmma_small_splitk);
  CHECK(h200_double(4097, 193, 4097) == C::dmma_small_splitk_deep_el_inplace);  // fifty-first round
  CHECK(h200_double(701, 703, 999) == C::dmma_small_reg_wsplit);
  CHECK(h200_double(1001, 1003, 999) == C::dmma_small_splitk_deep_el_inplace);
  // Left in place, K 112-768, 64x64 tiles in one wave of three per SM (396) but more than one of two
  // (264): the deep 64x64 tile, reading them in place (thirty-fifth round), their unaligned rows element
  // by element (its ElemChunks form, forty-seventh round).
  const std::vector<std::array<long, 3>> in_place{{450, 2501, 399}, {480, 2689, 377}, {2000, 601, 377},
                                                  {900, 1201, 301}, {150, 7001, 300}, {960, 1345, 112}};
  for (const auto& [m, n, k] : in_place) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k, &why) == C::dmma_small_splitk_deep_el);
    CHECK(why.find("read in place, their unaligned rows element by element") != std::string::npos);
  }
  CHECK(h200_double(640, 1283, 480) == C::dmma_small);  // 210 tiles: one wave of two per SM
  CHECK(h200_double(1700, 1001, 255) == C::dmma_big);   // 432 tiles: more than one wave of three
  CHECK(h200_double(960, 1345, 111) == C::dmma_big);    // K < 112: the register path
  // Copied by these bounds alone (under 1024 rows or columns) where the 96x96 tile would take them
  // (its split, 96x96 no emptier than 64x64): read in place; up to 2e9 M·N·K by the deep 64x64 tile
  // copying nothing (forty-eighth round), past it by the register path (900 x 901 x 9001).
  CHECK(h200_double(513, 1025, 2049) == C::dmma_small_splitk_deep_el_inplace);
  CHECK(h200_double(555, 555, 5555) == C::dmma_small_splitk_deep_el_inplace);
  CHECK(h200_double(377, 817, 3382) == C::dmma_small_splitk_deep_el_inplace);
  CHECK(h200_double(900, 901, 9001) == C::dmma_small_splitk);
  CHECK(h200_double(556, 556, 5556) == C::dmma_mid_splitk_deep);  // aligned: the 96x96 tile
  CHECK(h200_double(700, 900, 3001) == C::dmma_small_splitk_deep_el_inplace);
}

TEST_CASE("GPU shape rule, operands the tiles would copy, read in place where the copies weigh", "[rule]") {
  // Double (forty-eighth round): odd operands copied by the DMMA tiles' bounds alone (reused along
  // 193-1023 rows or columns) in GEMMs of at most 2e9 M·N·K, where the rule would take the 64x64 deep
  // tile or the 96x96 tiles: the 64x64 deep tile copying nothing (ElemChunks<Cfg, false>).
  std::string why;
  const std::string head = "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (";
  const std::string tail = "), odd operands read in place, element by element (a GEMM too small for their copies)";
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {1001, 1001, 1001}, {999, 999, 999}, {1000, 1001, 1000}, {4510, 504, 369}, {688, 2275, 436}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k, &why) == C::dmma_small_splitk_deep_el_inplace);
    CHECK(why == head + "K in one slice" + tail);
  }
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {801, 803, 2001}, {1517, 485, 1451}, {529, 485, 3688}, {869, 791, 1052}, {1001, 1001, 1995}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k, &why) == C::dmma_small_splitk_deep_el_inplace);
    CHECK(why == head + "K split by 1024" + tail);
  }
  // Not past 2e9 (1001 x 1001 x 1999: the copying tile), with both operands aligned (1001 x 1000 x
  // 1000), copied by the tiles' own bound (1500 x 1501 x 777: reused along 1500 rows and 1501
  // columns), where the copy rule copies nothing (701 x 703 x 999, under 5e8), where the rule takes
  // the 128x64 tile (2000 x 1001 x 1001) or the deep wave split (600 x 1001 x 1001), nor without the
  // deep tiles.
  CHECK(h200_double(1001, 1001, 1999) == C::dmma_small_splitk_deep);
  CHECK(h200_double(1001, 1000, 1000) == C::dmma_small_splitk_deep);
  CHECK(h200_double(1500, 1501, 777) == C::dmma_small_splitk_deep);
  CHECK(h200_double(701, 703, 999) == C::dmma_small_reg_wsplit);
  CHECK(h200_double(2000, 1001, 1001) == C::dmma_deep);
  CHECK(h200_double(600, 1001, 1001) == C::dmma_small_wsplit);
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{1001, 1001, 1001}, {513, 1025, 2049}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(mmapp::gpu_shape_rule(true, m, n, k, 132, nullptr, true, false, true, 4.8e12) !=
          C::dmma_small_splitk_deep_el_inplace);
  }

  // Float (forty-eighth round): 65-128 rows from K 1024, A copied first (K not a multiple of 4 over
  // 1024 or more columns), B aligned, where the wave split makes slices: the in-loop wave split
  // reading A in place (WgmmaInPlace).
  CHECK(h200_float(110, 6000, 1029, &why) == C::wgmma_inplace_wsplit_a);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, 128x128 tiles: K split into 2 slices filling the waves, operands split "
        "in the K loop, A's unaligned rows read in place (one row of tiles)");
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {97, 6000, 1025}, {128, 2000, 1025}, {88, 1252, 7391}, {120, 6000, 2051}, {128, 5000, 1301}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k) == C::wgmma_inplace_wsplit_a);
  }
  // Not with A aligned (K 1024), A not copied (N under 1024: the small-C step), B unaligned (N 9001:
  // the in-loop tile as before), 129 rows (two rows of tiles), K under 1024, the wave split one slice
  // (100 x 12000 x 1025: K whole), the C^T tile's rows (65 x 6000 x 1025), nor without sm_90a.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{100, 6000, 1024},
                                                                {100, 1000, 1025},
                                                                {120, 9001, 1025},
                                                                {129, 6000, 1025},
                                                                {100, 4000, 1023},
                                                                {100, 12000, 1025},
                                                                {65, 6000, 1025}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k) != C::wgmma_inplace_wsplit_a);
    CHECK(h200_float(m, n, k) != C::none);
  }
  CHECK(h200_float(110, 6000, 1029, nullptr, false) != C::wgmma_inplace_wsplit_a);
}

TEST_CASE("GPU shape rule, copies reused along few rows or columns, and one column of float tiles: read in place",
          "[rule]") {
  // Double (fifty-first round): past 2e9 M·N·K, every operand the DMMA bounds alone copy reused along
  // at most 320 rows or columns (A along N, B along M), whatever tile the rule took: the 64x64 deep
  // tile copying nothing (dmma_copies_thin).
  std::string why;
  const std::string head = "shape rule: FP64 tensor cores, 64x64 tiles at three teams per SM, 3 cp.async stages (";
  const std::string tail =
      "), odd operands read in place, element by element (copies reused along at most 320 rows "
      "or columns)";
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{3707, 194, 7611},
                                                                {194, 3707, 7611},
                                                                {2000, 200, 9999},
                                                                {300, 8191, 4096},
                                                                {256, 8191, 8192},
                                                                {200, 5001, 6000},
                                                                {6000, 300, 16001},
                                                                {4097, 320, 4097}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k, &why) == C::dmma_small_splitk_deep_el_inplace);
    CHECK(why == head + "K split by 1024" + tail);
  }
  CHECK(h200_double(20000, 300, 999, &why) == C::dmma_small_splitk_deep_el_inplace);  // the ws tile before
  CHECK(why == head + "K in one slice" + tail);
  // Not along 321 (4097 x 321 x 4097), with K and N even (nothing copied: 3707 x 194 x 7612), with
  // a copy by the tiles' own bound beside one along 194 but no copy by the DMMA bounds alone (194
  // x 3708 x 7611: A along 3708 columns, B aligned), at 2e9 M·N·K or less where the rule takes
  // the deep wave split (306 x 335 x 5024), nor without the deep tiles.
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{4097, 321, 4097}, {3707, 194, 7612}, {194, 3708, 7611}, {306, 335, 5024}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) != C::dmma_small_splitk_deep_el_inplace);
  }
  CHECK(mmapp::gpu_shape_rule(true, 3707, 194, 7611, 132, nullptr, true, false, true, 4.8e12) !=
        C::dmma_small_splitk_deep_el_inplace);

  // Float (fifty-first round): one column of 128x128 tiles (N <= 128) past 1024 rows, rows not
  // 16-byte aligned (K or N not a multiple of 4), where the wgmma step took the pre-split tile's
  // wave split: the in-loop wave split reading them in place (WgmmaInPlace). (From 512 rows N 128
  // is the pre-split step's, wgmma_presplit_choice.)
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{8000, 65, 15525},
                                                                {6422, 80, 9001},
                                                                {4000, 100, 7926},
                                                                {1500, 79, 3871},
                                                                {4000, 65, 2047},
                                                                {2000, 127, 3001}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k, &why) == C::wgmma_inplace_wsplit_a);
    CHECK(why.find("operands split in the K loop, unaligned rows read in place (one column of tiles)") !=
          std::string::npos);
  }
  // Not past one column of tiles (N 129), with aligned rows (K 7928), at most 1024 rows (1000 x 100
  // x 7926: the small-C step), nor without sm_90a.
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{6422, 129, 7926}, {6422, 80, 7928}, {1000, 100, 7926}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k) != C::wgmma_inplace_wsplit_a);
  }
  CHECK(h200_float(8000, 65, 15525, nullptr, false) != C::wgmma_inplace_wsplit_a);
}

TEST_CASE("GPU shape rule, few odd tiles over a short K read in place; a tall thin float C on the 80 x 64 C^T tile",
          "[rule]") {
  // Double (forty-ninth round): odd operands left in place where the rule takes the register
  // path's 64x64 tile with K whole, K 112-768 and at most one 64x64 tile per SM: the 64x64 deep
  // tile reading them in place (few_tiles_inplace_short).
  std::string why;
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{142, 97, 253},
                                                                {129, 127, 257},
                                                                {777, 333, 257},
                                                                {2000, 199, 401},
                                                                {68, 406, 153},
                                                                {2087, 93, 265},
                                                                {142, 97, 112},
                                                                {768, 701, 253}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k, &why) == C::dmma_small_splitk_deep_el_inplace);
    CHECK(why ==
          "shape rule: FP64 tensor cores, at most one 64x64 tile per SM over a short K: 64x64 tiles at three teams "
          "per SM, 3 cp.async stages (K in one slice), odd operands read in place, element by element");
  }
  // Not under K 112 (100 x 100 x 101, 142 x 97 x 111), over more tiles than SMs (768 x 705 x 253:
  // 144; 1500 x 401 x 601: 168), where the register path splits K in waves (142 x 97 x 768), nor
  // without the deep tiles.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {100, 100, 101}, {142, 97, 111}, {768, 705, 253}, {1500, 401, 601}, {1500, 333, 777}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) == C::dmma_small);
  }
  CHECK(h200_double(142, 97, 768) == C::dmma_small_reg_wsplit);
  CHECK(mmapp::gpu_shape_rule(true, 142, 97, 253, 132, nullptr, true, false, true, 4.8e12) == C::dmma_small);

  // Float (forty-ninth round): N 65-136, K 256-1024, the 80 x 64 C^T tile making at least a team per
  // SM, where the rule would take the SIMT tiles, or the small-C step's 64x128 wave split from K 512
  // over 1.5 teams per SM (198 on 132 SMs): that C^T tile, K split in its waves (tall_thin_t80).
  CHECK(h200_float(9000, 130, 1000, &why) == C::wgmma_t80);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, a tall thin C: C^T tiles of 80 x 64 (C's rows as wgmma's N): K split into 2 "
        "slices filling the waves");
  CHECK(h200_float(20000, 129, 301, &why) == C::wgmma_t80);
  CHECK(why ==
        "shape rule: 3xTF32 on wgmma, a tall thin C: C^T tiles of 80 x 64 (C's rows as wgmma's N): K whole (the "
        "wave split makes one slice), A's unaligned rows read in place");
  // The small-C step's shapes (9000 x 130 x 700 ... 5280 x 130 x 700: 66 x 3 teams), the SIMT
  // tiles' (9000 x 130 x 256 ... 20097 x 127 x 561).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{9000, 130, 700},
                                                                {8000, 100, 513},
                                                                {9000, 130, 512},
                                                                {9000, 130, 1024},
                                                                {5280, 130, 700},
                                                                {9000, 130, 256},
                                                                {25327, 89, 573},
                                                                {39948, 67, 900},
                                                                {20097, 127, 561}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k) == C::wgmma_t80);
  }
  // Not in place of the 128x128 wgmma tiles (9000 x 128 x 700, 6000 x 130 x 700, 9000 x 65 x 700),
  // nor of the small-C step under K 512 (9000 x 130 x 511, 14081 x 79 x 261) or 1.5 teams per SM
  // (5200 x 130 x 700: 65 x 3; 4000 x 130 x 600), nor at N 64 or 137, K 255 or 1025, nor without
  // sm_90a.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{9000, 128, 700},
                                                                {6000, 130, 700},
                                                                {9000, 65, 700},
                                                                {9000, 130, 511},
                                                                {14081, 79, 261},
                                                                {5200, 130, 700},
                                                                {4000, 130, 600},
                                                                {9000, 64, 700},
                                                                {9000, 137, 700},
                                                                {9000, 130, 255},
                                                                {9000, 130, 1025}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_float(m, n, k) != C::wgmma_t80);
    CHECK(h200_float(m, n, k) != C::none);
  }
  CHECK(h200_float(9000, 130, 700, nullptr, false) != C::wgmma_t80);
}

TEST_CASE("GPU shape rule, double with N odd and short K: the DMMA tiles, as with N even", "[rule]") {
  // C's rows take no pairs there; the DMMA tiles stage C in scratch and store whole rows (StagedC),
  // so N's parity does not move the choice (thirty-sixth round: 2000 x 3001 x 16 0.057 ms -> 0.038).
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {3229, 9109, 16}, {3229, 9109, 48}, {2000, 3001, 16}, {1500, 1501, 32}, {6000, 6001, 24}}) {
    INFO(m << "x" << n << "x" << k);
    const C odd = h200_double(m, n, k), even = h200_double(m, n + 1, k);
    CHECK(odd == C::dmma_small_splitk_deep);
    CHECK(odd == even);
  }
  CHECK(h200_double(1000, 2001, 16) == C::dmma_big);
  CHECK(h200_double(300, 20001, 16) == C::dmma_small);
}

TEST_CASE("GPU shape rule, float with C's rows not in 16-byte chunks at short K: the 3xTF32 tiles", "[rule]") {
  // The SIMT tiles store such rows element by element; the 3xTF32 tiles store pairs (N even) or
  // stage C and store whole rows (N odd) (thirty-sixth round: 2000 x 3001 x 16 0.061 ms -> 0.040;
  // thirty-seventh round: 3229 x 9109 x 32 0.179 -> 0.114 on the wgmma tile, 3229 x 9110 x 16 0.174
  // -> 0.106, 3229 x 9109 x 48 0.190 -> 0.141).
  const auto is = [](const C want, const long m, const long n, const long k, const char* text) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    CHECK(h200_float(m, n, k, &why) == want);
    CHECK(why.find(text) != std::string::npos);
  };
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{2000, 3001, 16},
                                                                {3229, 3001, 1},
                                                                {128, 46877, 7},
                                                                {6000, 1001, 16},
                                                                {1000, 9109, 8},
                                                                {1500, 1501, 32},
                                                                {1415, 1415 * 2 + 1, 32}})
    is(C::tf32_small_wsplit, m, n, k, "N odd and K <= 32: 64x64 tiles on mma.sync");
  for (const auto& [m, n, k] :
       std::vector<std::array<long, 3>>{{3229, 9109, 16}, {3229, 9109, 32}, {6000, 6001, 24}, {8000, 4001, 1}})
    is(C::wgmma_pre64_wsplit, m, n, k, "N odd and K <= 32: 64x128 tiles on wgmma");
  // N even but not a multiple of 4: staged as N odd since the forty-fourth round, the same bounds.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{3229, 9110, 16}, {8000, 4002, 8}})
    is(C::wgmma_pre64_wsplit, m, n, k, "N not a multiple of 4 and K <= 32: 64x128 tiles on wgmma");
  is(C::tf32_small_wsplit, 1500, 1502, 32, "N not a multiple of 4 and K <= 32: 64x64 tiles on mma.sync");
  is(C::wgmma_big, 3229, 9110, 48, "N not a multiple of 4 and K <= 64: 128x128 tiles on wgmma");
  {
    std::string why;
    h200_float(3229, 9110, 16, &why);
    CHECK(why.find("C staged in scratch and stored by whole rows") != std::string::npos);
  }
  // N odd, K 33-64, 6e6 cells or more: the pre-split 128x128 wgmma tile.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{3229, 9109, 48}, {2000, 3001, 64}, {2000, 3001, 33}})
    is(C::wgmma_big, m, n, k, "N odd and K <= 64: 128x128 tiles on wgmma");
  // Past those bounds (forty-fourth round), N not a multiple of 4: K <= 64 from 1e6 cells, the
  // mma.sync tile; K 65-128 from 7e5 cells, the pre-split 128x128 wgmma tile.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {2658, 917, 48}, {1200, 1201, 56}, {1500, 1502, 40}, {1999, 3001, 64}, {433, 4501, 17}, {1413, 1413, 16}})
    is(C::tf32_small_wsplit, m, n, k, "and K <= 64: 64x64 tiles on mma.sync, K split in chunks of at least 32");
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {1352, 1013, 89}, {2000, 3001, 65}, {4177, 175, 94}, {388, 3173, 118}, {5000, 301, 80}, {2000, 1502, 100}})
    is(C::wgmma_big, m, n, k, "and K <= 128: 128x128 tiles on wgmma");
  // N a multiple of 4, K past 128, fewer than 128 rows, or under 1e6 cells (K <= 64) or 7e5 (K 65-128):
  // another step's choice.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{{2000, 3004, 16},
                                                                {4096, 4096, 16},
                                                                {2000, 3001, 129},
                                                                {127, 60001, 16},
                                                                {600, 1001, 48},
                                                                {600, 1001, 100},
                                                                {185, 2923, 61}}) {
    INFO(m << "x" << n << "x" << k);
    std::string why;
    h200_float(m, n, k, &why);
    CHECK(why.find("K <= 32") == std::string::npos);
    CHECK(why.find("K <= 64") == std::string::npos);
    CHECK(why.find("K <= 128") == std::string::npos);
  }
  // Without sm_90a the SIMT rule's choice stands.
  CHECK(h200_float(2000, 3001, 16, nullptr, false) != C::tf32_small_wsplit);
  CHECK(h200_float(3229, 9109, 16, nullptr, false) != C::wgmma_pre64_wsplit);
  CHECK(h200_float(3229, 9109, 48, nullptr, false) != C::wgmma_big);
}

TEST_CASE("GPU shape rule, double with K <= 47: the deep DMMA tiles, the 128x64 one on m16n8k8 in one wave", "[rule]") {
  std::string why;
  // Short K over a large C: the 64x64 deep tile at three teams per SM (thirty-fifth round: 4096^2 x
  // 16 0.049 ms against the 128x64 tile's 0.056; 3000 x 5000 x 48 0.060 against 0.074).
  const std::vector<std::array<long, 3>> short_k{{4096, 4096, 32},   {5793, 4148, 46}, {3000, 6000, 47},
                                                 {16384, 16384, 16}, {2000, 2000, 40}, {1000, 1000, 32}};
  for (const auto& [m, n, k] : short_k) {
    INFO(m << "x" << n << "x" << k);
    CHECK(h200_double(m, n, k) == C::dmma_small_splitk_deep);
  }
  // The 128x64 tiles in one wave (256 on 264 slots), the 64x64 ones in two (512 on 396): the 128x64
  // tile, on m16n8k8, whose epilogue stores accumulator pairs (thirty-third round).
  CHECK(h200_double(128, 16384, 32, &why) == C::dmma_deep_k8);
  CHECK(why.find("m16n8k8") != std::string::npos);
  CHECK(h200_double(200, 8192, 40) == C::dmma_deep_k8);
}

TEST_CASE("GPU shape rule, float with C's rows not in 16-byte chunks, K 33-64, a small C: the block-tiled 64x64x8 tile",
          "[rule]") {
  // Where the SIMT steps end at the warp-tiled 64x64 tile (forty-fifth round: 185 x 2923 x 61 0.028
  // ms on it against 0.020 on the block-tiled tile, `tile: auto`), with or without the sm_90a tiles.
  std::string why;
  for (const bool sm90a : {true, false})
    for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
             {185, 2923, 61}, {150, 3001, 61}, {200, 2501, 50}, {1261, 77, 55}, {1292, 163, 38}, {100, 102, 33}}) {
      INFO(m << "x" << n << "x" << k << (sm90a ? " sm90a" : ""));
      CHECK(mmapp::gpu_shape_rule(false, m, n, k, 132, &why, true, true, sm90a, 4.8e12) == C::basic_small);
      CHECK(why == "shape rule: N not a multiple of 4, K 33-64: 64x64x8 tiles of the block-tiled kernel, 4x4 per "
                   "thread");
    }
  // Not with N a multiple of 4, K under 33 or over 64, 1e6 cells or more, nor for double.
  for (const auto& [m, n, k] : std::vector<std::array<long, 3>>{
           {185, 2924, 61}, {134, 617, 16}, {185, 2923, 32}, {185, 2923, 65}, {1000, 1001, 48}}) {
    INFO(m << "x" << n << "x" << k);
    CHECK(mmapp::gpu_shape_rule(false, m, n, k, 132, nullptr, true, true, true, 4.8e12) != C::basic_small);
    CHECK(mmapp::gpu_shape_rule(false, m, n, k, 132, nullptr, true, true, false, 4.8e12) != C::basic_small);
  }
  CHECK(mmapp::gpu_shape_rule(true, 185, 2923, 61, 132, nullptr, true, true, true, 4.8e12) != C::basic_small);
  CHECK(mmapp::gpu_shape_rule(true, 185, 2923, 61, 132, nullptr, false, false, false, 4.8e12) != C::basic_small);
}
