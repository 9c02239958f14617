// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/mma_shapes.hpp — the tensor-core instructions of gemm_tiled_mma
// (tiled_gpu_mma.hpp), each as a shape type with its per-lane fragment
// layouts, its device instruction (inline PTX `mma.sync`, compiled only
// where __CUDA_ARCH__ >= 800) and a host emulation that follows the same
// layouts, so that the data path around the instruction is tested on the
// host (tests/test_mma_host.cpp). Also the TF32 rounding and the 3xTF32
// split of an FP32 value.
//
// Fragment layouts: NVIDIA, "PTX ISA" (8.x/9.x), section 9.7.14.5 "Matrix
// Fragments for mma.m8n8k4 with .f64 floating point type" and "Matrix
// Fragments for mma.m16n8k8" (.tf32). With groupID g = lane >> 2 and
// threadID_in_group t = lane % 4:
//   f64 m8n8k4   A (8x4):  a0 = A(g, t)                     (1 register)
//                B (4x8):  b0 = B(t, g)                     (1 register)
//                C (8x8):  c_i = C(g, 2t + i), i = 0, 1     (2 registers)
//   f64 m16n8k4  A (16x4): a0 = A(g, t), a1 = A(g+8, t)      (sm_90; PTX ISA 7.8)
//                B (4x8):  b0 = B(t, g)
//                C (16x8): c0 = C(g, 2t), c1 = C(g, 2t+1), c2 = C(g+8, 2t), c3 = C(g+8, 2t+1)
//   f64 m16n8k8  A (16x8): a_i = A(g + 8 (i & 1), t + 4 (i >> 1)), i < 4 (sm_90; PTX ISA 7.8)
//                B (8x8):  b_i = B(t + 4 i, g), i < 2
//   f64 m16n8k16 A (16x16): a_i = A(g + 8 (i & 1), t + 4 (i >> 1)), i < 8 (sm_90; PTX ISA 7.8)
//                B (16x8): b_i = B(t + 4 i, g), i < 4
//                C of both: as m16n8k4's (the f64 k8 and k16 layouts: also NVIDIA
//                CUTLASS, include/cute/atom/mma_traits_sm90.hpp, SM90_16x8x{8,16}_F64F64F64F64_TN)
//   tf32 m16n8k8 A (16x8): a0 = A(g, t), a1 = A(g+8, t), a2 = A(g, t+4), a3 = A(g+8, t+4)
//                B (8x8):  b0 = B(t, g), b1 = B(t+4, g)
//                C (16x8): c0 = C(g, 2t), c1 = C(g, 2t+1), c2 = C(g+8, 2t), c3 = C(g+8, 2t+1)
// The host emulation of an instruction takes all 32 lanes' fragments (as
// the warp's registers are), assembles A and B through these layouts and
// returns one lane's D = A B + C, accumulating in k order in T (the
// hardware's internal order and, for tf32, its truncating accumulation
// are not modelled: the emulation checks the data path, not the rounding).
#pragma once

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <cstring>

#include "kernels/unroll.hpp"

namespace mmapp {
namespace detail {

/// FP64 tensor-core MMA, mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64
/// (sm_80 and later): D (8x8) = A (8x4, row) * B (4x8, col) + C.
struct MmaF64m8n8k4 {
  using Elem = double;  ///< A, B, C and D elements
  using Reg = double;   ///< A and B register type
  static constexpr int M = 8, N = 8, K = 4, a_regs = 1, b_regs = 1, c_regs = 2;
  static constexpr int min_arch = 800;  ///< __CUDA_ARCH__ from which the instruction exists
  KOKKOS_INLINE_FUNCTION static constexpr int a_row(const int lane, const int) { return lane >> 2; }
  KOKKOS_INLINE_FUNCTION static constexpr int a_col(const int lane, const int) { return lane & 3; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_row(const int lane, const int) { return lane & 3; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_col(const int lane, const int) { return lane >> 2; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_row(const int lane, const int) { return lane >> 2; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_col(const int lane, const int i) { return (lane & 3) * 2 + i; }
  /// A or B register value as an element (identity for f64).
  KOKKOS_INLINE_FUNCTION static double value(const Reg r) { return r; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  /// d = a * b + c for this lane's fragments (the warp's 32 lanes together).
  __device__ static void mma(double (&d)[2], const Reg (&a)[1], const Reg (&b)[1], const double (&c)[2]) {
    asm("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};\n"
        : "=d"(d[0]), "=d"(d[1])
        : "d"(a[0]), "d"(b[0]), "d"(c[0]), "d"(c[1]));
  }
#endif
};

/// FP64 tensor-core MMA, mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64
/// (sm_90 only): D (16x8) = A (16x4, row) * B (4x8, col) + C; one of these
/// does the work of two m8n8k4 sharing B.
struct MmaF64m16n8k4 {
  using Elem = double;
  using Reg = double;
  static constexpr int M = 16, N = 8, K = 4, a_regs = 2, b_regs = 1, c_regs = 4;
  static constexpr int min_arch = 900;  ///< __CUDA_ARCH__ from which the instruction exists
  KOKKOS_INLINE_FUNCTION static constexpr int a_row(const int lane, const int i) { return (lane >> 2) + i * 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int a_col(const int lane, const int) { return lane & 3; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_row(const int lane, const int) { return lane & 3; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_col(const int lane, const int) { return lane >> 2; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_row(const int lane, const int i) { return (lane >> 2) + (i >> 1) * 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_col(const int lane, const int i) { return (lane & 3) * 2 + (i & 1); }
  KOKKOS_INLINE_FUNCTION static double value(const Reg r) { return r; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __device__ static void mma(double (&d)[4], const Reg (&a)[2], const Reg (&b)[1], const double (&c)[4]) {
    asm("mma.sync.aligned.m16n8k4.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5}, {%6}, {%7,%8,%9,%10};\n"
        : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
        : "d"(a[0]), "d"(a[1]), "d"(b[0]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
  }
#endif
};

/// The per-lane fragment layout that mma.m16n8k8 (.tf32, .f64) and
/// mma.m16n8k16 (.f64) share (PTX ISA, "Matrix Fragments for mma.m16n8k8"):
/// with g = lane / 4 and t = lane % 4, A register i holds row g + 8 (i % 2),
/// column t + 4 (i / 2); B register i holds row t + 4 i, column g; C register
/// i holds row g + 8 (i / 2), column 2 t + i % 2. Register counts are the
/// shape's own.
struct LanesM16N8 {
  KOKKOS_INLINE_FUNCTION static constexpr int a_row(const int lane, const int i) { return (lane >> 2) + (i & 1) * 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int a_col(const int lane, const int i) { return (lane & 3) + (i >> 1) * 4; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_row(const int lane, const int i) { return (lane & 3) + i * 4; }
  KOKKOS_INLINE_FUNCTION static constexpr int b_col(const int lane, const int) { return lane >> 2; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_row(const int lane, const int i) { return (lane >> 2) + (i >> 1) * 8; }
  KOKKOS_INLINE_FUNCTION static constexpr int c_col(const int lane, const int i) { return (lane & 3) * 2 + (i & 1); }
};

/// FP64 tensor-core MMA with K = 8 or 16, mma.sync.aligned.m16n8k{8,16}.row.col.f64
/// (sm_90 only): D (16x8) = A (16xK, row) * B (Kx8, col) + C; one
/// instruction for K/4 m16n8k4 (fewer instructions and fragment moves per FLOP).
template <int K_>
struct MmaF64m16n8kX : LanesM16N8 {
  static_assert(K_ == 8 || K_ == 16, "m16n8k8 or m16n8k16");
  using Elem = double;
  using Reg = double;
  static constexpr int M = 16, N = 8, K = K_, a_regs = K_ / 2, b_regs = K_ / 4, c_regs = 4;
  static constexpr int min_arch = 900;  ///< __CUDA_ARCH__ from which the instruction exists
  KOKKOS_INLINE_FUNCTION static double value(const Reg r) { return r; }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
  __device__ static void mma(double (&d)[4], const Reg (&a)[a_regs], const Reg (&b)[b_regs], const double (&c)[4]) {
    if constexpr (K_ == 8)
      asm("mma.sync.aligned.m16n8k8.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
          "{%10,%11,%12,%13};\n"
          : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
          : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(b[0]), "d"(b[1]), "d"(c[0]), "d"(c[1]), "d"(c[2]),
            "d"(c[3]));
    else
      asm("mma.sync.aligned.m16n8k16.row.col.f64.f64.f64.f64 {%0,%1,%2,%3}, {%4,%5,%6,%7,%8,%9,%10,%11}, "
          "{%12,%13,%14,%15}, {%16,%17,%18,%19};\n"
          : "=d"(d[0]), "=d"(d[1]), "=d"(d[2]), "=d"(d[3])
          : "d"(a[0]), "d"(a[1]), "d"(a[2]), "d"(a[3]), "d"(a[4]), "d"(a[5]), "d"(a[6]), "d"(a[7]), "d"(b[0]),
            "d"(b[1]), "d"(b[2]), "d"(b[3]), "d"(c[0]), "d"(c[1]), "d"(c[2]), "d"(c[3]));
  }
#endif
};
/// mma.m16n8k8.row.col.f64 (sm_90).
using MmaF64m16n8k8 = MmaF64m16n8kX<8>;
/// mma.m16n8k16.row.col.f64 (sm_90).
using MmaF64m16n8k16 = MmaF64m16n8kX<16>;

/// The bits of an FP32 value, and the value of FP32 bits (a bit cast: the
/// CUDA intrinsic on the device, memcpy on the host).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t f32_bits(const float x) {
#if defined(__CUDA_ARCH__)
  return __float_as_uint(x);
#else
  std::uint32_t u;
  std::memcpy(&u, &x, sizeof u);
  return u;
#endif
}
KOKKOS_FORCEINLINE_FUNCTION float bits_f32(const std::uint32_t u) {
#if defined(__CUDA_ARCH__)
  return __uint_as_float(u);
#else
  float x;
  std::memcpy(&x, &u, sizeof x);
  return x;
#endif
}

/// TF32 tensor-core MMA, mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32
/// (sm_80 and later): D (16x8, f32) = A (16x8, row, tf32) * B (8x8, col, tf32) + C.
/// A and B registers hold TF32 values in FP32 bit layout (low 13 bits zero).
struct MmaTf32m16n8k8 : LanesM16N8 {
  using Elem = float;
  using Reg = std::uint32_t;
  static constexpr int M = 16, N = 8, K = 8, a_regs = 4, b_regs = 2, c_regs = 4;
  static constexpr int min_arch = 800;
  /// A or B register (TF32 bits) as a float.
  KOKKOS_INLINE_FUNCTION static float value(const Reg r) { return bits_f32(r); }

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  __device__ static void mma(float (&d)[4], const Reg (&a)[4], const Reg (&b)[2], const float (&c)[4]) {
    asm("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, "
        "{%10,%11,%12,%13};\n"
        : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
        : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]),
          "f"(c[3]));
  }
#endif
};

/// Host emulation of one lane's result of Shape's MMA: d = A B + c, where A
/// and B are assembled from all 32 lanes' fragments a[lane][r], b[lane][r]
/// through Shape's layouts and c is lane `lane`'s accumulator fragment.
/// Products and sums in Shape::Elem, k ascending (see the file comment).
template <class Shape>
KOKKOS_INLINE_FUNCTION void mma_emulate(const int lane, const typename Shape::Reg (*a)[Shape::a_regs],
                 const typename Shape::Reg (*b)[Shape::b_regs], const typename Shape::Elem (&c)[Shape::c_regs],
                 typename Shape::Elem (&d)[Shape::c_regs]) {
  using E = typename Shape::Elem;
  E As[Shape::M][Shape::K], Bs[Shape::K][Shape::N];
  bool seen_a[Shape::M][Shape::K] = {}, seen_b[Shape::K][Shape::N] = {};
  for (int l = 0; l < 32; ++l) {
    for (int r = 0; r < Shape::a_regs; ++r) {
      As[Shape::a_row(l, r)][Shape::a_col(l, r)] = Shape::value(a[l][r]);
      seen_a[Shape::a_row(l, r)][Shape::a_col(l, r)] = true;
    }
    for (int r = 0; r < Shape::b_regs; ++r) {
      Bs[Shape::b_row(l, r)][Shape::b_col(l, r)] = Shape::value(b[l][r]);
      seen_b[Shape::b_row(l, r)][Shape::b_col(l, r)] = true;
    }
  }
  for (int i = 0; i < Shape::M; ++i)  // a layout that misses an element is a bug of the layout: NaN shows it
    for (int p = 0; p < Shape::K; ++p)
      if (!seen_a[i][p]) As[i][p] = E(NAN);
  for (int p = 0; p < Shape::K; ++p)
    for (int j = 0; j < Shape::N; ++j)
      if (!seen_b[p][j]) Bs[p][j] = E(NAN);
  for (int r = 0; r < Shape::c_regs; ++r) {
    E s = c[r];
    for (int p = 0; p < Shape::K; ++p) s += As[Shape::c_row(lane, r)][p] * Bs[p][Shape::c_col(lane, r)];
    d[r] = s;
  }
}

/// FP32 bits u of a finite value -> TF32 bits, to nearest with ties away
/// from zero: half a TF32 ulp added to the magnitude bits, the low 13 bits
/// cleared (a value within half a TF32 ulp of FLT_MAX becomes Inf).
KOKKOS_FORCEINLINE_FUNCTION std::uint32_t tf32_rna_bits(const std::uint32_t u) { return (u + 0x1000u) & 0xffffe000u; }

/// FP32 -> TF32 (8-bit exponent, 10 explicit mantissa bits, in FP32's bit
/// layout with the low 13 bits zero), rounding to nearest with ties away
/// from zero: PTX `cvt.rna.tf32.f32` on the device, the same on the host by
/// adding half a TF32 ulp to the magnitude bits and truncating (Inf and NaN
/// pass through; a value that rounds past the largest TF32 becomes Inf).
KOKKOS_INLINE_FUNCTION std::uint32_t tf32_rna(const float x) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  std::uint32_t r;
  asm("cvt.rna.tf32.f32 %0, %1;\n" : "=r"(r) : "f"(x));
  return r;
#else
  const std::uint32_t u = f32_bits(x);
  if ((u & 0x7f800000u) == 0x7f800000u) return u;  // Inf, NaN
  return tf32_rna_bits(u);
#endif
}

/// 2^11: the scale of the small parts of the 3xTF32 split (Ootomo and
/// Yokota, "Recovering single precision accuracy from Tensor Cores while
/// surpassing the FP32 theoretical peak performance", IJHPCA 2022,
/// arXiv:2203.03341, section 4: without it the small part of a value near
/// FLT_MIN underflows).
inline constexpr float kTf32SmallScale = 2048.0f;

/// tf32_rna, except that a finite x which would round to Inf (|x| within
/// half a TF32 ulp of FLT_MAX) is truncated to the largest TF32 instead.
KOKKOS_INLINE_FUNCTION std::uint32_t tf32_rna_finite(const float x) {
  const std::uint32_t r = tf32_rna(x), u = f32_bits(x);
  return ((r & 0x7fffffffu) == 0x7f800000u && (u & 0x7f800000u) != 0x7f800000u) ? (u & 0xffffe000u) : r;
}

/// The 3xTF32 split of x: big = tf32(x), small = tf32((x - big) * 2^11)
/// (tf32_rna_finite both: a finite x gives a finite split); x ~= big +
/// small * 2^-11 to about 22 bits (x - big is exact in FP32). Inf and NaN
/// give big = x and a NaN small part.
KOKKOS_INLINE_FUNCTION void tf32_split(const float x, std::uint32_t& big, std::uint32_t& small) {
  big = tf32_rna_finite(x);
  small = tf32_rna_finite((x - bits_f32(big)) * kTf32SmallScale);
}

/// Magnitude bits (sign cleared) below which tf32_rna neither meets Inf or
/// NaN nor rounds to Inf: the largest finite FP32 whose rounding stays
/// finite is 0x7f7fefff (0x7f7ff000 + 0x1000 reaches the Inf exponent).
inline constexpr std::uint32_t kTf32ShortPathBelow = 0x7f7ff000u;

/// tf32_split of four values, bit for bit: big[q], small[q] = tf32_split(x[q]).
/// Where every |x[q]| < kTf32ShortPathBelow (all values short of FLT_MAX's
/// last TF32 ulp: the case a GEMM meets), tf32_rna is its integer form,
/// tf32_rna_bits (tf32_rna's host path), for both parts: the
/// small part, |x - big| 2^11 <= 2^e for x in [2^e, 2^(e+1)), cannot round
/// to Inf either. Any other value (Inf, NaN, the top of the range) sends
/// the four through tf32_split. On sm_90 tf32_split's SASS has no single
/// TF32 conversion: per value a test against Inf (FSETP), integer adds and
/// masks, and tf32_rna_finite's test (ISETP, SEL). The in-loop 3xTF32
/// tiles split every element they load in their K loop, where those were
/// about half the issued instructions; the short path saved about 10
/// instructions a value there (H200, Nsight Compute source counters,
/// 2026-12-01: docs/performance.md, "Tensor cores, fortieth round").
KOKKOS_INLINE_FUNCTION void tf32_split4(const float (&x)[4], std::uint32_t (&big)[4], std::uint32_t (&small)[4]) {
  std::uint32_t u[4];
  bool short_path = true;
  MMAPP_UNROLL
  for (int q = 0; q < 4; ++q) {
    u[q] = f32_bits(x[q]);
    short_path = short_path && (u[q] & 0x7fffffffu) < kTf32ShortPathBelow;
  }
  if (short_path) {
    MMAPP_UNROLL
    for (int q = 0; q < 4; ++q) {
      big[q] = tf32_rna_bits(u[q]);
      small[q] = tf32_rna_bits(f32_bits((x[q] - bits_f32(big[q])) * kTf32SmallScale));
    }
  } else {
    MMAPP_UNROLL
    for (int q = 0; q < 4; ++q) tf32_split(x[q], big[q], small[q]);
  }
}

}  // namespace detail
}  // namespace mmapp
