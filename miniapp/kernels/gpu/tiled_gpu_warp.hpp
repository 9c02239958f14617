// tiled_gpu_warp.hpp — the warp-tiled GEMM for GPUs (the ladder's upper
// rungs) and its split-K form, in portable Kokkos: TeamPolicy, level-0
// scratch, team barriers; no CUDA intrinsics. What it adds to tiled_gpu.hpp,
// each a compile-time switch of GpuTile so that every rung is a registry
// variant (S. Boehm, "How to Optimize a CUDA Matmul Kernel for cuBLAS-like
// Performance", 2022, kernels 6-11; NVIDIA CUTLASS, "Efficient GEMM in CUDA",
// docs/efficient_gemm.md: threadblock, warp and thread tiles, software
// pipelining; NVIDIA Hopper Tuning Guide):
//   1. 16-byte global loads (float4/double2 chunks) on an aligned main path:
//      a chunk is loaded wide when the matrix base is 16-byte aligned, the
//      leading dimension a multiple of the chunk, and the chunk lies inside
//      the matrix; otherwise its elements are loaded one by one, masked
//      (zero outside). Any M, N, K and any row alignment stay correct.
//   2. warp tiling: a warp owns a WM x WN sub-tile of the block tile, its 32
//      lanes a lanes_m x lanes_n grid (4x8 or 8x4), each lane a TM x TN
//      register tile made of 16-byte fragments (4 floats or 2 doubles per
//      row and column) spaced fragment*lanes apart, so each of a warp's
//      16-byte scratch reads covers at most 128 contiguous bytes (one
//      wavefront, no bank conflict, float and double alike) and its C stores
//      coalesce. WM == 0 selects the block-strided mapping of tiled_gpu.hpp
//      (rung 5) instead.
//   3. pipelining (Stages): 0 = load, barrier, compute, barrier; 1 = the same
//      with the next K tile's global loads in registers during the compute
//      (tiled_gpu.hpp's prefetch); 2 = two scratch stages: while stage s is
//      read, the next tile goes global -> registers -> stage s^1, one barrier
//      per K step; the loop runs two K tiles per trip, so that both stages'
//      scratch addresses are compile-time offsets (with the stage index a
//      run-time value the FP64 kernel recomputed its scratch pointers, 31
//      instructions, every K tile).
//   4. block order (Swizzle = G > 0): teams walk G block rows together
//      before the next block column, so the concurrently running teams share
//      fewer distinct A and B panels in L2.
//   5. launch bounds (MinBlocks > 0): Kokkos::LaunchBounds<team, MinBlocks>,
//      i.e. __launch_bounds__ on CUDA: the register budget is 65536 /
//      (team * MinBlocks) per thread.
//   6. split-K (SplitKc > 0): K is cut into chunks of SplitKc; a team
//      computes one block tile over one chunk and writes its partial tile to
//      the workspace (slice s at work + s*M*N); splitk_reduce() then sums
//      the slices in a fixed order (groups of consecutive slices in
//      ascending order, then the group sums in ascending order; the groups
//      depend on S alone). Every partial is made by one team with a fixed
//      sequence of operations, and the sum's order is fixed, so C's bits do
//      not depend on scheduling or team size; S depends on K and SplitKc
//      only (not on M, N or the device), so a row split across MPI ranks
//      gives the same bits too.
//   7. fragment double buffering (FragPipe): the compute loop reads the A
//      and B fragments of K step k+1 from scratch into a second register
//      set while the FMAs of step k run (CUTLASS's warp-level software
//      pipelining, efficient_gemm.md); with two stages, the next tile's
//      step-0 fragments are read right after the one barrier per K tile,
//      before the FMAs of the current tile's last step. The FMAs and their
//      order are those of the plain loop (C's bits do not change).
//   8. narrow fragment reads (FragBytes = 8): the compute loop reads its
//      fragments from scratch one element (8 bytes for double) at a time
//      instead of 16 bytes; the layout and C's bits are unchanged.
//   9. lean loads (always on with Vec, where the team size is a whole
//      number of tile rows of chunks): a thread whose chunks lie inside A
//      and B loads each full K tile from two per-thread origins at fixed
//      strides, with no bounds tests or per-chunk address arithmetic;
//      Nsight Compute's per-instruction samples of the 64x128x8 / 8x8 FP64
//      kernel put 17% of its time in the bounds-tested loads (116
//      instructions per K tile beside 512 DFMA). Threads at the edges and
//      the K tile that reaches past the end keep the masked loads; with
//      the fragment pipeline (7) those take the same origins and per-thread
//      bit masks, so that no other bounds state is live across the K loop:
//      the two-stage 64x128x8 / 8x8 FP64 kernel then fits 255 registers
//      without a spill (it spilled 72 bytes before; docs/performance.md,
//      GPU round 5). Same loads, same values: C's bits do not change.
//
// Parallel mapping (CUDA terms: blockIdx = league_rank, threadIdx = team_rank):
//   league = ceil(M/BM) * ceil(N/BN) * S teams (S = 1 without split-K); team =
//   (BM/TM) * (BN/TN) threads, vector length 1; each thread keeps TM x TN
//   accumulators of C in registers for its whole K range.
// Scratch level 0 per team: stages * (BK*(BM+pad) + BK*BN) * sizeof(T) bytes
// (+16 alignment slack; pad 2 for double BK = 8, else 4). A is stored
// transposed (As[k][m], rows padded by pad)
// so the compute loop reads both tiles as aligned 4-element vectors.
// FLOPs: 2*M*N*K (split-K adds M*N*(S-1) additions in the reduction).
#pragma once

#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/unroll.hpp"
#include "core/kokkos_compat.hpp"
#include "core/types.hpp"

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <type_traits>

namespace mmapp {

namespace detail {
/// The team policy of a kernel: with launch bounds when MinBlocks > 0.
template <class Space, int Team, int MinBlocks>
using team_policy_lb =
    std::conditional_t<(MinBlocks > 0),
                       Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<unsigned(Team), unsigned(MinBlocks)>>,
                       Kokkos::TeamPolicy<Space>>;
}  // namespace detail

/// Compile-time shape and features of gemm_tiled_warp (see the file comment).
/// BM x BN x BK block tile; WM x WN warp tile (WM == 0: block-strided thread
/// mapping, no warp tiles); TM x TN register tile per thread; Stages 0, 1 or
/// 2; Vec: 16-byte global loads where aligned; Swizzle: block-row group (0:
/// none); MinBlocks: launch bounds' minimum blocks per SM (0: none);
/// SplitKc: K chunk per team (0: no split-K); FragPipe: register double
/// buffering of the scratch fragments (switch 7 of the file comment);
/// FragBytes: bytes per scratch fragment read, 16 (default) or 8 (switch 8).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int Stages_, bool Vec_, int Swizzle_,
          int MinBlocks_, int SplitKc_ = 0, bool FragPipe_ = false, int FragBytes_ = 16>
struct GpuTile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int stages = Stages_;
  static constexpr bool vec = Vec_;
  static constexpr int swizzle = Swizzle_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int split_kc = SplitKc_;
  static constexpr bool frag_pipe = FragPipe_;
  static constexpr int frag_bytes = FragBytes_;
  static constexpr bool warp_tiled = WM_ > 0;
  static constexpr int team_size = (BM / TM) * (BN / TN);
  /// No warp tiles, or 32 lanes of TM x TN per warp tile, warp tiles dividing the block tile.
  static constexpr bool warp_shape_ok() {
    if constexpr (WM_ > 0 && WN_ > 0)
      return (WM_ / TM_) * (WN_ / TN_) == 32 && BM_ % WM_ == 0 && BN_ % WN_ == 0 && WM_ % TM_ == 0 && WN_ % TN_ == 0;
    else
      return WM_ == 0 && WN_ == 0;
  }
};

/// Warp-tiled GEMM (see the file comment): C = A * B + beta * C with the
/// shape and features of Cfg (a GpuTile). Row-major views, any M, N, K >= 0,
/// any row stride and alignment; beta == 0: C is not read. A split-K Cfg
/// needs args.work of splitk_workspace_bytes<T, Cfg::split_kc>(M, N, K)
/// bytes (16-byte aligned); a smaller one is a std::runtime_error.
/// Asynchronous (the caller fences).
template <class Cfg, class Space, class T>
void gemm_tiled_warp(const Space& space, const GemmArgs<Space, T>& args) {
  constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK, TM = Cfg::TM, TN = Cfg::TN;
  constexpr int team_size = Cfg::team_size;
  constexpr int VW = detail::Chunk16<T>::width;  // elements per 16-byte chunk: the fragment width too
  static_assert(TM % VW == 0 && TN % VW == 0, "thread tile: multiples of a 16-byte fragment");
  static_assert(BM % TM == 0 && BN % TN == 0, "block tile: multiple of the thread tile");
  static_assert(BK % VW == 0 && BN % VW == 0, "BK and BN: multiples of a 16-byte chunk");
  static_assert((BM * BK / VW) % team_size == 0 && (BK * BN / VW) % team_size == 0,
                "A and B tiles: a whole number of 16-byte chunks per thread");
  static_assert(Cfg::stages >= 0 && Cfg::stages <= 2, "stages: 0, 1 or 2");
  static_assert(Cfg::split_kc == 0 || Cfg::split_kc % BK == 0, "split-K chunk: a multiple of BK");
  static_assert(Cfg::warp_shape_ok(), "warp tile: 32 lanes of TM x TN, a divisor of the block tile");
  static_assert(Cfg::frag_bytes == 16 || Cfg::frag_bytes == int(sizeof(T)),
                "fragment reads: 16 bytes or one element");
  static_assert(!Cfg::frag_pipe || BK % 2 == 0, "fragment double buffering: an even BK");
  constexpr int lanes_m = Cfg::warp_tiled ? Cfg::WM / TM : BM / TM;  // threads along m sharing a scratch row read
  constexpr int lanes_n = Cfg::warp_tiled ? Cfg::WN / TN : BN / TN;
  constexpr int warps_n = Cfg::warp_tiled ? BN / Cfg::WN : 1;
  constexpr int row_stride = VW * lanes_m, col_stride = VW * lanes_n;  // between a thread's fragments
  // As[BK][BM + pad]. The transposed stores of A (one element per store, a
  // thread's chunk to VW rows kq..kq+VW-1 of column r) are free of bank
  // conflicts when a half-warp's (double) or warp's (float) 16 columns x
  // BK/VW chunk rows land in distinct banks: row stride = 8*VW/BK (mod 8),
  // i.e. 4 for float BK = 8, 2 for double BK = 8, 4 for double BK = 4 (with
  // BM a multiple of 16). Rows stay 16-byte aligned (pad a multiple of VW).
  // Nsight Compute measured 4.2-way conflicts on these stores with pad 4 in
  // the double BK = 8 kernels (docs/performance.md).
  constexpr int pad = (sizeof(T) == 8 && BK == 8) ? 2 : 4;
  constexpr int lda_s = BM + pad;
  constexpr int a_elems = BK * lda_s, stage_elems = a_elems + BK * BN;
  constexpr int n_stages = Cfg::stages == 2 ? 2 : 1;
  constexpr int a_per_row = BK / VW, b_per_row = BN / VW;  // chunks per tile row
  constexpr int la = BM * BK / VW / team_size, lb = BK * BN / VW / team_size;
  using Chunk = detail::Chunk16<T>;
  // Switch 9: lean loads need whole tile rows per round of chunks.
  constexpr bool lean_ok = Cfg::vec && team_size % a_per_row == 0 && team_size % b_per_row == 0;
  // The edge loads from the lean origins and masks (fetch_edge below) where
  // the fragment pipeline puts the kernel at the 255-register ceiling; the
  // others keep the per-chunk bounds tests, which ptxas fits in fewer
  // registers for them (docs/performance.md, round 5).
  constexpr bool edge_masks = lean_ok && Cfg::frag_pipe;

  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  const SplitKPlan<T> plan("gemm_tiled_warp", args, Cfg::split_kc);
  const int slices = plan.slices, kc = plan.kc;
  const T* const Ap = A.data();
  const T* const Bp = B.data();
  const long lda = long(A.stride(0)), ldb = long(B.stride(0));
  const bool vec_a = Cfg::vec && detail::aligned_to(Ap, 16) && lda % VW == 0;
  const bool vec_b = Cfg::vec && detail::aligned_to(Bp, 16) && ldb % VW == 0;
  T* const out = plan.out;  // partial slices, or C itself
  const long ldo = plan.ldo;
  const bool vec_o = detail::aligned_to(out, sizeof(Chunk)) && ldo % VW == 0;
  const long slice_elems = plan.slice_elems;

  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN, tiles = tiles_m * tiles_n;
  const std::size_t scratch_bytes = std::size_t(n_stages * stage_elems) * sizeof(T) + sizeof(Chunk);

  using policy_t = detail::team_policy_lb<Space, team_size, Cfg::min_blocks>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space, tiles * slices, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));

  Kokkos::parallel_for(
      "mmapp::gemm_tiled_warp", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int lr = team.league_rank();
        const int slice = lr / tiles, t = lr % tiles;
        int tm, tn;
        if (Cfg::swizzle > 0) {  // G block rows at a time, then the next block column
          const int band = t / (Cfg::swizzle * tiles_n), in = t % (Cfg::swizzle * tiles_n);
          const int left = tiles_m - band * Cfg::swizzle;  // block rows in this band (fewer in the last)
          const int rows_here = left < Cfg::swizzle ? left : Cfg::swizzle;
          tm = band * Cfg::swizzle + in % rows_here;
          tn = in / rows_here;
        } else {  // block row fastest: neighbouring teams share a column panel of B
          tm = t % tiles_m;
          tn = t / tiles_m;
        }
        const int bm = tm * BM, bn = tn * BN;
        const int k_begin = slice * kc, k_end = k_begin + kc < K ? k_begin + kc : K;
        const int tid = team.team_rank();
        int row0, col0;  // first row and column of this thread's first fragment, in the block tile
        if (Cfg::warp_tiled) {
          const int warp = tid / 32, lane = tid % 32;
          row0 = (warp / warps_n) * Cfg::WM + (lane / lanes_n) * VW;
          col0 = (warp % warps_n) * Cfg::WN + (lane % lanes_n) * VW;
        } else {
          row0 = (tid / lanes_n) * VW;
          col0 = (tid % lanes_n) * VW;
        }

        // Scratch: n_stages x {As[BK][lda_s] (A transposed), Bs[BK][BN]}, 16-byte aligned.
        char* raw = static_cast<char*>(team.team_shmem().get_shmem(scratch_bytes));
        const std::size_t mis = reinterpret_cast<std::uintptr_t>(raw) % sizeof(Chunk);
        T* const smem = reinterpret_cast<T*>(raw + (mis ? sizeof(Chunk) - mis : 0));

        T acc[TM][TN];
        MMAPP_UNROLL
        for (int i = 0; i < TM; ++i) {
          MMAPP_UNROLL
          for (int j = 0; j < TN; ++j) acc[i][j] = T(0);
        }

        // Global -> registers: this thread's chunks of the K tile at k0 (zero outside [0,M) x [k0,k_end)).
        Chunk ra[la], rb[lb];
        // Switch 9 (lean loads): where the team size is a whole number of
        // tile rows of chunks (lean_ok), round l of a thread's chunks lies
        // l * rows_a (rows_b) rows below round 0, in the same columns, so
        // every chunk is addressed from two per-thread origins at fixed
        // strides, and which of them lie inside A and B is a per-thread bit
        // mask set once. A thread whose chunks all lie inside (and both
        // matrices 16-byte loadable: `lean`) loads each full K tile with no
        // bounds tests or per-chunk address arithmetic (fetch_lean); Nsight
        // Compute put 17% of the 64x128x8 / 8x8 FP64 kernel's time in the
        // bounds-tested loads (116 instructions per K tile beside 512
        // DFMA). The other threads, and the K tile that reaches past k_end,
        // load bounds-tested: from the same origins and masks where
        // edge_masks (fetch_edge: nothing beyond them stays live across the
        // K loop, which lets the two-stage fragment pipeline of 64x128x8 /
        // 8x8 fit in 255 registers without a spill), else each chunk's row
        // and column from its index (fetch_masked). Same loads, same values.
        constexpr int rows_a = team_size / (a_per_row > 0 ? a_per_row : 1);
        constexpr int rows_b = team_size / (b_per_row > 0 ? b_per_row : 1);
        const int ra0 = tid / a_per_row, ka = (tid % a_per_row) * VW;  // round 0 of A: row, K offset
        const int rb0 = tid / b_per_row, nb = (tid % b_per_row) * VW;  // round 0 of B: K row, column
        const long a_org = long(bm + ra0) * lda + ka, b_org = long(rb0) * ldb + bn + nb;
        const long sa = long(rows_a) * lda, sb = long(rows_b) * ldb;
        unsigned a_rows = 0, b_cols = 0;  // bit l: A round l inside M; bit q: B column q inside N
        MMAPP_UNROLL
        for (int l = 0; l < la; ++l) a_rows |= (bm + ra0 + l * rows_a < M ? 1u : 0u) << l;
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) b_cols |= (bn + nb + q < N ? 1u : 0u) << q;
        const bool lean = lean_ok && vec_a && vec_b && a_rows == (1u << la) - 1 && b_cols == (1u << VW) - 1;
        auto fetch_lean = [&](const int k0) {
          const T* const a = Ap + a_org + k0;
          const T* const b = Bp + b_org + long(k0) * ldb;
          MMAPP_UNROLL
          for (int l = 0; l < la; ++l) ra[l] = *reinterpret_cast<const Chunk*>(a + l * sa);
          MMAPP_UNROLL
          for (int l = 0; l < lb; ++l) rb[l] = *reinterpret_cast<const Chunk*>(b + l * sb);
        };
        auto fetch_edge = [&](const int k0) {
          const int gka = k0 + ka;
          MMAPP_UNROLL
          for (int l = 0; l < la; ++l) {
            const bool row_in = (a_rows >> l) & 1u;
            const long off = a_org + l * sa + k0;
            if (vec_a && row_in && gka + VW <= k_end) {
              ra[l] = *reinterpret_cast<const Chunk*>(Ap + off);
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) ra[l].v[q] = (row_in && gka + q < k_end) ? Ap[off + q] : T(0);
            }
          }
          MMAPP_UNROLL
          for (int l = 0; l < lb; ++l) {
            const bool row_in = k0 + rb0 + l * rows_b < k_end;
            const long off = b_org + long(k0) * ldb + l * sb;
            if (vec_b && row_in && b_cols == (1u << VW) - 1) {
              rb[l] = *reinterpret_cast<const Chunk*>(Bp + off);
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) rb[l].v[q] = (row_in && ((b_cols >> q) & 1u)) ? Bp[off + q] : T(0);
            }
          }
        };
        // Any team size: each chunk's row and column from its index, bounds-tested.
        auto fetch_masked = [&](const int k0) {
          MMAPP_UNROLL
          for (int l = 0; l < la; ++l) {
            const int c = tid + l * team_size, r = c / a_per_row, kq = (c % a_per_row) * VW;
            const int gr = bm + r, gk = k0 + kq;
            const T* p = Ap + long(gr) * lda + gk;
            if (vec_a && gr < M && gk + VW <= k_end) {
              ra[l] = *reinterpret_cast<const Chunk*>(p);
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) ra[l].v[q] = (gr < M && gk + q < k_end) ? p[q] : T(0);
            }
          }
          MMAPP_UNROLL
          for (int l = 0; l < lb; ++l) {
            const int c = tid + l * team_size, r = c / b_per_row, nq = (c % b_per_row) * VW;
            const int gk = k0 + r, gc = bn + nq;
            const T* p = Bp + long(gk) * ldb + gc;
            if (vec_b && gk < k_end && gc + VW <= N) {
              rb[l] = *reinterpret_cast<const Chunk*>(p);
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) rb[l].v[q] = (gk < k_end && gc + q < N) ? p[q] : T(0);
            }
          }
        };
        auto fetch = [&](const int k0) {
          if (lean_ok && lean && k0 + BK <= k_end)
            fetch_lean(k0);
          else if (edge_masks)  // compile-time constants (not `if constexpr`: CUDA lambdas may not capture there)
            fetch_edge(k0);
          else
            fetch_masked(k0);
        };
        // Registers -> scratch stage s (A transposed).
        auto store = [&](const int s) {
          T* const As = smem + s * stage_elems;
          T* const Bs = As + a_elems;
          MMAPP_UNROLL
          for (int l = 0; l < la; ++l) {
            const int c = tid + l * team_size, r = c / a_per_row, kq = (c % a_per_row) * VW;
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) As[(kq + q) * lda_s + r] = ra[l].v[q];
          }
          MMAPP_UNROLL
          for (int l = 0; l < lb; ++l) {
            const int c = tid + l * team_size, r = c / b_per_row, nq = (c % b_per_row) * VW;
            *reinterpret_cast<Chunk*>(Bs + r * BN + nq) = rb[l];
          }
        };
        // acc += As * Bs over one K tile of stage s.
        auto compute = [&](const int s) {
          const T* const As = smem + s * stage_elems + row0;
          const T* const Bs = smem + s * stage_elems + a_elems + col0;
          MMAPP_UNROLL
          for (int k = 0; k < BK; ++k) {
            T a[TM], b[TN];
            MMAPP_UNROLL
            for (int g = 0; g < TM / VW; ++g) {
              const Chunk v = *reinterpret_cast<const Chunk*>(As + k * lda_s + g * row_stride);
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) a[g * VW + q] = v.v[q];
            }
            MMAPP_UNROLL
            for (int g = 0; g < TN / VW; ++g) {
              const Chunk v = *reinterpret_cast<const Chunk*>(Bs + k * BN + g * col_stride);
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) b[g * VW + q] = v.v[q];
            }
            MMAPP_UNROLL
            for (int i = 0; i < TM; ++i) {
              MMAPP_UNROLL
              for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
            }
          }
        };

        // Switches 7 and 8: the fragments of K step k of stage s into a, b
        // (16-byte or one-element reads), and the FMAs of one step.
        auto load_frag = [&](const int s, const int k, T(&a)[TM], T(&b)[TN]) {
          const T* const As = smem + s * stage_elems + row0 + k * lda_s;
          const T* const Bs = smem + s * stage_elems + a_elems + col0 + k * BN;
          if constexpr (Cfg::frag_bytes == 16) {
            MMAPP_UNROLL
            for (int g = 0; g < TM / VW; ++g) {
              const Chunk v = *reinterpret_cast<const Chunk*>(As + g * row_stride);
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) a[g * VW + q] = v.v[q];
            }
            MMAPP_UNROLL
            for (int g = 0; g < TN / VW; ++g) {
              const Chunk v = *reinterpret_cast<const Chunk*>(Bs + g * col_stride);
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) b[g * VW + q] = v.v[q];
            }
          } else {
            MMAPP_UNROLL
            for (int g = 0; g < TM / VW; ++g) {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) a[g * VW + q] = As[g * row_stride + q];
            }
            MMAPP_UNROLL
            for (int g = 0; g < TN / VW; ++g) {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) b[g * VW + q] = Bs[g * col_stride + q];
            }
          }
        };
        auto fma_frag = [&](const T(&a)[TM], const T(&b)[TN]) {
          MMAPP_UNROLL
          for (int i = 0; i < TM; ++i) {
            MMAPP_UNROLL
            for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
          }
        };
        T fa[2][TM], fb[2][TN];  // switch 7: two fragment sets (FragPipe), else fa[0], fb[0]
        // acc += As * Bs over one K tile of stage s, by the switches: the
        // plain loop (compute), one-element reads, or the fragment pipeline
        // inside the tile.
        auto compute_any = [&](const int s) {
          if constexpr (!Cfg::frag_pipe && Cfg::frag_bytes == 16) {
            compute(s);
          } else if constexpr (!Cfg::frag_pipe) {
            MMAPP_UNROLL
            for (int k = 0; k < BK; ++k) {
              load_frag(s, k, fa[0], fb[0]);
              fma_frag(fa[0], fb[0]);
            }
          } else {
            load_frag(s, 0, fa[0], fb[0]);
            MMAPP_UNROLL
            for (int k = 0; k < BK; ++k) {
              if (k + 1 < BK) load_frag(s, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
              fma_frag(fa[k & 1], fb[k & 1]);
            }
          }
        };

        const int ktiles = k_end > k_begin ? (k_end - k_begin + BK - 1) / BK : 0;
        if constexpr (Cfg::stages == 2 && Cfg::frag_pipe) {
          // Two stages, fragments pipelined across tiles: one barrier per K
          // tile, between the FMAs of steps BK-2 and BK-1. Stage cur^1 was
          // last read (its step BK-1 fragments) before the previous
          // iteration's barrier, so storing it before this barrier is safe;
          // stage cur's last fragments are read before this barrier, and it
          // is stored again only after it.
          if (ktiles > 0) {
            fetch(k_begin);
            store(0);
          }
          team.team_barrier();
          if (ktiles > 0) load_frag(0, 0, fa[0], fb[0]);
          // The FMAs of steps 0 .. BK-2 of the tile on stage cur, each with
          // the next step's fragments read ahead: step BK-1's are in fa[1],
          // fb[1] when it returns (BK even).
          auto steps = [&](const int cur) {
            MMAPP_UNROLL
            for (int k = 0; k + 1 < BK; ++k) {
              load_frag(cur, k + 1, fa[(k + 1) & 1], fb[(k + 1) & 1]);
              fma_frag(fa[k & 1], fb[k & 1]);
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
            load_frag(Cur ^ 1, 0, fa[0], fb[0]);  // BK even: step 0 uses set 0
            fma_frag(fa[1], fb[1]);               // step BK-1 of this tile
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
            fma_frag(fa[1], fb[1]);
          }
        } else if constexpr (Cfg::stages == 2) {
          if (ktiles > 0) {
            fetch(k_begin);
            store(0);
          }
          team.team_barrier();
          // One K tile on stage Cur (a compile-time constant: the loop runs
          // two tiles per trip, so the scratch addresses of both stages are
          // fixed offsets, not recomputed per tile).
          auto tile = [&](const int kt, auto cur) {
            constexpr int Cur = decltype(cur)::value;
            const bool more = kt + 1 < ktiles;
            if (more) fetch(k_begin + (kt + 1) * BK);  // in flight during the compute below
            compute_any(Cur);
            if (more) store(Cur ^ 1);  // the other stage: last read before the previous barrier
            team.team_barrier();
          };
          for (int kt = 0; kt < ktiles; kt += 2) {
            tile(kt, std::integral_constant<int, 0>{});
            if (kt + 1 < ktiles) tile(kt + 1, std::integral_constant<int, 1>{});
          }
        } else if constexpr (Cfg::stages == 1) {
          if (ktiles > 0) fetch(k_begin);
          for (int kt = 0; kt < ktiles; ++kt) {
            store(0);
            team.team_barrier();
            if (kt + 1 < ktiles) fetch(k_begin + (kt + 1) * BK);
            compute_any(0);
            team.team_barrier();
          }
        } else {
          for (int kt = 0; kt < ktiles; ++kt) {
            fetch(k_begin + kt * BK);
            store(0);
            team.team_barrier();
            compute_any(0);
            team.team_barrier();
          }
        }

        // Epilogue: C (or this slice's partial) <- acc (+ beta * C), 16 bytes at a time where aligned and inside.
        T* const o = out + (slices > 1 ? slice * slice_elems : 0);
        const bool scale = slices == 1 && beta != T(0);
        MMAPP_UNROLL
        for (int gi = 0; gi < TM / VW; ++gi) {
          MMAPP_UNROLL
          for (int qi = 0; qi < VW; ++qi) {
            const int row = bm + row0 + gi * row_stride + qi;
            if (row >= M) continue;
            T* const orow = o + long(row) * ldo;
            MMAPP_UNROLL
            for (int gj = 0; gj < TN / VW; ++gj) {
              const int col = bn + col0 + gj * col_stride;
              if (vec_o && col + VW <= N) {
                Chunk v;
                if (scale) v = *reinterpret_cast<const Chunk*>(orow + col);
                MMAPP_UNROLL
                for (int q = 0; q < VW; ++q) {
                  const T c = acc[gi * VW + qi][gj * VW + q];
                  v.v[q] = scale ? c + beta * v.v[q] : c;
                }
                *reinterpret_cast<Chunk*>(orow + col) = v;
              } else {
                MMAPP_UNROLL
                for (int q = 0; q < VW; ++q) {
                  const T c = acc[gi * VW + qi][gj * VW + q];
                  if (col + q < N) orow[col + q] = scale ? c + beta * orow[col + q] : c;
                }
              }
            }
          }
        }
      });
  plan.reduce(space, C, beta);
}

}  // namespace mmapp
