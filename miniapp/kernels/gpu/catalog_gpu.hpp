// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// catalog_gpu.hpp — the GPU spaces' `tiled` tables, float and double: the
// block-tiled kernel (tiled_gpu.hpp), the warp-tiled kernel at each
// configuration compiled (GpuTile, tiled_gpu_warp.hpp; split-K: splitk.hpp)
// and the GEMV-like kernels (gemv_gpu.hpp). Each variant the shape rule
// (shape_rule.hpp, gpu_shape_rule) can choose carries that choice
// (KernelVariant::rule); the rule's tile sizes are checked against the
// configurations below at compile time. The ladder's steps and the tuning
// candidates that the rule never picks are compiled only when the CMake
// option MMAPP_LADDER_VARIANTS is ON (scripts/bench/gpu-ladder.sh turns it on);
// they keep their places in the list, so a deck resolves to the same variant
// in both builds. Their measurements: docs/performance.md. Included only by
// kernels/instantiate_cuda.cpp.
#pragma once

#include "kernels/catalog.hpp"
#include "kernels/gpu/gemv_gpu.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/tiled_gpu.hpp"
#include "kernels/gpu/tiled_gpu_mma.hpp"
#include "kernels/gpu/tiled_gpu_warp.hpp"
#include "kernels/gpu/tiled_gpu_wgmma.hpp"
#include "kernels/gpu/warp/mma_arch.hpp"
#include "kernels/shape_rule.hpp"

#include <string>
#include <type_traits>
#include <vector>

#ifndef MMAPP_LADDER_VARIANTS
#define MMAPP_LADDER_VARIANTS 0
#endif

// The tensor-core variants (gemm_tiled_mma, tiled_gpu_mma.hpp) need sm_80
// or later; which instructions this build has: kernels/gpu/warp/mma_arch.hpp.

namespace mmapp {

/// True when this build compiles the GPU ladder and tuning candidates
/// (CMake option MMAPP_LADDER_VARIANTS).
inline constexpr bool kLadderVariants = MMAPP_LADDER_VARIANTS != 0;

// The configurations the shape rule chooses (GpuTile<BM, BN, BK, WM, WN, TM,
// TN, stages, vec, swizzle, min_blocks, split_kc, frag_pipe, frag_bytes>).
/// Float, the big tile: 128x128x8 / 8x8, warp tiles 32x64, one scratch
/// stage, 16-byte loads, block swizzle 8, two teams per SM.
using FloatBig = GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 8, 2>;
/// Float, 128x256x8 / 8x16 register tiles in one 256-thread team per SM,
/// two scratch stages: for problems whose tiles fill their waves.
using FloatHuge = GpuTile<128, 256, 8, 64, 64, 8, 16, 2, true, 8, 1>;
/// Float, the big tile's shape with two stages, K split by 4096.
using FloatSplitK = GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 4096>;
/// Float, the small tile: 64x64x16 / 4x8, four teams per SM.
using FloatSmall = GpuTile<64, 64, 16, 32, 32, 4, 8, 2, true, 8, 4>;
/// Float, the small tile without swizzle, K split by 1024.
using FloatSmallSplitK = GpuTile<64, 64, 16, 32, 32, 4, 8, 2, true, 0, 4, 1024>;
/// Float, 96x96x16 / 4x12 split by 1024: DoubleMidSplitK's team (six warps
/// of 32x48, two teams per SM) with the thread tile transposed to 4x12
/// (float's 16-byte fragments are 4 wide: 8x6 does not divide), BK 16 as
/// the small tile's; for few tiles whose M and N it fills no worse than
/// 64x64 (96x96x500000 on an H200: 132.7% of cuBLAS SGEMM against 76.1%).
using FloatMidSplitK = GpuTile<96, 96, 16, 32, 48, 4, 12, 2, true, 0, 2, 1024>;
/// Float, the big tile's shape with two stages, K split by 1024: where its teams fill their waves
/// and the big tiles' do not (H200, 2026-11-24, call 19: 82-83% of cuBLAS SGEMM on 1500 x 1500 x
/// 8192, 2500 x 2500 x 4096, 1000 x 1000 x 8192 and 3000 x 200 x 5000, against 72-79% for the
/// rule's choices then; docs/performance.md).
using FloatBigSplitK1024 = GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 0, 2, 1024>;
/// The same split by 640: the shape rule takes the chunk whose teams' waves and reduction it
/// estimates least (split_wave_time, splitk_reduce_time): 700 x 1300 x 5000, 66 tiles x 8 slices
/// of 640 in 2 waves of 264, 89.7% of cuBLAS SGEMM against 78.5% split by 1024 (H200, call 23).
using FloatBigSplitK640 = GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 0, 2, 640>;
/// Float split-K candidates with 8x8 register tiles (ladder): 64x64 (two warps, six teams per
/// SM), 128x64 and 64x128 (four warps, three teams per SM).
using FloatSmall8x8SplitK = GpuTile<64, 64, 8, 32, 64, 8, 8, 2, true, 0, 6, 1024>;
using FloatTallSplitK = GpuTile<128, 64, 8, 32, 64, 8, 8, 2, true, 0, 3, 1024>;
using FloatWideSplitK = GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 0, 3, 1024>;
/// Double, the big tile: 8x8 register tiles in 128-thread teams with K steps
/// of 8 (the FP64 accumulators take 128 registers; two teams per SM fit in
/// 254 registers without spills), two scratch stages with the cross-tile
/// fragment pipeline (one barrier per K tile; the edge loads use masks).
using DoubleBig = GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 0, true>;
/// Double, the big tile split by 4096.
using DoubleBigSplitK = GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 4096, true>;
/// Double, the small tile: 64x64x8 / 8x4, three teams per SM, where a
/// problem has fewer big tiles.
using DoubleSmall = GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 8, 3>;
/// Double, the small tile without swizzle, K split by 1024.
using DoubleSmallSplitK = GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 0, 3, 1024>;
/// Double, 96x96x8 / 8x6 (192-thread teams, two per SM), K split by 1024:
/// for few tiles whose M and N it fills better than 64x64 tiles.
using DoubleMidSplitK = GpuTile<96, 96, 8, 32, 48, 8, 6, 2, true, 0, 2, 1024>;

// The tensor-core configurations (GpuMmaTile<BM, BN, BK, WM, WN, min_blocks,
// split_kc, swizzle>; tiled_gpu_mma.hpp).
/// Double on DMMA (m8n8k4), 128x64x8 in 2x2 warps of 64x32 (8x4 MMA tiles:
/// 64 FP64 accumulators per lane), two teams per SM.
using DoubleMmaBig = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8>;
/// Double on DMMA, 64x64x16 in 2x2 warps of 32x32, three teams per SM.
using DoubleMmaSmall = GpuMmaTile<64, 64, 16, 32, 32, 3, 0, 8>;
/// Double on sm_90's m16n8k4 DMMA: the big tile's shape (4x4 m16n8k4 tiles
/// per warp; one instruction for two m8n8k4 sharing B), no spills: the
/// rule's big double tile on sm_90 (70-80% of cuBLAS DGEMM on an H200).
using DoubleMma16Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 1>;
/// sm_90 tuning candidates (issue 21, second round): m16n8k8 on the big
/// tile; m16n8k8 on 128x128x8 in eight warps of 64x32 (one team per SM);
/// m16n8k16 and m16n8k8 on 128x64x16 with one scratch stage (two stages of
/// 128x64x16 doubles pass Kokkos' 48 KiB of level-0 scratch); m16n8k16 on
/// the small tile and its split-K form.
using DoubleMma16k8Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 2>;
using DoubleMma16k8Wide = GpuMmaTile<128, 128, 8, 64, 32, 1, 0, 8, 2>;
using DoubleMma16k16Deep = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 3, 1>;
using DoubleMma16k8Deep = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 2, 1>;
using DoubleMma16k16Small = GpuMmaTile<64, 64, 16, 32, 32, 3, 0, 8, 3>;
using DoubleMma16k16SmallSplitK = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0, 3>;
using DoubleMma16k8SmallSplitK = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0, 2>;
/// The small tile on m16n8k8 and m16n8k16 at two teams per SM (three cap
/// the registers at 168: the wide fragments spill), and split by 1024.
using DoubleMma16k8SmallLb2 = GpuMmaTile<64, 64, 16, 32, 32, 2, 0, 8, 2>;
using DoubleMma16k8SmallSplitKLb2 = GpuMmaTile<64, 64, 16, 32, 32, 2, 1024, 0, 2>;
using DoubleMma16k16SmallSplitKLb2 = GpuMmaTile<64, 64, 16, 32, 32, 2, 1024, 0, 3>;
/// m16n8k8 with one scratch stage on 64x128x16 (warps 32x64) and 64x64x32.
using DoubleMma16k8MidDeep = GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 2, 1>;
using DoubleMma16k8SmallDeep = GpuMmaTile<64, 64, 32, 32, 32, 2, 0, 8, 2, 1>;
/// m16n8k8 on 128x128x16, eight warps, one scratch stage (37 KiB).
using DoubleMma16k8WideDeep = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 2, 1>;
/// The cp.async multistage pipeline (issue 21, third round;
/// tiled_gpu_mma.hpp, "Asynchronous pipeline"): global -> scratch without
/// registers, 2-4 stages within Kokkos' 48 KiB of level-0 scratch. The
/// big tile on m8n8k4 (sm_80) and on m16n8k4 / m16n8k8 with 3 stages (A
/// pitch BK + 2: 42.8 KiB); 64x128x8 in warps of 32x64 with 3 stages (42.8
/// KiB); 64x64x8 with 4 stages (41.0 KiB); 64x64x16 with 2 stages (37.0
/// KiB), whole and split by 1024.
using DoubleMmaCp3Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 0, 3, true>;
using DoubleMma16Cp3Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 1, 3, true>;
/// The same with 2 stages (A pitch BK + 4, 32.5 KiB): against cp3, what the
/// third stage gains and the narrower A pitch costs.
using DoubleMma16Cp2Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 1, 2, true>;
using DoubleMma16k8Cp3Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8, 2, 3, true>;
using DoubleMma16k8Cp3Mid = GpuMmaTile<64, 128, 8, 32, 64, 2, 0, 8, 2, 3, true>;
using DoubleMma16k8Cp4Small = GpuMmaTile<64, 64, 8, 32, 32, 3, 0, 8, 2, 4, true>;
using DoubleMma16k8Cp2Small = GpuMmaTile<64, 64, 16, 32, 32, 2, 0, 8, 2, 2, true>;
using DoubleMma16k8Cp2SmallSplitK = GpuMmaTile<64, 64, 16, 32, 32, 2, 1024, 0, 2, 2, true>;
/// The DMMA small tile without swizzle, K split by 1024.
using DoubleMmaSmallSplitK = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0>;
/// Float at FP32 accuracy on TF32 tensor cores (3xTF32, m16n8k8), 128x64x8
/// in 2x2 warps of 64x32, two teams per SM.
using FloatTf32Big = GpuMmaTile<128, 64, 8, 64, 32, 2, 0, 8>;
/// 3xTF32, 64x64x16 in 2x2 warps of 32x32, three teams per SM.
using FloatTf32Small = GpuMmaTile<64, 64, 16, 32, 32, 3, 0, 8>;
/// 3xTF32 tuning candidates: 128x128x8 in eight warps of 64x32 (one team
/// per SM); 128x64x16 with one scratch stage.
using FloatTf32Wide = GpuMmaTile<128, 128, 8, 64, 32, 1, 0, 8>;
using FloatTf32Deep = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 0, 1>;
/// 3xTF32 on 64x64x16 at two teams per SM; on 64x128x16 (warps 32x64), one stage.
using FloatTf32SmallLb2 = GpuMmaTile<64, 64, 16, 32, 32, 2, 0, 8>;
using FloatTf32MidDeep = GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 0, 1>;
/// 3xTF32 on 128x128x16, eight warps, one scratch stage (38 KiB with both parts).
using FloatTf32WideDeep = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 0, 1>;
/// The K-permuted forms of the three one-stage BK 16 tiles (tiled_gpu_mma.hpp,
/// "K permutation": a lane's A fragments of a K tile in one 16-byte load per
/// row and part, A pitch 16, B pitch BN + 4): ladder, not measured yet.
using FloatTf32DeepKp = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 0, 1, false, true>;
using FloatTf32WideDeepKp = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 0, 1, false, true>;
using FloatTf32MidDeepKp = GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 0, 1, false, true>;

/// True when this build's tiles may take more than 48 KiB of level-0
/// scratch per team: the in-tree Kokkos with its opt-in patch
/// (MMAPP_KOKKOS_OPTIN_SCRATCH, tiled_gpu_mma.hpp's MmaScratch::limit) on an
/// sm_90 build (sharedMemPerBlockOptin 227 KiB on an H100/H200).
inline constexpr bool kGpuOptinScratch = MMAPP_KOKKOS_OPTIN_SCRATCH != 0 && kGpuMmaSm90;
/// Deep K tiles past 48 KiB (kGpuOptinScratch), double on m16n8k8 (shape
/// 2) or m16n8k4 (shape 1) through the cp.async pipeline: 128x64x16 with 3
/// stages (85.5 KiB, two teams per SM); 64x128x16 in warps of 32x64 with 3
/// stages (79.5 KiB); 64x64x16 with 4 stages (74.0 KiB), whole and split by
/// 1024; 128x128x16 in eight warps with 3 stages (109.5 KiB, one team).
/// (128x64x16 with 4 stages at one team per SM spills: 52/128 bytes.)
using DoubleMma16k8Cp3Deep = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 2, 3, true>;
using DoubleMma16Cp3Deep = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 1, 3, true>;
/// The K-permuted forms of the two (tiled_gpu_mma.hpp, "K permutation": a
/// lane's A fragments of a K tile in two 16-byte loads per row on m16n8k4,
/// one per row and step on m16n8k8; A pitch 18, B pitch 66): ladder only. On an H200
/// (2026-11-24, call 11) 69.8/70.3/69.2% (m16n8k4) and 72.8/73.5/74.0% (m16n8k8) of cuBLAS
/// DGEMM at 4096/8192/12288^3 against their twins' 87.7/86.3/81.7% and 80.0/83.4/83.1%: the
/// 2-way B conflicts cost more than the A loads save.
using DoubleMma16k8Cp3DeepKp = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 2, 3, true, true>;
using DoubleMma16Cp3DeepKp = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 1, 3, true, true>;
using DoubleMma16k8Cp3MidDeep = GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 2, 3, true>;
using DoubleMma16k8Cp4SmallDeep = GpuMmaTile<64, 64, 16, 32, 32, 2, 0, 8, 2, 4, true>;
using DoubleMma16k8Cp4SmallDeepSplitK = GpuMmaTile<64, 64, 16, 32, 32, 2, 1024, 0, 2, 4, true>;
using DoubleMma16k8Cp3WideDeep = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 2, 3, true>;
/// The same on m16n8k4, 3 and 4 stages (230 registers, no spill): 78-79 / 85-87 / 83% of cuBLAS
/// DGEMM at 4096/8192/12288^3 against the rule's 128x64x16 tile's 88 / 90 / 82% in the same run
/// (H200, 2026-11-25, docs/performance.md "Tensor cores, tenth round"): ladder only.
using DoubleMma16Cp3WideDeep = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 1, 3, true>;
using DoubleMma16Cp4WideDeep = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 1, 4, true>;
/// 128x128x16 in sixteen warps of 32x32 (one team of 512 threads per SM, as many warps per SM as
/// the rule's two teams of 128x64 twice over): the 128x128 tile's L2 traffic per flop (2/3 of
/// 128x64's: 0.125 against 0.1875 bytes per multiply-add) with more warps to hide the barrier
/// than the eight-warp tiles above; m16n8k4, 3 and 4 stages: 128 registers (the bound at 512
/// threads), no spill (m16n8k8 spills 16/32 bytes; fifteenth round, not yet measured): ladder only.
using DoubleMma16Cp3Wide16w = GpuMmaTile<128, 128, 16, 32, 32, 1, 0, 8, 1, 3, true>;
using DoubleMma16Cp4Wide16w = GpuMmaTile<128, 128, 16, 32, 32, 1, 0, 8, 1, 4, true>;
/// 256x64x16 in eight warps of 64x32 (one team per SM; 0.156 bytes of L2 traffic per
/// multiply-add): 216 registers, no spill (fifteenth round, not yet measured): ladder only.
using DoubleMma16Cp3Tall8w = GpuMmaTile<256, 64, 16, 64, 32, 1, 0, 8, 1, 3, true>;
/// Warp-specialized tiles (tiled_gpu_mma.hpp, Producers; warp/ws_pipeline.hpp; sm_90a): a producer
/// warpgroup copies the K tiles by cp.async, the MMA warps wait on each stage's mbarrier instead of
/// a team barrier per K tile, and setmaxnreg gives them the producers' registers (24 left). The
/// rule's: 128x128x16 in eight warps of 64x32 on m16n8k16, 4 stages (149.5 KiB, one team per SM,
/// consumers at 240 registers; 2/3 of the 128x64 tile's L2 bytes per multiply-add, which the team
/// barrier cost the tenth round's 128x128 tiles): one H100, 2026-11-27, 93.1 / 96.5 / 95.4% of
/// cuBLAS DGEMM at 4096/8192/12288^3 against the 128x64 deep tile's 87.2 / 87.3 / 81.7
/// (docs/performance.md, "Tensor cores, eighteenth round"). Ladder, slower in the same runs: its
/// forms with 3 stages (92.2 / 96.1 / 95.4), K tiles of 32 (92.9 / 94.2 / 95.6), on m16n8k8 (89.8 /
/// 90.2 / 91.5) and on m16n8k4 (86.2 / 85.5 / 86.9; 3 stages, K tiles of 32), split by 1024; the 128x64 deep tile
/// warp-specialized (two teams per SM, consumers at 232 registers) on m16n8k4 / m16n8k8 / m16n8k16
/// (78.0-85.8 at 4096^3).
using DoubleMma16k16Cp4WideDeepWs = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 3, 4, true, false, 4>;
using DoubleMma16k16Cp3WideDeepWs = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 3, 3, true, false, 4>;
/// The rule's warp-specialized tile with the last wave's tiles split in K (TailSplit), where the rule's
/// plan splits: one H200, 2026-11-28 (docs/performance.md, "Tensor cores, twenty-sixth round"), % of
/// cuBLAS DGEMM, the tile whole -> split: 8192^3 90.6 / 92.5 -> 92.3 / 97.7 (4 tiles in a 32nd wave,
/// 32 slices), 5120^3 91.1 -> 96.6, 6144^3 92.7 -> 95.1, 9216^3 93.4 -> 94.3, 10240^3 95.0 -> 95.9.
using DoubleMma16k16Cp4WideDeepWsTail = TailSplit<DoubleMma16k16Cp4WideDeepWs>;
/// That tile with its last wave streamed (StreamK, stream_k.hpp): the K tiles of the last wave's
/// tiles, or of a lone partial wave, spread evenly over one wave of teams, where C is whole tiles and
/// the tiles few (the rule). Its tile runs one team per SM at the same time per K tile however few
/// teams share the GPU: one H200, 2026-11-28 (docs/performance.md, "Tensor cores, twenty-seventh
/// round"), K = 8192: 16, 64, 128, 132 tiles 0.606-0.625 ms, 264 tiles 1.22 ms; a lone wave of 64
/// tiles idled half the SMs for a whole tile's K loop. Streamed, % of cuBLAS DGEMM: 512^2 x 8192 97.2,
/// 1024^2 x 4096 93.7.
using DoubleMma16k16Cp4WideDeepWsSk = StreamK<DoubleMma16k16Cp4WideDeepWs>;
using DoubleMma16k16Cp3WideDeep32Ws = GpuMmaTile<128, 128, 32, 64, 32, 1, 0, 8, 3, 3, true, false, 4>;
using DoubleMma16k8Cp4WideDeepWs = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 2, 4, true, false, 4>;
using DoubleMma16Cp4WideDeepWs = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 1, 4, true, false, 4>;
using DoubleMma16Cp3WideDeepWs = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 1, 3, true, false, 4>;
using DoubleMma16Cp3WideDeep32Ws = GpuMmaTile<128, 128, 32, 64, 32, 1, 0, 8, 1, 3, true, false, 4>;
using DoubleMma16k16Cp3WideDeepWsSplitK = GpuMmaTile<128, 128, 16, 64, 32, 1, 1024, 0, 3, 3, true, false, 4>;
using DoubleMma16Cp3DeepWs = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 1, 3, true, false, 4>;
using DoubleMma16k8Cp3DeepWs = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 2, 3, true, false, 4>;
using DoubleMma16k16Cp3DeepWs = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 3, 3, true, false, 4>;
/// 96x96x8 on m16n8k8 in six warps of 48x32 (3x4 MMA tiles per warp), 4
/// cp.async stages (61.0 KiB: two teams per SM), K split by 1024: the
/// rule's split tile where 96x96 tiles cover no more cells than 64x64 ones
/// (96x96: one tile against four 56% used; on an H200 81.7% of cuBLAS
/// DGEMM at 96x96x500000 against 46.8%). 166 registers, no spill at two
/// teams per SM; BK = 16 there spills (ptxas, CUDA 13.0: 3 stages, m16n8k8
/// 92/524 bytes, m16n8k4 80/404; one team per SM 210 registers, no spill).
using DoubleMma16k8Cp4Deep96SplitK = GpuMmaTile<96, 96, 8, 48, 32, 2, 1024, 0, 2, 4, true>;
/// The deep big tile (dmma_deep's, m16n8k4, 3 cp.async stages) split by 1024: the rule's where M*N
/// fills its tiles and their teams fill their waves (H200, 2026-11-24, call 21: 68-81% of cuBLAS
/// DGEMM on 1000-2500 squares with K of 4096-100000 and 256 x 256 x 262144; docs/performance.md)
/// until the twelfth round, where the 64x64 split tile at three teams per SM ran 5-9% faster on
/// every such shape measured (one H100, 2026-11-27): decks name it for the comparison.
using DoubleMma16Cp3DeepSplitK = GpuMmaTile<128, 64, 16, 64, 32, 2, 1024, 0, 1, 3, true>;
/// The three split tiles above with K split into the slices that fill their
/// teams' waves (WaveSplit, splitk.hpp: chunks of at least 256, about K / S)
/// instead of chunks of 1024 (issue 21, eleventh round): the 96x96 and
/// 128x64 forms the rule's for long K over few tiles (shape_rule.cpp), the
/// 64x64 one ladder only.
using DoubleMma16k8Cp4SmallDeepWaves = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 2, 256, 0, 2, 4, true>>;
using DoubleMma16k8Cp4Deep96Waves = WaveSplit<GpuMmaTile<96, 96, 8, 48, 32, 2, 256, 0, 2, 4, true>>;
using DoubleMma16Cp3DeepWaves = WaveSplit<GpuMmaTile<128, 64, 16, 64, 32, 2, 256, 0, 1, 3, true>>;
/// The 64x64 split tile at three teams per SM (twelve warps, 168 registers, 4 bytes spilled), 3
/// cp.async stages (55.5 KiB): the rule's dmma_small_splitk_deep since the twelfth round (one
/// H100, 2026-11-27: 6-14% faster than DoubleMma16k8Cp4SmallDeepSplitK, two teams per SM, on every
/// shape measured; 300 x 300 x 100000 77.7% of cuBLAS DGEMM against 69.6, 100 x 100 x 300000 82.4
/// against 72.0; docs/performance.md). Ladder: the same with 4 stages (74.0 KiB; no faster than
/// at two teams per SM), on m16n8k4, and its wave split (slower, as at two teams per SM).
using DoubleMma16k8Cp3SmallDeepSplitKLb3 = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0, 2, 3, true>;
using DoubleMma16k8Cp4SmallDeepSplitKLb3 = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0, 2, 4, true>;
using DoubleMma16Cp4SmallDeepSplitKLb3 = GpuMmaTile<64, 64, 16, 32, 32, 3, 1024, 0, 1, 4, true>;
using DoubleMma16k8Cp4SmallDeepWavesLb3 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 256, 0, 2, 4, true>>;
/// A small C (issue 21, thirtieth round; shape_rule.cpp, small_waves_choice): the 64x64 tile at
/// three teams per SM with K split into the slices that fill its waves in chunks of at least 128
/// (the rule's dmma_small_wsplit; 100 x 100 x 1000, 4 tiles: 48.9 -> 22.0 us against the split by
/// 1024, one H200), the same tile unsplit (dmma_small_deep), and the register-path 64x64 tile
/// (odd N or K, read in place) split the same way (dmma_small_reg_wsplit). Ladder: the wave split
/// in chunks of 64 and of the 128x64 deep tile in chunks of 128, the 64x64 tile split by 256 (no
/// faster: docs/performance.md).
using DoubleMma16k8Cp3SmallDeepWaves64Lb3 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 64, 0, 2, 3, true>>;
using DoubleMma16k8Cp3SmallDeepWaves128Lb3 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 128, 0, 2, 3, true>>;
using DoubleMma16k8Cp3SmallDeepLb3 = GpuMmaTile<64, 64, 16, 32, 32, 3, 0, 8, 2, 3, true>;
using DoubleMma16Cp3DeepWaves128 = WaveSplit<GpuMmaTile<128, 64, 16, 64, 32, 2, 128, 0, 1, 3, true>>;
using DoubleMma16k8Cp3SmallDeepSplitK256Lb3 = GpuMmaTile<64, 64, 16, 32, 32, 3, 256, 0, 2, 3, true>;
using DoubleMma16k8SmallWaves128Lb2 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 2, 128, 0, 2>>;
/// Ladder: the same two wave splits with the slices summed inside the GEMM's launch by each tile's
/// last team (LastTeamSum, splitk.hpp: the same bits, one launch fewer). Slower where it was meant
/// to gain: on few tiles 5-15 us more than the separate sum (100 x 100 x 1024 36 against 21 us; 64 x
/// 64 x 4096, one tile in 32 slices, 59 against 22: one team sums what a launch spreads over the
/// SMs), as fast on many (one H200, 2026-11-29; docs/performance.md, "Tensor cores, thirty-first round").
using DoubleMma16k8Cp3SmallDeepWaves128Lb3Sum = LastTeamSum<DoubleMma16k8Cp3SmallDeepWaves128Lb3>;
using DoubleMma16k8SmallWaves128Lb2Sum = LastTeamSum<DoubleMma16k8SmallWaves128Lb2>;
/// The cp.async tiles the rule takes on operands read in place (odd N or K of double that the copy
/// bounds leave unaligned: a thin C over an odd N, say), with those operands' interior and edge K
/// tiles copied element by element without the masked path's arithmetic (ElemChunks,
/// tiled_gpu_mma.hpp; forty-sixth round: the 64x64 deep tile ran 100 x 20001 x 512 in 0.119 ms
/// with B unaligned, 100 x 20000 x 512 in 0.075 with it aligned). The rule's in-place steps since
/// the forty-seventh round (100 x 20001 x 512 in 0.088-0.091 ms, cuBLAS DGEMM 0.083-0.093;
/// shape_rule.cpp, kInPlaceElemText); slower than the plain tiles on aligned operands.
using DoubleMma16k8Cp3SmallDeepSplitKLb3El = ElemChunks<DoubleMma16k8Cp3SmallDeepSplitKLb3>;
using DoubleMma16k8Cp4Deep96WavesEl = ElemChunks<DoubleMma16k8Cp4Deep96Waves>;
/// The 64x64 ElemChunks tile copying no operand: on odd N or K that the deep tiles copy by their own
/// bounds (CopyRule::dmma), where the copies' launches weigh (1001^3: 0.095 ms, 72% of cuBLAS DGEMM,
/// against 0.066 at 1000^3; forty-seventh round). The rule's dmma_small_splitk_deep_el_inplace in
/// GEMMs up to 2e9 M·N·K since the forty-eighth round (1001^3 0.097 -> 0.089 ms; shape_rule.cpp,
/// kDmmaElInPlaceMaxWork), and past it where those copies are reused along at most 320 rows or
/// columns since the fifty-first round (one H100: 200 x 5001 x 6000 0.552 -> 0.400 ms;
/// kDmmaElInPlaceMaxReuse).
using DoubleMma16k8Cp3SmallDeepSplitKLb3ElInPlace = ElemChunks<DoubleMma16k8Cp3SmallDeepSplitKLb3, false>;
/// 3xTF32 register path with two scratch stages (one barrier per K tile)
/// at BK = 16, past 48 KiB with both parts (kGpuOptinScratch): 64x128x16 in
/// warps of 32x64 (54 KiB), 128x128x16 in eight warps (74 KiB, one team
/// per SM). (128x64x16 with two stages spills 344/488 bytes.)
using FloatTf32MidDeep2 = GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 0, 2>;
using FloatTf32WideDeep2 = GpuMmaTile<128, 128, 16, 64, 32, 1, 0, 8, 0, 2>;

/// 3xTF32 on Hopper's wgmma (sm_90a builds, kGpuWgmma; tiled_gpu_wgmma.hpp),
/// K tiles of 32 in two stages past 48 KiB: 128x128 in two warpgroups of
/// 64x128 (129 KiB, one team per SM; 255 registers, no spill), whole and
/// split by 1024, operands split in the K loop: the split form is the
/// rule's wgmma_splitk_inplace (M or N under 128), the whole one a deck's.
using FloatWgmma = GpuWgmmaTile<128, 128, 1>;
using FloatWgmmaSplitK = GpuWgmmaTile<128, 128, 1, 1024>;
/// The in-loop split tile with K split into the slices that fill its waves
/// (WaveSplit, chunks of at least 256): the rule's wgmma_inplace_wsplit, for
/// few tiles whose split by 1024 ends in a part-empty wave.
using FloatWgmmaWaves = WaveSplit<GpuWgmmaTile<128, 128, 1, 256>>;
/// The same reading an unaligned A or B in place (WgmmaInPlace): the rule's wgmma_inplace_wsplit_a
/// on float C of 65-128 rows with K not a multiple of 4 (A copied first by the plain tile), where the
/// rule took the pre-split tile at 82% of cuBLAS SGEMM (110 x 6000 x 1029, 128 x 6000 x 1025;
/// forty-seventh round) and the plain tile, copying A, lost 16 us to one more K element (90 x 6000 x
/// 1024 0.062 ms, 1025 0.078). Since the forty-eighth round (110 x 6000 x 1029 0.073 -> 0.070 ms;
/// shape_rule.cpp, one_row_a_in_place); and on C of one column of those tiles (N <= 128) with
/// unaligned rows, where the rule took the pre-split tile's wave split (fifty-first round, one H100:
/// 8000 x 65 x 15525 1.009 -> 0.595 ms; shape_rule.cpp, kOneColumnInPlace).
using FloatWgmmaWavesInPlace = WgmmaInPlace<FloatWgmmaWaves>;
/// Ladder: the in-loop split tile with its partial last (or lone) wave
/// streamed (WgmmaStreamK, stream_k.hpp), so that every SM takes the same
/// number of K tiles where C's few tiles (65-128 rows against thousands of
/// columns) fill neither one wave nor, split in K, whole waves. Slower than
/// the wave split on 42 of 47 such shapes (fortieth round: 0.121 against
/// 0.093 ms on 97 x 6422 x 1500; faster at K 512 over 20000 columns, 0.093
/// against 0.116). ptxas: 255 registers and 52 bytes of spill stores, where
/// the same tile without streaming spills none.
using FloatWgmmaSk = WgmmaStreamK<GpuWgmmaTile<128, 128, 1>>;
/// Ladder: the same two and the whole tile in warp-specialized teams
/// (GpuWgmmaTile::ws: a producer warpgroup copies the K tiles by cp.async to
/// raw slots and splits them into the stages while two MMA warpgroups
/// multiply; 193 KiB). Slower: 0.70-0.92 of the in-loop tiles' speed, 0.70
/// at 4096^3 (one H100, 2026-11-27, docs/performance.md "Tensor cores,
/// nineteenth round"). By count, the raw slots add 64 KiB of scratch traffic
/// per K tile to the 208 KiB of the split stores and the wgmma reads, and
/// 128 threads split what 256 did.
using FloatWgmmaWsSplitK = GpuWgmmaTile<128, 128, 1, 1024, 8, false, 2, false, true>;
using FloatWgmmaWsWaves = WaveSplit<GpuWgmmaTile<128, 128, 1, 256, 8, false, 2, false, true>>;
using FloatWgmmaWs = GpuWgmmaTile<128, 128, 1, 0, 8, false, 2, false, true>;
/// Ladder (H200, 2026-11-25, docs/performance.md "Tensor cores, eighth
/// round": slower): 64x128 in one warpgroup (97 KiB, two teams per SM;
/// spills 64 bytes), 128x64 in two warpgroups of 64x64 (97 KiB), and the
/// 128x128 tile with its K tiles loaded by cp.async two tiles ahead (193 KiB).
using FloatWgmma64x128 = GpuWgmmaTile<64, 128, 1>;
using FloatWgmma128x64 = GpuWgmmaTile<128, 64, 1>;
using FloatWgmmaCp = GpuWgmmaTile<128, 128, 1, 0, 8, true>;
using FloatWgmmaCpSplitK = GpuWgmmaTile<128, 128, 1, 1024, 8, true>;
/// Ladder: the 128x128 tile in three stages (193 KiB), t added while the
/// tile's small products run (GpuWgmmaTile::stages): 98.3/99.0-100.1/106.0%
/// of cuBLAS SGEMM at 4096/8192/12288^3 against 96.7-97.1/98.0-98.2/
/// 103.2-103.8% for two stages (H200, 2026-11-25, "Tensor cores, ninth round").
using FloatWgmma3 = GpuWgmmaTile<128, 128, 1, 0, 8, false, 3>;
using FloatWgmma3SplitK = GpuWgmmaTile<128, 128, 1, 1024, 8, false, 3>;
/// The three-stage tile on operands split once per GEMM (GpuWgmmaTile::presplit;
/// 254 registers, 16 bytes spilled), whole and split by 1024: the rule's
/// wgmma_big and wgmma_splitk (148.6/170.8/181.5% of cuBLAS SGEMM at
/// 4096/8192/12288^3; docs/performance.md, "Tensor cores, ninth round").
using FloatWgmmaPre = GpuWgmmaTile<128, 128, 1, 0, 8, false, 3, true>;
using FloatWgmmaPreSplitK = GpuWgmmaTile<128, 128, 1, 1024, 8, false, 3, true>;
/// The same split by 512 and by 2048: the rule's wgmma_splitk512 and wgmma_splitk2048, where
/// wgmma_presplit_time estimates them faster (docs/performance.md, "Tensor cores, tenth round").
using FloatWgmmaPreSplitK512 = GpuWgmmaTile<128, 128, 1, 512, 8, false, 3, true>;
using FloatWgmmaPreSplitK2048 = GpuWgmmaTile<128, 128, 1, 2048, 8, false, 3, true>;
/// The same with K split into the slices that fill the waves (WaveSplit, chunks of at least 256).
using FloatWgmmaPreWaves = WaveSplit<GpuWgmmaTile<128, 128, 1, 256, 8, false, 3, true>>;
/// The pre-split tile 64 rows high (one warpgroup, 145 KiB, one team per SM), split by 2048 and in
/// the waves' slices: for M of 100-200, where 128-row tiles pad the most (160 rows: 83% of 192
/// against 63% of 256) (docs/performance.md, "Tensor cores, nineteenth round"). Not in the rule.
using FloatWgmmaPre64SplitK2048 = GpuWgmmaTile<64, 128, 1, 2048, 8, false, 3, true>;
using FloatWgmmaPre64Waves = WaveSplit<GpuWgmmaTile<64, 128, 1, 256, 8, false, 3, true>>;
/// For a small C (issue 21, thirtieth round; shape_rule.cpp, float_small_waves_choice): the pre-split
/// 64x128 tile and the 3xTF32 register-path 64x64 tile (operands split in the K loop, three teams
/// per SM) with K split into the slices that fill their waves in chunks of at least 128: the
/// rule's wgmma_pre64_wsplit (also the rule's for C's rows not in 16-byte chunks at K <= 32, where
/// it runs two teams per SM on one stage of scratch: GpuWgmmaTile::one_tile_scratch), and the
/// register-path tile the rule took before the forty-fourth round (now its chunk-32 form, below);
/// the SIMT small tile split by 256 (not in the rule).
using FloatWgmmaPre64Waves128 = WaveSplit<GpuWgmmaTile<64, 128, 1, 128, 8, false, 3, true>>;
using FloatTf32SmallWaves128 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 128, 8>>;
/// The same tile with K split in chunks of at least 32 and 64: more teams, each with fewer K tiles,
/// for a small C whose A and B come from DRAM (the timed repetitions rotate copies out of L2), where
/// a team's K loop waits on each K tile's loads (two to four K tiles a team instead of eight at
/// K 512). The chunk of 32 is the rule's tf32_small_wsplit since the forty-fourth round (faster
/// than 128 on every small C measured, 64 within 0.003 ms of it: docs/performance.md); 128 and 64
/// stay as `tile: auto` candidates.
using FloatTf32SmallWaves32 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 32, 8>>;
using FloatTf32SmallWaves64 = WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 64, 8>>;
/// Ladder: the same with the slices summed inside the launch (LastTeamSum; slower, as for double).
using FloatTf32SmallWaves128Sum = LastTeamSum<FloatTf32SmallWaves128>;
using FloatSmallSplitK256 = GpuTile<64, 64, 16, 32, 32, 4, 8, 2, true, 0, 4, 256>;
/// The SIMT small tile with K split into the slices that fill its waves in chunks of at least 256
/// (WaveSplit): the rule's small_wsplit, for a thin C of 64 columns (rows) or fewer, where the
/// SIMT tiles split by 1024 or by 256 ran ahead of every 3xTF32 tile, each on some shapes only
/// (thirty-first round: this split best or within 1% on all 13 such shapes measured).
using FloatSmallWaves256 = WaveSplit<FloatSmallSplitK256>;
/// The tile splitting its operands in the K loop, 64 rows high in two stages (one warpgroup, 97
/// KiB, two teams per SM), split by 1024 and in the waves' slices (two slots per SM): for M
/// 129-192 with few column tiles, where 128-row tiles run part empty (150 rows fill 78% of 192,
/// 59% of 256) and split K the most. Ladder variants: verified on an H200 (the kernel tests and
/// every deck run) but slower than the fastest 128-row tile on all seven shapes measured, at
/// 0.72-0.87 of its speed (docs/performance.md, "Tensor cores, twenty-first round").
using FloatWgmma64SplitK = GpuWgmmaTile<64, 128, 2, 1024>;
using FloatWgmma64Waves = WaveSplit<GpuWgmmaTile<64, 128, 2, 256>>;
/// C^T tiles (GpuWgmmaTile::rows_n): C's 65-128 rows as wgmma's N (80, 96, 112, 128: M rounded
/// up to 16), 64 columns in one warpgroup, operands split in the K loop (two stages, 97 KiB at
/// most: two teams per SM), K split into the slices that fill their waves (chunks >= 256). The
/// 80- and 96-row tiles are the rule's wgmma_t80 and wgmma_t96 (C of 65-96 rows against more than
/// 1024 columns, shape_rule.cpp's rows_n_choice). Ladder: the 112- and 128-row tiles, slower than
/// the 128x128 tiles on 97-128 rows at K >= 512 (H200, 2026-11-30: 100 x 6000 x 2048 0.152 ms
/// against 0.116, 128 x 4096 x 4096 0.151 against 0.116; the 128-row one spills 152 bytes;
/// docs/performance.md, "Tensor cores, thirty-ninth round"), and still after the loader's
/// per-chunk loads (2026-12-01, forty-first round: the 112-row tile slower than the in-loop
/// 128x128 tile on all 15 shapes of 97-128 rows timed, 112 x 6000 x 1500 0.090 against 0.087,
/// 99 x 3333 x 2222 0.080 against 0.073).
template <int BM>
using FloatWgmmaRowsN = WaveSplit<GpuWgmmaTile<BM, 64, 2, 256, 8, false, 2, false, false, true>>;
/// The 80- and 96-row C^T tiles reading an unaligned A in place (WgmmaInPlace) instead of copying
/// it first: the rule's C^T tiles since the forty-seventh round (float C of 65-96 rows with K not a
/// multiple of 4: 90 x 6000 x 1025 0.076 ms copying A, 0.067 in place, cuBLAS SGEMM 0.058;
/// shape_rule.cpp, rows_t_chose). With A aligned, the same kernel as FloatWgmmaRowsN.
template <int BM>
using FloatWgmmaRowsNInPlace = WgmmaInPlace<FloatWgmmaRowsN<BM>>;

namespace detail {
/// Whether configuration Cfg has the rule's tile `t` (block M x N, split chunk).
template <class Cfg>
constexpr bool has_rule_tile(const RuleTile& t) {
  return Cfg::BM == t.bm && Cfg::BN == t.bn && Cfg::split_kc == t.split_kc && Cfg::split_waves == t.waves;
}
}  // namespace detail

static_assert(detail::has_rule_tile<FloatBig>(rule_tiles::kFloatBig), "FloatBig vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatHuge>(rule_tiles::kFloatHuge), "FloatHuge vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatSplitK>(rule_tiles::kFloatBigSplitK), "FloatSplitK vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatBigSplitK1024>(rule_tiles::kFloatBigSplitK1024), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatBigSplitK640>(rule_tiles::kFloatBigSplitK640), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatSmall>(rule_tiles::kFloatSmall), "FloatSmall vs shape_rule.hpp");
static_assert(FloatSmall::min_blocks == rule_tiles::kFloatSmallTeamsPerSm, "FloatSmall's teams per SM vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatSmallSplitK>(rule_tiles::kFloatSmallSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatMidSplitK>(rule_tiles::kFloatMidSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleBig>(rule_tiles::kDoubleBig), "DoubleBig vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleBigSplitK>(rule_tiles::kDoubleBigSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleSmall>(rule_tiles::kDoubleSmall), "DoubleSmall vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleSmallSplitK>(rule_tiles::kDoubleSmallSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMidSplitK>(rule_tiles::kDoubleMidSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMmaBig>(rule_tiles::kDoubleMmaBig), "DoubleMmaBig vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMmaSmall>(rule_tiles::kDoubleMmaSmall), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMmaSmallSplitK>(rule_tiles::kDoubleMmaSmallSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16Big>(rule_tiles::kDoubleMmaBig), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8SmallLb2>(rule_tiles::kDoubleMmaSmall), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8SmallSplitKLb2>(rule_tiles::kDoubleMmaSmallSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k16Cp4WideDeepWs>(rule_tiles::kDoubleMmaWs), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k16Cp4WideDeepWsTail>(rule_tiles::kDoubleMmaWs), "vs shape_rule.hpp");
static_assert(DoubleMma16k16Cp4WideDeepWsTail::BK == rule_tiles::kDmmaWsKTile &&
                  DoubleMma16k16Cp4WideDeepWsTail::min_blocks == rule_tiles::kDmmaWsTeamsPerSm &&
                  DoubleMma16k16Cp4WideDeepWsTail::tail_slots == 0,
              "the tail split's K tile, teams per SM and slots vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k16Cp4WideDeepWsSk>(rule_tiles::kDoubleMmaWs) &&
                  DoubleMma16k16Cp4WideDeepWsSk::BK == rule_tiles::kDmmaWsKTile &&
                  DoubleMma16k16Cp4WideDeepWsSk::min_blocks == rule_tiles::kDmmaWsTeamsPerSm &&
                  DoubleMma16k16Cp4WideDeepWsSk::stages == rule_tiles::kDmmaWsStages &&
                  DoubleMma16k16Cp4WideDeepWsSk::tail_slots == 0,
              "Stream-K's K tile, teams per SM, stages and slots vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16Cp3Deep>(rule_tiles::kDoubleMmaBig), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8Cp3Deep>(rule_tiles::kDoubleMmaBig), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8Cp3SmallDeepSplitKLb3>(rule_tiles::kDoubleMmaSmallSplitK),
              "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8Cp4Deep96SplitK>(rule_tiles::kDoubleMmaMidSplitK),
              "vs shape_rule.hpp");
static_assert(DoubleMma16k8Cp3SmallDeepSplitKLb3::min_blocks == rule_tiles::kDmmaSmallDeepTeamsPerSm &&
                  DoubleMma16k8Cp4Deep96SplitK::min_blocks == rule_tiles::kDmmaTeamsPerSm,
              "step 5's DMMA split tiles' teams per SM, as the rule counts them");
static_assert(detail::has_rule_tile<DoubleMma16Cp3DeepSplitK>(rule_tiles::kDoubleMmaBigSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPre>(rule_tiles::kFloatWgmma), "FloatWgmmaPre vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPreSplitK>(rule_tiles::kFloatWgmmaSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaSplitK>(rule_tiles::kFloatWgmmaSplitK), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPreSplitK512>(rule_tiles::kFloatWgmmaSplitK512), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPreSplitK2048>(rule_tiles::kFloatWgmmaSplitK2048), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPreWaves>(rule_tiles::kFloatWgmmaWaves), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaWaves>(rule_tiles::kFloatWgmmaInloopWaves) &&
                  FloatWgmmaWaves::min_blocks == 1 && !FloatWgmmaWaves::presplit,
              "FloatWgmmaWaves vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8Cp4Deep96Waves>(rule_tiles::kDoubleMmaMidWaves) &&
                  detail::has_rule_tile<DoubleMma16k8Cp4Deep96WavesEl>(rule_tiles::kDoubleMmaMidWaves) &&
                  detail::has_rule_tile<DoubleMma16k8Cp3SmallDeepSplitKLb3El>(rule_tiles::kDoubleMmaSmallSplitK),
              "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16Cp3DeepWaves>(rule_tiles::kDoubleMmaBigWaves), "vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaPre64Waves128>(rule_tiles::kFloatWgmmaPre64Waves) &&
                  FloatWgmmaPre64Waves128::min_blocks == 1,
              "FloatWgmmaPre64Waves128 vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatWgmmaRowsNInPlace<80>>(rule_tiles::kFloatWgmmaT80) &&
                  detail::has_rule_tile<FloatWgmmaRowsNInPlace<96>>(rule_tiles::kFloatWgmmaT96) &&
                  FloatWgmmaRowsNInPlace<80>::min_blocks == rule_tiles::kFloatWgmmaRowsNTeamsPerSm,
              "FloatWgmmaRowsN vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatTf32SmallWaves32>(rule_tiles::kFloatTf32SmallWaves) &&
                  FloatTf32SmallWaves32::min_blocks == rule_tiles::kFloatTf32SmallTeamsPerSm,
              "FloatTf32SmallWaves32 vs shape_rule.hpp");
static_assert(detail::has_rule_tile<FloatSmallWaves256>(rule_tiles::kFloatSmallWaves) &&
                  FloatSmallWaves256::min_blocks == rule_tiles::kFloatSmallTeamsPerSm,
              "FloatSmallWaves256 vs shape_rule.hpp");
static_assert(detail::has_rule_tile<DoubleMma16k8Cp3SmallDeepWaves128Lb3>(rule_tiles::kDoubleMmaSmallWaves) &&
                  detail::has_rule_tile<DoubleMma16k8SmallWaves128Lb2>(rule_tiles::kDoubleMmaSmallWaves) &&
                  detail::has_rule_tile<DoubleMma16k8Cp3SmallDeepLb3>(rule_tiles::kDoubleMmaSmallDeep),
              "vs shape_rule.hpp");
static_assert(DoubleMma16k8Cp3SmallDeepWaves128Lb3::min_blocks == rule_tiles::kDmmaSmallDeepTeamsPerSm &&
                  DoubleMma16k8Cp3SmallDeepLb3::min_blocks == rule_tiles::kDmmaSmallDeepTeamsPerSm &&
                  DoubleMma16k8SmallWaves128Lb2::min_blocks == rule_tiles::kDmmaTeamsPerSm,
              "teams per SM vs shape_rule.hpp");
static_assert(FloatWgmmaPreWaves::min_blocks == 1 && DoubleMma16k8Cp4Deep96Waves::min_blocks == rule_tiles::kDmmaTeamsPerSm &&
                  DoubleMma16Cp3DeepWaves::min_blocks == rule_tiles::kDmmaTeamsPerSm,
              "the wave split fills min_blocks teams per SM, as the rule counts them");
static_assert(FloatWgmmaPre::min_blocks == 1 && FloatWgmmaPreSplitK::min_blocks == 1 && FloatWgmmaSplitK::min_blocks == 1 &&
                  FloatWgmmaPreSplitK512::min_blocks == 1 && FloatWgmmaPreSplitK2048::min_blocks == 1,
              "one team per SM: shape_rule.cpp");

namespace detail {
/// The block-tiled kernel (tiled_gpu.hpp): tile BM x BN x BK, TM x TN per
/// thread, P: register prefetch of the next K tile; `rule`: the shape rule's
/// choice it runs (none: never chosen).
template <int BM, int BN, int BK, int TM, int TN, bool P, class Space, class T>
KernelVariant<Space, T> tiled_variant(GpuRuleChoice rule = GpuRuleChoice::none) {
  return {"tiled", {BM, BN, BK}, {TM, TN}, &gemm_tiled<BM, BN, BK, TM, TN, P, Space, T>, P ? 1 : 0, nullptr, "",
          rule};
}

/// The tag of a warp-tiled variant: its features in words, e.g.
/// "w32x64 2st vec sw8 lb2" (warp tile, scratch stages, 16-byte loads,
/// block-order group, launch bounds' blocks per SM; "strided": no warp tiles;
/// "splitk4096": K chunk per team ("wsplit256": WaveSplit, chunks of at
/// least 256); "fragdb": fragment double buffering; "lds8": 8-byte fragment reads).
template <class Cfg>
std::string gpu_tile_tag() {
  std::string t = Cfg::warp_tiled ? "w" + std::to_string(Cfg::WM) + "x" + std::to_string(Cfg::WN) : "strided";
  t += " " + std::to_string(Cfg::stages) + "st";
  if (Cfg::vec) t += " vec";
  if (Cfg::swizzle > 0) t += " sw" + std::to_string(Cfg::swizzle);
  if (Cfg::min_blocks > 0) t += " lb" + std::to_string(Cfg::min_blocks);
  if (Cfg::split_kc > 0) t += (Cfg::split_waves ? " wsplit" : " splitk") + std::to_string(Cfg::split_kc);
  if (Cfg::frag_pipe) t += " fragdb";
  if (Cfg::frag_bytes != 16) t += " lds" + std::to_string(Cfg::frag_bytes);
  return t;
}
/// A gemm_tiled_warp variant; prefetch: 1 when its K loop overlaps loads and
/// compute; `rule`: the shape rule's choice it runs (none: never chosen).
template <class Cfg, class Space, class T>
KernelVariant<Space, T> warp_variant(GpuRuleChoice rule = GpuRuleChoice::none) {
  return {"tiled",
          {Cfg::BM, Cfg::BN, Cfg::BK},
          {Cfg::TM, Cfg::TN},
          &gemm_tiled_warp<Cfg, Space, T>,
          Cfg::stages > 0 ? 1 : 0,
          &tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::vec>,
          gpu_tile_tag<Cfg>(),
          rule};
}
/// A gemm_tiled_mma variant (tensor cores): tile {BM, BN, BK}, thread tile
/// {WM, WN} (the warp's tile: its lanes share the MMA tiles), tag
/// gpu_mma_tag ("dmma ..." or "3xtf32 ..."), math path dmma or tf32x3.
template <class Cfg, class Space, class T>
KernelVariant<Space, T> mma_variant(GpuRuleChoice rule = GpuRuleChoice::none) {
  return {"tiled",
          {Cfg::BM, Cfg::BN, Cfg::BK},
          {Cfg::WM, Cfg::WN},
          &gemm_tiled_mma<Cfg, Space, T>,
          1,
          &mma_workspace_bytes<Cfg, T>,
          gpu_mma_tag<Cfg, T>(),
          rule,
          std::is_same_v<T, double> ? MathPath::dmma : MathPath::tf32x3};
}
/// A gemm_tiled_wgmma variant (3xTF32 on wgmma): tile {BM, BN, 32}, thread
/// tile {64, BN} (a warpgroup's tile), tag gpu_wgmma_tag, math path tf32x3.
template <class Cfg, class Space, class T>
KernelVariant<Space, T> wgmma_variant(GpuRuleChoice rule = GpuRuleChoice::none) {
  return {"tiled",
          {Cfg::BM, Cfg::BN, Cfg::BK},
          {Cfg::WM, Cfg::WN},
          &gemm_tiled_wgmma<Cfg, Space, T>,
          1,
          &wgmma_workspace_bytes<Cfg>,
          gpu_wgmma_tag<Cfg>(),
          rule,
          MathPath::tf32x3};
}
/// gemv_cols (M <= MT): tile [MT, 32 chunks of columns, K chunk], thread tile [MT, chunk].
template <int MT, int KS, int Kc, class Space, class T>
KernelVariant<Space, T> gemv_cols_variant(GpuRuleChoice rule) {
  constexpr int vw = 16 / int(sizeof(T));
  return {"tiled", {MT, 32 * vw, Kc}, {MT, vw}, &gemv_cols<MT, KS, Kc, Space, T>, -1,
          Kc > 0 ? &gemv_workspace_bytes<T, Kc> : nullptr, "gemv-cols m" + std::to_string(MT), rule};
}
/// gemv_dot (M = N = 1): tile [1, 1, K chunk], thread tile [1, chunk].
template <int Kc, class Space, class T>
KernelVariant<Space, T> gemv_dot_variant(GpuRuleChoice rule) {
  constexpr int vw = 16 / int(sizeof(T));
  return {"tiled", {1, 1, Kc}, {1, vw}, &gemv_dot<Kc, Space, T>, -1, &gemv_dot_workspace_bytes<T, Kc>, "gemv-dot",
          rule};
}
/// gemv_rows (N <= NT): tile [rows per team, NT, K chunk (or the K step of
/// a row's lanes without split-K)], thread tile [rows per member, NT].
template <int NT, int R, int RPW, int Kc, class Space, class T>
KernelVariant<Space, T> gemv_rows_variant(GpuRuleChoice rule) {
  constexpr int step = 32 * (16 / int(sizeof(T)));  // K elements a row's 32 lanes cover per step
  return {"tiled", {R * RPW, NT, Kc > 0 ? Kc : step}, {RPW, NT}, &gemv_rows<NT, R, RPW, Kc, Space, T>, -1,
          Kc > 0 ? &gemv_workspace_bytes<T, Kc> : nullptr, "gemv-rows n" + std::to_string(NT), rule};
}

// The tables. Tags (gpu_tile_tag) tell apart variants of one tile and thread
// tile; a deck's {tile, thread_tile, prefetch, variant} names the first of
// them listed, `tiled` alone the shape rule's choice, `tile: auto` the
// fastest of all compiled on the problem. `if constexpr (kLadderVariants)`
// marks the entries the rule never picks.

/// Float: the block-tiled kernel, the ladder at 128x128x8 / 8x8 from it to
/// FloatBig (one feature per step), then the other tiles and the GEMV-like kernels.
template <class Space>
void gpu_float_variants(std::vector<KernelVariant<Space, float>>& v) {
  using T = float;
  using R = GpuRuleChoice;
  v.push_back(tiled_variant<128, 128, 8, 8, 8, true, Space, T>());   // tiled_gpu.hpp, register prefetch
  v.push_back(tiled_variant<128, 128, 8, 8, 8, false, Space, T>());  // the same without
  v.push_back(tiled_variant<64, 64, 8, 4, 4, true, Space, T>(R::basic_small));  // N % 4 != 0, short K
  if constexpr (kLadderVariants) {
    v.push_back(warp_variant<GpuTile<128, 128, 8, 0, 0, 8, 8, 1, true, 0, 0>, Space, T>());    // 16-byte loads
    v.push_back(warp_variant<GpuTile<128, 128, 8, 0, 0, 8, 8, 1, true, 0, 2>, Space, T>());    // + launch bounds
    v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 0, 2>, Space, T>());  // + warp tiles
  }
  v.push_back(warp_variant<FloatBig, Space, T>(R::big));  // + block swizzle
  if constexpr (kLadderVariants)
    v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());  // + two stages
  v.push_back(warp_variant<FloatHuge, Space, T>(R::huge));
  if constexpr (kLadderVariants)
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 4>, Space, T>());
  v.push_back(warp_variant<FloatSmall, Space, T>(R::small));
  v.push_back(warp_variant<FloatSplitK, Space, T>(R::big_splitk));
  v.push_back(warp_variant<FloatSmallSplitK, Space, T>(R::small_splitk));
  v.push_back(warp_variant<FloatSmallSplitK256, Space, T>());
  v.push_back(warp_variant<FloatSmallWaves256, Space, T>(R::small_wsplit));
  v.push_back(warp_variant<FloatMidSplitK, Space, T>(R::mid_splitk));
  v.push_back(warp_variant<FloatBigSplitK1024, Space, T>(R::big_splitk1024));
  v.push_back(warp_variant<FloatBigSplitK640, Space, T>(R::big_splitk640));
  if constexpr (kLadderVariants) {  // call 19: best on one or two shapes each, not the rule's (docs/performance.md)
    v.push_back(warp_variant<FloatSmall8x8SplitK, Space, T>());
    v.push_back(warp_variant<FloatTallSplitK, Space, T>());
    v.push_back(warp_variant<FloatWideSplitK, Space, T>());
  }
  v.push_back(gemv_cols_variant<1, 8, 256, Space, T>(R::gemv_cols_1));
  v.push_back(gemv_cols_variant<8, 8, 256, Space, T>(R::gemv_cols_8));
  v.push_back(gemv_rows_variant<1, 8, 1, 2048, Space, T>(R::gemv_rows_1));
  if constexpr (kLadderVariants) v.push_back(gemv_rows_variant<4, 8, 4, 0, Space, T>(R::none));
  v.push_back(gemv_dot_variant<8192, Space, T>(R::gemv_dot));
  // 3xTF32 (FP32 accuracy) on mma.sync: forced by a deck (80-85% of cuBLAS
  // SGEMM at best on an H200, the SIMT tiles 83-92%: docs/performance.md),
  // but the 64x64 tile's wave split, the rule's for a small C (tf32_small_wsplit).
  if constexpr (kGpuTensorCores) {
    v.push_back(mma_variant<FloatTf32Big, Space, T>());
    v.push_back(mma_variant<FloatTf32Small, Space, T>());
    v.push_back(mma_variant<FloatTf32SmallWaves128, Space, T>());
    v.push_back(mma_variant<FloatTf32SmallWaves32, Space, T>(R::tf32_small_wsplit));
    v.push_back(mma_variant<FloatTf32SmallWaves64, Space, T>());
    if constexpr (kLadderVariants) v.push_back(mma_variant<FloatTf32SmallWaves128Sum, Space, T>());
    if constexpr (kLadderVariants) v.push_back(mma_variant<FloatTf32Wide, Space, T>());
    v.push_back(mma_variant<FloatTf32Deep, Space, T>());
    v.push_back(mma_variant<FloatTf32WideDeep, Space, T>());
    if constexpr (kLadderVariants) v.push_back(mma_variant<FloatTf32SmallLb2, Space, T>());
    v.push_back(mma_variant<FloatTf32MidDeep, Space, T>());
    if constexpr (kLadderVariants) {  // the K permutation of the three one-stage tiles above
      v.push_back(mma_variant<FloatTf32DeepKp, Space, T>());
      v.push_back(mma_variant<FloatTf32WideDeepKp, Space, T>());
      v.push_back(mma_variant<FloatTf32MidDeepKp, Space, T>());
    }
  }
  if constexpr (kGpuOptinScratch && kLadderVariants) {  // past 48 KiB, slower than one stage (docs/performance.md)
    v.push_back(mma_variant<FloatTf32MidDeep2, Space, T>());
    v.push_back(mma_variant<FloatTf32WideDeep2, Space, T>());
  }
  if constexpr (kGpuWgmma && kGpuOptinScratch) {  // 3xTF32 on wgmma (sm_90a)
    v.push_back(wgmma_variant<FloatWgmmaPre, Space, T>(R::wgmma_big));
    v.push_back(wgmma_variant<FloatWgmmaPreSplitK, Space, T>(R::wgmma_splitk));
    v.push_back(wgmma_variant<FloatWgmmaSplitK, Space, T>(R::wgmma_splitk_inplace));
    v.push_back(wgmma_variant<FloatWgmmaPreSplitK512, Space, T>(R::wgmma_splitk512));
    v.push_back(wgmma_variant<FloatWgmmaPreSplitK2048, Space, T>(R::wgmma_splitk2048));
    v.push_back(wgmma_variant<FloatWgmmaPreWaves, Space, T>(R::wgmma_wsplit));
    v.push_back(wgmma_variant<FloatWgmmaWaves, Space, T>(R::wgmma_inplace_wsplit));
    v.push_back(wgmma_variant<FloatWgmmaWavesInPlace, Space, T>(R::wgmma_inplace_wsplit_a));
    v.push_back(wgmma_variant<FloatWgmma, Space, T>());
    v.push_back(wgmma_variant<FloatWgmmaPre64SplitK2048, Space, T>());
    v.push_back(wgmma_variant<FloatWgmmaPre64Waves, Space, T>());
    v.push_back(wgmma_variant<FloatWgmmaPre64Waves128, Space, T>(R::wgmma_pre64_wsplit));
    v.push_back(wgmma_variant<FloatWgmmaRowsNInPlace<80>, Space, T>(R::wgmma_t80));
    v.push_back(wgmma_variant<FloatWgmmaRowsNInPlace<96>, Space, T>(R::wgmma_t96));
    v.push_back(wgmma_variant<FloatWgmmaRowsN<80>, Space, T>());  // A copied first: the rule's until round 47
    v.push_back(wgmma_variant<FloatWgmmaRowsN<96>, Space, T>());
    if constexpr (kLadderVariants) {
      v.push_back(wgmma_variant<FloatWgmmaRowsN<112>, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaRowsN<128>, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaSk, Space, T>());
      v.push_back(wgmma_variant<FloatWgmma64SplitK, Space, T>());
      v.push_back(wgmma_variant<FloatWgmma64Waves, Space, T>());
      v.push_back(wgmma_variant<FloatWgmma3, Space, T>());
      v.push_back(wgmma_variant<FloatWgmma3SplitK, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaWsSplitK, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaWsWaves, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaWs, Space, T>());
    }
    if constexpr (kLadderVariants) {
      v.push_back(wgmma_variant<FloatWgmma64x128, Space, T>());
      v.push_back(wgmma_variant<FloatWgmma128x64, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaCp, Space, T>());
      v.push_back(wgmma_variant<FloatWgmmaCpSplitK, Space, T>());
    }
  }
}

/// Double: the block-tiled kernel, then the warp-tiled shapes, the split
/// tiles and the GEMV-like kernels.
template <class Space>
void gpu_double_variants(std::vector<KernelVariant<Space, double>>& v) {
  using T = double;
  using R = GpuRuleChoice;
  v.push_back(tiled_variant<128, 128, 8, 8, 8, true, Space, T>());  // tiled_gpu.hpp
  v.push_back(tiled_variant<64, 64, 8, 4, 4, true, Space, T>());
  if constexpr (kLadderVariants) {
    // 8x8 tiles without the fragment pipeline: 64x128 (128 threads) with
    // BK = 8 and 4, two and one stages; 128x128 in one 256-thread team.
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 128, 4, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 128, 4, 32, 64, 8, 8, 1, true, 8, 2>, Space, T>());
    v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 1>, Space, T>());
    // One scratch stage: 64x128, 128x128 in one 256-thread team, BK = 16,
    // the transposed 128x64 block, and 8x4 tiles at four teams per SM.
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2>, Space, T>());
    v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 8, 1>, Space, T>());
    v.push_back(warp_variant<GpuTile<128, 128, 16, 32, 64, 8, 8, 1, true, 8, 1>, Space, T>());
    v.push_back(warp_variant<GpuTile<128, 64, 8, 64, 32, 8, 8, 1, true, 8, 2>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 1, true, 8, 4>, Space, T>());
  }
  v.push_back(warp_variant<DoubleSmall, Space, T>(R::small));
  if constexpr (kLadderVariants)  // the small tile with one stage
    v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 1, true, 8, 3>, Space, T>());
  v.push_back(warp_variant<DoubleBig, Space, T>(R::big));
  if constexpr (kLadderVariants) {
    // Fragment double buffering ("fragdb") on 8x8 tiles at two teams per SM
    // (one and no scratch stages), 8x4 at three and four teams and 4x8 at
    // three; 8-byte fragment reads ("lds8") on the big tile; BK = 16 on the
    // big tile without prefetch registers (with them it spills).
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2, 0, true>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 0, true, 8, 2, 0, true>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 8, 3, 0, true>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 0, true, 8, 4, 0, true>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 4, 8, 1, true, 8, 3, 0, true>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 0, false, 8>, Space, T>());
    v.push_back(warp_variant<GpuTile<64, 128, 16, 32, 64, 8, 8, 0, true, 8, 2>, Space, T>());
  }
  v.push_back(warp_variant<DoubleMidSplitK, Space, T>(R::mid_splitk));
  v.push_back(warp_variant<DoubleBigSplitK, Space, T>(R::big_splitk));
  if constexpr (kLadderVariants)  // the one-stage fragment-pipelined big tile, split by 4096
    v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2, 4096, true>, Space, T>());
  v.push_back(warp_variant<DoubleSmallSplitK, Space, T>(R::small_splitk));
  v.push_back(gemv_cols_variant<1, 8, 256, Space, T>(R::gemv_cols_1));
  v.push_back(gemv_cols_variant<8, 8, 256, Space, T>(R::gemv_cols_8));
  v.push_back(gemv_rows_variant<1, 8, 1, 2048, Space, T>(R::gemv_rows_1));
  v.push_back(gemv_rows_variant<4, 8, 4, 0, Space, T>(R::gemv_rows_4));
  v.push_back(gemv_dot_variant<8192, Space, T>(R::gemv_dot));
  // FP64 tensor cores: the rule's double choice past the GEMV-like shapes,
  // on sm_90 from the m16n8k8 / m16n8k16 variants (H200, 2026-11-24:
  // docs/performance.md, "Tensor cores (issue 21)"), else from m8n8k4's.
  constexpr bool sm90 = kGpuMmaSm90;
  if constexpr (kGpuTensorCores) {
    v.push_back(mma_variant<DoubleMmaBig, Space, T>(sm90 ? R::none : R::dmma_big));
    v.push_back(mma_variant<DoubleMmaSmall, Space, T>(sm90 ? R::none : R::dmma_small));
    v.push_back(mma_variant<DoubleMmaSmallSplitK, Space, T>(sm90 ? R::none : R::dmma_small_splitk));
    if constexpr (kLadderVariants) v.push_back(mma_variant<DoubleMmaCp3Big, Space, T>());
  }
  if constexpr (kGpuMmaSm90) {
    v.push_back(mma_variant<DoubleMma16Big, Space, T>(R::dmma_big));
    v.push_back(mma_variant<DoubleMma16k8SmallLb2, Space, T>(R::dmma_small));
    v.push_back(mma_variant<DoubleMma16k8SmallSplitKLb2, Space, T>(R::dmma_small_splitk));
    v.push_back(mma_variant<DoubleMma16k8SmallWaves128Lb2, Space, T>(R::dmma_small_reg_wsplit));
    if constexpr (kLadderVariants) v.push_back(mma_variant<DoubleMma16k8SmallWaves128Lb2Sum, Space, T>());
    v.push_back(mma_variant<DoubleMma16k16SmallSplitKLb2, Space, T>());
    v.push_back(mma_variant<DoubleMma16k8Deep, Space, T>());
    if constexpr (kLadderVariants) {  // slower, and (but 64x64x32) spilling at three teams per SM or BK = 16 on k16
      v.push_back(mma_variant<DoubleMma16k16Small, Space, T>());
      v.push_back(mma_variant<DoubleMma16k16SmallSplitK, Space, T>());
    }
    v.push_back(mma_variant<DoubleMma16k8Big, Space, T>());
    v.push_back(mma_variant<DoubleMma16k8Wide, Space, T>());
    if constexpr (kLadderVariants) {
      v.push_back(mma_variant<DoubleMma16k16Deep, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8SmallSplitK, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8WideDeep, Space, T>());
    }
    v.push_back(mma_variant<DoubleMma16k8MidDeep, Space, T>());
    if constexpr (kLadderVariants) v.push_back(mma_variant<DoubleMma16k8SmallDeep, Space, T>());
    if constexpr (kLadderVariants) {  // cp.async: 5-14 points slower than the register path (docs/performance.md)
      v.push_back(mma_variant<DoubleMma16Cp3Big, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp2Big, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp3Big, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp3Mid, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp4Small, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp2Small, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp2SmallSplitK, Space, T>());
    }
  }
  if constexpr (kGpuOptinScratch) {  // past 48 KiB (issue 21, fourth round: docs/performance.md)
    // The rule's four (m16n8k8's 128x64x16 for short K; the 96x96 split tile last); the other tiles
    // past 48 KiB measured slower (docs/performance.md).
    v.push_back(mma_variant<DoubleMma16k8Cp3Deep, Space, T>(R::dmma_deep_k8));
    v.push_back(mma_variant<DoubleMma16Cp3Deep, Space, T>(R::dmma_deep));
    if constexpr (kLadderVariants) {  // the K permutation of the two above: 8-18 points slower (call 11)
      v.push_back(mma_variant<DoubleMma16k8Cp3DeepKp, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp3DeepKp, Space, T>());
    }
    if constexpr (kLadderVariants) {
      v.push_back(mma_variant<DoubleMma16k8Cp3MidDeep, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp4SmallDeep, Space, T>());
    }
    if constexpr (kLadderVariants)  // the rule's until the twelfth round (two teams per SM)
      v.push_back(mma_variant<DoubleMma16k8Cp4SmallDeepSplitK, Space, T>());
    v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepSplitKLb3, Space, T>(R::dmma_small_splitk_deep));
    v.push_back(mma_variant<DoubleMma16k8Cp4Deep96SplitK, Space, T>(R::dmma_mid_splitk_deep));
    v.push_back(mma_variant<DoubleMma16Cp3DeepSplitK, Space, T>());  // the rule's until the twelfth round: decks
    if constexpr (kLadderVariants)  // 64x64 wave split: 57-73% of cuBLAS DGEMM, the split by 1024 65-79 (eleventh round)
      v.push_back(mma_variant<DoubleMma16k8Cp4SmallDeepWaves, Space, T>());
    if constexpr (kLadderVariants) {  // three teams per SM (twelfth round)
      v.push_back(mma_variant<DoubleMma16k8Cp4SmallDeepSplitKLb3, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp4SmallDeepSplitKLb3, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp4SmallDeepWavesLb3, Space, T>());
    }
    v.push_back(mma_variant<DoubleMma16k8Cp4Deep96Waves, Space, T>(R::dmma_mid_wsplit));
    v.push_back(mma_variant<DoubleMma16Cp3DeepWaves, Space, T>(R::dmma_deep_wsplit));
    v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepWaves128Lb3, Space, T>(R::dmma_small_wsplit));
    if constexpr (kLadderVariants) v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepWaves128Lb3Sum, Space, T>());
    v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepLb3, Space, T>(R::dmma_small_deep));
    v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepSplitKLb3El, Space, T>(R::dmma_small_splitk_deep_el));
    v.push_back(mma_variant<DoubleMma16k8Cp4Deep96WavesEl, Space, T>(R::dmma_mid_wsplit_el));
    v.push_back(
        mma_variant<DoubleMma16k8Cp3SmallDeepSplitKLb3ElInPlace, Space, T>(R::dmma_small_splitk_deep_el_inplace));
    if constexpr (kLadderVariants) {
      v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepWaves64Lb3, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp3DeepWaves128, Space, T>());
      v.push_back(mma_variant<DoubleMma16k8Cp3SmallDeepSplitK256Lb3, Space, T>());
    }
    if constexpr (kLadderVariants) {  // eight warps, one team per SM: slower (tenth round)
      v.push_back(mma_variant<DoubleMma16k8Cp3WideDeep, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp3WideDeep, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp4WideDeep, Space, T>());
    }
    if constexpr (kGpuWgmma) {  // warp-specialized (sm_90a: setmaxnreg; eighteenth round)
      v.push_back(mma_variant<DoubleMma16k16Cp4WideDeepWs, Space, T>(R::dmma_deep_ws));
      v.push_back(mma_variant<DoubleMma16k16Cp4WideDeepWsTail, Space, T>(R::dmma_deep_ws_tail));
      v.push_back(mma_variant<DoubleMma16k16Cp4WideDeepWsSk, Space, T>(R::dmma_deep_ws_sk));
      if constexpr (kLadderVariants) {
        v.push_back(mma_variant<DoubleMma16k16Cp3WideDeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16k16Cp3WideDeep32Ws, Space, T>());
        v.push_back(mma_variant<DoubleMma16k8Cp4WideDeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16Cp4WideDeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16Cp3WideDeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16Cp3WideDeep32Ws, Space, T>());
        v.push_back(mma_variant<DoubleMma16k16Cp3WideDeepWsSplitK, Space, T>());
        v.push_back(mma_variant<DoubleMma16Cp3DeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16k8Cp3DeepWs, Space, T>());
        v.push_back(mma_variant<DoubleMma16k16Cp3DeepWs, Space, T>());
      }
    }
    if constexpr (kLadderVariants) {  // one team per SM: sixteen warps of 32x32, eight of 64x32 (fifteenth round)
      v.push_back(mma_variant<DoubleMma16Cp3Wide16w, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp4Wide16w, Space, T>());
      v.push_back(mma_variant<DoubleMma16Cp3Tall8w, Space, T>());
    }
  }
}
}  // namespace detail

/// The GPU `tiled` table of (Space, T): detail::gpu_float_variants or
/// detail::gpu_double_variants.
template <class Space, class T>
void gpu_variants(std::vector<KernelVariant<Space, T>>& v) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "float or double");
  if constexpr (std::is_same_v<T, float>)
    detail::gpu_float_variants<Space>(v);
  else
    detail::gpu_double_variants<Space>(v);
}

}  // namespace mmapp
