// tiled_host.hpp — the team-tiled GEMM shaped for a CPU core, as in GotoBLAS
// (K. Goto, R. van de Geijn, "Anatomy of high-performance matrix
// multiplication", ACM TOMS 34(3), 2008): league = ceil(M/BM) * ceil(N/BN)
// teams of one thread; per K step the BM x BK block of A and the BK x BN block
// of B are packed into scratch as TM-row and TN-column panels, contiguous in
// k; a TM x TN register micro-tile streams through one A and one B panel (the
// TN loop vectorises) and is added into C, which stays in cache.
// Scratch level 1 per team (above the OpenMP level-0 cap): (BM + BN) * BK *
// sizeof(T) bytes (64x256x256, float: 320 KiB, L2-resident).
// FLOPs: 2*M*N*K. Any M, N, K >= 1: edge panels are zero-padded on packing
// and masked on store.
#pragma once

#include "kernels/unroll.hpp"
#include "kokkos_compat.hpp"
#include "types.hpp"

namespace mmapp {

/// Host-shaped tiled GEMM (see the file comment): C = A * B + beta * C with block tile
/// BM x BN x BK packed in scratch and a TM x TN register micro-tile. BM % TM
/// == 0 and BN % TN == 0. Any team size works (TeamThreadRange over panels
/// and micro-tiles); the registry uses 1. Row-major; any M, N, K >= 1;
/// asynchronous.
template <int BM, int BN, int BK, int TM, int TN, class Space, class T>
void gemm_tiled_host(const Space& space, const GemmArgs<Space, T>& args) {
  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  static_assert(BM % TM == 0 && BN % TN == 0, "block tile must be a multiple of the micro-tile");
  constexpr int panels_m = BM / TM, panels_n = BN / TN;
  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  const int tiles_m = (M + BM - 1) / BM, tiles_n = (N + BN - 1) / BN;
  const size_t scratch_bytes = size_t(BM + BN) * BK * sizeof(T);
  constexpr int level = compat::kHostPanelScratchLevel;  // hundreds of KiB: above the level-0 cap
  policy_t policy(space, tiles_m * tiles_n, 1);
  policy.set_scratch_size(level, Kokkos::PerTeam(scratch_bytes));

  Kokkos::parallel_for(
      "mmapp::gemm_tiled_host", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int bm = (team.league_rank() % tiles_m) * BM;
        const int bn = (team.league_rank() / tiles_m) * BN;
        T* Ap = static_cast<T*>(team.team_scratch(level).get_shmem(size_t(BM) * BK * sizeof(T)));  // [panel][k][TM]
        T* Bp = static_cast<T*>(team.team_scratch(level).get_shmem(size_t(BN) * BK * sizeof(T)));  // [panel][k][TN]
        for (int bk = 0; bk < K; bk += BK) {
          const int kc = K - bk < BK ? K - bk : BK;
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, panels_m), [&](int p) {
            T* dst = Ap + size_t(p) * BK * TM;
            for (int i = 0; i < TM; ++i) {
              const int row = bm + p * TM + i;
              for (int k = 0; k < kc; ++k) dst[k * TM + i] = row < M ? A(row, bk + k) : T(0);
            }
          });
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, panels_n), [&](int p) {
            T* dst = Bp + size_t(p) * BK * TN;
            const int col0 = bn + p * TN;
            for (int k = 0; k < kc; ++k)
              for (int j = 0; j < TN; ++j) dst[k * TN + j] = col0 + j < N ? B(bk + k, col0 + j) : T(0);
          });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, panels_m * panels_n), [&](int t) {
            const int pm = t % panels_m, pn = t / panels_m;
            const int row0 = bm + pm * TM, col0 = bn + pn * TN;
            if (row0 >= M || col0 >= N) return;
            const T* a = Ap + size_t(pm) * BK * TM;
            const T* b = Bp + size_t(pn) * BK * TN;
            // The micro-tile: TN values of B held in registers, each A value
            // broadcast against them (TM x TN fused multiply-adds per k).
            T acc[TM][TN];
            MMAPP_UNROLL
            for (int i = 0; i < TM; ++i)
              MMAPP_UNROLL
              for (int j = 0; j < TN; ++j) acc[i][j] = 0;
            for (int k = 0; k < kc; ++k) {
              T bv[TN];
              MMAPP_UNROLL
              for (int j = 0; j < TN; ++j) bv[j] = b[k * TN + j];
              MMAPP_UNROLL
              for (int i = 0; i < TM; ++i) {
                const T ai = a[k * TM + i];
                MMAPP_UNROLL
                for (int j = 0; j < TN; ++j) acc[i][j] += ai * bv[j];
              }
            }
            for (int i = 0; i < TM && row0 + i < M; ++i)
              for (int j = 0; j < TN && col0 + j < N; ++j)
                C(row0 + i, col0 + j) =
                    (bk > 0 ? C(row0 + i, col0 + j) : beta == T(0) ? T(0) : beta * C(row0 + i, col0 + j)) + acc[i][j];
          });
          team.team_barrier();
        }
      });
}

}  // namespace mmapp
