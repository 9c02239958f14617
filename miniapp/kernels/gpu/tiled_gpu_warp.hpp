// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tiled_gpu_warp.hpp — the warp-tiled GEMM for GPUs (the ladder's upper
// rungs) and its split-K form, in portable Kokkos: TeamPolicy, level-0
// scratch, team barriers; no CUDA intrinsics. The entry point: it composes
// the device components of kernels/gpu/warp/ (the layers of CUTLASS 2.x,
// include/cutlass/gemm/: threadblock swizzle, global tile loader, scratch
// stages, warp MMA, main loop, epilogue) and the split-K plan of splitk.hpp.
// What it adds to tiled_gpu.hpp, each a compile-time switch of GpuTile so
// that every rung is a registry variant (S. Boehm, "How to Optimize a CUDA
// Matmul Kernel for cuBLAS-like Performance", 2022, kernels 6-11; NVIDIA
// CUTLASS, "Efficient GEMM in CUDA", docs/efficient_gemm.md: threadblock,
// warp and thread tiles, software pipelining; NVIDIA Hopper Tuning Guide):
//   1. 16-byte global loads (float4/double2 chunks) on an aligned main path
//      (warp/loader.hpp): a chunk is loaded wide when the matrix base is
//      16-byte aligned, the leading dimension a multiple of the chunk, and
//      the chunk lies inside the matrix; otherwise its elements are loaded
//      one by one, masked (zero outside). Any M, N, K and any row alignment
//      stay correct.
//   2. warp tiling (warp/fragment.hpp): a warp owns a WM x WN sub-tile of the
//      block tile, its 32 lanes a lanes_m x lanes_n grid (4x8 or 8x4), each
//      lane a TM x TN register tile made of 16-byte fragments (4 floats or 2
//      doubles per row and column) spaced fragment*lanes apart, so each of a
//      warp's 16-byte scratch reads covers at most 128 contiguous bytes (one
//      wavefront, no bank conflict, float and double alike) and its C stores
//      coalesce. WM == 0 selects the block-strided mapping of tiled_gpu.hpp
//      (rung 5) instead.
//   3. pipelining (Stages, warp/mainloop.hpp): 0 = load, barrier, compute,
//      barrier; 1 = the same with the next K tile's global loads in
//      registers during the compute (tiled_gpu.hpp's prefetch); 2 = two
//      scratch stages: while stage s is read, the next tile goes global ->
//      registers -> stage s^1, one barrier per K step; the loop runs two K
//      tiles per trip, so that both stages' scratch addresses are
//      compile-time offsets (a run-time stage index makes every K tile
//      recompute the scratch pointers).
//   4. block order (Swizzle = G > 0, warp/swizzle.hpp): teams walk G block
//      rows together before the next block column, so the concurrently
//      running teams share fewer distinct A and B panels in L2.
//   5. launch bounds (MinBlocks > 0): Kokkos::LaunchBounds<team, MinBlocks>,
//      i.e. __launch_bounds__ on CUDA: the register budget is 65536 /
//      (team * MinBlocks) per thread.
//   6. split-K (SplitKc > 0, splitk.hpp): K is cut into chunks of SplitKc; a
//      team computes one block tile over one chunk and writes its partial
//      tile to the workspace (slice s at work + s*M*N); splitk_reduce() then
//      sums the slices in a fixed order (groups of consecutive slices in
//      ascending order, then the group sums in ascending order; the groups
//      depend on S alone). Every partial is made by one team with a fixed
//      sequence of operations, and the sum's order is fixed, so C's bits do
//      not depend on scheduling or team size; S depends on K and SplitKc
//      only (not on M, N or the device), so a row split across MPI ranks
//      gives the same bits too.
//   7. fragment double buffering (FragPipe, warp/fragment.hpp and
//      warp/mainloop.hpp): the compute loop reads the A and B fragments of K
//      step k+1 from scratch into a second register set while the FMAs of
//      step k run (CUTLASS's warp-level software pipelining,
//      efficient_gemm.md); with two stages, the next tile's step-0
//      fragments are read right after the one barrier per K tile, before
//      the FMAs of the current tile's last step. The FMAs and their order
//      are those of the plain loop (C's bits do not change).
//   8. narrow fragment reads (FragBytes = 8): the compute loop reads its
//      fragments from scratch one element (8 bytes for double) at a time
//      instead of 16 bytes; the layout and C's bits are unchanged.
//   9. lean loads (always on with Vec, where the team size is a whole
//      number of tile rows of chunks; warp/loader.hpp): a thread whose
//      chunks lie inside A and B loads each full K tile from two per-thread
//      origins at fixed strides, with no bounds tests or per-chunk address
//      arithmetic, which otherwise take a large share of the K loop's
//      instructions beside the FMAs. Threads at the edges and the K tile
//      that reaches past the end keep the masked loads; with the fragment
//      pipeline (7) those take the same origins and per-thread bit masks,
//      so that no other bounds state is live across the K loop and the
//      two-stage 64x128x8 / 8x8 FP64 kernel fits 255 registers without a
//      spill. Same loads, same values: C's bits do not change.
// (How each switch was chosen and what it measured: docs/performance.md.)
//
// Parallel mapping (CUDA terms: blockIdx = league_rank, threadIdx = team_rank):
//   league = ceil(M/BM) * ceil(N/BN) * S teams (S = 1 without split-K); team =
//   (BM/TM) * (BN/TN) threads, vector length 1; each thread keeps TM x TN
//   accumulators of C in registers for its whole K range.
// Scratch level 0 per team: stages * (BK*(BM+pad) + BK*BN) * sizeof(T) bytes
// (+16 alignment slack; pad 2 for double BK = 8, else 4; warp/scratch.hpp).
// A is stored transposed (As[k][m], rows padded by pad) so the compute loop
// reads both tiles as aligned 4-element vectors.
// FLOPs: 2*M*N*K (split-K adds M*N*(S-1) additions in the reduction).
#pragma once

#include "kernels/gpu/aligned_operands.hpp"
#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/warp/epilogue.hpp"
#include "kernels/gpu/warp/fragment.hpp"
#include "kernels/gpu/warp/loader.hpp"
#include "kernels/gpu/warp/mainloop.hpp"
#include "kernels/gpu/warp/params.hpp"
#include "kernels/gpu/warp/scratch.hpp"
#include "kernels/gpu/warp/swizzle.hpp"
#include "kernels/gpu/warp/tile.hpp"
#include "kernels/unroll.hpp"
#include "core/kokkos_compat.hpp"
#include "core/types.hpp"

namespace mmapp {

/// Warp-tiled GEMM (see the file comment): C = A * B + beta * C with the
/// shape and features of Cfg (a GpuTile). Row-major views, any M, N, K >= 0,
/// any row stride and alignment; beta == 0: C is not read. A split-K Cfg
/// needs args.work of splitk_workspace_bytes<T, Cfg::split_kc>(M, N, K)
/// bytes (16-byte aligned); a smaller one is a std::runtime_error
/// ("gemm_tiled_warp: split-K workspace too small or misaligned"). With
/// tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::vec>(M, N, K) bytes, a
/// Cfg with 16-byte loads first copies an operand whose rows are not
/// 16-byte aligned to an aligned one there, where C reuses it enough
/// (AlignedOperands, in the call's time).
/// Asynchronous (the caller fences).
template <class Cfg, class Space, class T>
void gemm_tiled_warp(const Space& space, const GemmArgs<Space, T>& args) {
  using Chunk = detail::Chunk16<T>;
  using Stages = detail::ScratchStages<Cfg, T>;
  using Loader = detail::GlobalTileLoader<Cfg, T>;
  using Mma = detail::WarpMma<Cfg, T>;
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int VW = Chunk::width;  // elements per 16-byte chunk: the fragment width too
  static_assert(TM % VW == 0 && TN % VW == 0, "thread tile: multiples of a 16-byte fragment");
  static_assert(BM % TM == 0 && BN % TN == 0, "block tile: multiple of the thread tile");
  static_assert(BK % VW == 0 && BN % VW == 0, "BK and BN: multiples of a 16-byte chunk");
  static_assert(Cfg::split_kc == 0 || Cfg::split_kc % BK == 0, "split-K chunk: a multiple of BK");
  static_assert(Cfg::warp_shape_ok(), "warp tile: 32 lanes of TM x TN, a divisor of the block tile");
  // The loader, the warp MMA and the main loop assert their own requirements
  // (chunks per thread; fragment reads and double buffering; stages).

  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  const SplitKPlan<T> plan("gemm_tiled_warp", args, Cfg::split_kc, split_waves_of<Cfg>(space, M, N));

  // Operands that cannot be read in 16-byte chunks: aligned copies in the workspace (aligned_operands.hpp).
  const AlignedOperands<Space, T> ops(space, args, Cfg::vec ? plan.work_bytes() : args.work.extent(0));
  detail::WarpGemmParams<T> params = detail::warp_gemm_params(M, N, K, BM, BN, plan, ops, args.beta, Cfg::vec);
  params.scratch_bytes = Stages::bytes;
  params.vec_o = detail::aligned_to(params.out, sizeof(Chunk)) && params.ldo % VW == 0;

  using policy_t = detail::team_policy_lb<Space, Cfg::team_size, Cfg::min_blocks>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space, params.tiles * params.slices, Cfg::team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(params.scratch_bytes));

  // The kernel captures `params` alone (compile-time values through Cfg and
  // the component types: a local constant named here would be captured too
  // and move the parameters, see WarpGemmParams).
  Kokkos::parallel_for(
      "mmapp::gemm_tiled_warp", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int lr = team.league_rank();
        const int slice = lr / params.tiles, t = lr % params.tiles;
        const detail::BlockCoord tile = detail::BlockSwizzle<Cfg::swizzle>::tile(t, params.tiles_m, params.tiles_n);
        const int bm = tile.m * Cfg::BM, bn = tile.n * Cfg::BN;
        const int k_begin = slice * params.kc, k_end = k_begin + params.kc < params.K ? k_begin + params.kc : params.K;
        const int tid = team.team_rank();
        const Mma mma(tid);
        const Stages stages(team, params.scratch_bytes);

        T acc[Cfg::TM][Cfg::TN];
        MMAPP_UNROLL
        for (int i = 0; i < Cfg::TM; ++i) {
          MMAPP_UNROLL
          for (int j = 0; j < Cfg::TN; ++j) acc[i][j] = T(0);
        }

        typename Loader::FragmentA ra;  // global -> scratch
        typename Loader::FragmentB rb;
        const Loader loader(params, bm, bn, tid, k_end);
        typename Mma::FragmentA fa[2];  // scratch -> FMA; set 1: the fragment pipeline only
        typename Mma::FragmentB fb[2];
        detail::Mainloop<Cfg, T, member_t>::run(team, loader, stages, mma, acc, ra, rb, fa, fb, k_begin, k_end);

        // C (or this slice's partial) <- acc (+ beta * C).
        detail::Epilogue<Cfg, T>::store(acc, params, slice, bm, bn, mma.row0, mma.col0);
      });
  plan.reduce(space, C, args.beta);
}

}  // namespace mmapp
