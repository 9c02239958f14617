// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tiled_gpu_mma.hpp — the team-tiled GEMM on tensor cores (issue 21): the
// structure of gemm_tiled_warp (tiled_gpu_warp.hpp: a Kokkos TeamPolicy
// parallel_for, level-0 scratch tiles in two stages, its global tile loader,
// block swizzle, parameters and split-K plan), with the warp's register-tile
// update done by `mma.sync` (warp/mma_shapes.hpp) instead of SIMT FMAs:
//   double: FP64 tensor cores (DMMA), mma.m8n8k4.row.col.f64, sm_80 and later,
//           or sm_90's mma.m16n8k4 / m16n8k8 / m16n8k16 .row.col.f64
//           (GpuMmaTile shape 1 / 2 / 3);
//   float:  3xTF32 on the TF32 tensor cores, mma.m16n8k8.row.col.f32.tf32:
//           a = a_big + a_small with a_big = tf32(a) and a_small =
//           tf32((a - a_big) * 2^11) (likewise b), split once per element
//           when the team stores a K tile to scratch (the two parts in two
//           halves of the stage), not per warp's fragment read; per MMA tile
//           dc += a_small b_big + a_big b_small on the tensor core (small
//           products first, NVIDIA CUTLASS example 27, 27_ampere_3xtf32_fast_accurate_tensorop_gemm),
//           and acc += a_big b_big computed by the tensor core from a zero
//           accumulator and added in FP32 outside it (round to nearest: the
//           tensor core's own accumulation truncates); C = acc + dc * 2^-11
//           (Ootomo and Yokota, arXiv:2203.03341, sections 3-4: the separate
//           accumulation and the 2^11 scaling against underflow of a_small).
// Each warp owns a WM x WN sub-tile of the BM x BN block tile as (WM/M) x
// (WN/N) MMA tiles of the instruction's M x N; a K tile of BK is BK/K MMA
// steps. Scratch (per stage, and per part for 3xTF32): A as As[m][k] with row pitch BK + 4 and B as
// Bs[k][n] with row pitch BN + 4 (double) or BN + 8 (float), both written
// as 16-byte chunks; with these pitches the fragment reads of a warp (a0 =
// A(g, t), b0 = B(t, g), g = lane / 4, t = lane % 4) hit distinct banks: for
// double each half-warp's 16 8-byte reads, 4g + t and 4t + g modulo 16
// 8-byte bank pairs; for float the warp's 32 4-byte reads, ((BK+4) g + t)
// and ((BN+8) t + g) modulo 32 banks. ldmatrix is not used (it moves
// 16-bit 8x8 matrices: no f64; for tf32 it would need pairs of b16 and a
// transposed layout, left for later).
// K permutation (GpuMmaTile's KPerm, a ladder variant; off by default):
// the MMA sums over k, so the BK columns of a K tile may feed the (step,
// instruction column) slots in any order that A and B share. KPermK's
// order gives each lane its A elements of a whole K tile as one contiguous
// run per row (BK/4 elements: 16-byte loads, LDS.128, instead of one
// LDS.64 / LDS.32 per element); A's pitch is then the least pad at which
// the run loads are conflict-free (rows g and g + 1 of a phase of 8 lanes:
// double BK 16, pitch 18; float BK 16, pitch 16). B's reads stay scalar, a
// step's rows for t = 0..3 now BK/4 apart: at best 2-way conflicting with
// rows of whole 16-byte chunks, B's pitch the least pad that reaches it
// (double and float BN 64: pitch 66, 68). Both pitches are computed at
// compile time by a model of the banks (smem_load_ways) and asserted.
// Asynchronous pipeline (GpuMmaTile's Async, double only): the K tiles go
// from global memory to scratch by cp.async (sm_80+), 2-4 stages, one
// barrier per K tile (warp/async_pipeline.hpp; CUTLASS 2.x
// mma_multistage.h), with no prefetch registers; chunks of misaligned
// operands through registers. 3xTF32 keeps the register path: its split
// into big and small parts happens once per element at the scratch store;
// with raw floats in scratch every warp would split every fragment it reads
// (2-4 times per element: measured ~54% against ~66% of SGEMM when that
// was the scheme, docs/performance.md).
// Where the device has no mma.sync (host backends, a device build for
// __CUDA_ARCH__ < 800) the same kernel runs with the instruction emulated
// from the 32 lanes' fragments read back from scratch (mma_emulate): that
// is how the host tests run its data path (tests/test_mma_host.cpp); the
// GPU catalog lists these variants only for architectures with the
// instruction (catalog_gpu.hpp), so a GPU build for older devices keeps the
// SIMT kernels alone.
// Parallel mapping: league = ceil(M/BM) * ceil(N/BN) * S teams, team =
// (BM/WM) * (BN/WN) warps of 32 (plus the producer warps); with the tail
// split (TailSplit) the whole waves' tiles, then the last wave's tiles
// times their K slices (splitk.hpp, tail_split_plan); with Stream-K (StreamK)
// the whole waves' tiles, then one team per run of the rest's K tiles, each
// computing one or two segments (stream_k.hpp). Any M, N, K >= 0, any row stride and
// alignment (the loader's masked path at the edges). FLOPs: 2*M*N*K (the
// float variant runs 3 tensor-core products per multiply-add).
#pragma once

#include "kernels/gpu/aligned_operands.hpp"
#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/stream_k.hpp"
#include "kernels/gpu/warp/async_pipeline.hpp"
#include "kernels/gpu/warp/epilogue.hpp"
#include "kernels/gpu/warp/loader.hpp"
#include "kernels/gpu/warp/mma_shapes.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/gpu/warp/segment.hpp"
#include "kernels/gpu/warp/swizzle.hpp"
#include "kernels/gpu/warp/tile.hpp"
#include "kernels/gpu/warp/ws_pipeline.hpp"
#include "kernels/unroll.hpp"
#include "core/kokkos_compat.hpp"
#include "core/types.hpp"

#include <cstddef>
#include <cstdint>
#include <string>
#include <type_traits>

namespace mmapp {

/// Compile-time shape of gemm_tiled_mma: BM x BN x BK block tile, WM x WN
/// warp tile (a multiple of the instruction's M x N: 8x8 for double, 16x8
/// for float), MinBlocks: launch bounds' blocks per SM (0: none), SplitKc:
/// K chunk per team (0: no split-K), Swizzle: block-row group (0: none).
/// Shape: the instruction (0: the dtype's default; double on sm_90: 1 =
/// m16n8k4, 2 = m16n8k8, 3 = m16n8k16). Stages: scratch stages, 2 (one
/// barrier per K tile) or 1 (two barriers per K tile, half the scratch: for
/// deep K tiles within Kokkos' 48 KiB of level-0 scratch). Async: the
/// multistage pipeline (double only; file comment, "Asynchronous
/// pipeline"): global -> scratch by cp.async, Stages 2, 3 or 4, one
/// barrier per K tile. KPerm: the K permutation inside a K tile (KPermK,
/// file comment "K permutation"; off by default): each lane's A fragments
/// of a K tile contiguous in its scratch row, read by 16-byte loads.
/// Producers: with Async, warps added to the team that only copy K tiles
/// (warp/ws_pipeline.hpp: mbarriers per stage, no team barrier in the K
/// loop); 0: every thread copies (async_mainloop). 16-byte global loads
/// where aligned. The members GlobalTileLoader reads (BM, BN, BK,
/// team_size, vec, frag_pipe, stages) have the meaning of GpuTile's.
template <int BM_, int BN_, int BK_, int WM_, int WN_, int MinBlocks_, int SplitKc_ = 0, int Swizzle_ = 8,
          int Shape_ = 0, int Stages_ = 2, bool Async_ = false, bool KPerm_ = false, int Producers_ = 0>
struct GpuMmaTile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_;
  /// The instruction: 0 = m8n8k4 f64 (double) or m16n8k8 tf32 (float, 3xTF32);
  /// double on sm_90: 1 = m16n8k4, 2 = m16n8k8, 3 = m16n8k16.
  static constexpr int shape = Shape_;
  static constexpr int stages = Stages_;
  /// The cp.async multistage pipeline (true) or the register path (false).
  static constexpr bool async = Async_;
  /// The K permutation of the fragment reads (KPermK) and its scratch pitches (MmaScratch).
  static constexpr bool kperm = KPerm_;
  static_assert(Async_ ? (Stages_ >= 2 && Stages_ <= 4) : (Stages_ == 1 || Stages_ == 2),
                "register path: one or two scratch stages; cp.async pipeline: 2, 3 or 4");
  static constexpr bool vec = true;
  static constexpr bool frag_pipe = false;
  static constexpr int frag_bytes = 16;
  static constexpr int swizzle = Swizzle_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int split_kc = SplitKc_;
  static constexpr bool split_waves = false;  ///< WaveSplit<Cfg>: K split to fill the waves (splitk.hpp)
  static constexpr bool tail_split = false;   ///< TailSplit<Cfg>: the last wave's tiles split in K
  static constexpr bool stream_k = false;     ///< StreamK<Cfg>: the last wave's K tiles spread over a wave
  static constexpr bool last_team_sum = false;  ///< LastTeamSum<Cfg>: the slices summed in the launch (splitk.hpp)
  static constexpr int tail_slots = 0;        ///< TailSplit's and StreamK's slots: 0 the device's, > 0 fixed
  static constexpr bool elem_chunks = false;  ///< ElemChunks<Cfg>: unaligned operands' K tiles without the masks
  static constexpr bool copies = true;        ///< ElemChunks<Cfg, false>: unaligned operands never copied
  static constexpr bool warp_tiled = true;
  static constexpr int warps = (BM / WM) * (BN / WN);  ///< the warps that multiply
  static constexpr int producers = Producers_;         ///< copy-only warps (warp/ws_pipeline.hpp)
  static_assert(Producers_ == 0 || (Async_ && Producers_ > 0), "producer warps: the cp.async pipeline only");
  static constexpr int consumer_threads = 32 * warps, producer_threads = 32 * Producers_;
  static constexpr int team_size = consumer_threads + producer_threads;
  /// Registers per thread after `setmaxnreg` (warp/ws_pipeline.hpp; sm_90a) where the producers are
  /// one warpgroup and the consumers whole warpgroups: the producers keep 24, the consumers share
  /// the rest of the team's part of the register file (65536 / MinBlocks), in steps of 8, at most
  /// 248 (the instruction's range: 24-256). 0: no setmaxnreg (the launch bounds' share for all).
  static constexpr int producer_regs = Producers_ == 4 && warps % 4 == 0 ? 24 : 0;
  static constexpr int consumer_regs_of() {
    const int r = (65536 / (MinBlocks_ > 0 ? MinBlocks_ : 1) - 128 * producer_regs) / (32 * warps) / 8 * 8;
    return r > 248 ? 248 : r;
  }
  static constexpr int consumer_regs = producer_regs > 0 ? consumer_regs_of() : 0;
};

/// Cfg (a cp.async GpuMmaTile without producer warps) whose loads of an
/// operand with rows not 16-byte aligned (odd N or K of double, read in
/// place) take the interior and edge paths of the aligned ones, element by
/// element (AsyncTileLoader::issue_chunks' Elems), rather than the masked
/// path's per-chunk row, column and bounds arithmetic on every K tile. A
/// variant of its own, so that the other tiles keep their code: with the
/// path in every cp.async tile, ptxas (CUDA 13.0, sm_90a) gave the 64x64
/// deep tile at three teams per SM 168 registers and 4 bytes of spill
/// (164 and none without it) and the warp-specialized 128x128 tile 20 more
/// bytes of spill (forty-sixth round). Its tag adds "el". With Copies
/// false, no operand is copied to aligned rows (the workspace has no room
/// for it): every unaligned operand goes through those paths, where the
/// cp.async tiles would copy those that C reuses enough (CopyRule::dmma,
/// one launch each before the GEMM's); its tag then adds "el inplace".
template <class Cfg, bool Copies = true>
struct ElemChunks : Cfg {
  static_assert(Cfg::async && Cfg::producers == 0, "element chunks: the cp.async pipeline's loader, every thread");
  static constexpr bool elem_chunks = true;
  static constexpr bool copies = Copies;
};

/// Cfg (a GpuMmaTile without split-K) with the tail split (splitk.hpp,
/// tail_split_plan): the tiles of the whole waves run whole, those of the
/// partial last wave are cut into K slices that run side by side in it,
/// their partial tiles summed by tail_split_reduce. For one team per SM
/// on a partial last wave of few tiles (the rule's 128x128 double tile at
/// 8192^3 on an H200: 4096 tiles on 132 slots, a 32nd wave of 4 tiles,
/// about 3% of the time; docs/performance.md, twenty-fifth round). Slots:
/// the team slots the plan fills, 0 for the device's (min_blocks x
/// gpu_sm_estimate), a fixed count for the host tests. Its tag adds "tail"
/// ("tailN" with Slots = N).
template <class Cfg, int Slots = 0>
struct TailSplit : Cfg {
  static_assert(Cfg::split_kc == 0, "the tail split: a tile whose K is not split already");
  static_assert(Slots >= 0, "slots: 0 (the device's) or a count");
  static constexpr bool tail_split = true;
  static constexpr int tail_slots = Slots;
};

/// Cfg (a cp.async GpuMmaTile without split-K) with the Stream-K
/// decomposition of its last wave (stream_k.hpp, stream_k_plan): the tiles
/// of the whole waves run whole, the K tiles of the rest are cut into equal
/// runs over at most one wave of teams, a team's run covering the end of
/// one tile and the start of the next at most, the partial tiles summed by
/// stream_k_reduce. Unlike TailSplit, every SM gets the same share however
/// many tiles the last wave holds, and a lone partial wave (fewer tiles
/// than slots) is streamed too. Slots as TailSplit's. Its tag adds "sk"
/// ("skN" with Slots = N).
template <class Cfg, int Slots = 0>
struct StreamK : Cfg {
  static_assert(Cfg::split_kc == 0 && !Cfg::tail_split, "Stream-K: a tile whose K is not split already");
  static_assert(Cfg::async, "Stream-K: the cp.async pipelines (the stages its segments are padded to)");
  static_assert(Slots >= 0, "slots: 0 (the device's) or a count");
  static constexpr bool stream_k = true;
  static constexpr int tail_slots = Slots;
};

/// Workspace of gemm_tiled_mma<Cfg> for an m x n x k GEMM of T, in bytes:
/// tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::async, CopyRule::dmma>, with a
/// TailSplit or StreamK Cfg its partial tiles first (tail_split_workspace_bytes,
/// stream_k_workspace_bytes: the most any plan of theirs writes; rounded up
/// to 256 bytes) and the operand copies after them.
template <class Cfg, class T>
std::size_t mma_workspace_bytes(const long m, const long n, const long k) {
  const std::size_t rest = tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::async && Cfg::copies, CopyRule::dmma>(m, n, k);
  if constexpr (!Cfg::tail_split && !Cfg::stream_k) {
    return rest;
  } else {
    const std::size_t tail = Cfg::stream_k
                                 ? stream_k_workspace_bytes<T, Cfg::BM, Cfg::BN>(m, n, k, Cfg::BK, Cfg::stages)
                                 : tail_split_workspace_bytes<T, Cfg::BM, Cfg::BN>(m, n, k);
    return tail == 0 ? rest : std::size_t(detail::round_up(long(tail), 256)) + rest;
  }
}

namespace detail {

/// The instruction of gemm_tiled_mma for T and GpuMmaTile::shape: DMMA
/// m8n8k4 (or m16n8k4 with shape 1) for double, TF32 m16n8k8 (3xTF32) for float.
template <class T, int Shape>
using MmaShapeOf = std::conditional_t<
    std::is_same_v<T, double>,
    std::conditional_t<Shape == 1, MmaF64m16n8k4,
                       std::conditional_t<Shape == 2, MmaF64m16n8k8,
                                          std::conditional_t<Shape == 3, MmaF64m16n8k16, MmaF64m8n8k4>>>,
    MmaTf32m16n8k8>;

/// Bank conflicts of one warp-wide shared-memory load: the most distinct
/// 4-byte words that one bank serves within a phase, lane l reading `bytes`
/// (4, 8 or 16) bytes at byte offset addr[l]. The model: 32 banks of 4
/// bytes; a warp's 4-, 8- and 16-byte loads are served in phases of 32, 16
/// and 8 consecutive lanes (128 bytes a phase; NVIDIA, CUDA C++ Programming
/// Guide, "Shared Memory", compute capability 5.x and later). 1: conflict-free.
constexpr int smem_load_ways(const int (&addr)[32], const int bytes) {
  const int phase = 128 / bytes;
  int worst = 1;
  for (int p0 = 0; p0 < 32; p0 += phase) {
    for (int bank = 0; bank < 32; ++bank) {
      int words[32] = {}, n = 0;  // the distinct words of this bank in this phase
      for (int l = p0; l < p0 + phase; ++l)
        for (int w = addr[l] / 4; w < (addr[l] + bytes) / 4; ++w) {
          if (w % 32 != bank) continue;
          bool seen = false;
          for (int i = 0; i < n; ++i) seen = seen || words[i] == w;
          if (!seen) words[n++] = w;
        }
      worst = n > worst ? n : worst;
    }
  }
  return worst;
}

/// The K permutation of a kperm tile (GpuMmaTile's KPerm; file comment, "K
/// permutation") for instruction Shape, K tile BK and element T. The MMA
/// sums over k, so any bijection pi of a K tile's BK scratch columns onto
/// its (step ks < KS = BK / K, instruction column kin < K) slots gives the
/// same product when A's and B's fragment reads both use it: slot (ks, kin)
/// reads A column pi(ks, kin) and B row pi(ks, kin). In every layout of
/// mma_shapes.hpp a lane's A columns (and B rows) in a step are t + 4 j
/// (t = lane % 4, j < K / 4), so
///   pi(ks, kin) = (kin % 4) * (BK / 4) + ks * (K / 4) + kin / 4
/// gives lane t the run [t BK/4, (t + 1) BK/4) of each of its A rows over
/// the KS steps, in step order (step ks's column t + 4 j at run element
/// ks K/4 + j): BK/4 contiguous elements, read by 16-byte loads of G steps
/// each instead of one scalar load per element. E.g. double m16n8k4 at BK
/// 16: pi(ks, t) = 4 t + ks, lane (g, t) reads As[g][4t .. 4t+3] as two
/// 16-byte loads (steps 0-1 and 2-3); double m16n8k8 at BK 16: one 16-byte
/// load per row and step (columns t, t + 4 at 4t + 2ks, 4t + 2ks + 1);
/// float (TF32) m16n8k8 at BK 16: one 16-byte load per row for both steps.
/// B's reads stay scalar (a lane's B elements lie in different rows).
template <class Shape, int BK, class T>
struct KPermK {
  static constexpr int groups = 4;              ///< threadID_in_group's range: a lane's column stride
  static constexpr int KJ = Shape::K / groups;  ///< a lane's A columns per row and step
  static constexpr int KS = BK / Shape::K;      ///< steps per K tile
  static constexpr int run = BK / groups;       ///< a lane's A elements per row over the K tile
  static constexpr int V = 16 / int(sizeof(T));  ///< elements per 16-byte load
  static_assert(Shape::K % groups == 0 && V % KJ == 0,
                "kperm: K a multiple of 4, a lane's step within one 16-byte load");
  static constexpr int G = V / KJ;  ///< steps whose A fragments one 16-byte load brings
  static_assert(KS % G == 0 && (run * int(sizeof(T))) % 16 == 0, "kperm: a lane's run in whole 16-byte loads");

  /// pi: the scratch column of K tile slot (step ks, instruction column kin).
  KOKKOS_INLINE_FUNCTION static constexpr int col(const int ks, const int kin) {
    return (kin % groups) * run + ks * KJ + kin / groups;
  }
  /// The A register of the lane's row of register r at instruction column
  /// t + 4 j (the layouts' structure does not depend on the lane: layout_ok).
  KOKKOS_INLINE_FUNCTION static constexpr int a_reg(const int r, const int j) {
    int q = 0;
    while (q < Shape::a_regs && !(Shape::a_row(0, q) == Shape::a_row(0, r) && Shape::a_col(0, q) == groups * j)) ++q;
    return q;
  }
  /// True when Shape's layouts have the structure pi relies on: lane l's A
  /// columns and B rows are l % 4 + 4 j, its A rows those of lane 0 plus l / 4,
  /// and every (row, j) of a lane held by one register.
  static constexpr bool layout_ok() {
    for (int l = 0; l < 32; ++l) {
      for (int r = 0; r < Shape::a_regs; ++r) {
        if (Shape::a_col(l, r) - l % groups != Shape::a_col(0, r) || Shape::a_col(0, r) % groups != 0) return false;
        if (Shape::a_row(l, r) - l / groups != Shape::a_row(0, r)) return false;
        if (a_reg(r, Shape::a_col(0, r) / groups) != r) return false;
      }
      for (int r = 0; r < Shape::b_regs; ++r)
        if (Shape::b_row(l, r) % groups != l % groups) return false;
    }
    return true;
  }

  /// Bank conflicts (smem_load_ways) of the warp's 16-byte A run loads at A pitch lda (elements).
  static constexpr int a_ways(const int lda) {
    int worst = 1;
    for (int r = 0; r < Shape::a_regs; ++r) {
      if (Shape::a_col(0, r) != 0) continue;  // a run starts at the row's column t
      for (int kg = 0; kg < KS / G; ++kg) {
        int addr[32] = {};
        for (int l = 0; l < 32; ++l) addr[l] = (Shape::a_row(l, r) * lda + col(kg * G, l % groups)) * int(sizeof(T));
        const int w = smem_load_ways(addr, 16);
        worst = w > worst ? w : worst;
      }
    }
    return worst;
  }
  /// Bank conflicts of the warp's scalar B reads at B pitch ldb (elements).
  static constexpr int b_ways(const int ldb) {
    int worst = 1;
    for (int ks = 0; ks < KS; ++ks)
      for (int r = 0; r < Shape::b_regs; ++r) {
        int addr[32] = {};
        for (int l = 0; l < 32; ++l)
          addr[l] = (col(ks, Shape::b_row(l, r)) * ldb + Shape::b_col(l, r)) * int(sizeof(T));
        const int w = smem_load_ways(addr, int(sizeof(T)));
        worst = w > worst ? w : worst;
      }
    return worst;
  }
  /// The pad of a row of `width` elements with the fewest conflicts of
  /// `ways` (a_ways or b_ways): 0 to 3 16-byte chunks (rows stay 16-byte
  /// aligned for the stores of 16-byte chunks), the least among ties.
  template <class Ways>
  static constexpr int pad(const int width, const Ways ways) {
    int best = 0;
    for (int p = V; p < 4 * V; p += V)
      if (ways(width + p) < ways(width + best)) best = p;
    return best;
  }
};

/// The scratch stages of a gemm_tiled_mma team (layout: file comment). For
/// float (3xTF32) a stage holds two parts, the big and the scaled small
/// TF32 parts of the tile (tf32_split, done once per element when the tile
/// is stored), each part laid out as a double stage's A and B.
template <class Cfg, class T>
struct MmaScratch {
  using Chunk = Chunk16<T>;
  using Perm = KPermK<MmaShapeOf<T, Cfg::shape>, Cfg::BK, T>;  ///< kperm tiles' K permutation
  /// Bs row pitch's pad: 4 (double) or 8 (float); a kperm tile's the
  /// least-conflicting (KPermK::pad; file comment, "K permutation").
  static constexpr int b_pad() {
    if constexpr (Cfg::kperm)
      return Perm::pad(Cfg::BN, [](const int ldb) { return Perm::b_ways(ldb); });
    else
      return sizeof(T) == 8 ? 4 : 8;
  }
  static constexpr int ldb_s = Cfg::BN + b_pad();                          ///< Bs row pitch, elements
  /// Level-0 scratch a team may have: unpatched (default_limit) and in this build (limit; warp/scratch.hpp).
  static constexpr std::size_t default_limit = team_scratch_default_limit(Cfg::team_size);
  static constexpr std::size_t limit = team_scratch_limit(Cfg::team_size);
  /// Scratch bytes of the stages with A's row pitch BK + pad.
  static constexpr std::size_t stages_bytes(const int pad) {
    return std::size_t(Cfg::stages) * (Cfg::BM * (Cfg::BK + pad) + Cfg::BK * ldb_s) * sizeof(T) + 16;
  }
  /// The A pitch's pad: 4 elements; 2 for a cp.async pipeline whose stages
  /// pass default_limit with 4 and fit it with 2 (double BK = 8: 3 stages
  /// of 128x64x8 in 42.8 KiB instead of 48.8; the fragment reads of the rows
  /// g and g + 3 of a half-warp then share two bank pairs).
  /// A kperm tile: the least pad whose 16-byte run loads are conflict-free (KPermK::pad).
  static constexpr int a_pad_of() {
    if constexpr (Cfg::kperm)
      return Perm::pad(Cfg::BK, [](const int lda) { return Perm::a_ways(lda); });
    else
      return Cfg::async && stages_bytes(4) > default_limit && stages_bytes(2) <= default_limit ? 2 : 4;
  }
  static constexpr int a_pad = a_pad_of();
  static constexpr int lda_s = Cfg::BK + a_pad;                            ///< As row pitch, elements
  /// Bank conflicts (smem_load_ways) of a kperm tile's A run loads and B
  /// reads at these pitches (1 where kperm is off: not modelled).
  static constexpr int kperm_a_ways() {
    if constexpr (Cfg::kperm) {
      static_assert(Perm::layout_ok(), "kperm: a lane's A columns and B rows t + 4 j (KPermK)");
      return Perm::a_ways(lda_s);
    } else {
      return 1;
    }
  }
  static constexpr int kperm_b_ways() {
    if constexpr (Cfg::kperm)
      return Perm::b_ways(ldb_s);
    else
      return 1;
  }
  static_assert(kperm_a_ways() == 1, "kperm: the A run loads conflict-free");
  // kperm's B reads: the rows of lanes t = 0..3 in a step lie BK/4 rows apart
  // (adjacent without kperm); with rows of whole 16-byte chunks two of them
  // share banks at best (double BK 16: 4 ldb = 0 or 8 mod 16 bank pairs).
  static_assert(kperm_b_ways() <= 2, "kperm: B reads at most 2-way conflicting");
  /// Steps whose A fragments a warp's A load brings: KPermK::G on a kperm tile, else 1.
  static constexpr int a_group_of() {
    if constexpr (Cfg::kperm)
      return Perm::G;
    else
      return 1;
  }
  static constexpr int a_group = a_group_of();
  static constexpr int a_elems = Cfg::BM * lda_s;
  static constexpr int parts = std::is_same_v<T, float> ? 2 : 1;           ///< 3xTF32: big and small parts
  static constexpr int part_elems = a_elems + Cfg::BK * ldb_s;             ///< one part's A and B
  static constexpr int stage_elems = parts * part_elems;
  /// A warp-specialized team's mbarriers (full and empty per stage, warp/ws_pipeline.hpp), after the stages.
  static constexpr std::size_t bar_bytes = Cfg::producers > 0 ? 16 * std::size_t(Cfg::stages) : 0;
  static constexpr std::size_t bytes =
      std::size_t(Cfg::stages * stage_elems) * sizeof(T) + bar_bytes + sizeof(Chunk);
  static_assert((lda_s * sizeof(T)) % 16 == 0 && (ldb_s * sizeof(T)) % 16 == 0 && (a_elems * sizeof(T)) % 16 == 0 &&
                    (part_elems * sizeof(T)) % 16 == 0,
                "scratch rows: 16-byte aligned");
  static_assert(bytes <= limit, "scratch stages: within the level-0 scratch per team that this build's Kokkos allows");
  /// True when the stages need more than the default 48 KiB (the opt-in patch).
  static constexpr bool optin = bytes > default_limit;
  /// The C tile staged over the stages for the row-wise epilogue where C's
  /// rows take no pairs or no 16-byte chunks (WarpGemmParams::stages_rows;
  /// StagedC, store_staged_rows). Not on warp-specialized
  /// tiles: their producers leave before the epilogue, so no team barrier there.
  using Staged = StagedC<Cfg::BM, Cfg::BN, Cfg::team_size, T>;
  static constexpr bool stage_c = Cfg::producers == 0 && Staged::fits;

  T* smem;
  template <class Member>
  KOKKOS_INLINE_FUNCTION MmaScratch(const Member& team, const std::size_t scratch_bytes) {
    char* raw = static_cast<char*>(team.team_shmem().get_shmem(scratch_bytes));
    const std::size_t mis = reinterpret_cast<std::uintptr_t>(raw) % sizeof(Chunk);
    smem = reinterpret_cast<T*>(raw + (mis ? sizeof(Chunk) - mis : 0));
  }
  /// Stage s's A (part 0: the values, or 3xTF32's big parts; part 1: the scaled small parts).
  KOKKOS_INLINE_FUNCTION T* a(const int s, const int part = 0) const {
    return smem + s * stage_elems + part * part_elems;
  }
  /// Stage s's B (parts as a()).
  KOKKOS_INLINE_FUNCTION T* b(const int s, const int part = 0) const {
    return smem + s * stage_elems + part * part_elems + a_elems;
  }
  /// The 2 S mbarriers of a warp-specialized team (bar_bytes; 16-byte aligned: stages of 16-byte rows).
  KOKKOS_INLINE_FUNCTION std::uint64_t* bars() const {
    return reinterpret_cast<std::uint64_t*>(smem + Cfg::stages * stage_elems);
  }
};

/// One warp's MMA tiles in a gemm_tiled_mma team: fragment reads from
/// scratch (any lane's, so that the emulation can gather a warp's), the
/// MMAs of one K tile and the epilogue.
template <class Cfg, class T>
struct MmaWarpTile {
  using Shape = MmaShapeOf<T, Cfg::shape>;
  static_assert(Cfg::shape == 0 || std::is_same_v<T, double>, "shapes 1-3 (sm_90 f64): double only");
  using Reg = typename Shape::Reg;
  using Scratch = MmaScratch<Cfg, T>;
  static constexpr bool split3 = std::is_same_v<T, float>;  ///< 3xTF32
  static constexpr int MI = Cfg::WM / Shape::M, NJ = Cfg::WN / Shape::N, KS = Cfg::BK / Shape::K;
  static constexpr int CR = Shape::c_regs, AR = Shape::a_regs, BR = Shape::b_regs;
  static constexpr int warps_n = Cfg::BN / Cfg::WN;
  static_assert(Cfg::WM % Shape::M == 0 && Cfg::WN % Shape::N == 0 && Cfg::BK % Shape::K == 0,
                "warp tile and BK: multiples of the instruction's M, N, K");
  static_assert(Cfg::BM % Cfg::WM == 0 && Cfg::BN % Cfg::WN == 0, "warp tiles divide the block tile");

  int lane, wm, wn;  ///< lane; the warp tile's first row and column in the block tile

  KOKKOS_INLINE_FUNCTION explicit MmaWarpTile(const int tid) {
    const int warp = tid / 32;
    lane = tid % 32;
    wm = (warp / warps_n) * Cfg::WM;
    wn = (warp % warps_n) * Cfg::WN;
  }

  static constexpr bool kperm = Cfg::kperm;
  using Perm = typename Scratch::Perm;
  /// Steps per A load group: a kperm tile's 16-byte load brings G steps' A fragments (KPermK::G); else 1.
  static constexpr int G = Scratch::a_group;
  // The order of a K tile's fragment loads and MMAs. Steps (a_late
  // false): all rows' A of a group's G steps at once, then per step its B
  // and the MI x NJ MMAs; with G = 1 the order of every tile but kperm's.
  // Rows (a_late): B of the G steps first, then per row its A of the G
  // steps and its MMAs. Without kperm (G = 1) the rows order was measured
  // on sm_90 with wide fragments: more spills and 10-20% slower
  // (docs/performance.md), so steps. A kperm load brings G > 1 steps' A
  // (double m16n8k4, float): the order with fewer fragment registers live
  // (the estimates below; ptxas on sm_90: double m16n8k4 128x64x16 spills
  // 48/104 bytes in steps order, none in rows order; float 64x128x16 in
  // warps of 32x64 spills less in steps order).
  static constexpr int steps_regs = G * MI * AR + NJ * BR, rows_regs = G * NJ * BR + G * AR;
  static constexpr bool a_late = G > 1 && rows_regs < steps_regs;

  /// The scratch column of A (row of B) that feeds instruction column kin
  /// of step ks: ks K + kin, or a kperm tile's permutation KPermK::col.
  KOKKOS_INLINE_FUNCTION static constexpr int kcol(const int ks, const int kin) {
    if constexpr (kperm)
      return Perm::col(ks, kin);
    else
      return ks * Shape::K + kin;
  }
  /// Lane ln's A fragment of MMA row mi, step ks, stage As (elements as in
  /// scratch), one scalar read per element.
  KOKKOS_INLINE_FUNCTION void raw_a(const T* As, const int ln, const int mi, const int ks, T (&a)[AR]) const {
    MMAPP_UNROLL
    for (int r = 0; r < AR; ++r)
      a[r] = As[(wm + mi * Shape::M + Shape::a_row(ln, r)) * Scratch::lda_s + kcol(ks, Shape::a_col(ln, r))];
  }
  /// Lane ln's A fragments of MMA row mi for the G steps of group kg (steps
  /// kg G ..): raw_a's, or on a kperm tile the lane's contiguous runs (one
  /// per A row), a 16-byte load each where the device is CUDA and element
  /// by element from the same addresses on the host.
  KOKKOS_INLINE_FUNCTION void frag_a(const T* As, const int ln, const int mi, const int kg, T (&a)[G][AR]) const {
    if constexpr (!kperm) {
      raw_a(As, ln, mi, kg, a[0]);
    } else {
      MMAPP_UNROLL
      for (int r = 0; r < AR; ++r) {
        if (Shape::a_col(0, r) != 0) continue;  // one run per row: from the register at column t
        const T* const src = As + (wm + mi * Shape::M + Shape::a_row(ln, r)) * Scratch::lda_s +
                             Perm::col(kg * G, Shape::a_col(ln, r));
        Chunk16<T> x;
#if defined(__CUDA_ARCH__)
        x = *reinterpret_cast<const Chunk16<T>*>(src);
#else
        for (int e = 0; e < Perm::V; ++e) x.v[e] = src[e];
#endif
        MMAPP_UNROLL
        for (int e = 0; e < Perm::V; ++e) a[e / Perm::KJ][Perm::a_reg(r, e % Perm::KJ)] = x.v[e];
      }
    }
  }
  /// Lane ln's B fragment of MMA column nj, step ks, stage Bs.
  KOKKOS_INLINE_FUNCTION void raw_b(const T* Bs, const int ln, const int nj, const int ks, T (&b)[BR]) const {
    MMAPP_UNROLL
    for (int r = 0; r < BR; ++r)
      b[r] = Bs[kcol(ks, Shape::b_row(ln, r)) * Scratch::ldb_s + wn + nj * Shape::N + Shape::b_col(ln, r)];
  }
  /// Scratch elements -> registers: the value itself (double), or the TF32
  /// bits of a part already split in scratch (float).
  template <int R>
  KOKKOS_INLINE_FUNCTION static void to_regs(const T (&x)[R], Reg (&r)[R]) {
    MMAPP_UNROLL
    for (int i = 0; i < R; ++i) {
      if constexpr (split3) {
        r[i] = f32_bits(x[i]);
      } else {
        r[i] = x[i];
      }
    }
  }
  /// The 3xTF32 split of a chunk being stored: big and scaled small parts (float), or the chunk itself.
  template <class Chunk>
  KOKKOS_INLINE_FUNCTION static void split_chunk(const Chunk& x, Chunk& big, Chunk& small) {
    if constexpr (split3) {
      static_assert(Chunk::width == 4, "3xTF32: 16-byte chunks of four floats (tf32_split4)");
      std::uint32_t ub[4], us[4];
      tf32_split4(x.v, ub, us);
      MMAPP_UNROLL
      for (int e = 0; e < 4; ++e) {
        big.v[e] = bits_f32(ub[e]);
        small.v[e] = bits_f32(us[e]);
      }
    } else {
      big = x;
      (void)small;
    }
  }

  /// d = a b + c for this lane: the instruction where the device has it,
  /// else the emulation from all lanes' registers (ga, gb: [32][regs], read
  /// back from scratch); there a lane whose own registers a, b differ from
  /// its row of ga, gb (a wrong fragment passed by tile()) gets NaN in d.
  KOKKOS_INLINE_FUNCTION static void mma(T (&d)[CR], const Reg (&a)[AR], const Reg (&b)[BR], const T (&c)[CR],
                                         const int lane, const Reg (*ga)[AR], const Reg (*gb)[BR]) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
    (void)lane, (void)ga, (void)gb;
    if constexpr (Shape::min_arch <= __CUDA_ARCH__)
      Shape::mma(d, a, b, c);
    else  // the catalog lists no such variant for this architecture
      Kokkos::abort("gemm_tiled_mma: this mma shape needs a newer GPU architecture");
#else
    auto same = [](const Reg x, const Reg y) { return x == y || (x != x && y != y); };  // NaN as itself
    bool own = true;
    for (int r = 0; r < AR; ++r) own = own && same(a[r], ga[lane][r]);
    for (int r = 0; r < BR; ++r) own = own && same(b[r], gb[lane][r]);
    mma_emulate<Shape>(lane, ga, gb, c, d);
    if (!own)
      for (int r = 0; r < CR; ++r) d[r] = T(NAN);
#endif
  }

  /// acc (and dc, 3xTF32) += the K tile of stage s: KS steps of MI x NJ MMAs.
  KOKKOS_INLINE_FUNCTION void tile(const Scratch& st, const int s, T (&acc)[MI][NJ][CR], T (&dc)[MI][NJ][CR]) const {
    const T* const As = st.a(s);
    const T* const Bs = st.b(s);
    const T* const As1 = st.a(s, Scratch::parts - 1);  // 3xTF32: the small parts
    const T* const Bs1 = st.b(s, Scratch::parts - 1);
    constexpr int MA = a_late ? 1 : MI;
    // A fragments of row mi for the G steps of group kg (G = 1 but on kperm tiles).
    auto load_a = [&](const int kg, const int mi, Reg (&ab)[G][MA][AR], Reg (&as)[G][split3 ? MA : 1][AR]) {
      T x[G][AR];
      frag_a(As, lane, mi, kg, x);
      MMAPP_UNROLL
      for (int s = 0; s < G; ++s) to_regs(x[s], ab[s][a_late ? 0 : mi]);
      if constexpr (split3) {
        frag_a(As1, lane, mi, kg, x);
        MMAPP_UNROLL
        for (int s = 0; s < G; ++s) to_regs(x[s], as[s][a_late ? 0 : mi]);
      }
    };
    // B fragments of step ks.
    auto load_b = [&](const int ks, Reg (&bb)[NJ][BR], Reg (&bs)[split3 ? NJ : 1][BR]) {
      MMAPP_UNROLL
      for (int nj = 0; nj < NJ; ++nj) {
        T x[BR];
        raw_b(Bs, lane, nj, ks, x);
        to_regs(x, bb[nj]);
        if constexpr (split3) {
          raw_b(Bs1, lane, nj, ks, x);
          to_regs(x, bs[nj]);
        }
      }
    };
    MMAPP_UNROLL
    for (int kg = 0; kg < KS / G; ++kg) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
      const Reg(*gab)[AR] = nullptr;
      const Reg(*gas)[AR] = nullptr;
      const Reg(*gbb)[BR] = nullptr;
      const Reg(*gbs)[BR] = nullptr;
      auto gather = [&](int, int, int) {};
#else
      // The emulation: every lane's registers of the (mi, nj) pair at step
      // kg G + s, read back from scratch by the lane's own reads (frag_a, raw_b).
      Reg gab_[32][AR], gas_[32][AR], gbb_[32][BR], gbs_[32][BR];
      const Reg(*gab)[AR] = gab_;
      const Reg(*gas)[AR] = gas_;
      const Reg(*gbb)[BR] = gbb_;
      const Reg(*gbs)[BR] = gbs_;
      auto gather = [&](const int mi, const int s, const int nj) {
        for (int l = 0; l < 32; ++l) {
          T xa[G][AR], xb[BR];
          frag_a(As, l, mi, kg, xa);
          raw_b(Bs, l, nj, kg * G + s, xb);
          to_regs(xa[s], gab_[l]);
          to_regs(xb, gbb_[l]);
          frag_a(As1, l, mi, kg, xa);
          raw_b(Bs1, l, nj, kg * G + s, xb);
          to_regs(xa[s], gas_[l]);
          to_regs(xb, gbs_[l]);
        }
      };
#endif
      // Row mi's MMAs of step kg G + s: a (as) row mi's A (small parts), bb (bs) the step's B.
      auto row_mmas = [&](const int mi, const int s, const Reg (&a)[AR], const Reg (&as)[AR], const Reg (&bb)[NJ][BR],
                          const Reg (&bs)[split3 ? NJ : 1][BR]) {
        MMAPP_UNROLL
        for (int nj = 0; nj < NJ; ++nj) {
          gather(mi, s, nj);
          if constexpr (split3) {
            mma(dc[mi][nj], as, bb[nj], dc[mi][nj], lane, gas, gbb);  // small products first
            mma(dc[mi][nj], a, bs[nj], dc[mi][nj], lane, gab, gbs);
            const T zero[CR] = {};
            T t[CR];
            mma(t, a, bb[nj], zero, lane, gab, gbb);
            MMAPP_UNROLL
            for (int r = 0; r < CR; ++r) acc[mi][nj][r] += t[r];  // FP32, round to nearest
          } else {
            (void)as;
            mma(acc[mi][nj], a, bb[nj], acc[mi][nj], lane, gab, gbb);
          }
        }
      };
      // Each accumulator sums its k in step order in both orders.
      Reg ab[G][MA][AR], as[G][split3 ? MA : 1][AR];
      if constexpr (!a_late) {
        MMAPP_UNROLL
        for (int mi = 0; mi < MI; ++mi) load_a(kg, mi, ab, as);
        MMAPP_UNROLL
        for (int s = 0; s < G; ++s) {
          Reg bb[NJ][BR], bs[split3 ? NJ : 1][BR];
          load_b(kg * G + s, bb, bs);
          MMAPP_UNROLL
          for (int mi = 0; mi < MI; ++mi) row_mmas(mi, s, ab[s][mi], as[s][split3 ? mi : 0], bb, bs);
        }
      } else {
        Reg bb[G][NJ][BR], bs[G][split3 ? NJ : 1][BR];
        MMAPP_UNROLL
        for (int s = 0; s < G; ++s) load_b(kg * G + s, bb[s], bs[s]);
        MMAPP_UNROLL
        for (int mi = 0; mi < MI; ++mi) {
          load_a(kg, mi, ab, as);
          MMAPP_UNROLL
          for (int s = 0; s < G; ++s) row_mmas(mi, s, ab[s][0], as[s][0], bb[s], bs[s]);
        }
      }
    }
  }

  /// Calls f(row, col, c0, c1) for each pair of the warp's results, (row,
  /// col) and (row, col + 1) in the block tile (col even: every Shape's
  /// registers 2i and 2i + 1 hold adjacent columns of one row), c = acc (+
  /// dc * 2^-11, 3xTF32's small products).
  template <class F>
  KOKKOS_INLINE_FUNCTION void for_each_pair(const T (&acc)[MI][NJ][CR], const T (&dc)[MI][NJ][CR], const F& f) const {
    static_assert(CR % 2 == 0, "accumulator registers in column pairs");
    MMAPP_UNROLL
    for (int mi = 0; mi < MI; ++mi) {
      MMAPP_UNROLL
      for (int nj = 0; nj < NJ; ++nj) {
        MMAPP_UNROLL
        for (int r = 0; r < CR; r += 2) {
          T c0 = acc[mi][nj][r], c1 = acc[mi][nj][r + 1];
          if constexpr (split3) {
            c0 += dc[mi][nj][r] * (T(1) / T(kTf32SmallScale));
            c1 += dc[mi][nj][r + 1] * (T(1) / T(kTf32SmallScale));
          }
          f(wm + mi * Shape::M + Shape::c_row(lane, r), wn + nj * Shape::N + Shape::c_col(lane, r), c0, c1);
        }
      }
    }
  }

  /// The warp's results for slice `slice` of the block tile at (bm, bn):
  /// out(row, col) <- acc (+ dc * 2^-11) (+ beta * out when S == 1 and beta
  /// != 0), rows < M and columns < N only, in pairs (pair_store).
  KOKKOS_INLINE_FUNCTION void store(const T (&acc)[MI][NJ][CR], const T (&dc)[MI][NJ][CR], const WarpGemmParams<T>& p,
                                    const int slice, const int bm, const int bn) const {
    T* const o = p.slice_out(slice);
    const bool scale = p.scales_c();
    for_each_pair(acc, dc, [&](const int r, const int q, const T c0, const T c1) {
      const int row = bm + r, col = bn + q;
      if (row >= p.M) return;
      pair_store(o + long(row) * p.ldo + col, col, p.N, p.pair_o, scale, p.beta, c0, c1);
    });
  }

  /// The warp's results as its part of a whole BM x BN tile at o (row-major,
  /// pitch ld elements, even; o 16-byte aligned): a tail split's slice
  /// (TailSplit, ld BN) or the staged C tile (StagedC::ld): acc (+ dc
  /// * 2^-11), every row and column, those past C's edge holding the zeros
  /// that the loader's masked rows and columns multiply into them.
  KOKKOS_INLINE_FUNCTION void store_partial(const T (&acc)[MI][NJ][CR], const T (&dc)[MI][NJ][CR], T* const o,
                                            const int ld = Cfg::BN) const {
    for_each_pair(acc, dc, [&](const int r, const int q, const T c0, const T c1) {
      *reinterpret_cast<Pair<T>*>(o + r * ld + q) = Pair<T>{{c0, c1}};
    });
  }
};

}  // namespace detail

/// Tensor-core GEMM (see the file comment): C = A * B + beta * C with the
/// shape of Cfg (a GpuMmaTile); T double (DMMA) or float (3xTF32).
/// Row-major views, any M, N, K >= 0, any row stride and alignment; beta ==
/// 0: C is not read. A split-K Cfg needs args.work of
/// splitk_workspace_bytes<T, Cfg::split_kc>(M, N, K) bytes (16-byte
/// aligned); a smaller one is a std::runtime_error (SplitKPlan). With
/// tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::async, CopyRule::dmma>(M, N, K) bytes,
/// a cp.async Cfg first copies an operand whose rows are not 16-byte
/// aligned to an aligned one there (AlignedOperands, in the call's time).
/// A TailSplit Cfg with mma_workspace_bytes<Cfg, T>(M, N, K) bytes splits
/// its last wave's tiles in K (tail_split_plan; with less room it runs
/// unsplit). Asynchronous (the caller fences).
template <class Cfg, class Space, class T>
void gemm_tiled_mma(const Space& space, const GemmArgs<Space, T>& args) {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "float or double");
  static_assert(!Cfg::async || std::is_same_v<T, double>,
                "the cp.async pipeline: double (3xTF32 splits its operands when storing them to scratch)");
  using Chunk = detail::Chunk16<T>;
  using Scratch = detail::MmaScratch<Cfg, T>;
  using Loader = detail::GlobalTileLoader<Cfg, T>;
  using Warp = detail::MmaWarpTile<Cfg, T>;
  constexpr int VW = Chunk::width;
  static_assert(Cfg::BK % VW == 0 && Cfg::BN % VW == 0, "BK and BN: multiples of a 16-byte chunk");
  static_assert(Cfg::split_kc == 0 || Cfg::split_kc % Cfg::BK == 0, "split-K chunk: a multiple of BK");

  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  const SplitKPlan<T> plan("gemm_tiled_mma", args, Cfg::split_kc, split_waves_of<Cfg>(space, M, N));
  // The tail split (TailSplit): its partial tiles at the workspace's start, where it has room for them
  // (a workspace sized for another shape: no split, the same result).
  TailSplitPlan tail;
  tail.head = ((M + Cfg::BM - 1) / Cfg::BM) * ((N + Cfg::BN - 1) / Cfg::BN);
  // The team slots both plans fill: Cfg's fixed count (host tests), else teams per SM x SMs.
  const auto team_slots = [&] {
    return Cfg::tail_slots > 0 ? long(Cfg::tail_slots)
                               : long(Cfg::min_blocks > 0 ? Cfg::min_blocks : 1) * gpu_sm_estimate(space);
  };
  if constexpr (Cfg::tail_split) {
    const TailSplitPlan t = tail_split_plan(tail.head, K, team_slots(), Cfg::BK);
    if (t.active() && partials_fit<T, Cfg::BM, Cfg::BN>(args.work, t.partials())) tail = t;
  }
  // Stream-K (StreamK): likewise, its partial tiles at the workspace's start.
  StreamKPlan sk;
  sk.head = tail.head;
  if constexpr (Cfg::stream_k) {
    const StreamKPlan p = stream_k_plan(sk.head, K, team_slots(), Cfg::BK, Cfg::stages);
    if (p.active() && partials_fit<T, Cfg::BM, Cfg::BN>(args.work, p.partials())) sk = p;
  }
  const std::size_t tail_bytes = partials_bytes<T, Cfg::BM, Cfg::BN>(tail.partials() + sk.partials());

  // Operands that cannot be read in 16-byte chunks: for the cp.async pipeline, aligned copies in
  // the workspace (aligned_operands.hpp; its element-wise fallback is synchronous), but none for
  // ElemChunks<Cfg, false>, whose element-wise chunks stay asynchronous (cp_async_elem). The register
  // path hides element-wise loads behind the MMAs and keeps the operands in place (H200,
  // 2026-11-24: double 777x1234x4321 on the 64x64 register-path tile, 70.5% of cuBLAS DGEMM in
  // place, 61.6% with the copy; docs/performance.md).
  const AlignedOperands<Space, T, CopyRule::dmma> ops(
      space, args, Cfg::async && Cfg::copies ? plan.work_bytes() + tail_bytes : args.work.extent(0));
  detail::WarpGemmParams<T> params = detail::warp_gemm_params(M, N, K, Cfg::BM, Cfg::BN, plan, ops, args.beta);
  params.scratch_bytes = Scratch::Staged::launch_bytes(Scratch::bytes, Scratch::stage_c && params.stages_rows());
  params.tail_head = sk.active() ? sk.head : tail.head;
  params.tail_slices = tail.slices;
  params.tail_kc = tail.kc;
  params.sk_tile_iters = sk.tile_iters;
  params.sk_team_iters = sk.team_iters;
  params.tail_work = tail.active() || sk.active() ? reinterpret_cast<T*>(args.work.data()) : nullptr;
  // The in-launch sum (LastTeamSum): where K is split and the tickets cover the tiles.
  if constexpr (Cfg::last_team_sum) {
    if (plan.slices > 1 && params.tiles <= kSplitKTickets) params.tickets = splitk_tickets<Space>();
    params.c = C.data();
    params.ldc = long(C.stride(0));
  }

  using policy_t = detail::team_policy_lb<Space, Cfg::team_size, Cfg::min_blocks>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space,
                  sk.active()     ? sk.league()
                  : tail.active() ? tail.teams()
                                  : long(params.tiles) * params.slices,
                  Cfg::team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(params.scratch_bytes));

  Kokkos::parallel_for(
      "mmapp::gemm_tiled_mma", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int lr = team.league_rank();
        const int slice = lr / params.tiles;
        const int tid = team.team_rank();
        const Warp warp(tid);
        const Scratch st(team, params.scratch_bytes);
        // The team's segments (warp/segment.hpp): its block tile over its K slice, or (TailSplit) a
        // split tile's slice into its partial tile, or (StreamK) one or two streamed segments.
        auto whole = [&](const int t, const int k_begin, const int k_end, T* const partial) {
          const detail::BlockCoord tile = detail::BlockSwizzle<Cfg::swizzle>::tile(t, params.tiles_m, params.tiles_n);
          const int ktiles = k_end > k_begin ? (k_end - k_begin + Cfg::BK - 1) / Cfg::BK : 0;
          return detail::TeamSegment<T>{tile.m * Cfg::BM, tile.n * Cfg::BN, k_begin, k_end, ktiles, partial};
        };
        detail::TeamSegments<T, Cfg::stream_k ? 2 : 1> segs;
        {
          const int k_begin = slice * params.kc;
          segs.seg[0] = whole(lr % params.tiles, k_begin, k_begin + params.kc < params.K ? k_begin + params.kc : params.K,
                              nullptr);
        }
        if constexpr (Cfg::tail_split) {
          if (lr >= params.tail_head) {  // split tile u's slice q
            const int v = lr - params.tail_head, u = v / params.tail_slices, q = v % params.tail_slices;
            const int k_begin = q * params.tail_kc;
            segs.seg[0] = whole(params.tail_head + u, k_begin,
                                k_begin + params.tail_kc < params.K ? k_begin + params.tail_kc : params.K,
                                params.tail_work + (long(u) * params.tail_slices + q) * (Cfg::BM * Cfg::BN));
          }
        }
        if constexpr (Cfg::stream_k) {
          if (lr >= params.tail_head) {  // stream team j: its run's one or two segments
            const StreamKPlan plan = stream_k_plan_of(params);
            segs.n = 0;
            StreamKSegment sg;
            for (int s = 0; s < 2 && stream_k_segment(plan, lr - params.tail_head, s, sg); ++s) {
              const int k_begin = sg.it0 * Cfg::BK, k_end = sg.it1 * Cfg::BK < params.K ? sg.it1 * Cfg::BK : params.K;
              segs.seg[s] = whole(params.tail_head + sg.tile, k_begin, k_end,
                                  params.tail_work + long(sg.slot) * (Cfg::BM * Cfg::BN));
              segs.seg[s].ktiles = sg.it1 - sg.it0;  // padded to the stages (warp/segment.hpp)
              segs.n = s + 1;
            }
          }
        }

        // The warps' accumulators, K loop and epilogue: run(compute) is the K loop, compute(stage) a K tile.
        auto multiply = [&](const detail::TeamSegment<T>& sg, const auto& run) {
          T acc[Warp::MI][Warp::NJ][Warp::CR], dc[Warp::MI][Warp::NJ][Warp::CR];
          MMAPP_UNROLL
          for (int i = 0; i < Warp::MI; ++i) {
            MMAPP_UNROLL
            for (int j = 0; j < Warp::NJ; ++j) {
              MMAPP_UNROLL
              for (int r = 0; r < Warp::CR; ++r) acc[i][j][r] = dc[i][j][r] = T(0);
            }
          }

          if constexpr (Cfg::producers > 0) {
            run([&](auto stage) { warp.tile(st, decltype(stage)::value, acc, dc); });
          } else if constexpr (Cfg::async) {
            (void)run;
            const detail::AsyncTileLoader<Cfg, T, Scratch> al{params, sg.bm, sg.bn, tid, sg.k_end};
            detail::async_mainloop<Cfg::stages, Cfg::BK>(team, st, al, sg.k_begin, sg.k_end, [&](auto stage) {
              warp.tile(st, decltype(stage)::value, acc, dc);
            });
          } else {
            typename Loader::FragmentA ra;
            typename Loader::FragmentB rb;
            const Loader gl(params, sg.bm, sg.bn, tid, sg.k_end);
            // Registers -> stage s: A as As[m][k], B as Bs[k][n], 16-byte chunks.
            // 3xTF32: the split of each element here, once per team, into the two parts.
            auto store = [&](const int s) {
              T* const As = st.a(s);
              T* const Bs = st.b(s);
              T* const As1 = st.a(s, Scratch::parts - 1);
              T* const Bs1 = st.b(s, Scratch::parts - 1);
              MMAPP_UNROLL
              for (int l = 0; l < Loader::la; ++l) {
                const int c = tid + l * Cfg::team_size, r = c / Loader::a_per_row,
                          kq = (c % Loader::a_per_row) * Loader::VW;
                Chunk big, small;
                Warp::split_chunk(ra[l], big, small);
                *reinterpret_cast<Chunk*>(As + r * Scratch::lda_s + kq) = big;
                if constexpr (Scratch::parts == 2) *reinterpret_cast<Chunk*>(As1 + r * Scratch::lda_s + kq) = small;
              }
              MMAPP_UNROLL
              for (int l = 0; l < Loader::lb; ++l) {
                const int c = tid + l * Cfg::team_size, r = c / Loader::b_per_row,
                          nq = (c % Loader::b_per_row) * Loader::VW;
                Chunk big, small;
                Warp::split_chunk(rb[l], big, small);
                *reinterpret_cast<Chunk*>(Bs + r * Scratch::ldb_s + nq) = big;
                if constexpr (Scratch::parts == 2) *reinterpret_cast<Chunk*>(Bs1 + r * Scratch::ldb_s + nq) = small;
              }
            };
            // sg.ktiles' value (no padding here: StreamK needs the cp.async pipeline); computed from the
            // range as before the segments, which keeps this path's registers (ptxas-check).
            const int ktiles = sg.k_end > sg.k_begin ? (sg.k_end - sg.k_begin + Cfg::BK - 1) / Cfg::BK : 0;
            if (ktiles > 0) {
              gl.fetch(sg.k_begin, ra, rb);
              store(0);
            }
            team.team_barrier();
            if constexpr (Cfg::stages == 2) {
              // Two stages, one barrier per K tile; two tiles per trip so that the
              // stages' scratch offsets are compile-time constants.
              auto step = [&](const int kt, auto cur) {
                constexpr int Cur = decltype(cur)::value;
                const bool more = kt + 1 < ktiles;
                if (more) gl.fetch(sg.k_begin + (kt + 1) * Cfg::BK, ra, rb);
                warp.tile(st, Cur, acc, dc);
                if (more) store(Cur ^ 1);
                team.team_barrier();
              };
              for (int kt = 0; kt < ktiles; kt += 2) {
                step(kt, std::integral_constant<int, 0>{});
                if (kt + 1 < ktiles) step(kt + 1, std::integral_constant<int, 1>{});
              }
            } else {
              // One stage: the next K tile waits in registers while this one is
              // multiplied; two barriers per K tile.
              for (int kt = 0; kt < ktiles; ++kt) {
                const bool more = kt + 1 < ktiles;
                if (more) gl.fetch(sg.k_begin + (kt + 1) * Cfg::BK, ra, rb);
                warp.tile(st, 0, acc, dc);
                if (more) {
                  team.team_barrier();
                  store(0);
                  team.team_barrier();
                }
              }
            }
          }  // register path
          if constexpr (Cfg::tail_split || Cfg::stream_k) {
            if (sg.partial != nullptr) {
              warp.store_partial(acc, dc, sg.partial);
              return;
            }
          }
          if constexpr (Scratch::stage_c) {
            if (params.stages_rows()) {
              // C's rows take no pairs (N odd) or no 16-byte chunks: the tile through scratch, stored by
              // whole rows.
              constexpr int ld = Scratch::Staged::ld;
              detail::store_through_scratch<Cfg::BM, Cfg::BN, Cfg::team_size>(
                  team, st.smem, ld, params, slice, sg.bm, sg.bn, tid,
                  [&](T* const s) { warp.store_partial(acc, dc, s, ld); });
              return;
            }
          }
          warp.store(acc, dc, params, slice, sg.bm, sg.bn);
        };
        if constexpr (Cfg::producers > 0)
          detail::ws_mainloop<Cfg, T>(team, st, params, tid, segs, multiply);
        else
          segs.for_each([&](const auto& sg) {
            // A second segment's prologue fills stages the first's last K tiles may still be read from.
            if (&sg != &segs.seg[0]) team.team_barrier();
            multiply(sg, [](const auto&) {});
          });
        if constexpr (Cfg::last_team_sum) {
          if (params.tickets != nullptr) {
            const int t = lr % params.tiles;
            const detail::BlockCoord b = detail::BlockSwizzle<Cfg::swizzle>::tile(t, params.tiles_m, params.tiles_n);
            splitk_last_team_sum<Cfg::BM, Cfg::BN, Cfg::team_size>(team, params.tickets, t, params.slices,
                                                                   params.out, params.c, params.ldc, params.M,
                                                                   params.N, b.m * Cfg::BM, b.n * Cfg::BN, params.beta);
          }
        }
      });
  if (params.tickets == nullptr) plan.reduce(space, C, args.beta);
  if constexpr (Cfg::tail_split)
    tail_split_reduce<Cfg::BM, Cfg::BN>(space, tail, params.tail_work, C, args.beta,
                                        detail::SwizzledTile<Cfg::swizzle>{params.tiles_m, params.tiles_n});
  if constexpr (Cfg::stream_k)
    stream_k_reduce<Cfg::BM, Cfg::BN>(space, sk, params.tail_work, C, args.beta,
                                      detail::SwizzledTile<Cfg::swizzle>{params.tiles_m, params.tiles_n});
}

/// The tag of a gemm_tiled_mma variant, e.g. "dmma w64x32 lb2 sw8" ("dmma16",
/// "dmma16k8", "dmma16k16": sm_90's m16n8k4, m16n8k8, m16n8k16; "1st": one
/// scratch stage; "kp": the K permutation, KPermK; "ws4": four producer warps, warp/ws_pipeline.hpp),
/// e.g. "dmma16 w64x32 cp3 kp lb2 sw8", "dmma16k16 w64x32 cp4 ws4 lb1 sw8", or
/// "3xtf32 w32x32 lb3 splitk1024" ("wsplit256": WaveSplit, chunks of at least 256; "lsum": LastTeamSum;
/// "el": ElemChunks).
template <class Cfg, class T>
std::string gpu_mma_tag() {
  static constexpr const char* dnames[4] = {"dmma", "dmma16", "dmma16k8", "dmma16k16"};
  std::string t = std::is_same_v<T, double> ? dnames[Cfg::shape] : "3xtf32";
  t += " w" + std::to_string(Cfg::WM) + "x" + std::to_string(Cfg::WN);
  if (Cfg::stages == 1) t += " 1st";
  if (Cfg::async) t += " cp" + std::to_string(Cfg::stages);
  if (Cfg::producers > 0) t += " ws" + std::to_string(Cfg::producers);
  if (Cfg::kperm) t += " kp";
  if (Cfg::min_blocks > 0) t += " lb" + std::to_string(Cfg::min_blocks);
  if (Cfg::swizzle > 0) t += " sw" + std::to_string(Cfg::swizzle);
  if (Cfg::split_kc > 0) t += (Cfg::split_waves ? " wsplit" : " splitk") + std::to_string(Cfg::split_kc);
  if (Cfg::last_team_sum) t += " lsum";
  if (Cfg::tail_split) t += " tail" + (Cfg::tail_slots > 0 ? std::to_string(Cfg::tail_slots) : std::string());
  if (Cfg::stream_k) t += " sk" + (Cfg::tail_slots > 0 ? std::to_string(Cfg::tail_slots) : std::string());
  if (Cfg::elem_chunks) t += Cfg::copies ? " el" : " el inplace";
  return t;
}

}  // namespace mmapp
