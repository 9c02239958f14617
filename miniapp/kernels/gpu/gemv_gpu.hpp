// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// gemv_gpu.hpp — GEMM for GEMV-like shapes on GPUs, where M or N is tiny
// (1 to a few) and the product is bound by reading the big operand once.
// A block-tiled kernel wastes most of its tile there and, worse, runs too few
// teams to keep enough loads in flight; these kernels stream the big operand
// with 16-byte loads across many teams instead. Portable Kokkos (TeamPolicy,
// ThreadVectorRange, level-0 scratch); no CUDA intrinsics.
//
// gemv_cols (M <= MT, e.g. a row vector times a matrix): C(0:M, j) =
//   A(0:M, :) * B(:, j). A thread owns one 16-byte chunk of columns of B
//   (4 floats / 2 doubles) and every KS-th row of the team's K range, and
//   accumulates MT x chunk products; the KS partials of a column are summed
//   through scratch in the fixed order 0..KS-1.
//   league = ceil(N / (32 chunks)) * S teams, team = 32 * KS threads.
//   Scratch: KS * MT * 32 * chunk * sizeof(T) (float: 32 KiB).
// gemv_rows (N <= NT, e.g. a matrix times a column vector): C(i, 0:N) =
//   A(i, :) * B. One team member per RPW rows of A, its 32 vector lanes
//   stride the rows in 16-byte chunks and share each load of B among the
//   RPW rows; the 32 lane partials of an output are summed through scratch
//   in the fixed order 0..31.
//   league = ceil(M / (R*RPW)) * S teams, team = R members x 32 vector lanes.
//   Scratch: R * RPW * NT * 32 * sizeof(T).
// gemv_dot (M = N = 1, a dot product of row A(0, :) and column B(:, 0)): a
//   team per K chunk of Kc; 256 logical lanes (TeamThreadRange) each sum
//   every 256th 16-byte chunk of the team's range in ascending order, four
//   chunk pairs in flight; the 256 lane sums are added by a fixed pairwise
//   tree through scratch (lane p += lane p + w, w = 128, 64, ..., 1); the
//   slice sums go through splitk_reduce's two-level fixed-order sum.
//   league = S = ceil(K / Kc) teams, team = min(256, the space's maximum)
//   threads (any team size gives the same bits: the lanes are logical).
//   Scratch: 256 * sizeof(T).
// All split K into S = splitk_slices(M, N, K, Kc) slices when Kc > 0 (to give
// short, wide problems enough teams) and sum the slices with splitk_reduce()
// in fixed order: C's bits depend on the shape and the variant only, never
// on scheduling (splitk.hpp says why). Problems whose tiny dimension
// exceeds kGemvMaxTiny are not GEMV-like: they go to gemm_tiled_warp.
// FLOPs: 2*M*N*K.
#pragma once

#include "kernels/gpu/tiled_gpu_warp.hpp"

namespace mmapp {

/// Largest tiny dimension a gemv kernel serves itself (M for gemv_cols, N
/// for gemv_rows); above it the problem is no longer GEMV-like and goes to
/// gemm_tiled_warp with GemvFallbackTile (any shape stays correct and no
/// shape re-streams the big operand more than kGemvMaxTiny / MT times).
inline constexpr int kGemvMaxTiny = 32;
/// The block-tiled shape a gemv variant hands larger problems to.
using GemvFallbackTile = GpuTile<64, 64, 16, 16, 32, 4, 4, 2, true, 8, 2>;

/// What a GEMV-like kernel reads besides its own tiling (CUTLASS's Params):
/// the operands' data, row strides (elements) and extents, beta, and the
/// split-K plan (SplitKPlan); built once on the host, captured whole.
template <class T>
struct GemvOperands {
  const T* A;         ///< M x K, row-major
  const T* B;         ///< K x N, row-major
  T* C;               ///< M x N, row-major
  long lda, ldb, ldc;
  int M, N, K;
  T beta;
  int slices, kc;     ///< split-K slices and K elements per slice (SplitKPlan)
  T* work;            ///< the slices' partials when slices > 1
  long slice_elems;   ///< M * N

  /// `kernel` names the kernel in SplitKPlan's error (a workspace too small
  /// or misaligned for Kc: std::runtime_error).
  template <class Space>
  GemvOperands(const char* kernel, const GemmArgs<Space, T>& args, const int Kc)
      : A(args.A.data()), B(args.B.data()), C(args.C.data()), lda(long(args.A.stride(0))),
        ldb(long(args.B.stride(0))), ldc(long(args.C.stride(0))), M(int(args.C.extent(0))),
        N(int(args.C.extent(1))), K(int(args.A.extent(1))), beta(args.beta) {
    const SplitKPlan<T> plan(kernel, args, Kc);
    slices = plan.slices, kc = plan.kc, work = plan.work, slice_elems = plan.slice_elems;
  }
  /// With slices > 1: C = the slices' sum + beta * C (splitk_reduce, asynchronous).
  template <class Space>
  void reduce(const Space& space, const Matrix<T, Space>& Cv) const {
    if (slices > 1) splitk_reduce<Space, T>(space, work, slices, Cv, beta);
  }
};

/// Workspace of a gemv variant with K chunk Kc (see splitk_workspace_bytes).
template <class T, int Kc>
std::size_t gemv_workspace_bytes(long m, long n, long k) {
  return splitk_workspace_bytes<T, Kc>(m, n, k);
}

/// GEMV-like GEMM for M <= MT (see the file comment): C = A * B + beta * C,
/// row-major, any M, N, K, strides and alignment (MT < M <= kGemvMaxTiny:
/// groups of MT rows, each streaming B again; M > kGemvMaxTiny: handed to
/// gemm_tiled_warp<GemvFallbackTile>). KS: K-interleaved slices per team (team = 32*KS
/// threads); Kc: K chunk per team (0: none; then args.work needs
/// gemv_workspace_bytes<T, Kc>(M, N, K) bytes). Asynchronous.
template <int MT, int KS, int Kc, class Space, class T>
void gemv_cols(const Space& space, const GemmArgs<Space, T>& args) {
  constexpr int VW = detail::Chunk16<T>::width;
  constexpr int team_size = 32 * KS;
  constexpr int CW = 32 * VW;  // columns per team
  using Chunk = detail::Chunk16<T>;
  const int M = args.C.extent(0), N = args.C.extent(1);
  if (M == 0 || N == 0) return;
  if (M > kGemvMaxTiny) return gemm_tiled_warp<GemvFallbackTile, Space, T>(space, args);
  const GemvOperands<T> op("gemv_cols", args, Kc);
  const bool vec_b = detail::rows_in_chunks(op.B, op.ldb);
  const int tiles_n = (N + CW - 1) / CW, groups = (M + MT - 1) / MT, tiles = tiles_n * groups;
  const std::size_t scratch_bytes = std::size_t(KS) * MT * CW * sizeof(T);

  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space, tiles * op.slices, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for(
      "mmapp::gemv_cols", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int slice = team.league_rank() / tiles, t = team.league_rank() % tiles;
        const int bn = (t % tiles_n) * CW, r0 = (t / tiles_n) * MT;  // columns bn.., rows r0..r0+MT-1
        const int k_begin = slice * op.kc, k_end = k_begin + op.kc < op.K ? k_begin + op.kc : op.K;
        const int tid = team.team_rank(), ks = tid / 32, lane = tid % 32;
        const int c0 = bn + lane * VW;  // first column of this thread's chunk
        const T* arow[MT];              // rows >= M read row M-1; their sums are dropped
        MMAPP_UNROLL
        for (int i = 0; i < MT; ++i) arow[i] = op.A + long(r0 + i < op.M ? r0 + i : op.M - 1) * op.lda;
        T acc[MT][VW];
        MMAPP_UNROLL
        for (int i = 0; i < MT; ++i) {
          MMAPP_UNROLL
          for (int q = 0; q < VW; ++q) acc[i][q] = T(0);
        }
        auto load_b = [&](const int k) {
          Chunk b;
          const T* p = op.B + long(k) * op.ldb + c0;
          if (vec_b && c0 + VW <= op.N) {
            b = *reinterpret_cast<const Chunk*>(p);
          } else {
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) b.v[q] = c0 + q < op.N ? p[q] : T(0);
          }
          return b;
        };
        auto fma_row = [&](const int k, const Chunk& b) {
          MMAPP_UNROLL
          for (int i = 0; i < MT; ++i) {
            const T a = arow[i][k];
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) acc[i][q] += a * b.v[q];
          }
        };
        int k = k_begin + ks;
        for (; k + 3 * KS < k_end; k += 4 * KS) {  // four rows of B in flight
          const Chunk b0 = load_b(k), b1 = load_b(k + KS), b2 = load_b(k + 2 * KS), b3 = load_b(k + 3 * KS);
          fma_row(k, b0);
          fma_row(k + KS, b1);
          fma_row(k + 2 * KS, b2);
          fma_row(k + 3 * KS, b3);
        }
        for (; k < k_end; k += KS) fma_row(k, load_b(k));

        // Sum the KS partials of each output in the order ks = 0..KS-1.
        T* const red = static_cast<T*>(team.team_shmem().get_shmem(scratch_bytes));
        MMAPP_UNROLL
        for (int i = 0; i < MT; ++i) {
          MMAPP_UNROLL
          for (int q = 0; q < VW; ++q) red[(ks * MT + i) * CW + lane * VW + q] = acc[i][q];
        }
        team.team_barrier();
        T* const o = op.slices > 1 ? op.work + slice * op.slice_elems : nullptr;
        for (int e = tid; e < MT * CW; e += team_size) {
          const int i = e / CW, c = e % CW, col = bn + c, row = r0 + i;
          if (row >= op.M || col >= op.N) continue;
          T s = red[i * CW + c];
          for (int p = 1; p < KS; ++p) s += red[(p * MT + i) * CW + c];
          if (o) {
            o[long(row) * op.N + col] = s;
          } else {
            T& cij = op.C[long(row) * op.ldc + col];
            cij = op.beta == T(0) ? s : s + op.beta * cij;
          }
        }
      });
  op.reduce(space, args.C);
}

/// Workspace of gemv_dot<Kc>: S slice sums for a dot product (M = N = 1),
/// else what its fallback gemv_cols<1, 8, 256> needs.
template <class T, int Kc>
std::size_t gemv_dot_workspace_bytes(long m, long n, long k) {
  return m == 1 && n == 1 ? splitk_workspace_bytes<T, Kc>(1, 1, k) : gemv_workspace_bytes<T, 256>(m, n, k);
}

/// Dot product (M = N = 1; see the file comment): C(0, 0) = A(0, :) * B(:, 0)
/// + beta * C(0, 0), any K, strides and alignment. Other shapes go to
/// gemv_cols<1, 8, 256>. Kc: K chunk per team (a multiple of a 16-byte
/// chunk); args.work needs gemv_dot_workspace_bytes<T, Kc>(M, N, K) bytes.
/// Asynchronous.
template <int Kc, class Space, class T>
void gemv_dot(const Space& space, const GemmArgs<Space, T>& args) {
  constexpr int VW = detail::Chunk16<T>::width;
  constexpr int P = 256;  // logical lanes per team
  constexpr int U = 4;    // chunk pairs in flight per lane
  static_assert(Kc > 0 && Kc % VW == 0, "K chunk: a positive multiple of a 16-byte chunk");
  using Chunk = detail::Chunk16<T>;
  const int M = args.C.extent(0), N = args.C.extent(1);
  if (M == 0 || N == 0) return;
  if (M != 1 || N != 1) return gemv_cols<1, 8, 256, Space, T>(space, args);
  const GemvOperands<T> op("gemv_dot", args, Kc);  // M = N = 1: S slice sums
  const bool vec_a = detail::aligned_to(op.A, 16);
  const bool vec_b = op.ldb == 1 && detail::aligned_to(op.B, 16);
  const std::size_t scratch_bytes = std::size_t(P) * sizeof(T);

  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  const auto f = KOKKOS_LAMBDA(const member_t& team) {
    const int slice = team.league_rank();
    const int k_begin = slice * op.kc, k_end = k_begin + op.kc < op.K ? k_begin + op.kc : op.K;
    const int nchunks = (k_end - k_begin + VW - 1) / VW;
    T* const red = static_cast<T*>(team.team_shmem().get_shmem(scratch_bytes));
    Kokkos::parallel_for(Kokkos::TeamThreadRange(team, P), [&](const int p) {
      auto load_a = [&](const int k) {
        Chunk a;
        if (vec_a && k + VW <= k_end) {
          a = *reinterpret_cast<const Chunk*>(op.A + k);
        } else {
          MMAPP_UNROLL
          for (int q = 0; q < VW; ++q) a.v[q] = k + q < k_end ? op.A[k + q] : T(0);
        }
        return a;
      };
      auto load_b = [&](const int k) {
        Chunk b;
        if (vec_b && k + VW <= k_end) {
          b = *reinterpret_cast<const Chunk*>(op.B + k);
        } else {
          MMAPP_UNROLL
          for (int q = 0; q < VW; ++q) b.v[q] = k + q < k_end ? op.B[long(k + q) * op.ldb] : T(0);
        }
        return b;
      };
      T acc[VW];
      MMAPP_UNROLL
      for (int q = 0; q < VW; ++q) acc[q] = T(0);
      int c = p;
      for (; c + (U - 1) * P < nchunks; c += U * P) {  // chunks c, c + P, ..., in ascending order
        Chunk a[U], b[U];
        MMAPP_UNROLL
        for (int u = 0; u < U; ++u) {
          a[u] = load_a(k_begin + (c + u * P) * VW);
          b[u] = load_b(k_begin + (c + u * P) * VW);
        }
        MMAPP_UNROLL
        for (int u = 0; u < U; ++u) {
          MMAPP_UNROLL
          for (int q = 0; q < VW; ++q) acc[q] += a[u].v[q] * b[u].v[q];
        }
      }
      for (; c < nchunks; c += P) {
        const Chunk a = load_a(k_begin + c * VW), b = load_b(k_begin + c * VW);
        MMAPP_UNROLL
        for (int q = 0; q < VW; ++q) acc[q] += a.v[q] * b.v[q];
      }
      T s = acc[0];
      MMAPP_UNROLL
      for (int q = 1; q < VW; ++q) s += acc[q];
      red[p] = s;
    });
    team.team_barrier();
    for (int w = P / 2; w > 0; w /= 2) {  // fixed pairwise tree over the logical lanes
      Kokkos::parallel_for(Kokkos::TeamThreadRange(team, w), [&](const int p) { red[p] += red[p + w]; });
      team.team_barrier();
    }
    Kokkos::single(Kokkos::PerTeam(team), [&]() {
      if (op.slices > 1) {
        op.work[slice] = red[0];
      } else {
        T& c00 = op.C[0];
        c00 = op.beta == T(0) ? red[0] : red[0] + op.beta * c00;
      }
    });
  };
  policy_t probe(space, op.slices, 1);
  probe.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  const int team_size = std::min(P, probe.team_size_max(f, Kokkos::ParallelForTag()));
  policy_t policy(space, op.slices, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for("mmapp::gemv_dot", policy, f);
  op.reduce(space, args.C);
}

/// GEMV-like GEMM for N <= NT (see the file comment): C = A * B + beta * C,
/// row-major, any M, N, K, strides and alignment (NT < N <= kGemvMaxTiny:
/// groups of NT columns, each streaming A again; N > kGemvMaxTiny: handed to
/// gemm_tiled_warp<GemvFallbackTile>). R: team members (team = R x 32
/// vector lanes); RPW: rows per member, sharing each load of B (B's row is
/// read as 16-byte chunks when NT is a multiple of one and B's rows are
/// aligned; a single column with unit stride is read 16 bytes of K at a
/// time); Kc: K chunk per team (0: none; then args.work needs
/// gemv_workspace_bytes<T, Kc>(M, N, K) bytes). Asynchronous.
template <int NT, int R, int RPW, int Kc, class Space, class T>
void gemv_rows(const Space& space, const GemmArgs<Space, T>& args) {
  constexpr int VW = detail::Chunk16<T>::width;
  constexpr int VL = 32;                         // vector lanes per member
  constexpr int U = RPW >= 4 ? 1 : 4 / RPW;      // chunks of each row in flight per lane
  static_assert(Kc % VW == 0, "K chunk: a multiple of a 16-byte chunk");
  using Chunk = detail::Chunk16<T>;
  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  if (N > kGemvMaxTiny) return gemm_tiled_warp<GemvFallbackTile, Space, T>(space, args);
  // Its operands stay separate captures (not a GemvOperands): captured whole,
  // the double N = 1 variant needs one more register (ptxas).
  const SplitKPlan<T> plan("gemv_rows", args, Kc);
  const int slices = plan.slices, kc = plan.kc;
  T* const work = plan.work;
  const T* const Ap = A.data();
  const T* const Bp = B.data();
  const long lda = long(A.stride(0)), ldb = long(B.stride(0)), ldc = long(C.stride(0));
  const bool vec_a = detail::rows_in_chunks(Ap, lda);
  const bool vec_b_row = NT % VW == 0 && detail::rows_in_chunks(Bp, ldb);  // B(k, c0:c0+NT) wide
  const bool vec_b_col = NT == 1 && N == 1 && ldb == 1 && detail::aligned_to(Bp, 16);  // B(k:k+VW, 0) wide
  const int rows_per_team = R * RPW;
  const int tiles_m = (M + rows_per_team - 1) / rows_per_team, groups = (N + NT - 1) / NT;
  const int tiles = tiles_m * groups;
  const long slice_elems = plan.slice_elems;
  const std::size_t scratch_bytes = std::size_t(R) * RPW * NT * VL * sizeof(T);

  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  policy_t policy(space, tiles * slices, R, VL);
  policy.set_scratch_size(0, Kokkos::PerTeam(scratch_bytes));
  Kokkos::parallel_for(
      "mmapp::gemv_rows", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int slice = team.league_rank() / tiles, t = team.league_rank() % tiles;
        const int r = team.team_rank(), row0 = (t % tiles_m) * rows_per_team + r * RPW, c0 = (t / tiles_m) * NT;
        const int k_begin = slice * kc, k_end = k_begin + kc < K ? k_begin + kc : K;
        const int nchunks = (k_end - k_begin + VW - 1) / VW;
        const bool full_cols = c0 + NT <= N;
        const T* arow[RPW];  // rows >= M read row M-1; their sums are dropped
        MMAPP_UNROLL
        for (int i = 0; i < RPW; ++i) arow[i] = Ap + long(row0 + i < M ? row0 + i : M - 1) * lda;
        T* const red = static_cast<T*>(team.team_shmem().get_shmem(scratch_bytes));
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, VL), [&](const int lane) {
          T acc[RPW][NT];
          MMAPP_UNROLL
          for (int i = 0; i < RPW; ++i) {
            MMAPP_UNROLL
            for (int j = 0; j < NT; ++j) acc[i][j] = T(0);
          }
          auto load_a = [&](const T* ar, const int k) {
            Chunk a;
            if (vec_a && k + VW <= k_end) {
              a = *reinterpret_cast<const Chunk*>(ar + k);
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) a.v[q] = k + q < k_end ? ar[k + q] : T(0);
            }
            return a;
          };
          // acc += A(rows, k:k+VW) * B(k:k+VW, c0:c0+NT); a[i].v[q] is 0 past k_end.
          auto fma_chunk = [&](const int k, const Chunk* a) {
            T b[VW][NT];
            if (vec_b_col && k + VW <= k_end) {
              const Chunk bc = *reinterpret_cast<const Chunk*>(Bp + k);
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) b[q][0] = bc.v[q];
            } else {
              MMAPP_UNROLL
              for (int q = 0; q < VW; ++q) {
                const T* brow = Bp + long(k + q < k_end ? k + q : k_end - 1) * ldb + c0;
                if (vec_b_row && full_cols) {
                  MMAPP_UNROLL
                  for (int g = 0; g < NT / VW; ++g) {
                    const Chunk bc = *reinterpret_cast<const Chunk*>(brow + g * VW);
                    MMAPP_UNROLL
                    for (int e = 0; e < VW; ++e) b[q][(g * VW + e) % NT] = bc.v[e];
                  }
                } else {
                  MMAPP_UNROLL
                  for (int j = 0; j < NT; ++j) b[q][j] = brow[c0 + j < N ? j : N - 1 - c0];
                }
              }
            }
            MMAPP_UNROLL
            for (int q = 0; q < VW; ++q) {
              MMAPP_UNROLL
              for (int i = 0; i < RPW; ++i) {
                MMAPP_UNROLL
                for (int j = 0; j < NT; ++j) acc[i][j] += a[i].v[q] * b[q][j];
              }
            }
          };
          int c = lane;
          for (; c + (U - 1) * VL < nchunks; c += U * VL) {  // U chunks of each row in flight
            Chunk a[U][RPW];
            MMAPP_UNROLL
            for (int u = 0; u < U; ++u) {
              MMAPP_UNROLL
              for (int i = 0; i < RPW; ++i) a[u][i] = load_a(arow[i], k_begin + (c + u * VL) * VW);
            }
            MMAPP_UNROLL
            for (int u = 0; u < U; ++u) fma_chunk(k_begin + (c + u * VL) * VW, a[u]);
          }
          for (; c < nchunks; c += VL) {
            Chunk a[RPW];
            MMAPP_UNROLL
            for (int i = 0; i < RPW; ++i) a[i] = load_a(arow[i], k_begin + c * VW);
            fma_chunk(k_begin + c * VW, a);
          }
          MMAPP_UNROLL
          for (int i = 0; i < RPW; ++i) {
            MMAPP_UNROLL
            for (int j = 0; j < NT; ++j) red[((r * RPW + i) * NT + j) * VL + lane] = acc[i][j];
          }
        });
        team.team_barrier();
        // Sum the 32 lane partials of each output in the order 0..31.
        Kokkos::parallel_for(Kokkos::ThreadVectorRange(team, RPW * NT), [&](const int e) {
          const int i = e / NT, j = e % NT, row = row0 + i, col = c0 + j;
          if (row >= M || col >= N) return;
          const T* p = red + ((r * RPW + i) * NT + j) * VL;
          T s = p[0];
          for (int l = 1; l < VL; ++l) s += p[l];
          if (slices > 1) {
            work[slice * slice_elems + long(row) * N + col] = s;
          } else {
            T& cij = C.data()[long(row) * ldc + col];
            cij = beta == T(0) ? s : s + beta * cij;
          }
        });
      });
  plan.reduce(space, C, beta);
}

}  // namespace mmapp
