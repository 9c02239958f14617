// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// shared.hpp — C = A * B + beta * C by the seeds' shared-memory algorithm, ported literally (the
// ladder's rung 2, kept to show what the register-tiled kernel buys):
// one team per T x T block of C; per K step, T x T tiles of A and B staged in
// level-0 scratch; the C tile also lives in scratch; the team's threads walk
// the tile elements with TeamThreadRange.
//
// Parallel mapping (CUDA terms: blockIdx = league_rank, threadIdx = team_rank):
//   league = ceil(M/T) * ceil(N/T) teams; team size 256 on GPUs (the seeds'),
//   1 on host backends; TeamThreadRange over the T*T elements.
// Scratch level 0 per team: 3 * T*T * sizeof(T) bytes (T=32, float: 12 KiB).
// FLOPs: 2*M*N*K. Correct for any M, N, K (tiles zero-padded at the edges).
#pragma once

#include "core/types.hpp"

namespace mmapp {

/// C = A * B + beta * C with the seeds' shared-memory tiling, tile T x T.
/// Row-major; any M, N, K >= 1; asynchronous.
template <int Tile, class Space, class T>
void gemm_shared(const Space& space, const GemmArgs<Space, T>& args) {
  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  using scratch_t = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::scratch_memory_space,
                                 Kokkos::MemoryTraits<Kokkos::Unmanaged>>;
  const int M = C.extent(0), N = C.extent(1), K = A.extent(1);
  const int tiles_m = (M + Tile - 1) / Tile, tiles_n = (N + Tile - 1) / Tile;
  const int team_size = is_host_space_v<Space> ? 1 : 256;
  const size_t bytes = 3 * scratch_t::shmem_size(Tile, Tile);
  policy_t policy(space, tiles_m * tiles_n, team_size);
  policy.set_scratch_size(0, Kokkos::PerTeam(bytes));
  Kokkos::parallel_for(
      "mmapp::gemm_shared", policy, KOKKOS_LAMBDA(const member_t& team) {
        const int bm = (team.league_rank() % tiles_m) * Tile;
        const int bn = (team.league_rank() / tiles_m) * Tile;
        scratch_t As(team.team_scratch(0), Tile, Tile);
        scratch_t Bs(team.team_scratch(0), Tile, Tile);
        scratch_t Cs(team.team_scratch(0), Tile, Tile);
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile * Tile),
                             [&](int e) { Cs(e / Tile, e % Tile) = 0; });
        for (int bk = 0; bk < K; bk += Tile) {
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile * Tile), [&](int e) {
            const int r = e / Tile, c = e % Tile;
            As(r, c) = (bm + r < M && bk + c < K) ? A(bm + r, bk + c) : T(0);
            Bs(r, c) = (bk + r < K && bn + c < N) ? B(bk + r, bn + c) : T(0);
          });
          team.team_barrier();
          Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile * Tile), [&](int e) {
            const int r = e / Tile, c = e % Tile;
            T sum = 0;
            for (int kk = 0; kk < Tile; ++kk) sum += As(r, kk) * Bs(kk, c);
            Cs(r, c) += sum;
          });
          team.team_barrier();
        }
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, Tile * Tile), [&](int e) {
          const int r = e / Tile, c = e % Tile;
          if (bm + r < M && bn + c < N)
            C(bm + r, bn + c) = beta == T(0) ? Cs(r, c) : Cs(r, c) + beta * C(bm + r, bn + c);
        });
      });
}

}  // namespace mmapp
