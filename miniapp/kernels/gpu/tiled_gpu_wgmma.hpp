// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tiled_gpu_wgmma.hpp — float GEMM at FP32 accuracy on Hopper's warpgroup
// MMA (issue 21: 3xTF32 on `wgmma`, sm_90a). The team-tiled structure of
// gemm_tiled_mma (a Kokkos TeamPolicy parallel_for, level-0 scratch tiles in
// two stages, one barrier per K tile, block swizzle, split-K plan, epilogue)
// with the MMA issued by warpgroups (4 warps) from scratch instead of by
// warps from registers:
//   - a team of W warpgroups owns a BM x BN block of C (BM = 64 W); each
//     warpgroup a 64 x BN slice, its accumulators in registers (BN / 2 per
//     thread, wgmma's m64nBNk8 fragment: warp/wgmma.hpp);
//   - a K tile is 32 deep (one 128-byte swizzled scratch row per row of A and
//     per column of B: warp/wgmma.hpp's layout). Each thread loads its
//     16-byte chunks of A and its 4x4 blocks of B from global memory into
//     registers, splits every element once, x = big + small * 2^-11 with big
//     = tf32(x), small = tf32((x - big) * 2^11) (tf32_split, as the mma.sync
//     kernel), and stores big and small parts to the stage (B transposed:
//     wgmma reads TF32 operands K-major only);
//   - per K step of 8 (four per tile) a warpgroup issues three wgmma:
//     t = A_big B_big (from zero at the tile's first step), dc += A_small
//     B_big, dc += A_big B_small; after the tile's group completes, acc += t
//     in FP32 (round to nearest: the tensor core's accumulation truncates,
//     so the big products are summed outside it every 32 K values, as
//     Ootomo and Yokota, arXiv:2203.03341, section 4, recommend); C = acc +
//     dc * 2^-11. The small products' truncation is scaled by 2^-11.
//   - pipeline: while a stage's wgmma run, the threads split and store the
//     next K tile (loaded one trip earlier) to the other stage and load the
//     one after it into registers; then wait for the group, add t, barrier.
//     With Async (GpuWgmmaTile), the loads are cp.async into two raw slots,
//     two K tiles ahead, each thread reading back only its own chunks (so
//     its cp.async wait suffices, no barrier): no prefetch registers and a
//     longer prefetch distance, for 64 KiB more scratch traffic per tile.
//     With three stages (GpuWgmmaTile::stages), t is added while the
//     tile's small products run, and the barrier is passed with them
//     queued, so the tensor core is not drained at every K tile.
//     With `ws` (GpuWgmmaTile), a warp-specialized team: a producer
//     warpgroup copies the K tiles by cp.async into the raw slots and
//     splits them into two stages, the MMA warpgroups multiply, and the two
//     sides meet at mbarriers instead of a team barrier (wgmma_ws_team;
//     warp/ws_pipeline.hpp). Slower than the register path (the raw slots'
//     scratch traffic, half the threads splitting): ladder variants only.
//   - epilogue: C = acc + dc * 2^-11 in pairs of adjacent columns
//     (pair_store); where C's rows take no pairs (N odd) or no 16-byte
//     chunks (float N = 2 mod 4: WarpGemmParams::stages_rows), the team stages
//     its C tile in scratch over the stages and stores it by whole rows
//     (StagedC, store_staged_rows; not on ws teams). Where every team takes
//     one K tile, the launch asks for one stage of scratch
//     (GpuWgmmaTile::one_tile_scratch).
//   - C^T tiles (GpuWgmmaTile::rows_n): the same stages with the operands'
//     places in wgmma swapped, C^T = B^T A^T, so that the block's BM rows
//     (65-128 rows of C, to 16) are wgmma's N and its columns wgmma's M, 64
//     per warpgroup; the accumulators then hold C transposed and are
//     always staged (wgmma_product, wgmma_stage_c).
// Where this build has no wgmma (the catalog lists these variants only for
// sm_90a builds, kGpuWgmma) the device code aborts; on the host the
// instruction is emulated through its descriptors (warp/wgmma.hpp), which
// the host tests use to check the loader, the layout and the fragment map.
// Parallel mapping: league = ceil(M/BM) * ceil(N/BN) * S teams (WgmmaStreamK:
// the whole tiles, then the stream teams), team = 128 W threads (128 more
// with ws). Any M, N, K >= 0, any row stride and alignment (masked loads at
// the edges; misaligned operands copied to aligned rows where C reuses them
// enough: aligned_operands.hpp). FLOPs:
// 2*M*N*K (three tensor-core products per multiply-add).
#pragma once

#include "kernels/gpu/aligned_operands.hpp"
#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/stream_k.hpp"
#include "kernels/gpu/warp/async_copy.hpp"
#include "kernels/gpu/warp/epilogue.hpp"
#include "kernels/gpu/warp/mma_shapes.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/gpu/warp/swizzle.hpp"
#include "kernels/gpu/warp/tile.hpp"
#include "kernels/gpu/warp/wgmma.hpp"
#include "kernels/gpu/warp/ws_pipeline.hpp"
#include "kernels/unroll.hpp"
#include "core/kokkos_compat.hpp"
#include "core/long_range.hpp"
#include "core/types.hpp"

#include <cstddef>
#include <cstdint>
#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace mmapp {

/// Compile-time shape of gemm_tiled_wgmma: BM x BN x 32 block tile, BM / 64
/// warpgroups of 64 x BN (BN 64 or 128: wgmma m64nBNk8); MinBlocks: launch
/// bounds' blocks per SM; SplitKc: K chunk per team (0: no split-K);
/// Swizzle: block-row group (0: none); Async: cp.async loads two K tiles
/// ahead (see `async`); Stages: scratch stages, 2 or 3 (3: the next K
/// tile's small products are issued before the last tile's big ones are
/// waited for, see `stages`). Scratch: the stages of the big and small parts
/// of A (BM rows) and B (BN rows, K-major), 128 bytes a row, the raw slots
/// when Async, plus 1 KiB to align the tiles (warp/wgmma.hpp). RowsN: the
/// block computed as its transpose (see `rows_n`).
template <int BM_, int BN_, int MinBlocks_ = 1, int SplitKc_ = 0, int Swizzle_ = 8, bool Async_ = false,
          int Stages_ = 2, bool Presplit_ = false, bool Producer_ = false, bool RowsN_ = false>
struct GpuWgmmaTile {
  static constexpr int BM = BM_, BN = BN_, BK = detail::kWgmmaRowK;
  /// C^T = B^T A^T: the block's BM rows of C are wgmma's N (BM a multiple of
  /// 16 up to 128: m64nBMk8) and its BN columns wgmma's M, 64 per warpgroup.
  /// The stages are the same (A's rows and B's columns K-major); only the
  /// operands swap places in the instruction (B's part through wgmma's A
  /// descriptor, A's through its B descriptor: wgmma_product), and the
  /// accumulators hold C transposed, so the epilogue always stages the tile
  /// in scratch (wgmma_stage_c) and stores it by rows. For C of 65-128 rows:
  /// one block row whose N fits M to 16 rows, where 128-row tiles of two
  /// warpgroups pad M to 128 (docs/performance.md, "Tensor cores,
  /// thirty-ninth round").
  static constexpr bool rows_n = RowsN_;
  static constexpr int WM = RowsN_ ? BM_ : 64, WN = RowsN_ ? 64 : BN_;  ///< a warpgroup's tile of C
  static constexpr int warpgroups = RowsN_ ? BN / 64 : BM / 64;         ///< the warpgroups that multiply
  static_assert(!RowsN_ || (BM_ % 16 == 0 && BM_ >= 64 && BM_ <= 128 && BN_ % 64 == 0 && !Producer_),
                "rows_n: BM a multiple of 16 in 64..128 (wgmma's N), BN whole warpgroups of 64; no ws team");
  /// A producer warpgroup (warp-specialized team, see `ws` in the file
  /// comment): 128 more threads that only load and split the K tiles.
  static constexpr bool ws = Producer_;
  static_assert(!Producer_ || (!Async_ && !Presplit_ && Stages_ == 2), "ws: its own ring (two stages, two raw slots)");
  static constexpr int consumer_threads = 128 * warpgroups, producer_threads = Producer_ ? 128 : 0;
  static constexpr int team_size = consumer_threads + producer_threads;
  /// The threads that load and split a K tile (WgmmaLoader): the producers, or the whole team.
  static constexpr int loader_threads = Producer_ ? producer_threads : team_size;
  /// Registers per thread after setmaxnreg (ws, sm_90a): the producers 56, the MMA warpgroups what
  /// that frees of the launch bounds' share (168 per thread at 384 threads: 128 x 56 + 256 x 224 =
  /// 384 x 168; setmaxnreg.inc waits until the registers are free, so the sum may not pass what the
  /// team was launched with). ptxas, CUDA 13.0: the producers spill 204 bytes at 24, 48 at 48, 8 at
  /// 56 and 64; the MMA warpgroups' 192 accumulators fit 224.
  static constexpr int launch_regs = 65536 / (MinBlocks_ > 0 ? MinBlocks_ : 1) / team_size / 8 * 8;
  static constexpr int producer_regs = Producer_ ? 56 : 0;
  static constexpr int consumer_regs_of() {
    const int r = (team_size * (launch_regs > 255 ? 255 : launch_regs) - producer_threads * producer_regs) /
                  consumer_threads / 8 * 8;
    return r > 248 ? 248 : r;
  }
  static constexpr int consumer_regs = Producer_ ? consumer_regs_of() : 0;
  static constexpr int min_blocks = MinBlocks_, split_kc = SplitKc_, swizzle = Swizzle_;
  static constexpr bool split_waves = false;  ///< WaveSplit<Cfg>: K split to fill the waves (splitk.hpp)
  static constexpr bool stream_k = false;     ///< WgmmaStreamK<Cfg>: a partial last wave streamed (stream_k.hpp)
  static constexpr bool copies = true;        ///< WgmmaInPlace<Cfg>: false, unaligned operands never copied
  /// 2: per K tile the warpgroup issues its twelve wgmma, waits for all of
  /// them, adds t to acc and passes the barrier, so the tensor core idles
  /// from the tile's last wgmma to the next tile's first. 3: it commits the
  /// tile's four big products (t) and its eight small ones as two groups,
  /// waits for the first, adds t while the second runs and passes the
  /// barrier with the small products still queued; the stage stored in a
  /// trip was last read two tiles before (waited for by every warpgroup
  /// before the previous barrier), so one barrier per K tile suffices.
  /// (Issuing the next tile's small products before adding t, a loop-carried
  /// wait, makes ptxas serialize every wgmma: C7514, CUDA 13.0.)
  static constexpr int stages = Stages_;
  static_assert(Stages_ == 2 || (Stages_ == 3 && !Async_), "stages: 2, or 3 on the register path");
  /// Operands split once per GEMM (WgmmaPresplit): a pass writes the big
  /// and small parts of A and of B transposed, zero-padded to whole tiles,
  /// into the workspace; the K loop then only copies 16-byte chunks into the
  /// swizzled stages (cp.async, one K tile ahead; three stages, as above).
  static constexpr bool presplit = Presplit_;
  static_assert(!Presplit_ || (Stages_ == 3 && !Async_), "pre-split operands: three stages, cp.async loads");
  static constexpr int regs = (RowsN_ ? BM : BN) / 2;  ///< accumulators per thread and per sum (acc, dc, t)
  static_assert(RowsN_ || (BM % 64 == 0 && BM > 0 && (BN == 64 || BN == 128)),
                "BM: warpgroups of 64 rows; BN: 64 or 128");
  static_assert((2 * BN) % loader_threads == 0 || loader_threads % (2 * BN) == 0, "B: 4x4 blocks over the loaders");
  static_assert(SplitKc_ % BK == 0, "split-K chunk: whole K tiles");
  static constexpr int a_bytes = BM * detail::kWgmmaRowBytes;  ///< one part of A in a stage
  static constexpr int b_bytes = BN * detail::kWgmmaRowBytes;  ///< one part of B
  static constexpr int stage_bytes = 2 * (a_bytes + b_bytes);  ///< big and small parts of both
  /// Async: the K tiles reach scratch by cp.async, two tiles ahead, into a
  /// ring of two raw slots (the operands as loaded, a_bytes + b_bytes each),
  /// and are split from there; without it, through registers one tile ahead.
  static constexpr bool async = Async_;
  static constexpr int raw_slots = Async_ || Producer_ ? 2 : 0;
  static constexpr int raw_bytes = a_bytes + b_bytes;
  static constexpr int barrier_bytes = Producer_ ? 2 * stages * 8 : 0;  ///< ws: full and empty mbarriers per stage
  static constexpr std::size_t scratch_bytes =
      std::size_t(stages * stage_bytes + raw_slots * raw_bytes + barrier_bytes + detail::kWgmmaAtomBytes);
  /// The C tile staged over the stages for the row-wise epilogue where C's
  /// rows take no pairs or no 16-byte chunks (WarpGemmParams::stages_rows:
  /// N odd, float N = 2 mod 4; StagedC, store_staged_rows). Not on ws
  /// teams: their producers leave before the epilogue (no team barrier).
  using Staged = detail::StagedC<BM, BN, team_size, float>;
  static constexpr bool stage_c = !Producer_;
  static_assert(!stage_c || Staged::bytes <= std::size_t(stages) * stage_bytes, "the staged C tile: over the stages");
  /// Where every team takes at most one K tile (K chunk <= BK), the register
  /// and pre-split paths touch stage 0 only, so the launch asks for one stage
  /// (or the staged C tile where larger) and the 1 KiB to align it: twice the
  /// teams per SM for the 64x128 tile (251 registers: two teams' worth),
  /// whose three stages take 145 KiB. Not with Async or ws: their raw slots
  /// lie past the stages.
  static constexpr bool one_tile_scratch = !Async_ && !Producer_;
  static constexpr std::size_t one_tile_scratch_bytes =
      Staged::launch_bytes(stage_bytes, stage_c) + detail::kWgmmaAtomBytes;
};

/// Cfg (the register-path GpuWgmmaTile: operands split in the K loop, two
/// stages, K not split) with the Stream-K decomposition of its last wave
/// (stream_k.hpp, stream_k_plan; gemm_tiled_mma's StreamK for the DMMA
/// tiles): the tiles of the whole waves run whole, the K tiles of the rest
/// are cut into equal runs over at most one wave of teams (min_blocks x the
/// device's SMs), a run covering the end of one tile and the start of the
/// next at most, each segment's whole BM x BN tile written to its partial
/// tile and the partials summed by stream_k_reduce. For C of one row of
/// 128-row tiles against thousands of columns (65-128 rows: 47-51 tiles on
/// 132 SMs), where a K split by slices leaves a quarter of the SMs idle or
/// a second wave part-empty. Its tag adds "sk". A ladder variant: slower
/// than the wave split on most of those shapes (docs/performance.md,
/// "Tensor cores, fortieth round").
template <class Cfg>
struct WgmmaStreamK : Cfg {
  static_assert(Cfg::split_kc == 0 && !Cfg::presplit && !Cfg::async && !Cfg::ws && !Cfg::rows_n && Cfg::stages == 2,
                "Stream-K on wgmma: the register path's two-stage tile, K not split");
  static constexpr bool stream_k = true;
};

/// Cfg (a GpuWgmmaTile on the register path) reading operands whose rows are
/// not 16-byte aligned in place, element by element (WgmmaLoader::fetch's
/// element loads, one tile ahead like the chunks), where Cfg copies them to
/// aligned rows first when C reuses the copy enough (AlignedOperands): no
/// copy launch before the GEMM's. For a small unaligned A against a long N
/// (float C of 65-128 rows, K not a multiple of 4), where the copy's launch
/// weighs against a GEMM of tens of microseconds: on one H200 the C^T tile
/// of 96 rows ran 90 x 6000 x 1025 in 0.075-0.076 ms, 90 x 6000 x 1024 in
/// 0.062-0.063 (docs/performance.md, "Tensor cores, forty-seventh round").
/// Its tag adds "inplace".
template <class Cfg>
struct WgmmaInPlace : Cfg {
  static_assert(!Cfg::presplit && !Cfg::async && !Cfg::ws, "in place: the register path (fetch) reads the operands");
  static constexpr bool copies = false;
};

namespace detail {

/// 16 bytes of TF32 bit patterns (a split chunk).
struct alignas(16) Tf32x4 {
  std::uint32_t v[4];
};

/// One thread's share of a gemm_tiled_wgmma team's K tiles: the global loads
/// into registers and the split stores to a scratch stage, by the team's
/// Threads loading threads (Cfg::loader_threads: the whole team, or a
/// warp-specialized team's producer warpgroup, tid counted from its first):
///   A: la 16-byte chunks, chunk c = tid + l * team: row c / 8, K chunk c % 8
///      (a row's 8 chunks in 8 consecutive lanes: coalesced, conflict-free).
///   B: lb blocks of 4 K rows x 4 columns, block b = tid + l * team: K chunk
///      b % 8, columns 4 (b / 8) .. + 3; stored transposed, one 16-byte
///      chunk (4 K values) per column (8 consecutive lanes: 8 chunk indices).
/// Stage layout: A big | A small | B big | B small, each a swizzled tile.
/// Rolled: the chunk loops of copy_raw and split_raw kept rolled (a
/// producer warpgroup, left with few registers by setmaxnreg).
template <class Cfg, int Threads = Cfg::loader_threads, bool Rolled = false>
struct WgmmaLoader {
  using Chunk = Chunk16<float>;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, team = Threads;
  static constexpr int la = BM * (BK / 4) / team;
  static constexpr int lb = (BK / 4) * (BN / 4) >= team ? (BK / 4) * (BN / 4) / team : 1;
  static_assert(BM * (BK / 4) % team == 0, "A: whole chunks per thread");
  using FragmentA = Chunk[la];
  using FragmentB = Chunk[lb][4];

  KOKKOS_INLINE_FUNCTION static constexpr int a_row(const int tid, const int l) { return (tid + l * team) / 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int a_chunk(const int tid, const int l) { return (tid + l * team) % 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_chunk(const int tid, const int l) { return (tid + l * team) % 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_col(const int tid, const int l) { return 4 * ((tid + l * team) / 8); }
  /// Whether thread tid has B block l (a team larger than B's blocks leaves some without).
  KOKKOS_INLINE_FUNCTION static constexpr bool b_has(const int tid, const int l) { return b_col(tid, l) < BN; }

  /// The 4 floats at src, all inside the matrix: on the device one 16-byte
  /// load where the operand's chunks are 16-byte aligned (`vec`), else 4
  /// element loads. On the host (the tests' emulation) one memcpy either
  /// way: GCC 13.3.0 as released merged the two loads of the same 16 bytes
  /// into the aligned one, a movaps at an odd row stride (SIGSEGV in the
  /// wgmma host test; Debian's 13.3.0-16, with the GCC 13 branch's fixes,
  /// did not; docs/performance.md, "Tensor cores, forty-second round").
  KOKKOS_FORCEINLINE_FUNCTION static Chunk load_chunk(const float* src, const bool vec) {
    Chunk x;
#if defined(__CUDA_ARCH__)
    if (vec) return *reinterpret_cast<const Chunk*>(src);
    MMAPP_UNROLL
    for (int q = 0; q < 4; ++q) x.v[q] = src[q];
#else
    (void)vec;
    std::memcpy(x.v, src, sizeof x.v);
#endif
    return x;
  }

  /// The K tile at k0 of the block tile (bm, bn) into ra, rb: zero outside
  /// [0, M) x [k0, k_end) and [k0, k_end) x [0, N). Each chunk tested on its
  /// own: where it lies inside, loaded whole (load_chunk), else element by
  /// element with bounds. (A test of the whole tile sent every chunk of
  /// C's one block row of 65-127 rows, M short of the block, to element
  /// loads with per-element bounds: one load and about three tests per value
  /// on 97 x 6422 x 1500, docs/performance.md "Tensor cores, forty-first
  /// round".)
  KOKKOS_INLINE_FUNCTION static void fetch(const WarpGemmParams<float>& p, const int bm, const int bn, const int k0,
                                           const int k_end, const int tid, FragmentA& ra, FragmentB& rb) {
    const bool k_whole = k0 + BK <= k_end;  // every K value of the tile: chunks test rows (A) or columns (B) only
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) {
      const int r = bm + a_row(tid, l), k = k0 + 4 * a_chunk(tid, l);
      const float* src = p.A + long(r) * p.lda + k;
      if (k_whole && r < p.M) {
        ra[l] = load_chunk(src, p.vec_a);
      } else {
        MMAPP_UNROLL
        for (int q = 0; q < 4; ++q) ra[l].v[q] = (r < p.M && k + q < k_end) ? src[q] : 0.0f;
      }
    }
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l) {
      const int c = bn + b_col(tid, l), kr = k0 + 4 * b_chunk(tid, l);
      const bool has = b_has(tid, l);
      const bool in = k_whole && has && c + 4 <= p.N;  // c: a multiple of 4
      MMAPP_UNROLL
      for (int i = 0; i < 4; ++i) {
        const float* src = p.B + long(kr + i) * p.ldb + c;
        if (in) {
          rb[l][i] = load_chunk(src, p.vec_b);
        } else {
          MMAPP_UNROLL
          for (int q = 0; q < 4; ++q) rb[l][i].v[q] = (has && kr + i < k_end && c + q < p.N) ? src[q] : 0.0f;
        }
      }
    }
  }

  /// The register paths' first two of the ktiles K tiles of [k0, k_end):
  /// the first fetched, split and stored to the stage at `stage`, the second
  /// fetched into ra, rb (those that exist).
  KOKKOS_INLINE_FUNCTION static void prologue(const WarpGemmParams<float>& p, const int bm, const int bn, const int k0,
                                              const int k_end, const int ktiles, const int tid, unsigned char* stage,
                                              FragmentA& ra, FragmentB& rb) {
    if (ktiles > 0) {
      fetch(p, bm, bn, k0, k_end, tid, ra, rb);
      store(stage, tid, ra, rb);
      if (ktiles > 1) fetch(p, bm, bn, k0 + BK, k_end, tid, ra, rb);
    }
  }

  /// Splits x's four values into big and small TF32 parts (tf32_split4).
  KOKKOS_INLINE_FUNCTION static void split(const float (&x)[4], Tf32x4& big, Tf32x4& small) {
    tf32_split4(x, big.v, small.v);
  }

  /// A's chunk l of thread tid, split, to both parts of the stage at `stage`.
  KOKKOS_INLINE_FUNCTION static void store_a(unsigned char* stage, const int tid, const int l, const Chunk& x) {
    const int off = wgmma_chunk_offset(a_row(tid, l), a_chunk(tid, l));
    Tf32x4 big, small;
    split(x.v, big, small);
    *reinterpret_cast<Tf32x4*>(stage + off) = big;
    *reinterpret_cast<Tf32x4*>(stage + Cfg::a_bytes + off) = small;
  }
  /// B's block l of thread tid (its 4 K rows), split and transposed, to both parts of the stage.
  KOKKOS_INLINE_FUNCTION static void store_b(unsigned char* stage, const int tid, const int l, const Chunk (&x)[4]) {
    unsigned char* const b_big = stage + 2 * Cfg::a_bytes;
    MMAPP_UNROLL
    for (int j = 0; j < 4; ++j) {  // column b_col + j: its 4 K values
      const float col[4] = {x[0].v[j], x[1].v[j], x[2].v[j], x[3].v[j]};
      const int off = wgmma_chunk_offset(b_col(tid, l) + j, b_chunk(tid, l));
      Tf32x4 big, small;
      split(col, big, small);
      *reinterpret_cast<Tf32x4*>(b_big + off) = big;
      *reinterpret_cast<Tf32x4*>(b_big + Cfg::b_bytes + off) = small;
    }
  }

  /// The fetched tile -> the stage at `stage` (1024-byte aligned): A's chunks
  /// in place, B's blocks transposed, both parts of every element.
  KOKKOS_INLINE_FUNCTION static void store(unsigned char* stage, const int tid, const FragmentA& ra,
                                           const FragmentB& rb) {
    MMAPP_UNROLL
    for (int l = 0; l < la; ++l) store_a(stage, tid, l, ra[l]);
    MMAPP_UNROLL
    for (int l = 0; l < lb; ++l)
      if (b_has(tid, l)) store_b(stage, tid, l, rb[l]);
  }

  /// B blocks in a K tile (each 4 chunks of 16 bytes).
  static constexpr int b_blocks = (BK / 4) * (BN / 4);

  /// One 16-byte chunk of `valid` (0..4) elements at src to raw scratch at
  /// dst, the rest zero: cp.async where the operand's chunks are 16-byte
  /// aligned (`vec`), else element loads and a scratch store (then visible
  /// to this thread at once, as the cp.async data after its wait).
  KOKKOS_INLINE_FUNCTION static void raw_chunk(unsigned char* dst, const float* src, const int valid, const bool vec) {
    if (vec) {
      cp_async16(dst, src, 4 * valid);
    } else {
      Chunk v;
      MMAPP_UNROLL
      for (int q = 0; q < 4; ++q) v.v[q] = q < valid ? src[q] : 0.0f;
      *reinterpret_cast<Chunk*>(dst) = v;
    }
  }
  /// Elements of a chunk inside [from, to): 0..4.
  KOKKOS_INLINE_FUNCTION static int within(const int from, const int to) {
    const int v = to - from;
    return v < 0 ? 0 : (v > 4 ? 4 : v);
  }

  /// Async: this thread's chunks of the K tile at k0 into the raw slot at
  /// `raw`, each where this thread alone reads it back (split_raw): A's
  /// chunk l at (tid + l team) * 16; B's block l, row i at a_bytes + (i
  /// b_blocks + tid + l team) * 16 (8 consecutive lanes: 128 contiguous
  /// bytes). Zero outside the matrix and [k0, k_end). Not committed.
  KOKKOS_INLINE_FUNCTION static void copy_raw(const WarpGemmParams<float>& p, const int bm, const int bn, const int k0,
                                              const int k_end, const int tid, unsigned char* raw) {
    chunks<la>([&](const int l) {
      const int r = bm + a_row(tid, l), k = k0 + 4 * a_chunk(tid, l);
      const int valid = r < p.M ? within(k, k_end) : 0;
      raw_chunk(raw + (tid + l * team) * 16, valid > 0 ? p.A + long(r) * p.lda + k : p.A, valid, p.vec_a);
    });
    chunks<lb>([&](const int l) {
      if (!b_has(tid, l)) return;
      const int c = bn + b_col(tid, l), kr = k0 + 4 * b_chunk(tid, l);
      MMAPP_UNROLL
      for (int i = 0; i < 4; ++i) {
        const int valid = kr + i < k_end ? within(c, p.N) : 0;
        raw_chunk(raw + Cfg::a_bytes + (i * b_blocks + tid + l * team) * 16,
                  valid > 0 ? p.B + long(kr + i) * p.ldb + c : p.B, valid, p.vec_b);
      }
    });
  }

  /// Async: this thread's chunks from the raw slot (copy_raw's places, its
  /// copies waited for) split and stored to the stage at `stage` (store),
  /// one A chunk or B block at a time.
  KOKKOS_INLINE_FUNCTION static void split_raw(unsigned char* stage, const unsigned char* raw, const int tid) {
    chunks<la>(
        [&](const int l) { store_a(stage, tid, l, *reinterpret_cast<const Chunk*>(raw + (tid + l * team) * 16)); });
    chunks<lb>([&](const int l) {
      if (!b_has(tid, l)) return;
      Chunk x[4];
      MMAPP_UNROLL
      for (int i = 0; i < 4; ++i)
        x[i] = *reinterpret_cast<const Chunk*>(raw + Cfg::a_bytes + (i * b_blocks + tid + l * team) * 16);
      store_b(stage, tid, l, x);
    });
  }

  /// f(l) for l < n, unrolled (or kept rolled: Rolled).
  template <int n, class F>
  KOKKOS_FORCEINLINE_FUNCTION static void chunks(const F& f) {
    chunk_loop<n, Rolled>(f);
  }

  /// Descriptors of K step s (0..3) of the stage at scratch address `st`:
  /// A's part (0 big, 1 small) from its row row0, B's part from its column
  /// row0 (a row of its K-major tile). row0: a multiple of 8.
  KOKKOS_INLINE_FUNCTION static std::uint64_t desc_a(const std::uint32_t st, const int part, const int row0,
                                                     const int s) {
    return wgmma_desc(st + part * Cfg::a_bytes + row0 * kWgmmaRowBytes + s * kWgmmaK * 4);
  }
  KOKKOS_INLINE_FUNCTION static std::uint64_t desc_b(const std::uint32_t st, const int part, const int row0,
                                                     const int s) {
    return wgmma_desc(st + 2 * Cfg::a_bytes + part * Cfg::b_bytes + row0 * kWgmmaRowBytes + s * kWgmmaK * 4);
  }
};

/// d = A B (+ d when accumulate) by the warpgroup: the instruction on sm_90a,
/// the emulation through the descriptors on the host (scratch: the
/// descriptors' base), an abort in other device passes.
template <int R>
KOKKOS_INLINE_FUNCTION void wgmma_tf32_op(float (&d)[R], const std::uint64_t da, const std::uint64_t db,
                                          const bool accumulate, const unsigned char* scratch, const int w,
                                          const int lane) {
#if defined(__CUDA_ARCH__)
  (void)scratch, (void)w, (void)lane;
  wgmma_tf32(d, da, db, accumulate);
#else
  wgmma_tf32_emulate(d, da, db, accumulate, scratch, w, lane);
#endif
}

/// One wgmma of warpgroup wg at K step s (0..3) of the stage at scratch
/// address st: d = A_pa B_pb (+ d when accumulate), pa, pb the parts (0
/// big, 1 small). The warpgroup's 64 rows of A against the block's BN
/// columns of B; with Cfg::rows_n, its 64 columns of B (wgmma's A operand)
/// against the block's BM rows of A (wgmma's B), d holding C^T. smem, w,
/// lane: for the host's emulation (wgmma_tf32_op).
template <class Cfg, int R>
KOKKOS_INLINE_FUNCTION void wgmma_product(float (&d)[R], const std::uint32_t st, const int pa, const int pb,
                                          const int wg, const int s, const bool accumulate, const unsigned char* smem,
                                          const int w, const int lane) {
  using L = WgmmaLoader<Cfg>;
  if constexpr (Cfg::rows_n)
    wgmma_tf32_op(d, L::desc_b(st, pb, 64 * wg, s), L::desc_a(st, pa, 0, s), accumulate, smem, w, lane);
  else
    wgmma_tf32_op(d, L::desc_a(st, pa, 64 * wg, s), L::desc_b(st, pb, 0, s), accumulate, smem, w, lane);
}

/// Row and column in the block tile of C of accumulator i of warpgroup wg's
/// warp w, lane `lane` (wgmma_d_row, wgmma_d_col; transposed with rows_n).
template <class Cfg>
KOKKOS_INLINE_FUNCTION constexpr int wgmma_c_row(const int wg, const int w, const int lane, const int i) {
  return Cfg::rows_n ? wgmma_d_col(lane, i) : 64 * wg + wgmma_d_row(w, lane, i);
}
template <class Cfg>
KOKKOS_INLINE_FUNCTION constexpr int wgmma_c_col(const int wg, const int w, const int lane, const int i) {
  return Cfg::rows_n ? 64 * wg + wgmma_d_row(w, lane, i) : wgmma_d_col(lane, i);
}

}  // namespace detail

namespace detail {

/// The pre-split operands of a GpuWgmmaTile with `presplit` in the
/// workspace, after the split-K partials (rounded up to 256 bytes): A big,
/// A small (mp x kp each, row-major: row r holds A(r, 0..kp)), B big,
/// B small (np x kp, row c holds B(0..kp, c): B transposed, K-major), mp, np
/// and kp the extents rounded up to the block tile and to 32, zero outside
/// the matrices. Parts as tf32_split gives them (TF32 bit patterns).
struct WgmmaPresplit {
  long mp, np, kp;
  std::size_t at;  ///< byte offset of A big in the workspace
  WgmmaPresplit(const long m, const long n, const long k, const int bm, const int bn, const std::size_t partials)
      : mp(round_up(m, bm)), np(round_up(n, bn)), kp(round_up(k, kWgmmaRowK)),
        at(std::size_t(round_up(long(partials), 256))) {}
  /// Bytes of workspace in all: the partials, then the four parts.
  std::size_t bytes() const { return at + std::size_t(2 * (mp + np) * kp) * sizeof(float); }
};

/// Writes the four parts of `ps` into work + ps.at: one 16-byte chunk (4
/// K values) of one row of A or column of B per work item, every global
/// access in whole 32-byte sectors (the pass is memory-bound):
///   - A: consecutive items take consecutive chunks of a row, read as one
///     16-byte load where A's rows allow it (lda % 4 == 0, A 16-byte
///     aligned, the chunk inside K), else element by element;
///   - B (transposed): a warp's 32 items take 8 consecutive columns x 4
///     consecutive chunks (item l: column l % 8, chunk l / 8), so each of
///     its 4 reads per item covers 8 consecutive floats (one sector) of 4
///     rows of B, and each column's 4 chunks are 64 contiguous bytes of the
///     parts. (One column per item, chunk-major, wrote 16 bytes to each of
///     32 rows of the parts per warp store: the whole pass 2.8x slower, 271
///     against 98 us at 640 x 480 x 20000 on an H100, 2026-11-27,
///     docs/performance.md "Tensor cores, twelfth round".)
/// Requires np % 8 == 0 and kp % 16 == 0 (np: whole BN tiles; kp: whole
/// 32-wide K tiles; WgmmaPresplit pads them so); throws std::logic_error
/// otherwise.
template <class Space>
void wgmma_presplit_pass(const Space& space, const GemmArgs<Space, float>& args, const WgmmaPresplit& ps) {
  const auto A = args.A;
  const auto B = args.B;
  const long M = A.extent(0), K = A.extent(1), N = B.extent(1);
  const long lda = long(A.stride(0)), ldb = long(B.stride(0));
  const long mp = ps.mp, np = ps.np, kp = ps.kp, chunks = kp / 4;
  constexpr long kColsPerWarp = 8, kChunksPerWarp = 4;
  if (np % kColsPerWarp != 0 || chunks % kChunksPerWarp != 0)
    throw std::logic_error("wgmma_presplit_pass: B's padded extents are not whole 8 x 4 blocks");
  const long col_blocks = np / kColsPerWarp;
  std::uint32_t* const a_big = reinterpret_cast<std::uint32_t*>(args.work.data() + ps.at);
  std::uint32_t* const a_small = a_big + mp * kp;
  std::uint32_t* const b_big = a_small + mp * kp;
  std::uint32_t* const b_small = b_big + np * kp;
  const float* const a = A.data();
  const float* const b = B.data();
  const bool a_wide = rows_in_chunks(a, lda);
  parallel_for_long(
      "mmapp::wgmma_presplit", space, (mp + np) * chunks, KOKKOS_LAMBDA(const long i) {
        float x[4] = {0.0f, 0.0f, 0.0f, 0.0f};
        long off;
        const bool is_a = i < mp * chunks;
        if (is_a) {
          const long row = i / chunks, k = 4 * (i % chunks);
          off = row * kp + k;
          if (row < M && a_wide && k + 4 <= K) {
            const Chunk16<float> c = *reinterpret_cast<const Chunk16<float>*>(a + row * lda + k);
            MMAPP_UNROLL
            for (int q = 0; q < 4; ++q) x[q] = c.v[q];
          } else if (row < M) {
            MMAPP_UNROLL
            for (int q = 0; q < 4; ++q)
              if (k + q < K) x[q] = a[row * lda + k + q];
          }
        } else {
          const long j = i - mp * chunks, w = j / 32, l = j % 32;
          const long col = (w % col_blocks) * kColsPerWarp + l % kColsPerWarp;
          const long k = 4 * ((w / col_blocks) * kChunksPerWarp + l / kColsPerWarp);
          off = col * kp + k;
          if (col < N) {
            MMAPP_UNROLL
            for (int q = 0; q < 4; ++q)
              if (k + q < K) x[q] = b[(k + q) * ldb + col];
          }
        }
        Tf32x4 big, small;
        tf32_split4(x, big.v, small.v);
        *reinterpret_cast<Tf32x4*>((is_a ? a_big : b_big) + off) = big;
        *reinterpret_cast<Tf32x4*>((is_a ? a_small : b_small) + off) = small;
      });
}

}  // namespace detail

namespace detail {

/// One K tile's products on the stage at scratch address st by warpgroup wg
/// (warp w, lane): its four big products into tp (from zero) committed as
/// one group, its eight small ones into dc as another; waits until only the
/// latter may be pending (so every earlier group is done: the previous K
/// tile's small products too) and adds tp to acc in FP32 (GpuWgmmaTile::
/// stages, three-stage form). smem: the stages' generic address (the host's
/// emulation reads through it).
template <class Cfg, int R>
KOKKOS_INLINE_FUNCTION void wgmma_tile_overlapped(const std::uint32_t st, const unsigned char* smem, const int wg,
                                                  const int w, const int lane, float (&tp)[R], float (&dc)[R],
                                                  float (&acc)[R]) {
  wgmma_fence();
  wgmma_fence_operands(tp);
  MMAPP_UNROLL
  for (int j = 0; j < Cfg::BK / kWgmmaK; ++j) wgmma_product<Cfg>(tp, st, 0, 0, wg, j, j > 0, smem, w, lane);
  wgmma_commit();
  MMAPP_UNROLL
  for (int j = 0; j < Cfg::BK / kWgmmaK; ++j) {
    wgmma_product<Cfg>(dc, st, 1, 0, wg, j, true, smem, w, lane);
    wgmma_product<Cfg>(dc, st, 0, 1, wg, j, true, smem, w, lane);
  }
  wgmma_commit();
  wgmma_wait<1>();  // every group but the small products just issued
  wgmma_fence_operands(tp);
  MMAPP_UNROLL
  for (int i = 0; i < R; ++i) acc[i] += tp[i];
}

/// Accumulator register i's element of C: acc + dc * 2^-11 (the big and
/// the scaled small products' sums).
template <int R>
KOKKOS_FORCEINLINE_FUNCTION float wgmma_c(const float (&acc)[R], const float (&dc)[R], const int i) {
  return acc[i] + dc[i] * (1.0f / float(kTf32SmallScale));
}

/// The epilogue of warpgroup wg's 64 x BN slice of the block tile (bm, bn):
/// C = acc + dc * 2^-11 (+ beta C), or slice `slice`'s split-K partial
/// (params.out), inside M x N only; registers 2i and 2i + 1 (adjacent
/// columns of one row) in one pair_store.
template <class Cfg, int R>
KOKKOS_INLINE_FUNCTION void wgmma_epilogue(const WarpGemmParams<float>& params, const int slice, const int bm,
                                           const int bn, const int wg, const int w, const int lane,
                                           const float (&acc)[R], const float (&dc)[R]) {
  static_assert(R % 2 == 0, "accumulator registers in column pairs");
  static_assert(!Cfg::rows_n, "a C^T tile's pairs are two rows: staged (wgmma_stage_c)");
  float* const o = params.slice_out(slice);
  const bool scale = params.scales_c();
  MMAPP_UNROLL
  for (int i = 0; i < R; i += 2) {
    const int row = bm + wgmma_c_row<Cfg>(wg, w, lane, i);
    const int col = bn + wgmma_c_col<Cfg>(wg, w, lane, i);
    if (row >= params.M) continue;
    pair_store(o + long(row) * params.ldo + col, col, params.N, params.pair_o, scale, params.beta, wgmma_c(acc, dc, i),
               wgmma_c(acc, dc, i + 1));
  }
}

/// Thread (wg, w, lane)'s share of the block tile's C staged in scratch
/// (Cfg::Staged: BM x BN row-major, pitch ld = Staged::ld floats, s 8-byte
/// aligned): element (wgmma_c_row, wgmma_c_col) of each register <- acc +
/// dc * 2^-11, one 8-byte store a pair (a row's two columns; with rows_n
/// two rows of one column, two stores). Pitch BN + 8: the 8 rows of a
/// warp's store start 8 banks apart, so its 256 bytes take two wavefronts.
/// store_staged_rows then writes the tile to C by whole rows. With ld = BN,
/// a Stream-K segment's partial tile in global memory (WgmmaStreamK).
template <class Cfg, int R>
KOKKOS_INLINE_FUNCTION void wgmma_stage_c(float* const s, const int wg, const int w, const int lane,
                                          const float (&acc)[R], const float (&dc)[R], const int ld = Cfg::Staged::ld) {
  static_assert(R % 2 == 0, "accumulator registers in column pairs");
  MMAPP_UNROLL
  for (int i = 0; i < R; i += 2) {
    const int row = wgmma_c_row<Cfg>(wg, w, lane, i), col = wgmma_c_col<Cfg>(wg, w, lane, i);
    if constexpr (Cfg::rows_n) {  // the pair: two rows of one column
      s[row * ld + col] = wgmma_c(acc, dc, i);
      s[(row + 1) * ld + col] = wgmma_c(acc, dc, i + 1);
    } else {
      *reinterpret_cast<Pair<float>*>(s + row * ld + col) = Pair<float>{{wgmma_c(acc, dc, i), wgmma_c(acc, dc, i + 1)}};
    }
  }
}

/// The K loop and epilogue of a warp-specialized team (GpuWgmmaTile::ws;
/// file comment): the producer warpgroup (tid >= consumer_threads) copies
/// K tile kt by cp.async into raw slot kt mod 2, two tiles ahead, then,
/// once stage kt mod 2 is empty, splits it there (each thread its own
/// chunks: its cp.async wait suffices), fences the stores for the async
/// proxy and arrives on the stage's `full` mbarrier; the MMA warpgroups
/// wait on `full`, run wgmma_tile_overlapped and, once it has waited for
/// the previous K tile's small products, arrive on that tile's `empty`
/// (mbarriers and setmaxnreg: warp/ws_pipeline.hpp). The split of tile
/// kt + 1 thus overlaps the small products of tile kt. smem: the team's
/// 1024-byte aligned scratch (two stages, two raw slots, 4 mbarriers);
/// sbase: its shared-memory address. Where mbarriers do not exist (host
/// passes, builds before sm_90, which list no such variant) the same roles
/// take turns at team barriers.
template <class Cfg, class Member>
KOKKOS_INLINE_FUNCTION void wgmma_ws_team(const Member& team, const WarpGemmParams<float>& params, unsigned char* smem,
                                          const std::uint32_t sbase, const int bm, const int bn, const int slice,
                                          const int k_begin, const int k_end) {
  using L = WgmmaLoader<Cfg, Cfg::producer_threads, true>;
  constexpr int R = Cfg::regs, S = Cfg::stages, BK = Cfg::BK;
  static_assert(S == 2 && Cfg::raw_slots == 2, "ws: two stages, two raw slots");
  const int tid = team.team_rank();
  const int ktiles = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
  const bool producer = tid >= Cfg::consumer_threads;
  const int pt = tid - Cfg::consumer_threads;  // the producer's thread index
  unsigned char* const raw = smem + S * Cfg::stage_bytes;
  const auto load = [&](const int kt) {  // one cp.async group per K tile, empty past the last
    if (kt < ktiles) L::copy_raw(params, bm, bn, k_begin + kt * BK, k_end, pt, raw + (kt & 1) * Cfg::raw_bytes);
    cp_async_commit();
  };
  const auto multiply = [&](const auto& mainloop) {  // the MMA warpgroups' accumulators, K loop, epilogue
    const int wg = tid / 128, w = (tid / 32) % 4, lane = tid % 32;
    float acc[R], dc[R], tp[R];
    MMAPP_UNROLL
    for (int i = 0; i < R; ++i) acc[i] = dc[i] = tp[i] = 0.0f;
    mainloop([&](const int s) {
      wgmma_tile_overlapped<Cfg>(sbase + std::uint32_t(s * Cfg::stage_bytes), smem, wg, w, lane, tp, dc, acc);
    });
    wgmma_wait<0>();
    wgmma_fence_operands(dc);
    wgmma_epilogue<Cfg>(params, slice, bm, bn, wg, w, lane, acc, dc);
  };
#if MMAPP_WS_MBARRIER
  std::uint64_t* const full = reinterpret_cast<std::uint64_t*>(raw + Cfg::raw_slots * Cfg::raw_bytes);
  std::uint64_t* const empty = full + S;
  mbar_init_ring<S>(team, full, Cfg::producer_threads, Cfg::consumer_threads);
  if (producer) {
    set_max_regs<false, Cfg::producer_regs>();  // to the MMA warpgroups
    load(0);
    load(1);
    MMAPP_NO_UNROLL
    for (int kt = 0; kt < ktiles; ++kt) {
      const int s = kt & 1;
      cp_async_wait<1>();                         // tile kt landed (the older of two groups)
      mbar_wait(empty + s, ((kt >> 1) & 1) ^ 1);  // the stage's previous tile's products done
      L::split_raw(smem + s * Cfg::stage_bytes, raw + s * Cfg::raw_bytes, pt);
      wgmma_fence_proxy();  // the stores, visible to wgmma (the async proxy)
      mbar_arrive(full + s);
      load(kt + 2);  // into the raw slot just read (this thread's chunks only)
    }
    cp_async_wait<0>();
    cta_barrier();  // with the MMA warpgroups' below: every wait done
  } else {
    set_max_regs<true, Cfg::consumer_regs>();
    multiply([&](const auto& products) {
      MMAPP_NO_UNROLL
      for (int kt = 0; kt < ktiles; ++kt) {
        const int s = kt & 1;
        mbar_wait(full + s, (kt >> 1) & 1);
        products(s);
        if (kt > 0) mbar_arrive(empty + (s ^ 1));  // tile kt - 1's products all done
      }
    });
    cta_barrier();
    if (tid == 0) mbar_inval_ring<S>(full);
  }
#else
  // Turns at team barriers: the producers copy and split tile kt, then the MMA warpgroups multiply.
  const auto produce = [&](const int kt) {
    if (!producer) return;
    load(kt);
    cp_async_wait<0>();
    L::split_raw(smem + (kt & 1) * Cfg::stage_bytes, raw + (kt & 1) * Cfg::raw_bytes, pt);
    wgmma_fence_proxy();
  };
  const auto loop = [&](const auto& products) {
    for (int kt = 0; kt < ktiles; ++kt) {
      produce(kt);
      team.team_barrier();
      if (!producer) products(kt & 1);
      team.team_barrier();
    }
  };
  if (producer)
    loop([](int) {});
  else
    multiply(loop);
#endif
}

}  // namespace detail

/// Bytes of workspace a GpuWgmmaTile variant needs for an m x n x k GEMM:
/// with `presplit` the split-K partials and the pre-split operands
/// (detail::WgmmaPresplit), else tiled_gpu_workspace_bytes (the partials and
/// aligned copies of misaligned operands, none for WgmmaInPlace), with WgmmaStreamK the most any
/// Stream-K plan writes first (stream_k_workspace_bytes, rounded up to 256).
template <class Cfg>
std::size_t wgmma_workspace_bytes(const long m, const long n, const long k) {
  if constexpr (Cfg::presplit) {
    const std::size_t partials = Cfg::split_kc > 0 ? splitk_workspace_bytes<float, Cfg::split_kc>(m, n, k) : 0;
    return m == 0 || n == 0 ? 0 : detail::WgmmaPresplit(m, n, k, Cfg::BM, Cfg::BN, partials).bytes();
  } else if constexpr (Cfg::stream_k) {
    const std::size_t partials = stream_k_workspace_bytes<float, Cfg::BM, Cfg::BN>(m, n, k, Cfg::BK, 1);
    const std::size_t rest = tiled_gpu_workspace_bytes<float, 0, true>(m, n, k);
    return partials == 0 ? rest : std::size_t(detail::round_up(long(partials), 256)) + rest;
  } else {
    return tiled_gpu_workspace_bytes<float, Cfg::split_kc, Cfg::copies>(m, n, k);
  }
}

/// 3xTF32 GEMM on Hopper's wgmma (see the file comment): C = A * B + beta *
/// C, float, with the shape of Cfg (a GpuWgmmaTile). Row-major views, any M,
/// N, K >= 0, any row stride and alignment; beta == 0: C is not read. A
/// split-K Cfg needs args.work of tiled_gpu_workspace_bytes<float,
/// Cfg::split_kc, true>(M, N, K) bytes (16-byte aligned; SplitKPlan throws
/// std::runtime_error on less); the same bytes let misaligned operands be
/// copied to aligned rows (AlignedOperands). A WgmmaStreamK Cfg with
/// wgmma_workspace_bytes<Cfg>(M, N, K) bytes streams its partial last wave
/// (with less room it runs unstreamed). Asynchronous (the caller fences).
template <class Cfg, class Space, class T>
void gemm_tiled_wgmma(const Space& space, const GemmArgs<Space, T>& args) {
  static_assert(std::is_same_v<T, float>, "wgmma variants: float (3xTF32)");
  using L = detail::WgmmaLoader<Cfg>;

  const auto C = args.C;
  const int M = C.extent(0), N = C.extent(1), K = args.A.extent(1);
  if (M == 0 || N == 0) return;
  const SplitKPlan<T> plan("gemm_tiled_wgmma", args, Cfg::split_kc, split_waves_of<Cfg>(space, M, N));

  // Stream-K (WgmmaStreamK): its partial tiles at the workspace's start, where it has room for them
  // (a workspace sized for another shape: no streaming, the same result); the operand copies after.
  StreamKPlan sk;
  sk.head = ((M + Cfg::BM - 1) / Cfg::BM) * ((N + Cfg::BN - 1) / Cfg::BN);
  if constexpr (Cfg::stream_k) {
    const long slots = long(Cfg::min_blocks > 0 ? Cfg::min_blocks : 1) * gpu_sm_estimate(space);
    const StreamKPlan p = stream_k_plan(sk.head, K, slots, Cfg::BK, 1);
    if (p.active() && partials_fit<T, Cfg::BM, Cfg::BN>(args.work, p.partials())) sk = p;
  }
  const std::size_t sk_bytes =
      std::size_t(detail::round_up(long(partials_bytes<T, Cfg::BM, Cfg::BN>(sk.partials())), 256));
  const detail::WgmmaPresplit ps(M, N, K, Cfg::BM, Cfg::BN, plan.work_bytes());
  if constexpr (Cfg::presplit) {
    if (args.work.extent(0) < ps.bytes() || !detail::aligned_to(args.work.data(), 16))
      throw std::runtime_error("gemm_tiled_wgmma: pre-split workspace too small or misaligned");
    detail::wgmma_presplit_pass(space, args, ps);
  }
  detail::WarpGemmParams<T> params = [&] {
    if constexpr (Cfg::presplit) {  // the K loop reads ps's parts, never A and B (so no aligned copies)
      const struct {
        OperandView<T> a, b;
      } in_place{{args.A.data(), long(args.A.stride(0)), false}, {args.B.data(), long(args.B.stride(0)), false}};
      return detail::warp_gemm_params(M, N, K, Cfg::BM, Cfg::BN, plan, in_place, args.beta);
    } else {
      // WgmmaInPlace: no room past the workspace's end, so no copy (unaligned rows read in place).
      const AlignedOperands<Space, T> ops(space, args, Cfg::copies ? plan.work_bytes() + sk_bytes : args.work.extent(0));
      return detail::warp_gemm_params(M, N, K, Cfg::BM, Cfg::BN, plan, ops, args.beta);
    }
  }();
  params.tail_head = sk.head;
  params.sk_tile_iters = sk.tile_iters;
  params.sk_team_iters = sk.team_iters;
  params.tail_work = sk.active() ? reinterpret_cast<T*>(args.work.data()) : nullptr;
  params.scratch_bytes =
      Cfg::one_tile_scratch && params.kc <= Cfg::BK ? Cfg::one_tile_scratch_bytes : Cfg::scratch_bytes;
  const std::uint32_t* const pre = reinterpret_cast<const std::uint32_t*>(args.work.data() + ps.at);
  const long mp = ps.mp, np = ps.np, kp = ps.kp;

  using policy_t = detail::team_policy_lb<Space, Cfg::team_size, Cfg::min_blocks>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space, sk.active() ? sk.league() : long(params.tiles) * params.slices, Cfg::team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(params.scratch_bytes));

  Kokkos::parallel_for(
      "mmapp::gemm_tiled_wgmma", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int lr = team.league_rank();
        const int slice = lr / params.tiles, t = lr % params.tiles;
        const detail::BlockCoord tile = detail::BlockSwizzle<Cfg::swizzle>::tile(t, params.tiles_m, params.tiles_n);
        // The team's block tile and K slice (a stream team's segments: below).
        const int tile_bm = tile.m * Cfg::BM, tile_bn = tile.n * Cfg::BN;
        const int slice_k0 = slice * params.kc,
                  slice_k1 = slice_k0 + params.kc < params.K ? slice_k0 + params.kc : params.K;
        // The stages from the first 1024-byte boundary of the team's scratch.
        unsigned char* const raw = static_cast<unsigned char*>(team.team_shmem().get_shmem(params.scratch_bytes));
        unsigned char* const smem =
            raw + ((detail::kWgmmaAtomBytes - std::uintptr_t(raw) % detail::kWgmmaAtomBytes) % detail::kWgmmaAtomBytes);
        const std::uint32_t sbase = detail::wgmma_smem_addr(smem, smem);

        // Pre-split: this block's rows of A big, A small, B big, B small (WgmmaPresplit). Here, not
        // in the branch that reads them: nvcc refuses an extended lambda's first capture (pre, mp,
        // np, kp) inside `if constexpr`.
        const std::uint32_t* const parts[4] = {pre + long(tile_bm) * kp, pre + (mp + tile_bm) * kp,
                                               pre + (2 * mp + tile_bn) * kp, pre + (2 * mp + np + tile_bn) * kp};
        if constexpr (Cfg::ws) {  // the producer warpgroup and the MMA warpgroups (wgmma_ws_team)
          (void)parts;
          detail::wgmma_ws_team<Cfg>(team, params, smem, sbase, tile_bm, tile_bn, slice, slice_k0, slice_k1);
        } else {
          // The team's segments: its block tile over its K slice, or, on a stream team (WgmmaStreamK),
          // the one or two segments of its run (stream_k_segment), each into its partial tile. A loop,
          // not a lambda called per segment: ptxas gave the in-loop 128x128 tile 24 bytes of spills
          // with its body in a lambda (CUDA 13.0, sm_90a).
          MMAPP_UNROLL
          for (int seg = 0; seg < (Cfg::stream_k ? 2 : 1); ++seg) {
            int bm = tile_bm, bn = tile_bn, k_begin = slice_k0, k_end = slice_k1;
            float* partial = nullptr;  // where not null: the segment's whole BM x BN tile goes there
            if constexpr (Cfg::stream_k) {
              if (lr >= params.tail_head) {
                const StreamKPlan plan = stream_k_plan_of(params);
                StreamKSegment sg;
                if (!stream_k_segment(plan, lr - params.tail_head, seg, sg)) break;
                const detail::BlockCoord b =
                    detail::BlockSwizzle<Cfg::swizzle>::tile(plan.head + sg.tile, params.tiles_m, params.tiles_n);
                bm = b.m * Cfg::BM;
                bn = b.n * Cfg::BN;
                k_begin = sg.it0 * Cfg::BK;
                k_end = sg.it1 * Cfg::BK < params.K ? sg.it1 * Cfg::BK : params.K;
                partial = params.tail_work + long(sg.slot) * (Cfg::BM * Cfg::BN);
                // A second segment's prologue fills the stage the first's last K tile was read from.
                if (seg > 0) team.team_barrier();
              } else if (seg > 0) {
                break;
              }
            }
            (void)partial;  // read by WgmmaStreamK tiles only
            const int tid = team.team_rank();
            const int wg = tid / 128, w = (tid / 32) % 4, lane = tid % 32;
            constexpr int R = Cfg::regs;
            float acc[R], dc[R], tp[R];
            MMAPP_UNROLL
            for (int i = 0; i < R; ++i) acc[i] = dc[i] = tp[i] = 0.0f;

            const int ktiles = k_end > k_begin ? (k_end - k_begin + Cfg::BK - 1) / Cfg::BK : 0;
            // The tile's three wgmma per K step of the stage at scratch address st.
            auto mmas = [&](const std::uint32_t st) {
              detail::wgmma_fence();
              detail::wgmma_fence_operands(tp);
              detail::wgmma_fence_operands(dc);
              MMAPP_UNROLL
              for (int j = 0; j < Cfg::BK / detail::kWgmmaK; ++j) {
                detail::wgmma_product<Cfg>(tp, st, 0, 0, wg, j, j > 0, smem, w, lane);
                detail::wgmma_product<Cfg>(dc, st, 1, 0, wg, j, true, smem, w, lane);  // small products
                detail::wgmma_product<Cfg>(dc, st, 0, 1, wg, j, true, smem, w, lane);
              }
              detail::wgmma_commit();
            };
            // Waits for the tile's group and adds its big products in FP32 (round to nearest).
            auto finish = [&]() {
              detail::wgmma_wait<0>();
              detail::wgmma_fence_operands(tp);
              detail::wgmma_fence_operands(dc);
              MMAPP_UNROLL
              for (int i = 0; i < R; ++i) acc[i] += tp[i];
            };
            // Three stages: the tile's big products (t) and its small ones as two
            // groups; t added once its group is done, while the small ones run.
            auto overlapped = [&](const std::uint32_t st) {
              detail::wgmma_tile_overlapped<Cfg>(st, smem, wg, w, lane, tp, dc, acc);
            };
            if constexpr (Cfg::async) {
              // Raw slots after the two stages; K tile kt in slot kt % 2, loaded two tiles ahead.
              unsigned char* const raw = smem + 2 * Cfg::stage_bytes;
              auto load = [&](const int kt) {  // one cp.async group per K tile, empty past the last
                if (kt < ktiles)
                  L::copy_raw(params, bm, bn, k_begin + kt * Cfg::BK, k_end, tid, raw + (kt & 1) * Cfg::raw_bytes);
                detail::cp_async_commit();
              };
              load(0);
              load(1);
              detail::cp_async_wait<1>();
              if (ktiles > 0) L::split_raw(smem, raw, tid);
              load(2);
              detail::wgmma_fence_proxy();
              team.team_barrier();
              for (int kt = 0; kt < ktiles; ++kt) {
                const int s = kt & 1;
                mmas(sbase + std::uint32_t(s * Cfg::stage_bytes));
                if (kt + 1 < ktiles) {  // tile kt + 1: landed (its group is the older of two), split, stored
                  detail::cp_async_wait<1>();
                  L::split_raw(smem + (s ^ 1) * Cfg::stage_bytes, raw + ((kt + 1) & 1) * Cfg::raw_bytes, tid);
                  detail::wgmma_fence_proxy();
                  load(kt + 3);
                }
                finish();
                team.team_barrier();
              }
              detail::cp_async_wait<0>();
            } else if constexpr (Cfg::presplit) {
              // Per K tile and thread: 16 chunks (4 per part) by cp.async into
              // the stage one tile ahead; the wgmma as in the three-stage path.
              // The stage loaded in trip kt (tile kt + 1) was last read by tile
              // kt - 2, waited for by every warpgroup before this trip's barrier.
              auto load = [&](const int kt, const int stage) {
                unsigned char* const st = smem + stage * Cfg::stage_bytes;
                const long k = k_begin + long(kt) * Cfg::BK;
                constexpr int la = Cfg::BM * 8 / Cfg::team_size, lb = Cfg::BN * 8 / Cfg::team_size;  // chunks per part
                static_assert(la * Cfg::team_size == Cfg::BM * 8 && lb * Cfg::team_size == Cfg::BN * 8, "whole chunks");
                MMAPP_UNROLL
                for (int part = 0; part < 4; ++part) {
                  unsigned char* const dst =
                      st + (part < 2 ? part * Cfg::a_bytes : 2 * Cfg::a_bytes + (part - 2) * Cfg::b_bytes);
                  MMAPP_UNROLL
                  for (int l = 0; l < (part < 2 ? la : lb); ++l) {
                    const int c = tid + l * Cfg::team_size, r = c / 8, q = c % 8;
                    detail::cp_async16(dst + detail::wgmma_chunk_offset(r, q), parts[part] + r * kp + k + 4 * q, 16);
                  }
                }
                detail::cp_async_commit();
              };
              if (ktiles > 0) load(0, 0);
              int s = 0;  // kt % 3
              for (int kt = 0; kt < ktiles; ++kt) {
                detail::cp_async_wait<0>();
                detail::wgmma_fence_proxy();
                team.team_barrier();
                const int next = s == 2 ? 0 : s + 1;
                if (kt + 1 < ktiles) load(kt + 1, next);
                overlapped(sbase + std::uint32_t(s * Cfg::stage_bytes));
                s = next;
              }
              detail::wgmma_wait<0>();
              detail::wgmma_fence_operands(dc);
            } else if constexpr (Cfg::stages == 3) {
              // Tile kt's big products (t), then its small ones, each group
              // committed; t is added once its group is done, while the small
              // products run (Cfg::stages).
              typename L::FragmentA ra;
              typename L::FragmentB rb;
              L::prologue(params, bm, bn, k_begin, k_end, ktiles, tid, smem, ra, rb);
              detail::wgmma_fence_proxy();
              team.team_barrier();
              int s = 0;  // kt % 3
              for (int kt = 0; kt < ktiles; ++kt) {
                overlapped(sbase + std::uint32_t(s * Cfg::stage_bytes));
                const int next = s == 2 ? 0 : s + 1;
                if (kt + 1 < ktiles) {  // stage `next` was last read by tile kt - 2, waited for before the last barrier
                  L::store(smem + next * Cfg::stage_bytes, tid, ra, rb);
                  detail::wgmma_fence_proxy();
                }
                if (kt + 2 < ktiles) L::fetch(params, bm, bn, k_begin + (kt + 2) * Cfg::BK, k_end, tid, ra, rb);
                team.team_barrier();
                s = next;
              }
              detail::wgmma_wait<0>();
              detail::wgmma_fence_operands(dc);
            } else {
              typename L::FragmentA ra;
              typename L::FragmentB rb;
              L::prologue(params, bm, bn, k_begin, k_end, ktiles, tid, smem, ra, rb);
              detail::wgmma_fence_proxy();
              team.team_barrier();
              for (int kt = 0; kt < ktiles; ++kt) {
                const int s = kt & 1;
                mmas(sbase + std::uint32_t(s * Cfg::stage_bytes));
                if (kt + 1 < ktiles) {  // the next K tile, loaded one trip ago, to the other stage
                  L::store(smem + (s ^ 1) * Cfg::stage_bytes, tid, ra, rb);
                  detail::wgmma_fence_proxy();
                }
                if (kt + 2 < ktiles) L::fetch(params, bm, bn, k_begin + (kt + 2) * Cfg::BK, k_end, tid, ra, rb);
                finish();
                team.team_barrier();
              }
            }  // register path

            // Epilogue: C = acc + dc * 2^-11 (+ beta C), or the slice's partial, or (a stream
            // segment) the whole BM x BN tile to its partial tile (stream_k_reduce's layout).
            if constexpr (Cfg::stream_k) {
              if (partial != nullptr) {
                detail::wgmma_stage_c<Cfg>(partial, wg, w, lane, acc, dc, Cfg::BN);
                continue;
              }
            }
            if constexpr (Cfg::stage_c) {
              if (Cfg::rows_n || params.stages_rows()) {
                // A C^T tile, or C's rows take no pairs (N odd) or no 16-byte chunks: the tile through
                // scratch, stored by whole rows (each warpgroup has waited for its own wgmma, so past the
                // first barrier the stages are free).
                detail::store_through_scratch<Cfg::BM, Cfg::BN, Cfg::team_size>(
                    team, reinterpret_cast<float*>(smem), Cfg::Staged::ld, params, slice, bm, bn, tid,
                    [&](float* const s) { detail::wgmma_stage_c<Cfg>(s, wg, w, lane, acc, dc); });
                continue;
              }
            }
            if constexpr (!Cfg::rows_n) detail::wgmma_epilogue<Cfg>(params, slice, bm, bn, wg, w, lane, acc, dc);
          }  // segments
        }
      });
  plan.reduce(space, C, args.beta);
  if constexpr (Cfg::stream_k)
    stream_k_reduce<Cfg::BM, Cfg::BN>(space, sk, params.tail_work, C, args.beta,
                                      detail::SwizzledTile<Cfg::swizzle>{params.tiles_m, params.tiles_n});
}

/// The tag of a gemm_tiled_wgmma variant, e.g. "3xtf32 wgmma w64x128 lb1 sw8 splitk1024"; a
/// rows_n tile's names its warpgroup's tile of C, BM x 64, after a t (C^T): "3xtf32 wgmma t80x64".
template <class Cfg>
std::string gpu_wgmma_tag() {
  std::string t =
      Cfg::rows_n ? "3xtf32 wgmma t" + std::to_string(Cfg::BM) + "x64" : "3xtf32 wgmma w64x" + std::to_string(Cfg::BN);
  if (Cfg::async) t += " cp";
  if (Cfg::stages != 2) t += " " + std::to_string(Cfg::stages) + "st";
  if (Cfg::presplit) t += " pre";
  if (Cfg::ws) t += " ws";
  if (Cfg::min_blocks > 0) t += " lb" + std::to_string(Cfg::min_blocks);
  if (Cfg::swizzle > 0) t += " sw" + std::to_string(Cfg::swizzle);
  if (Cfg::split_kc > 0) t += (Cfg::split_waves ? " wsplit" : " splitk") + std::to_string(Cfg::split_kc);
  if (Cfg::stream_k) t += " sk";
  if (!Cfg::copies) t += " inplace";
  return t;
}

}  // namespace mmapp
