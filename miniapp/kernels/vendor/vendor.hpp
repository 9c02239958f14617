// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// vendor.hpp — the vendor reference, `vendor` in decks (formerly `kokkoskernels`): the speed
// yardstick, checked by the independent verifier like every other kernel.
//   - host spaces: KokkosBlas::gemm from Kokkos Kernels, which calls the host
//     BLAS (OpenBLAS, sgemm_/dgemm_). A BLAS that rejects its arguments calls
//     xerbla_; mmapp provides xerbla_ (vendor_blas.cpp) so the rejection
//     becomes a VendorError with the library's message, not a C left unwritten.
//   - CUDA: cuBLAS cublas{S,D}gemm on the space's stream, the same call that
//     Kokkos Kernels' cuBLAS TPL makes (operands swapped for row-major, as
//     Kokkos Kernels does: C^T = B^T A^T in column-major). mmapp makes the call
//     itself because Kokkos Kernels 3.4 discards the cublasStatus_t, so a
//     refused call (an illegal parameter) would go unnoticed. Default math mode:
//     plain FP32/FP64, and main() sets NVIDIA_TF32_OVERRIDE=0 so no TF32.
//     C and A go to cuBLAS in row blocks whose elements stay below 2^31
//     (vendor_rows_per_call): cuBLAS' legacy interface counts in 32-bit ints.
//     (A SUMMA block C of 65536 x 65536 floats that never finished, 4 H200s,
//     2026-11-22, was not cuBLAS: Kokkos 3.4's launch of the NaN poison over
//     2^32 elements, core/long_range.hpp; with both, 188.8 TFLOP/s on 4 H100s.)
// FLOPs: 2*M*N*K.
#pragma once

#include "kernels/vendor/host_blas.hpp"
#include "core/types.hpp"

#include <KokkosBlas3_gemm.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <type_traits>

namespace mmapp {

/// A vendor library refused or failed a call; what() carries its message
/// ("cuBLAS cublasSgemm: CUBLAS_STATUS_INVALID_VALUE ...", "BLAS SGEMM:
/// parameter 8 had an illegal value").
struct VendorError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// Throws VendorError if the host BLAS called xerbla_ since the last call of
/// this function (on any thread), and clears the record.
void throw_if_blas_rejected();

#ifdef KOKKOS_ENABLE_CUDA
/// C = A * B + beta * C through cuBLAS on `stream` (row-major extents as in
/// GemmArgs); throws VendorError naming the status when cuBLAS refuses or
/// fails. Defined in vendor_blas.cpp.
void cublas_gemm(void* stream, int m, int n, int k, const float* A, const float* B, float beta, float* C);
void cublas_gemm(void* stream, int m, int n, int k, const double* A, const double* B, double beta, double* C);
#endif

/// Rows of C (and of A) per vendor call for an m x n x k GEMM on row-major
/// operands, so that neither block a call is given (rows x n of C, rows x k
/// of A) holds `limit` elements or more: at least 1, at most m (m when it
/// all fits). B (k x n) is whole in every call.
inline long vendor_rows_per_call(long m, long n, long k, long limit = (1L << 31) - 1) {
  const long widest = std::max({n, k, 1L});
  return std::clamp(limit / widest, 1L, std::max(m, 1L));
}

/// C = A * B + beta * C by the vendor library (see the file comment), on
/// row-major views. Asynchronous on CUDA. Throws VendorError when the library
/// refuses the call or reports a failure.
template <class Space, class T>
void gemm_vendor(const Space& space, const GemmArgs<Space, T>& args) {
  const long m = long(args.C.extent(0)), n = long(args.C.extent(1)), k = long(args.A.extent(1));
  if (m == 0 || n == 0) return;
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    const long rows = vendor_rows_per_call(m, n, k);
    for (long i0 = 0; i0 < m; i0 += rows)  // one call unless C or A reaches 2^31 elements
      cublas_gemm(static_cast<void*>(space.cuda_stream()), int(std::min(rows, m - i0)), int(n), int(k),
                  args.A.data() + i0 * k, args.B.data(), args.beta, args.C.data() + i0 * n);
    return;
  }
#endif
  (void)space;
  const HostBlasCallScope on_the_kernels_cores;  // pthreads OpenBLAS: the caller not confined to one core
  KokkosBlas::gemm("N", "N", T(1), args.A, args.B, args.beta, args.C);
  throw_if_blas_rejected();
}

}  // namespace mmapp
