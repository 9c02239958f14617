// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tiled_gpu.hpp — the team-tiled GEMM shaped for GPUs: the shared-memory
// algorithm done the way a fast GPU kernel does it, in portable Kokkos. The
// steps follow the known hand-written SGEMM ladder (S. Boehm, "How to
// Optimize a CUDA Matmul Kernel for cuBLAS-like Performance", 2022; the
// CUTLASS "efficient GEMM" notes):
//   1. block tile BM x BN of C per team; per K step a BM x BK tile of A and a
//      BK x BN tile of B staged in level-0 scratch (CUDA shared memory);
//   2. a TM x TN register tile of C per thread, accumulated as outer products
//      of a TM column slice of A and a TN row slice of B read from scratch;
//   3. A stored transposed (As[k][m]) and padded by 4 elements per row, so the
//      transposing stores hit 32 distinct banks and the compute loop reads
//      both tiles as aligned 4-wide vectors (LDS.128 on CUDA);
//   4. each thread owns 4-wide column and row groups spread across the block,
//      so a warp's scratch reads are conflict-free and its C stores coalesce;
//   5. optional register prefetch (software double buffering): the next K
//      tile's global loads are issued before the current tile is computed.
//
// Parallel mapping (CUDA terms: blockIdx = league_rank, threadIdx = team_rank):
//   league = ceil(M/BM) * ceil(N/BN) teams, block row fastest (neighbouring
//   teams share a column panel of B); team = (BM/TM) * (BN/TN) threads, vector
//   length 1; each thread keeps its TM x TN tile of C in registers for the
//   whole K loop.
// Scratch level 0 per team: (BK*(BM+4) + BK*BN) * sizeof(T) bytes (128x128x8,
// float: 8.3 KiB). Registers per thread: TM*TN accumulators + TM + TN operands
// (+ prefetch buffers).
// FLOPs: 2*M*N*K. Any M, N, K >= 1: edge tiles are zero-padded on load and
// masked on store.
#pragma once

#include "core/kokkos_compat.hpp"
#include "kernels/unroll.hpp"
#include "core/types.hpp"


namespace mmapp {


namespace detail {
/// Four consecutive elements, 4-element aligned, so that the compiler emits
/// one wide scratch load (LDS.128 for float on CUDA).
template <class T>
struct alignas(4 * sizeof(T)) Vec4 {
  T v[4];
};
}  // namespace detail

/// GPU-shaped tiled GEMM (see the file comment): C = A * B + beta * C with block tile
/// BM x BN x BK and thread tile TM x TN; Prefetch turns on register double
/// buffering of the next K tile.
/// Requirements (static_asserts): TM, TN multiples of 4; BM % TM == 0,
/// BN % TN == 0; (BM*BK) and (BK*BN) multiples of the team size when Prefetch.
/// Row-major views; any M, N, K >= 1; asynchronous (the caller fences).
template <int BM, int BN, int BK, int TM, int TN, bool Prefetch, class Space, class T>
void gemm_tiled(const Space& space, const GemmArgs<Space, T>& args) {
  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  static_assert(TM % 4 == 0 && TN % 4 == 0, "thread tile must be a multiple of 4 in each direction");
  static_assert(BM % TM == 0 && BN % TN == 0, "block tile must be a multiple of the thread tile");
  constexpr int threads_m = BM / TM, threads_n = BN / TN;
  constexpr int team_size = threads_m * threads_n;
  constexpr int pad = 4;                 // elements added to each row of As
  constexpr int lda_s = BM + pad;        // row pitch of As[BK][BM + pad]
  constexpr int groups_m = TM / 4, groups_n = TN / 4;
  constexpr int stride_m = BM / groups_m, stride_n = BN / groups_n;  // distance between a thread's 4-groups
  constexpr int loads_a = (BM * BK + team_size - 1) / team_size;     // per thread per K tile
  constexpr int loads_b = (BK * BN + team_size - 1) / team_size;
  static_assert(!Prefetch || ((BM * BK) % team_size == 0 && (BK * BN) % team_size == 0),
                "prefetch needs tiles that divide evenly among the team");

  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  using Vec = detail::Vec4<T>;

  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  const size_t scratch_bytes = size_t(BK * lda_s + BK * BN) * sizeof(T) + 4 * sizeof(T);  // + alignment slack

  policy_t policy(space, tiles_m * tiles_n, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));

  Kokkos::parallel_for(
      "mmapp::gemm_tiled", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int bm = (team.league_rank() % tiles_m) * BM;
        const int bn = (team.league_rank() / tiles_m) * BN;
        const int tid = team.team_rank();
        const int tr = tid / threads_n, tc = tid % threads_n;

        // Scratch: As[BK][lda_s] (A transposed, padded), then Bs[BK][BN]; both 16-byte aligned.
        char* raw = static_cast<char*>(team.team_shmem().get_shmem(scratch_bytes));
        const size_t misalign = reinterpret_cast<uintptr_t>(raw) % alignof(Vec);
        T* As = reinterpret_cast<T*>(raw + (misalign ? alignof(Vec) - misalign : 0));
        T* Bs = As + BK * lda_s;

        T acc[TM][TN];
        for (int i = 0; i < TM; ++i)
          for (int j = 0; j < TN; ++j) acc[i][j] = 0;

        // Global -> registers (zero outside the matrix) for the K tile at bk.
        T pa[Prefetch ? loads_a : 1], pb[Prefetch ? loads_b : 1];
        auto load_a = [&](int bk, int l) {
          const int e = tid + l * team_size, r = e / BK, c = e % BK;
          return (bm + r < M && bk + c < K) ? A(bm + r, bk + c) : T(0);
        };
        auto load_b = [&](int bk, int l) {
          const int e = tid + l * team_size, r = e / BN, c = e % BN;
          return (bk + r < K && bn + c < N) ? B(bk + r, bn + c) : T(0);
        };
        auto fetch = [&](int bk) {
          for (int l = 0; l < (Prefetch ? loads_a : 0); ++l) pa[l] = load_a(bk, l);
          for (int l = 0; l < (Prefetch ? loads_b : 0); ++l) pb[l] = load_b(bk, l);
        };
        // Registers (or global, without prefetch) -> scratch.
        auto stage = [&](int bk) {
          for (int l = 0; l < loads_a; ++l) {
            const int e = tid + l * team_size;
            if (e < BM * BK) As[(e % BK) * lda_s + e / BK] = Prefetch ? pa[l] : load_a(bk, l);
          }
          for (int l = 0; l < loads_b; ++l) {
            const int e = tid + l * team_size;
            if (e < BK * BN) Bs[e] = Prefetch ? pb[l] : load_b(bk, l);
          }
        };

        if (Prefetch) fetch(0);
        for (int bk = 0; bk < K; bk += BK) {
          stage(bk);
          team.team_barrier();
          if (Prefetch && bk + BK < K) fetch(bk + BK);  // in flight during the compute below
          for (int k = 0; k < BK; ++k) {
            T a[TM], b[TN];
            for (int g = 0; g < groups_m; ++g) {
              const Vec v = *reinterpret_cast<const Vec*>(As + k * lda_s + g * stride_m + tr * 4);
              for (int q = 0; q < 4; ++q) a[g * 4 + q] = v.v[q];
            }
            for (int g = 0; g < groups_n; ++g) {
              const Vec v = *reinterpret_cast<const Vec*>(Bs + k * BN + g * stride_n + tc * 4);
              for (int q = 0; q < 4; ++q) b[g * 4 + q] = v.v[q];
            }
            for (int i = 0; i < TM; ++i)
              for (int j = 0; j < TN; ++j) acc[i][j] += a[i] * b[j];
          }
          team.team_barrier();
        }

        for (int i = 0; i < TM; ++i) {
          const int row = bm + (i / 4) * stride_m + tr * 4 + i % 4;
          if (row >= M) continue;
          for (int j = 0; j < TN; ++j) {
            const int col = bn + (j / 4) * stride_n + tc * 4 + j % 4;
            if (col < N) C(row, col) = beta == T(0) ? acc[i][j] : acc[i][j] + beta * C(row, col);
          }
        }
      });
}

}  // namespace mmapp
