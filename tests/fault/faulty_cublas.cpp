// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// faulty_cublas.cpp — the cuBLAS counterpart of faulty_blas.c (CUDA builds):
// an LD_PRELOAD interposer of cublasSgemm_v2/cublasDgemm_v2 that calls the
// real routine and then applies MMAPP_FAULT (element, zero, halfk, row) to C
// through cudaMemcpy, after synchronizing the stream. Test-only.
#include <cublas_v2.h>
#include <cuda_runtime_api.h>
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

namespace {
template <class T, class Fn>
cublasStatus_t faulty(Fn real, cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k,
                      const T* alpha, const T* A, int lda, const T* B, int ldb, const T* beta, T* C, int ldc) {
  const char* fault = std::getenv("MMAPP_FAULT");
  const char* d = std::getenv("MMAPP_FAULT_DELTA");
  const T delta = T(d ? std::atof(d) : 1.0);
  const int kk = (fault && std::strcmp(fault, "halfk") == 0 && k > 1) ? k / 2 : k;
  const cublasStatus_t s = real(h, ta, tb, m, n, kk, alpha, A, lda, B, ldb, beta, C, ldc);
  if (!fault || s != CUBLAS_STATUS_SUCCESS) return s;
  cudaStream_t stream = nullptr;
  cublasGetStream(h, &stream);
  cudaStreamSynchronize(stream);
  std::vector<T> col(static_cast<std::size_t>(m));
  T* dcol = C + size_t(n / 2) * ldc;
  cudaMemcpy(col.data(), dcol, sizeof(T) * m, cudaMemcpyDeviceToHost);
  if (std::strcmp(fault, "element") == 0) col[m / 3] += delta;
  if (std::strcmp(fault, "row") == 0 && m > 1) {
    const T first = col[0];
    for (int i = 0; i + 1 < m; ++i) col[i] = col[i + 1];
    col[m - 1] = first;
  }
  if (std::strcmp(fault, "zero") == 0) {
    for (int j = 0; j < n; ++j) cudaMemset(C + size_t(j) * ldc, 0, sizeof(T) * m);
    return s;
  }
  cudaMemcpy(dcol, col.data(), sizeof(T) * m, cudaMemcpyHostToDevice);
  return s;
}
}  // namespace

extern "C" cublasStatus_t cublasSgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const float* alpha, const float* A, int lda, const float* B, int ldb,
                                         const float* beta, float* C, int ldc) {
  using fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const float*,
                                const float*, int, const float*, int, const float*, float*, int);
  static fn real = reinterpret_cast<fn>(dlsym(RTLD_NEXT, "cublasSgemm_v2"));
  return faulty<float>(real, h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}

extern "C" cublasStatus_t cublasDgemm_v2(cublasHandle_t h, cublasOperation_t ta, cublasOperation_t tb, int m, int n,
                                         int k, const double* alpha, const double* A, int lda, const double* B,
                                         int ldb, const double* beta, double* C, int ldc) {
  using fn = cublasStatus_t (*)(cublasHandle_t, cublasOperation_t, cublasOperation_t, int, int, int, const double*,
                                const double*, int, const double*, int, const double*, double*, int);
  static fn real = reinterpret_cast<fn>(dlsym(RTLD_NEXT, "cublasDgemm_v2"));
  return faulty<double>(real, h, ta, tb, m, n, k, alpha, A, lda, B, ldb, beta, C, ldc);
}
