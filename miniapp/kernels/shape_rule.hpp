// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// shape_rule.hpp — the shape rules that choose a kernel's default variant
// from the problem alone, as pure functions: no Kokkos, no execution-space
// query, so the host CI tests every class they tell apart
// (tests/test_shape_rule.cpp). The catalog (kernels/catalog.hpp,
// default_variant) asks the space for its SM count, calls the rule and maps
// its choice to the variant tagged with it (KernelVariant::rule). Kokkos
// Kernels' KokkosBlas3_gemm_spec.hpp plays the same part there: which path
// for which types and sizes, apart from the kernels themselves.
// Measured basis of every threshold: docs/performance.md ("The shape rule").
#pragma once

#include <cstddef>
#include <string>

namespace mmapp {

/// What the GPU shape rule (gpu_shape_rule) chooses for `tiled`: one variant
/// of the GPU catalog per value (kernels/gpu/catalog_gpu.hpp tags it).
/// Tiles are block M x N x K / per-thread M x N; "split" = K split into
/// chunks whose partial tiles are summed in a fixed order (splitk.hpp).
enum class GpuRuleChoice {
  none,          ///< not a choice of the rule (variants the rule never picks)
  gemv_dot,      ///< M = N = 1: gemv_dot, K split by 8192
  gemv_cols_1,   ///< M = 1: gemv_cols, one row, K split by 256
  gemv_cols_8,   ///< M <= 8 (double: M <= 16): gemv_cols, groups of 8 rows, K split by 256
  gemv_rows_1,   ///< N = 1: gemv_rows, K split by 2048
  gemv_rows_4,   ///< double, N <= 4: gemv_rows, 4 rows per team member
  small_splitk,  ///< the small tile, K split by 1024
  huge,          ///< float 128x256x8 / 8x16, one 256-thread team per SM
  big,           ///< float 128x128x8 / 8x8, double 64x128x8 / 8x8
  big_splitk,    ///< the big tile, K split by 4096
  mid_splitk,    ///< double 96x96x8 / 8x6, float 96x96x16 / 4x12 (192-thread teams), K split by 1024
  small,         ///< float 64x64x16 / 4x8, double 64x64x8 / 8x4
  dmma_big,      ///< double on FP64 tensor cores (gemm_tiled_mma): 128x64x8, warps 64x32 (sm_90: m16n8k4)
  dmma_small,    ///< double on FP64 tensor cores: 64x64x16, warps 32x32 (sm_90: m16n8k8)
  dmma_small_splitk,  ///< the DMMA small tile, K split by 1024
  dmma_deep,     ///< dmma_big's 128x64 tile with BK 16 through 3 cp.async stages (85.5 KiB of scratch)
  dmma_small_splitk_deep,  ///< dmma_small_splitk's tile through 3 cp.async stages (55.5 KiB), three teams per SM
  dmma_deep_k8,  ///< dmma_deep's tile on m16n8k8 (short K)
  dmma_mid_splitk_deep,    ///< 96x96x8 DMMA, warps 48x32, 4 cp.async stages (61.0 KiB), K split by 1024
  big_splitk1024,  ///< float: the big tile, K split by 1024
  big_splitk640,   ///< float: the big tile, K split by 640
  wgmma_big,     ///< float at FP32 accuracy on wgmma (3xTF32, sm_90a): 128x128x32, two warpgroups, operands pre-split
  wgmma_splitk,  ///< wgmma_big's tile, K split by 1024
  wgmma_splitk512,   ///< wgmma_big's tile, K split by 512
  wgmma_splitk2048,  ///< wgmma_big's tile, K split by 2048
  wgmma_splitk_inplace,  ///< the 128x128 wgmma tile split by 1024, splitting operands in the K loop
  wgmma_wsplit,      ///< wgmma_big's tile, K split into the slices that fill its waves (chunks >= 256)
  dmma_mid_wsplit,   ///< dmma_mid_splitk_deep's tile, K split into the slices that fill its waves
  dmma_deep_wsplit,  ///< dmma_deep's tile, K split into the slices that fill its waves
  wgmma_inplace_wsplit,  ///< wgmma_splitk_inplace's tile, K split into the slices that fill its waves (chunks >= 256)
  dmma_deep_ws,  ///< double 128x128x16, warps 64x32, m16n8k16, 4 cp.async stages, warp-specialized (sm_90a), 1 team/SM
  dmma_deep_ws_tail,  ///< dmma_deep_ws's tile, the partial last wave's tiles split in K (TailSplit)
  dmma_deep_ws_sk,    ///< dmma_deep_ws's tile, the partial last (or lone) wave streamed (StreamK, stream_k.hpp)
  dmma_small_wsplit,  ///< dmma_small_splitk_deep's tile, K split into the slices that fill its waves (chunks >= 128)
  dmma_small_reg_wsplit,  ///< dmma_small's register-path tile (operands read in place), K split as dmma_small_wsplit
  dmma_small_deep,    ///< dmma_small_splitk_deep's tile unsplit (three teams per SM, 3 cp.async stages)
  wgmma_pre64_wsplit,  ///< float 3xTF32 on wgmma, 64x128x32 pre-split, one team per SM, K split as dmma_small_wsplit
  tf32_small_wsplit,   ///< float 3xTF32 on mma.sync, 64x64x16, three teams per SM, K split as dmma_small_wsplit
  small_wsplit,        ///< float: the small tile, K split into the slices that fill its waves (chunks >= 256)
  // The C^T tiles (thirty-ninth round).
  wgmma_t80,  ///< float 3xTF32 on wgmma, C^T tile of 80 rows x 64 (wgmma N = 80), two teams per SM, K split in waves
  wgmma_t96,  ///< the same, 96 rows
  basic_small,  ///< float: the block-tiled kernel (tiled_gpu.hpp), 64x64x8, 4x4 per thread (256 threads)
  // Operands read in place with rows not 16-byte aligned, copied element by element through the
  // cp.async tiles' interior and edge paths (ElemChunks, tiled_gpu_mma.hpp; forty-seventh round).
  dmma_small_splitk_deep_el,  ///< dmma_small_splitk_deep's tile, unaligned operands' chunks element by element
  dmma_mid_wsplit_el,         ///< dmma_mid_wsplit's tile, unaligned operands' chunks element by element
  // Operands the tiles would copy, read in place instead where the copies' launches weigh
  // (forty-eighth round).
  dmma_small_splitk_deep_el_inplace,  ///< dmma_small_splitk_deep_el's tile copying no operand (ElemChunks<Cfg, false>)
  wgmma_inplace_wsplit_a,  ///< wgmma_inplace_wsplit's tile reading an unaligned A in place, no copy (WgmmaInPlace)
};

/// A block tile the GPU rule reasons about: BM x BN elements of C per team,
/// and the K chunk of its split form (0: not split); with `waves`, K split
/// into the slices that fill the teams' waves, chunks of at least split_kc
/// (splitk.hpp, WaveSplit and splitk_wave_slices). The GPU catalog's
/// configurations (kernels/gpu/catalog_gpu.hpp) are checked against these at
/// compile time, so the rule and the kernels it names cannot drift apart.
struct RuleTile {
  int bm, bn, split_kc;
  bool waves = false;
};

/// The tiles of gpu_shape_rule, per dtype.
namespace rule_tiles {
inline constexpr RuleTile kFloatHuge{128, 256, 0};
inline constexpr RuleTile kFloatBig{128, 128, 0};
inline constexpr RuleTile kFloatBigSplitK{128, 128, 4096};
inline constexpr RuleTile kFloatBigSplitK1024{128, 128, 1024};
inline constexpr RuleTile kFloatBigSplitK640{128, 128, 640};
inline constexpr RuleTile kFloatSmall{64, 64, 0};
inline constexpr RuleTile kFloatSmallSplitK{64, 64, 1024};
/// Teams per SM of the float small tile (its launch bounds: catalog_gpu.hpp's FloatSmall).
inline constexpr long kFloatSmallTeamsPerSm = 4;
inline constexpr RuleTile kFloatMidSplitK{96, 96, 1024};
inline constexpr RuleTile kDoubleBig{64, 128, 0};
inline constexpr RuleTile kDoubleBigSplitK{64, 128, 4096};
inline constexpr RuleTile kDoubleMidSplitK{96, 96, 1024};
inline constexpr RuleTile kDoubleSmall{64, 64, 0};
inline constexpr RuleTile kDoubleSmallSplitK{64, 64, 1024};
inline constexpr RuleTile kDoubleMmaBig{128, 64, 0};
inline constexpr RuleTile kDoubleMmaSmall{64, 64, 0};
inline constexpr RuleTile kDoubleMmaSmallSplitK{64, 64, 1024};
inline constexpr RuleTile kDoubleMmaMidSplitK{96, 96, 1024};
inline constexpr RuleTile kDoubleMmaBigSplitK{128, 64, 1024};
inline constexpr RuleTile kDoubleMmaWs{128, 128, 0};
/// K tile, teams per SM and pipeline stages of the warp-specialized tile (kDoubleMmaWs), as the
/// rule plans its tail split (tail_split_plan) and Stream-K (stream_k_plan) the way the kernel does.
inline constexpr int kDmmaWsKTile = 16;
inline constexpr long kDmmaWsTeamsPerSm = 1;
inline constexpr int kDmmaWsStages = 4;
inline constexpr RuleTile kFloatWgmma{128, 128, 0};
inline constexpr RuleTile kFloatWgmmaSplitK{128, 128, 1024};
inline constexpr RuleTile kFloatWgmmaSplitK512{128, 128, 512};
inline constexpr RuleTile kFloatWgmmaSplitK2048{128, 128, 2048};
/// Teams per SM of the DMMA tiles (their launch bounds on sm_90: catalog_gpu.hpp), as the rule's
/// gates count them; the split 64x64 deep tile runs three since the twelfth round (the gates,
/// fitted at two, are unchanged).
inline constexpr long kDmmaTeamsPerSm = 2;
/// Teams per SM of the split 64x64 deep DMMA tile (dmma_small_splitk_deep: catalog_gpu.hpp's
/// DoubleMma16k8Cp3SmallDeepSplitKLb3), as step 5's choice against the 96x96 tile counts them.
inline constexpr long kDmmaSmallDeepTeamsPerSm = 3;
inline constexpr RuleTile kFloatWgmmaWaves{128, 128, 256, true};
/// The in-loop split tile with K split into the slices that fill its waves (wgmma_inplace_wsplit).
inline constexpr RuleTile kFloatWgmmaInloopWaves{128, 128, 256, true};
inline constexpr RuleTile kDoubleMmaMidWaves{96, 96, 256, true};
inline constexpr RuleTile kDoubleMmaBigWaves{128, 64, 256, true};
/// The 64x64 DMMA tiles with K split into the slices that fill their waves in chunks of at least
/// 128 (dmma_small_wsplit at kDmmaSmallDeepTeamsPerSm teams per SM, dmma_small_reg_wsplit at
/// kDmmaTeamsPerSm), and the deep one unsplit (dmma_small_deep).
inline constexpr RuleTile kDoubleMmaSmallWaves{64, 64, 128, true};
inline constexpr RuleTile kDoubleMmaSmallDeep{64, 64, 0};
/// The pre-split 3xTF32 wgmma tile 64 rows high (wgmma_pre64_wsplit; one team per SM, two where
/// each team takes one K tile: GpuWgmmaTile::one_tile_scratch) and the
/// 3xTF32 mma.sync 64x64 tile (tf32_small_wsplit; kFloatTf32SmallTeamsPerSm), K split into the
/// slices that fill their waves, in chunks of at least 128 and 32 (forty-fourth round).
inline constexpr RuleTile kFloatWgmmaPre64Waves{64, 128, 128, true};
inline constexpr RuleTile kFloatTf32SmallWaves{64, 64, 32, true};
/// The float SIMT small tile with K split into the slices that fill its waves in chunks of at
/// least 256 (small_wsplit; kFloatSmallTeamsPerSm teams per SM).
inline constexpr RuleTile kFloatSmallWaves{64, 64, 256, true};
inline constexpr long kFloatTf32SmallTeamsPerSm = 3;
/// The C^T tiles (wgmma_t80, wgmma_t96): 80 and 96 rows of C by 64 columns, K split into the
/// slices that fill their waves in chunks of at least 256, at kFloatWgmmaRowsNTeamsPerSm teams per SM.
inline constexpr RuleTile kFloatWgmmaT80{80, 64, 256, true};
inline constexpr RuleTile kFloatWgmmaT96{96, 64, 256, true};
inline constexpr long kFloatWgmmaRowsNTeamsPerSm = 2;
}  // namespace rule_tiles

/// The GPU shape rule for `tiled`: the variant for an m x n x k problem
/// (C m x n, A m x k, B k x n; each >= 1) of float (is_double false) or double
/// on a device with `sm_count` multiprocessors (>= 1). When `why` is not
/// null it receives the reason for the report's `selection`, "shape rule:
/// ...". In order (tiles x slices count teams; slices from splitk_slices):
///  0. M = N = 1: gemv_dot;
///  1. M <= 8, or double M <= 16: gemv_cols (M = 1: the one-row form);
///  2. N = 1: gemv_rows; double N <= 4: gemv_rows, 4 rows per member;
///     N <= 8: the small tile split by 1024;
///  3. float: the 128x256 tile when M*N fills at least 3/4 of its tiles,
///     the tiles fill their waves (tiles / (ceil(tiles / sms) * sms)) to at
///     least 90% and K >= 512;
///  4. where M*N fills at least half of the big tiles: the big tile when
///     there are at least `sms` (float) / 2*`sms` (double) of them (but
///     step 5's split tile where split_wave_time estimates it at most 0.65
///     of the big tile's time at two teams per SM: ragged waves; and, float,
///     the 64x64 tile where M*N fills less than 3/4 of the big tiles and
///     split_wave_time estimates its waves at most 0.8 of theirs); else the
///     big tile split by 4096 when its tiles x slices reach that count and
///     1.5*`sms`. Float, before these: the big tile split by 1024 or 640
///     (the chunk of least split_wave_time + splitk_reduce_time, at one
///     team per SM where the teams are no more than the SMs; 1024 on a
///     tie) when K splits, M*N fills at least 3/4 of the big tiles and its teams (tiles
///     x slices) fill their waves of 2*`sms` to at least 85%, where the
///     unsplit big tiles (at least `sms`, at most two waves) fill theirs to
///     less than 80%, or are fewer than `sms` and the split by 4096 makes
///     too few teams or fills its waves to less than 85%;
///  5. fewer 64x64 tiles than SMs (float: than kFloatSmallTeamsPerSm x
///     SMs, the slots of its teams), and K long enough to split by 1024: the
///     96x96 tile split by 1024 when its tiles cover no more cells than the
///     64x64 ones (tiles x 96^2 <= tiles x 64^2: 96x96, 80x80, 96x200,
///     160x160, 192x192; not 100x100, 64x64 or 128x128) and its tiles x
///     slices make more teams than tiles and at least `sms` (below one
///     team per SM the 96x96 team's 2.25x work per slice sets the time);
///     else the small tile split by 1024;
///  6. otherwise the small tile, or step 5's split tile where
///     split_wave_time estimates it at most 0.8 of the small tile's time
///     (ragged waves).
/// With `tensor_cores` (the catalog has the DMMA variants: a CUDA build for
/// sm_80 or later), double shapes past steps 0-2 take the FP64 tensor
/// cores instead of steps 4-6: the 128x64 DMMA tile where M*N fills at
/// least half of its tiles, there are at least `sms` of them and their
/// waves take at most 10% longer than the 64x64 tile's (dmma_wave_time;
/// the 10%: the estimate's spread, so that large squares, where the two
/// differ by a partial wave, keep the big tile); else the
/// 64x64 DMMA tile split by 1024 when K splits and it has fewer tiles than
/// its team slots (two per SM) or ragged waves (split_wave_time of the split
/// at most 0.8 of the unsplit tile's); else the 64x64 DMMA tile. With `deep_tiles` as well (the
/// catalog has the cp.async tiles past 48 KiB of scratch: an sm_90 build
/// on the in-tree Kokkos), the big tile and the split small tile are
/// their deep forms (dmma_deep, dmma_small_splitk_deep: three teams per
/// SM), and before the big tile, where the big tile would split (K splits,
/// M*N fills at least 90% of the 128x64 tiles, their teams split by 1024 fill
/// their waves of 2*`sms` to at least 90%, and the unsplit tiles are fewer
/// than `sms`, or than 90% of the slots, or fill their waves to less than
/// 80%), the split 64x64 deep tile (dmma_small_splitk_deep), but with
/// `sm90a`, K >= kDmmaWsMinK and more 128x128 tiles than `sms` that C fills
/// to at least kDmmaWsSplitMinUse (0.84), the warp-specialized 128x128 tile
/// below (its tail split where tail_split_plan splits), and where the
/// split by 1024 makes at least 16 slices over 128x64 tiles taking at most
/// 1/32 of the slots (long K over very few tiles) the 128x64 tile with K
/// split into the slices that fill its waves (dmma_deep_wsplit); where the big
/// tile would run with K <= 768 (one slice), the 64x64 deep tile unless the
/// 128x64 tiles fit one wave of 2*`sms` slots and the 64x64 ones take more
/// than one of 3*`sms` (there the big one, on m16n8k8 (dmma_deep_k8) when K
/// <= 128); and with `sm90a` (the catalog has
/// the sm_90a tiles) where the big deep tile would run, K >= kDmmaWsMinK
/// (769) and the 128x128 tiles fill at least kDmmaWsMinWaves (2) waves of
/// `sms`, the warp-specialized 128x128 tile (dmma_deep_ws: one team per SM,
/// a producer warpgroup, per-stage mbarriers, m16n8k16), with the tail split
/// (dmma_deep_ws_tail) where tail_split_plan splits its last wave's tiles on
/// `sms` slots; before all these (sm_90a, deep), where the 128x128 tiles
/// cover C exactly (M and N multiples of 128), K in 4096-16384 and
/// the tiles are fewer than kDmmaSkMaxWaves (4) waves, that tile with the
/// tail split where tail_split_plan splits, else with its last (or lone)
/// wave streamed (dmma_deep_ws_sk) where stream_k_plan streams in runs of
/// at most half a tile's K loop; and where step 5's test takes
/// the 96x96 tile (its cells up to 5% more than the 64x64 tiles': the
/// DMMA 96x96 tile's warps run more MMAs per step) the split 64x64 DMMA tile gives way to the 96x96x8 DMMA
/// tile split by 1024 (dmma_mid_splitk_deep, unless its teams fill a wave
/// of two per SM and the split 64x64 deep tile's waves at
/// kDmmaSmallDeepTeamsPerSm are estimated (split_wave_time) at most 0.92 of
/// its own: then that tile; where the
/// split by 1024 makes at least 16 slices over tiles taking at most a
/// quarter of the slots and the slices that fill its waves fill two or
/// more, split into those: dmma_mid_wsplit; without `deep_tiles`, the
/// split 64x64 DMMA tile as before); the deep forms only where A's and B's
/// rows are 16-byte aligned (K, N even) or the kernel copies them to aligned
/// ones (operand_copied<double, CopyRule::dmma>, aligned_operands.hpp: C
/// reuses the copy enough), but not where an operand copied by those bounds
/// alone (under kOperandCopyMinReuse) would go to the 96x96 DMMA tile: the
/// register-path steps then, as in place; and where operands stay in place,
/// K is 112-768 and the 64x64 tiles fill one wave of 3*`sms` but more than
/// one of 2*`sms`, the 64x64 deep tile reading them in place; and there, over
/// 65-192 rows of C that 96-row tiles pad no more than 64-row ones, N >= 4096
/// and K >= 700 (two rows of those tiles under K 2048: at least `sms` tiles;
/// 65-80 rows: from K 256 over at least `sms` tiles), the deep 96x96 tile with
/// K split into the slices that fill its waves, reading them in place
/// (forty-fourth to forty-sixth rounds); past that step, over
/// 97-192 rows, N >= 4096 and K 256-768, where the rule would take the
/// register path's 64x64 tile, the 64x64 deep tile reading them in place
/// (forty-sixth round). Those three in-place steps take the tiles' ElemChunks
/// forms, which copy the unaligned operand's chunks element by element
/// (dmma_small_splitk_deep_el, dmma_mid_wsplit_el; forty-seventh round). Operands copied by the
/// DMMA bounds alone (under kOperandCopyMinReuse) in a GEMM of at most 2e9 M·N·K, where the rule
/// would take the 64x64 deep tile or the 96x96 tiles: the 64x64 deep tile copying nothing, reading
/// them element by element (dmma_small_splitk_deep_el_inplace; forty-eighth round); past 2e9 the
/// same tile wherever each operand so copied is reused along at most 320 rows or columns of C,
/// whatever tile the rule would take (fifty-first round, one H100). Operands left in
/// place where the rule would take the register path's 64x64 tile with K whole, K 112-768 and at most
/// one such tile per SM: that deep tile copying nothing (forty-ninth round). The SIMT steps ask for no
/// alignment: the SIMT tiles copy such operands where the copy pays and
/// read them in place elsewhere, as the register-path DMMA tiles do. Which instruction
/// and K tile each takes is the catalog's; measured against the SIMT
/// choices and cuBLAS in docs/performance.md ("Tensor cores (issue 21)").
/// Float keeps the SIMT kernels (3xTF32 on mma.sync does not beat them),
/// except with `sm90a` (the catalog has the sm_90a tiles, for float 3xTF32
/// on wgmma: an sm_90a build on the in-tree Kokkos; the deck allows tensor cores), where float
/// shapes past steps 0-2 take 3xTF32 on wgmma (one team per SM). Where
/// M >= kWgmmaPresplitMinM and N >= kWgmmaPresplitMinN (512, 128), on
/// operands split once per GEMM (any alignment: the pass reads elements):
/// of the 128x128 tile whole, split by 512, 1024 and 2048 and split into
/// the slices that fill its waves (wgmma_wsplit), the one of
/// least wgmma_presplit_time (a split only where its estimate is at most
/// kWgmmaSplitGain, 0.9, of the whole tile's), when K >= 128 (or K >= 64 over
/// at least 3 x `sms` 128x128 tiles) and m n k / (sms x that time) >= 0.2,
/// but the in-loop split tile below where the operands
/// allow it and wgmma_inloop_split_time is at most kSplitWaveGain of that
/// time (the pass over a large A or B would cost more; 0.95 of it where
/// N <= 128, one column of tiles: there the pre-split tile's reads of A's
/// two parts weigh most per flop; there also the in-loop wave split where
/// its estimate is at most 0.8 of that time); else the SIMT steps. The in-loop split
/// tile splits K into the slices that fill its waves (wgmma_inplace_wsplit)
/// wherever that split makes slices (its workspace within kSplitKMaxBytes),
/// else by 1024 (wgmma_splitk_inplace).
/// Below M 512 (N >= 128, K > 1024), the pre-split tile of least estimate
/// (as above, the K bound and efficiency >= 0.2; its pass at `mem_bandwidth`,
/// the device's memory bandwidth in bytes per second, per SM, against an
/// H100's 3.35e12 (2 x 2619 MHz x 5120 bits) on 132 SMs; 0: as on the
/// H100) where the in-loop split the step below would take is estimated at
/// least kThinPresplitInloopRatio (0.92) of its time. Else, below those M and N, splitting
/// in the K loop where the operands' rows are 16-byte aligned or copied
/// (operand_aligned_or_copied), split tile only (as above): when K > 1024,
/// M*N fills the 128x128 tiles at least kWgmmaSplitUseRatio (0.6) as full as the
/// fullest float SIMT tile (64x64, 96x96, 128x128) fills its own, and either
/// the split by 1024's teams fill at least two waves or the wave split's
/// at least one, to at least kWgmmaSplitMinFill, that split estimated by
/// split_wave_time (with splitk_reduce_time) at most kSplitWaveGain of the
/// unsplit tile's time; else the SIMT steps. Measured against the SIMT choices and cuBLAS SGEMM
/// in docs/performance.md ("Tensor cores", eighth to tenth, sixteenth and twentieth rounds).
/// Small C (thirtieth round; shape_rule.cpp's comments give the figures): with `deep_tiles`,
/// double with M, N > 16 and K 257-16384, before the deep and split steps above, where the 64x64
/// tiles split by 1024 make fewer teams than a wave (three per SM; on the register path, operands
/// read in place: fewer tiles than two per SM), the 64x64 tile with K split into the slices that
/// fill its waves in chunks of at least 128 (dmma_small_wsplit, dmma_small_reg_wsplit) where
/// splitk_wave_slices' estimate (waves x (slice + kSplitTeamOverheadK), and a team's fixed cost
/// more for the sum of the slices) is at most 0.8 (register path: 0.9) of the split by 1024's
/// (unsplit where K <= 1024); and where K splits over neither few tiles nor ragged waves,
/// the deep 64x64 tile unsplit at three teams per SM (dmma_small_deep) instead of the register
/// path's; on the register path, where the 128x64 tile would split (as the deep tiles' step tests)
/// and the 64x64 tiles fill at most 2.5 waves of two per SM, the 64x64 tile split by 1024
/// (dmma_small_splitk; thirty-second round). With `sm90a`, float with M and N 17-1024 (or a thin C: one of them past
/// 1024, the other past 64; thirty-first round) and K >= 257 that wgmma_choice declines, where the SIMT 64x64 tiles
/// split by 1024 make fewer teams than their slots: 3xTF32 with K split into the slices that fill the waves, on the
/// mma.sync 64x64 tile in chunks of at least 32 (tf32_small_wsplit) below 4.8e7 multiply-adds (or, M and N to
/// 1024, below 8.5e7 with K to 1536, and from K 192; forty-fourth round), else on the pre-split 64x128
/// wgmma tile in chunks of at least 128 (wgmma_pre64_wsplit). Thin float C (thirty-first round): with `sm90a`,
/// past 1024 rows (columns)
/// and K >= 1024 with operands the in-loop wgmma tile would read in place, the pre-split 128x128
/// tile's wave split (wgmma_wsplit), or where M <= 128 the in-loop tile's (thirty-second round); 17-64 columns (rows)
/// against more than 1024 rows (columns), where step 5 splits the 64x64 tile, that tile with K split into the slices
/// that fill its waves in chunks of at least 256 (small_wsplit). Float with N not a multiple of 4 (C's rows not in
/// 16-byte chunks, which the SIMT tiles then store element by element), at least 128 rows, with `sm90a`
/// (thirty-sixth, thirty-seventh and forty-fourth rounds): the 3xTF32 tiles, which store C through scratch by
/// whole rows. K <= 32 and 2e6 cells of C: from 1.5e7 cells the pre-split 64x128
/// wgmma tile (wgmma_pre64_wsplit), else the mma.sync 64x64 tile (tf32_small_wsplit; one slice); K
/// 33-64, from 6e6 cells: the pre-split 128x128 wgmma tile (wgmma_big); past those (forty-fourth round), K <= 64
/// from 1e6 cells the mma.sync 64x64 tile, K 65-128 from 7e5 cells the pre-split 128x128 tile. Float C of 65-128 rows
/// against more than 1024 columns, with `sm90a`, before every step above but the GEMV-like ones
/// (thirty-ninth round): K 64-256 over more than 8192 columns, the C^T tiles (C's rows as wgmma's
/// N, K split into the slices that fill their waves of two teams per SM) of 80 rows to M 80
/// (wgmma_t80) and of 96 to M 96 (wgmma_t96), past that the in-loop 128x128 tile
/// (wgmma_inplace_wsplit or wgmma_splitk_inplace); K >= 1024, the 80-row C^T tile to M 80 and the
/// 96-row one to M 96 (fortieth round); the C^T tiles read an A of unaligned rows (K not a multiple of 4)
/// in place, never copying it (forty-seventh round). Then (forty-fourth round), float with `sm90a`, M 65-288, N to
/// 1024, K from 15000 and the 128x128 tiles covering C to less than half: the C^T tile of 80 or 96 rows, whichever pads
/// M less (where its use of M is at least 1.2 times the 128-row tile's), K split in waves. Float C of 65-128 rows with
/// K >= 1024 where the thin step above would take the pre-split tile (forty-first round): the in-loop 128x128 tile, but
/// for A copied first (K not a multiple of 4) over at most 7000 columns with K under 1536 (forty-fifth round); that
/// in-loop tile with K whole where the wave split leaves K whole and the split by 1024 is estimated slower (waves x
/// (slice + kSplitTeamOverheadK)). Where the wgmma steps take a tile for such a C (65-128 rows, K >= 1024) with A
/// copied first (K not a multiple of 4, N >= 1024), B aligned and the in-loop wave split making slices: that wave split
/// reading A in place, no copy (wgmma_inplace_wsplit_a; forty-eighth round); and where the wgmma step would take the
/// pre-split tile's wave split for rows not 16-byte aligned over one column of tiles (N <= 128), that wave split
/// reading them in place too (fifty-first round, one H100). Float with N not a multiple of 4, K 33-64 and C under 1e6
/// cells, where the SIMT steps end at the 64x64 tile: the block-tiled kernel's 64x64x8 tile, 4x4 per thread
/// (basic_small; forty-fifth round). Float with `sm90a`, N 65-136, K 256-1024 and the 80 x 64 C^T tile making at least
/// a team per SM (forty-ninth round): that tile, K split in its waves (wgmma_t80), where the rule would take the SIMT
/// tiles, or the small-C step's 64x128 wave split from K 512 over at least 1.5 of those teams per SM.
GpuRuleChoice gpu_shape_rule(bool is_double, long m, long n, long k, long sm_count, std::string* why,
                             bool tensor_cores = false, bool deep_tiles = false, bool sm90a = false,
                             double mem_bandwidth = 0.0);

/// The rule's estimate of the time of an m x n x k C in tiles of `t`, K
/// split by t.split_kc (0: not split) into splitk_slices slices of
/// splitk_chunk elements (t.waves: splitk_wave_slices' slices on
/// teams_per_sm x sms slots), at `teams_per_sm` teams per SM on `sms` SMs, for
/// `elem`-byte elements: waves of teams (ceil(tiles x slices / (teams_per_sm
/// x sms))) x one team's work at that share of its SM (teams_per_sm x BM x BN
/// x its K slice), in cell x K units; a partial last wave costs a whole one
/// (wave quantization: NVIDIA, "Matrix Multiplication Background User's
/// Guide", section "Wave Quantization"). Used to split K where a tile's teams
/// fill the slots but end in a ragged wave (gpu_shape_rule).
double split_wave_time(const RuleTile& t, long m, long n, long k, long teams_per_sm, long sms, std::size_t elem);

/// The rule's estimate of splitk_reduce's time for `slices` partial m x n
/// tiles of `elem`-byte elements on `sms` SMs, in split_wave_time's units
/// (multiply-adds per SM): its (slices + 1) x m x n x elem bytes of traffic
/// (each partial read, C written) at the device's memory bandwidth, times
/// the multiply-adds per byte the float big tile runs at that bandwidth
/// (kSplitReduceFmaPerByte: 23.5e12 multiply-adds per second, 47 TFLOP/s
/// on an H200, over about 4 TB/s: 6), over `sms`; 0 when slices <= 1.
double splitk_reduce_time(long m, long n, int slices, long sms, std::size_t elem);

/// The rule's estimate of the time of the pre-split 3xTF32 wgmma tile `t`
/// (GpuWgmmaTile::presplit: 128x128, one team per SM) on an m x n x k float
/// C, K split by t.split_kc (0: not split; t.waves: into the slices of
/// splitk_wave_slices on `sms` slots), on `sms` SMs, in
/// split_wave_time's units: waves (ceil(tiles x slices / sms)) x BM x BN x
/// (the K slice, rounded up to the tile's K of 32, + 128: a team's
/// prologue and epilogue, fitted to K = 64 and 256 on an H200), plus the
/// pass that splits A and B (12 bytes per element of the operands padded
/// to whole tiles: 4 read, 8 written) and splitk_reduce's traffic, at
/// `fma_per_byte` multiply-adds of the tile per byte over `sms` (<= 0: 16,
/// measured with the pass at 2.8-2.9 TB/s on an H100; gpu_shape_rule's thin
/// step scales it by the device's bandwidth per SM). Source:
/// docs/performance.md, "Tensor cores, tenth round", "twelfth round" and
/// "twenty-first round".
double wgmma_presplit_time(const RuleTile& t, long m, long n, long k, long sms, double fma_per_byte = 0.0);

/// The rule's estimate of the time of the in-loop 3xTF32 wgmma split tile
/// `t` (128x128, each team splitting its own K tiles, no pass; K split by
/// t.split_kc, or with t.waves into the slices of splitk_wave_slices on `sms`
/// slots: wgmma_splitk_inplace, kFloatWgmmaSplitK; wgmma_inplace_wsplit,
/// kFloatWgmmaInloopWaves) on an m x n x k float C on `sms` SMs, in
/// wgmma_presplit_time's units: 1.6 x its waves' time as the pre-split tile
/// would run them (the in-loop split's measured cost per K element), plus
/// splitk_reduce's traffic. Source: docs/performance.md, "Tensor cores,
/// twelfth round" and "fourteenth round".
double wgmma_inloop_split_time(const RuleTile& t, long m, long n, long k, long sms);

/// The DMMA rule's estimate of the time of an m x n C in tiles of `t` at
/// two teams per SM on `sms` SMs, in units of one 64x64 tile at full speed:
/// waves (ceil(tiles / 2 sms)) x the tile's area in 64x64 tiles /
/// `efficiency` (the tile's measured fraction of cuBLAS DGEMM on large
/// squares: docs/performance.md, "Tensor cores (issue 21)": 0.88 for the
/// deep 128x64 tile, 0.75 for the register-path 128x64 and 64x64 tiles).
double dmma_wave_time(const RuleTile& t, long m, long n, long sms, double efficiency);

/// The host rule for `tiled`: true when an m-row problem takes the few-rows
/// kernel (tag "rows") instead of the packed GotoBLAS/BLIS kernel whose
/// micro-tile has `mr` rows, i.e. when m < mr: the packed kernel would pad
/// those rows to MR and pack all of B for them, the rows kernel streams B
/// once. When true and `why` is not null, *why = "host rule: m < MR rows (the
/// packed kernel's micro-tile)" with MR's value.
bool host_rule_takes_rows(long m, long mr, std::string* why);

}  // namespace mmapp
