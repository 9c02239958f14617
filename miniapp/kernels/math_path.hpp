// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// math_path.hpp — which arithmetic a kernel variant's products and sums go
// through (its math path), and what that path adds to plain rounding for the
// independent verifier (check/verify.hpp's ProductRounding). No Kokkos: the
// check and report layers read it without compiling a kernel.
#pragma once

#include <stdexcept>
#include <string>

namespace mmapp {

/// The arithmetic of a kernel variant (KernelVariant::math, the report's
/// `math` field):
///  - simt:   FMAs or multiplies and adds in the element type on the CUDA
///            cores or the CPU (every portable and host kernel, GPU `tiled`
///            without tensor cores);
///  - dmma:   double on the FP64 tensor cores (mma.*.f64: IEEE products and
///            sums in double, the simt rounding model);
///  - tf32x3: float on the TF32 tensor cores with the 3xTF32 split
///            (kernels/gpu/tiled_gpu_mma.hpp);
///  - vendor: the vendor GEMM (cuBLAS, Kokkos Kernels -> OpenBLAS, ScaLAPACK)
///            in its default math mode (FP32 / FP64, no TF32).
enum class MathPath { simt, dmma, tf32x3, vendor };

/// The path's name in reports and the deck: "simt", "dmma", "3xtf32", "vendor".
inline const char* math_path_name(MathPath p) {
  switch (p) {
    case MathPath::simt: return "simt";
    case MathPath::dmma: return "dmma";
    case MathPath::tf32x3: return "3xtf32";
    case MathPath::vendor: return "vendor";
  }
  return "?";
}

/// Whether a path runs on tensor cores (dmma, tf32x3): what run.math: simt forbids.
inline bool uses_tensor_cores(MathPath p) { return p == MathPath::dmma || p == MathPath::tf32x3; }

/// The extra relative error e_p of each product a b before the kernel's
/// accumulation, beyond the element type's own rounding (0 where products
/// are exact before one rounding in the element type: simt, dmma, vendor).
///
/// 3xTF32 (float only; `is_double` must be false): TF32 keeps p = 11
/// significant bits, unit roundoff 2^-11, rounding to nearest (ties away).
/// a = a_big + a_small + da with a_big = tf32(a), a_small = tf32(a - a_big)
/// (a - a_big is exact in FP32; the kernel's 2^11 scaling of it is exact
/// too), so |a - a_big| <= 2^-11 |a|, |da| <= 2^-11 |a - a_big| <= 2^-22 |a|
/// and |a_small| <= (1 + 2^-11) 2^-11 |a|; likewise b. The kernel forms
/// a_big b_big + a_big b_small + a_small b_big (each product of two TF32
/// numbers exact in FP32) and drops a_small b_small, so
///   ab - computed = (a_big + a_small) db + da b + a_small b_small,
///   |ab - computed| <= [(1 + 2^-22) 2^-22 + 2^-22 + (1 + 2^-11)^2 2^-22] |ab|
///                    = (3 * 2^-22 + 2^-32 + 2^-43) |ab|   (about 12.004 u, u = 2^-24).
/// Sources: H. Ootomo and R. Yokota, "Recovering single precision accuracy
/// from Tensor Cores while surpassing the FP32 theoretical peak performance",
/// arXiv:2203.03341, sections 3-4 (the split and its error); P. Blanchard,
/// N. J. Higham, F. Lopez, T. Mary and S. Pranesh, "Mixed precision block
/// fused multiply-add: error analysis and application to GPU tensor cores",
/// SIAM J. Sci. Comput. 42(3), 2020 (products exact, sums in FP32).
/// Throws std::invalid_argument for tf32x3 with is_double.
inline double math_product_error(MathPath p, bool is_double) {
  if (p != MathPath::tf32x3) return 0.0;
  if (is_double) throw std::invalid_argument("math path 3xtf32 is float only");
  constexpr double two_m22 = 1.0 / 4194304.0;                              // 2^-22
  constexpr double two_m32 = 1.0 / 4294967296.0;                           // 2^-32
  constexpr double two_m43 = 1.0 / (4294967296.0 * 2048.0);                // 2^-43
  return 3 * two_m22 + two_m32 + two_m43;
}

/// How many summation terms each product becomes in the kernel's
/// accumulation, as a multiple of K in the rounding bound gamma_K(u) (1 for
/// every path but tf32x3). 3xTF32 sums K big products a_big b_big (at most K
/// additions each, the last being acc + dc 2^-11) and, in a separate
/// accumulator dc, 2K scaled small products (at most 2K additions each) of
/// size at most (1 + 2^-11)^2 2^-11 |ab| each; the terms' magnitudes add up to
/// at most (1 + 2^-11)^2 (1 + 2^-10) |a||b|. By Higham's bound per term
/// (|error| <= sum_t gamma_{depth(t)} |t|, "Accuracy and Stability of Numerical
/// Algorithms", 2nd ed., eq. 3.5) the rounding is at most
///   [gamma_K (1 + 2^-11)^2 + gamma_2K (1 + 2^-11)^2 2^-10] |a||b| <= gamma_2K |a||b|
/// (gamma_2K >= 2 gamma_K), so 2.
inline double math_terms_per_product(MathPath p) { return p == MathPath::tf32x3 ? 2.0 : 1.0; }

}  // namespace mmapp
