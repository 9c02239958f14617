// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// mma_peak.hpp — the tensor-core ceiling of a GPU, measured (mmapp-fma-peak's
// mma loops; the FMA ceiling is kernels/portable/fma_peak.hpp): chains of
// dependent `mma.sync` (warp/mma_shapes.hpp: f64 m8n8k4 from sm_80,
// m16n8k4/k8/k16 on sm_90, tf32 m16n8k8 with f32 accumulation from sm_80)
// on register fragments, no memory traffic in the loop.
//
// Each warp loads one A and one B fragment (mma_peak_a / mma_peak_b, through
// the shape's lane layout) and keeps kMmaChains independent accumulators,
// c_j <- A B + c_j, `iters` steps each (kMmaChains chains per warp, several
// warps per scheduler: the tensor pipe sees independent work every cycle).
// Every kMmaFlip steps the warp negates its A fragment (one sign flip per
// register per kMmaFlip steps: a negligible cost), so an accumulator rises
// and falls in a triangle wave and never leaves the range where it is exact:
// after n steps every accumulator holds tri(n) * (A B), tri() of
// mma_peak_steps_sign(). A has one 1 per row (A(i, k) = [k == i mod K]) and
// B holds +-1, +-2, +-4, so each element of A B is one signed power of two,
// every sum the instruction forms has a single nonzero product, and
// |tri(n)| <= kMmaFlip = 2^20 keeps every value an integer times a power of
// two with at most 21 significant bits: exact in FP32 and FP64 whatever the
// hardware's internal order or truncation. The host checks every element
// bit for bit against tri(n) times the host emulation of one instruction
// (mma_emulate): a launch that skipped steps (n changed by other than a
// multiple of 2 kMmaFlip) or warps (the poison stays) is caught.
// Parallel mapping: TeamPolicy, kMmaWarpsPerTeam warps per team, one lane
// per team thread (vector length 1, so lane = team_rank % 32), the caller
// launching kMmaTeamsPerSm teams per SM (8 or 16 warps); no scratch.
// FLOPs: 2 M N K per instruction per warp: 2 M N K * kMmaChains * iters * warps.
#pragma once

#include "kernels/gpu/warp/mma_shapes.hpp"
#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <type_traits>

namespace mmapp {

/// Independent accumulators (dependency chains) per warp of mma_chains().
inline constexpr int kMmaChains = 8;
/// Warps per team of mma_chains() (128 threads).
inline constexpr int kMmaWarpsPerTeam = 4;
/// Teams per SM that mma_chains() runs and is bounded for
/// (Kokkos::LaunchBounds, so that they are all resident at once): 4 (16
/// warps, at most 128 registers per thread) where the accumulators take at
/// most 32 registers per thread (f64 m8n8k4, tf32), else 2 (8 warps, up to
/// 255 registers: the f64 m16n8k* shapes' 64 accumulator registers spill at
/// 128, as ptxas -v showed for sm_90).
template <class Shape>
inline constexpr int kMmaTeamsPerSm =
    kMmaChains * Shape::c_regs * int(sizeof(typename Shape::Elem) / 4) <= 32 ? 4 : 2;
/// Steps between sign flips of the A fragment (see the file comment).
inline constexpr long kMmaFlip = 1L << 20;

/// A(i, k) of the peak loop's operand (M x K): 1 where k == i mod K, else 0.
KOKKOS_INLINE_FUNCTION constexpr int mma_peak_a(const int i, const int k, const int K) { return k == i % K ? 1 : 0; }

/// B(k, j) of the peak loop's operand (K x N): (-1)^(k + j) * 2^((k + 2 j) mod 3).
KOKKOS_INLINE_FUNCTION constexpr int mma_peak_b(const int k, const int j) {
  return ((k + j) % 2 ? -1 : 1) * (1 << ((k + 2 * j) % 3));
}

/// The factor tri(n) of A B held by every accumulator after n steps of
/// mma_chains(): with n = q kMmaFlip + r (0 <= r < kMmaFlip), r when q is
/// even, kMmaFlip - r when q is odd (the A fragment's sign is (-1)^q during
/// block q).
inline long mma_peak_steps_sign(const long n) {
  const long q = n / kMmaFlip, r = n % kMmaFlip;
  return q % 2 == 0 ? r : kMmaFlip - r;
}

namespace detail {

/// A or B register of Shape holding the small integer v (exact in TF32 and FP64).
template <class Shape>
KOKKOS_INLINE_FUNCTION typename Shape::Reg mma_peak_reg(const int v) {
  if constexpr (std::is_same_v<typename Shape::Reg, double>)
    return double(v);
  else
    return tf32_rna(float(v));
}

/// -x for an f64 register, the sign bit flipped for a TF32 one.
KOKKOS_INLINE_FUNCTION double mma_peak_negate(const double x) { return -x; }
KOKKOS_INLINE_FUNCTION std::uint32_t mma_peak_negate(const std::uint32_t x) { return x ^ 0x80000000u; }

/// True where Shape's device instruction is compiled (its mma() exists: the
/// device pass for an architecture that has it; never the host pass).
template <class S, class = void>
struct HasMma : std::false_type {};
template <class S>
struct HasMma<S, std::void_t<decltype(&S::mma)>> : std::true_type {};

/// One lane's part of mma_chains(): warp `warp`, lane `lane` (the warp's 32
/// lanes together), `iters` steps of kMmaChains chains, then its
/// accumulators into out(warp, lane, .). Empty where the instruction is
/// not compiled (HasMma).
template <class Shape, class Out>
KOKKOS_INLINE_FUNCTION void mma_chains_lane(const int warp, const int lane, const long iters, const Out& out) {
  if constexpr (HasMma<Shape>::value) {
    using E = typename Shape::Elem;
    using Reg = typename Shape::Reg;
    Reg a[Shape::a_regs], b[Shape::b_regs];
    for (int r = 0; r < Shape::a_regs; ++r)
      a[r] = mma_peak_reg<Shape>(mma_peak_a(Shape::a_row(lane, r), Shape::a_col(lane, r), Shape::K));
    for (int r = 0; r < Shape::b_regs; ++r)
      b[r] = mma_peak_reg<Shape>(mma_peak_b(Shape::b_row(lane, r), Shape::b_col(lane, r)));
    E c[kMmaChains][Shape::c_regs];
    for (int j = 0; j < kMmaChains; ++j)
      for (int r = 0; r < Shape::c_regs; ++r) c[j][r] = E(0);
    for (long done = 0; done < iters; done += kMmaFlip) {
      const long steps = iters - done < kMmaFlip ? iters - done : kMmaFlip;
      for (long it = 0; it < steps; ++it) {
        MMAPP_UNROLL
        for (int j = 0; j < kMmaChains; ++j) Shape::mma(c[j], a, b, c[j]);
      }
      for (int r = 0; r < Shape::a_regs; ++r) a[r] = mma_peak_negate(a[r]);
    }
    for (int r = 0; r < Shape::c_regs; ++r) {
      bool same = true;
      for (int j = 1; j < kMmaChains; ++j) same = same && c[j][r] == c[0][r];
      out(warp, lane, r) = same ? c[0][r] : E(NAN);
    }
  } else {
    (void)warp, (void)lane, (void)iters, (void)out;
  }
}

}  // namespace detail

/// out(w, lane, r) of mma_chains(): Shape::Elem per (warp, lane, register).
template <class Shape, class Space>
using MmaPeakOut = Kokkos::View<typename Shape::Elem***, Kokkos::LayoutRight, typename Space::memory_space>;

/// Runs out.extent(0) warps (a multiple of kMmaWarpsPerTeam) of kMmaChains
/// chains of Shape's `mma.sync`, `iters` steps each, and stores in out(w,
/// lane, r) lane `lane`'s accumulator register r of warp w: chain 0's value
/// if every chain agrees, else NaN; out has extents (warps, 32,
/// Shape::c_regs), Space's memory. Asynchronous (the caller fences). On a
/// space or architecture without the instruction the kernel body is empty
/// (out keeps what it held): the caller runs it only where
/// kGpuTensorCores / kGpuMmaSm90 (warp/mma_arch.hpp) say the shape exists.
/// FLOPs: mma_chains_flops<Shape>(warps, iters).
template <class Shape, class Space>
void mma_chains(const Space& space, const MmaPeakOut<Shape, Space>& out, const long iters) {
  using policy_t = Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<32 * kMmaWarpsPerTeam, kMmaTeamsPerSm<Shape>>>;
  using member_t = typename policy_t::member_type;
  const int teams = int(out.extent(0)) / kMmaWarpsPerTeam;
  Kokkos::parallel_for(
      "mmapp::mma_peak", policy_t(space, teams, 32 * kMmaWarpsPerTeam, 1), KOKKOS_LAMBDA(const member_t& t) {
        detail::mma_chains_lane<Shape>(t.league_rank() * kMmaWarpsPerTeam + t.team_rank() / 32, t.team_rank() % 32,
                                       iters, out);
      });
}

/// The value every correct mma_chains() leaves in out(w, lane, r) after
/// `iters` steps, from the host emulation of one instruction (mma_emulate,
/// A and B through Shape's layouts, C = 0) times tri(iters)
/// (mma_peak_steps_sign); exact (see the file comment).
template <class Shape>
typename Shape::Elem mma_chains_reference(const int lane, const int r, const long iters) {
  using E = typename Shape::Elem;
  typename Shape::Reg a[32][Shape::a_regs], b[32][Shape::b_regs];
  for (int l = 0; l < 32; ++l) {
    for (int q = 0; q < Shape::a_regs; ++q)
      a[l][q] = detail::mma_peak_reg<Shape>(mma_peak_a(Shape::a_row(l, q), Shape::a_col(l, q), Shape::K));
    for (int q = 0; q < Shape::b_regs; ++q)
      b[l][q] = detail::mma_peak_reg<Shape>(mma_peak_b(Shape::b_row(l, q), Shape::b_col(l, q)));
  }
  const E zero[Shape::c_regs] = {};
  E d[Shape::c_regs];
  detail::mma_emulate<Shape>(lane, a, b, zero, d);
  return E(mma_peak_steps_sign(iters)) * d[r];
}

/// FLOPs of one mma_chains() call: 2 M N K * kMmaChains * iters * warps.
template <class Shape>
double mma_chains_flops(const long warps, const long iters) {
  return 2.0 * Shape::M * Shape::N * Shape::K * kMmaChains * double(iters) * double(warps);
}

}  // namespace mmapp
