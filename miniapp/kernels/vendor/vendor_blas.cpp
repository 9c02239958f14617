// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// vendor_blas.cpp — error reporting for the vendor libraries (see
// kernels/vendor.hpp): the BLAS error handler xerbla_, and the cuBLAS call
// with its status checked.
#include "kernels/vendor/vendor.hpp"

#ifdef KOKKOS_ENABLE_CUDA
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#endif

#include <cstring>
#include <mutex>
#include <string>

namespace {
std::mutex g_blas_mutex;
std::string g_blas_error;  // guarded by g_blas_mutex
}  // namespace

/// The BLAS error handler (reference BLAS interface, also OpenBLAS'): called
/// by a BLAS routine that rejects argument number *info. Defining it here
/// replaces the library's version, which only prints and returns, leaving C
/// as it was. Records the message for throw_if_blas_rejected(). `len` is the
/// length of the routine name (Fortran hidden argument).
extern "C" void xerbla_(const char* srname, const int* info, int len) {
  std::string name(srname ? srname : "?", srname ? strnlen(srname, len > 0 ? size_t(len) : 6) : 1);
  while (!name.empty() && name.back() == ' ') name.pop_back();
  std::lock_guard<std::mutex> lock(g_blas_mutex);
  g_blas_error = "BLAS " + name + ": parameter " + std::to_string(info ? *info : 0) + " had an illegal value";
}

namespace mmapp {

void throw_if_blas_rejected() {
  std::string msg;
  {
    std::lock_guard<std::mutex> lock(g_blas_mutex);
    msg.swap(g_blas_error);
  }
  if (!msg.empty()) throw VendorError(msg);
}

#ifdef KOKKOS_ENABLE_CUDA
namespace {

/// One cuBLAS handle per device, created on first use, destroyed when
/// Kokkos finalizes (before the CUDA context goes away).
cublasHandle_t handle() {
  static cublasHandle_t h = nullptr;
  if (!h) {
    if (const cublasStatus_t s = cublasCreate(&h); s != CUBLAS_STATUS_SUCCESS)
      throw VendorError(std::string("cuBLAS cublasCreate: ") + cublasGetStatusString(s));
    Kokkos::push_finalize_hook([] {
      cublasDestroy(h);
      h = nullptr;
    });
  }
  return h;
}

void check(cublasStatus_t s, const char* routine, int m, int n, int k) {
  if (s == CUBLAS_STATUS_SUCCESS) return;
  throw VendorError(std::string("cuBLAS ") + routine + " (m=" + std::to_string(m) + " n=" + std::to_string(n) +
                    " k=" + std::to_string(k) + "): " + cublasGetStatusName(s) + ": " + cublasGetStatusString(s));
}

}  // namespace

// Row-major C (m x n) = A (m x k) B (k x n) is column-major C^T = B^T A^T:
// cuBLAS gets (n, m, k) with B first, leading dimensions n, k, n.
void cublas_gemm(void* stream, int m, int n, int k, const float* A, const float* B, float beta, float* C) {
  cublasHandle_t h = handle();
  check(cublasSetStream(h, static_cast<cudaStream_t>(stream)), "cublasSetStream", m, n, k);
  const float one = 1.0f;
  check(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &beta, C, n), "cublasSgemm", m, n, k);
}

void cublas_gemm(void* stream, int m, int n, int k, const double* A, const double* B, double beta, double* C) {
  cublasHandle_t h = handle();
  check(cublasSetStream(h, static_cast<cudaStream_t>(stream)), "cublasSetStream", m, n, k);
  const double one = 1.0;
  check(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, n, m, k, &one, B, n, A, k, &beta, C, n), "cublasDgemm", m, n, k);
}
#endif

}  // namespace mmapp
