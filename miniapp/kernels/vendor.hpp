// vendor.hpp — the vendor reference, `kokkoskernels` in decks: the speed
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
// FLOPs: 2*M*N*K.
#pragma once

#include "host_blas.hpp"
#include "types.hpp"

#include <KokkosBlas3_gemm.hpp>

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

/// C = A * B + beta * C by the vendor library (see the file comment), on
/// row-major views. Asynchronous on CUDA. Throws VendorError when the library
/// refuses the call or reports a failure.
template <class Space, class T>
void gemm_vendor(const Space& space, const GemmArgs<Space, T>& args) {
  const int m = int(args.C.extent(0)), n = int(args.C.extent(1)), k = int(args.A.extent(1));
  if (m == 0 || n == 0) return;
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    cublas_gemm(static_cast<void*>(space.cuda_stream()), m, n, k, args.A.data(), args.B.data(), args.beta,
                args.C.data());
    return;
  }
#endif
  (void)space;
  const HostBlasCallScope on_the_kernels_cores;  // pthreads OpenBLAS: the caller not confined to one core
  KokkosBlas::gemm("N", "N", T(1), args.A, args.B, args.beta, args.C);
  throw_if_blas_rejected();
}

}  // namespace mmapp
