// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// wgmma_peak.hpp — the ceilings of Hopper's warpgroup MMA on TF32 operands
// (`wgmma.mma_async.m64nNk8.f32.tf32.tf32`, sm_90a; mmapp-fma-peak's "tf32
// wgmma" lines) as the 3xTF32 kernel (tiled_gpu_wgmma.hpp) could issue it: a
// team of two warpgroups, B read from scratch through a descriptor in the
// 128-byte-swizzled K-major layout (warp/wgmma.hpp), A from scratch too
// (SS), one accumulator set of N/2 registers per thread, no other memory
// traffic in the loop. Shapes: N = 128 and 256.
//
// Operands: A (64 x 32) and -A, B (32 x N, stored K-major), each row of 32
// K values four copies of the K = 8 pattern of mma_peak.hpp: A(i, k) =
// [k % 8 == i % 8], B(k, j) = mma_peak_b(k % 8, j). Every wgmma adds A8 B8
// (or its negative), whose element (r, c) is the single product
// mma_peak_b(r % 8, c): a signed power of two. A trip issues eight K steps
// (twice the four of a scratch row; A of +A or -A by the sign block, as
// mma_peak.hpp flips its fragment every kMmaFlip steps), commits them as a
// group and waits until one group is left pending, so the tensor core always
// has queued work. After n = 8 trips steps every accumulator holds
// tri(n) mma_peak_b(r % 8, c) (mma_peak_steps_sign), an integer below 2^23:
// exact whatever the hardware's order or truncation. The host checks every
// accumulator of every warpgroup bit for bit (wgmma_chains_reference).
// Parallel mapping: TeamPolicy, 256 threads (two warpgroups), one team per
// SM under the launch bounds, (64 + 64 + N) rows of 128 bytes of level-0
// scratch plus 1 KiB. FLOPs: 2 * 64 * N * 8 per wgmma: wgmma_chains_flops.
#pragma once

#include "kernels/gpu/mma_peak.hpp"
#include "kernels/gpu/warp/wgmma.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstddef>
#include <cstdint>

namespace mmapp {

/// Warpgroups per team of wgmma_chains(); threads per team.
inline constexpr int kWgmmaPeakGroups = 2, kWgmmaPeakThreads = 128 * kWgmmaPeakGroups;
/// K steps (wgmma) per trip: two 32-wide operand rows' worth.
inline constexpr int kWgmmaPeakSteps = 2 * detail::kWgmmaRowK / detail::kWgmmaK;

/// The loop's shape: m64nNk8, both operands in scratch.
template <int N_>
struct WgmmaPeakShape {
  static constexpr int N = N_;
  static constexpr int regs = N_ / 2;  ///< accumulators per thread
  /// Scratch per team: +A, -A (64 rows each), B (N rows), 128 bytes a row, plus 1 KiB to align them.
  static constexpr int scratch = (128 + N_) * detail::kWgmmaRowBytes + detail::kWgmmaAtomBytes;
  static_assert(N_ == 128 || N_ == 256, "m64n128k8 or m64n256k8");
};

/// out(g, thread, r) of wgmma_chains(): warpgroup g, thread 0..127 of it, accumulator r.
template <class Space>
using WgmmaPeakOut = Kokkos::View<float***, Kokkos::LayoutRight, typename Space::memory_space>;

namespace detail {

/// One team's part of wgmma_chains<Shape>() (the file comment): fills the
/// operands, runs `trips` trips and stores its two warpgroups' accumulators
/// into out (rows 2 league_rank and 2 league_rank + 1). The instruction on
/// sm_90a; other device passes abort (the caller runs it only where
/// kGpuWgmma holds), the host pass does nothing.
template <class Shape, class Member, class Out>
KOKKOS_INLINE_FUNCTION void wgmma_peak_team(const Member& team, const Out& out, const long trips) {
#if MMAPP_WGMMA_DEVICE
  constexpr int R = Shape::regs;
  const int tid = team.team_rank(), g = tid / 128, t = tid % 128;
  unsigned char* const raw = static_cast<unsigned char*>(team.team_shmem().get_shmem(std::size_t(Shape::scratch)));
  unsigned char* const smem = raw + ((kWgmmaAtomBytes - std::uintptr_t(raw) % kWgmmaAtomBytes) % kWgmmaAtomBytes);
  // Rows 0..63: +A, 64..127: -A, 128..128 + N - 1: B (row c: column c of B along K).
  for (int e = tid; e < (128 + Shape::N) * kWgmmaRowK; e += kWgmmaPeakThreads) {
    const int row = e / kWgmmaRowK, k = e % kWgmmaRowK;
    const float v = row < 128 ? float((row < 64 ? 1 : -1) * mma_peak_a(row % 64, k % 8, 8))
                              : float(mma_peak_b(k % 8, row - 128));
    *reinterpret_cast<float*>(smem + wgmma_chunk_offset(row, k / 4) + 4 * (k % 4)) = v;
  }
  wgmma_fence_proxy();
  team.team_barrier();
  const std::uint32_t base = wgmma_smem_addr(smem, smem);
  const std::uint32_t b = base + 128 * kWgmmaRowBytes;
  float c[R];
  for (int i = 0; i < R; ++i) c[i] = 0.0f;
  constexpr long flip_trips = kMmaFlip / kWgmmaPeakSteps;
  for (long done = 0; done < trips; done += flip_trips) {
    const long n = trips - done < flip_trips ? trips - done : flip_trips;
    const std::uint32_t a = base + ((done / flip_trips) % 2 ? 64 * kWgmmaRowBytes : 0);
    for (long it = 0; it < n; ++it) {
      wgmma_fence();
      MMAPP_UNROLL
      for (int s = 0; s < kWgmmaPeakSteps; ++s) {
        const int off = 4 * kWgmmaK * (s % (kWgmmaRowK / kWgmmaK));
        wgmma_tf32(c, wgmma_desc(a + off), wgmma_desc(b + off), true);
      }
      wgmma_commit();
      wgmma_wait<1>();
    }
  }
  wgmma_wait<0>();
  wgmma_fence_operands(c);
  const int gid = team.league_rank() * kWgmmaPeakGroups + g;
  for (int i = 0; i < R; ++i) out(gid, t, i) = c[i];
#elif defined(__CUDA_ARCH__)
  (void)team, (void)out, (void)trips;
  wgmma_unavailable();
#else
  (void)team, (void)out, (void)trips;
#endif
}

}  // namespace detail

/// Runs out.extent(0) warpgroups (a multiple of kWgmmaPeakGroups, one team
/// of two per SM at a time) of `trips` trips of Shape (a WgmmaPeakShape)
/// each (the file comment) and stores in out(g, t, r) accumulator r of
/// thread t of warpgroup g; out has extents (warpgroups, 128, Shape::regs),
/// Space's memory. Asynchronous (the caller fences). Run it only where
/// kGpuWgmma (warp/mma_arch.hpp) holds: other device code aborts.
/// FLOPs: wgmma_chains_flops<Shape>(warpgroups, trips).
template <class Shape, class Space>
void wgmma_chains(const Space& space, const WgmmaPeakOut<Space>& out, const long trips) {
  using policy_t = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<kWgmmaPeakThreads, 1>>;
  using member_t = typename policy_t::member_type;
  const int teams = int(out.extent(0)) / kWgmmaPeakGroups;
  policy_t policy(space, teams, kWgmmaPeakThreads, 1);
  policy.set_scratch_size(0, Kokkos::PerTeam(Shape::scratch));
  Kokkos::parallel_for(
      "mmapp::wgmma_peak", policy,
      KOKKOS_LAMBDA(const member_t& team) { detail::wgmma_peak_team<Shape>(team, out, trips); });
}

/// The value every correct wgmma_chains() of `trips` trips leaves in
/// out(g, t, r): tri(8 trips) (mma_peak_steps_sign) times element (row, col)
/// of A8 B8, row and col of accumulator r of thread t (wgmma_d_row /
/// wgmma_d_col of warp t / 32, lane t % 32): mma_peak_b(row % 8, col).
inline float wgmma_chains_reference(const int t, const int r, const long trips) {
  const int row = detail::wgmma_d_row(t / 32, t % 32, r), col = detail::wgmma_d_col(t % 32, r);
  return float(mma_peak_steps_sign(kWgmmaPeakSteps * trips)) * float(mma_peak_b(row % 8, col));
}

/// FLOPs of one wgmma_chains<Shape>() call: 2 * 64 * N * 8 per wgmma,
/// kWgmmaPeakSteps wgmma per trip and warpgroup.
template <class Shape>
double wgmma_chains_flops(const long warpgroups, const long trips) {
  return 2.0 * 64 * Shape::N * detail::kWgmmaK * kWgmmaPeakSteps * double(trips) * double(warpgroups);
}

}  // namespace mmapp
