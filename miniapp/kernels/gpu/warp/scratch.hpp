// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/scratch.hpp — the level-0 scratch (CUDA shared memory) of one team of
// gemm_tiled_warp: one or two stages, each a BK x BM tile of A stored
// transposed (As[k][m], rows padded) and a BK x BN tile of B (Bs[k][n]),
// 16-byte aligned. Layout only; the stores are GlobalTileLoader::store, the
// reads WarpMma::load. Bytes per team: stages * (BK*(BM+pad) + BK*BN) *
// sizeof(T) + 16 (alignment slack).
#pragma once

#include "kernels/gpu/chunk.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstdint>

#ifndef MMAPP_KOKKOS_OPTIN_SCRATCH
#define MMAPP_KOKKOS_OPTIN_SCRATCH 0  // an installed Kokkos: the default 48 KiB (CMake sets 1 for the in-tree one)
#endif

namespace mmapp {
namespace detail {

/// Kokkos' team-reduction words ahead of a team's level-0 scratch, bytes:
/// 8 per thread and 2 more (Kokkos 3.4's CUDA team launch).
constexpr std::size_t team_reduce_bytes(const int team_size) { return 8 * std::size_t(team_size + 2); }
/// Level-0 scratch a team of team_size threads may have under an unpatched
/// Kokkos 3.4 CUDA launch: the default 48 KiB of dynamic shared memory less
/// team_reduce_bytes.
constexpr std::size_t team_scratch_default_limit(const int team_size) {
  return 48 * 1024 - team_reduce_bytes(team_size);
}
/// The limit this build's Kokkos allows: team_scratch_default_limit, or,
/// with the in-tree Kokkos and its opt-in patch (MMAPP_KOKKOS_OPTIN_SCRATCH,
/// cmake/patches-kokkos-3.4.01.patch: cudaFuncAttributeMaxDynamicSharedMemorySize
/// set at launch), sm_90's sharedMemPerBlockOptin, 227 KiB, less
/// team_reduce_bytes. The catalog lists the tiles whose stages pass the
/// default for sm_90 builds only (catalog_gpu.hpp, kGpuOptinScratch).
constexpr std::size_t team_scratch_limit(const int team_size) {
  return (MMAPP_KOKKOS_OPTIN_SCRATCH ? 227 * 1024 : 48 * 1024) - team_reduce_bytes(team_size);
}

/// The scratch stages of a Cfg (GpuTile) team for element type T.
template <class Cfg, class T>
struct ScratchStages {
  using Chunk = Chunk16<T>;
  static constexpr int BM = Cfg::BM, BN = Cfg::BN, BK = Cfg::BK;
  // As[BK][BM + pad]. The transposed stores of A (one element per store, a
  // thread's chunk to VW rows kq..kq+VW-1 of column r) are free of bank
  // conflicts when a half-warp's (double) or warp's (float) 16 columns x
  // BK/VW chunk rows land in distinct banks: row stride = 8*VW/BK (mod 8),
  // i.e. 4 for float BK = 8, 2 for double BK = 8, 4 for double BK = 4 (with
  // BM a multiple of 16). Rows stay 16-byte aligned (pad a multiple of VW).
  static constexpr int pad = (sizeof(T) == 8 && BK == 8) ? 2 : 4;
  static constexpr int lda_s = BM + pad;                     ///< row pitch of As, elements
  static constexpr int a_elems = BK * lda_s;                 ///< As, elements
  static constexpr int stage_elems = a_elems + BK * BN;      ///< As then Bs, elements
  static constexpr int n_stages = Cfg::stages == 2 ? 2 : 1;  ///< stages 0 and 1 use one
  /// Level-0 scratch per team, bytes (+ one chunk of alignment slack).
  static constexpr std::size_t bytes = std::size_t(n_stages * stage_elems) * sizeof(T) + sizeof(Chunk);

  T* smem;  ///< stage 0's As; stage s at smem + s * stage_elems

  /// This team's stages, from its level-0 scratch (`bytes` requested per team).
  template <class Member>
  KOKKOS_INLINE_FUNCTION explicit ScratchStages(const Member& team, const std::size_t scratch_bytes) {
    char* raw = static_cast<char*>(team.team_shmem().get_shmem(scratch_bytes));
    const std::size_t mis = reinterpret_cast<std::uintptr_t>(raw) % sizeof(Chunk);
    smem = reinterpret_cast<T*>(raw + (mis ? sizeof(Chunk) - mis : 0));
  }
  /// As of stage s: element (k, m) at [k * lda_s + m].
  KOKKOS_INLINE_FUNCTION T* a(const int s) const { return smem + s * stage_elems; }
  /// Bs of stage s: element (k, n) at [k * BN + n].
  KOKKOS_INLINE_FUNCTION T* b(const int s) const { return smem + s * stage_elems + a_elems; }
};

}  // namespace detail
}  // namespace mmapp
