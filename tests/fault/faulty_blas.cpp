// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
/* faulty_blas.cpp — a test-only BLAS interposer (LD_PRELOAD) that makes the
 * vendor GEMM wrong from outside the mmapp binary, as a user's broken BLAS
 * would: sgemm_/dgemm_ call the real routine (dlsym RTLD_NEXT) and then apply
 * the fault named by MMAPP_FAULT:
 *   element  one element of C off by MMAPP_FAULT_DELTA (default 1.0)
 *   zero     C left all zero (nothing computed)
 *   halfk    K silently halved
 *   row      one row (of mmapp's row-major C) shifted by one column
 * MMAPP_FAULT unset: the real result, untouched. Column-major, as BLAS sees
 * it: mmapp's row-major C (M x N) is the column-major N x M matrix c here. */
#include <dlfcn.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>

extern "C" {

#define DEFINE_GEMM(NAME, T)                                                                                    \
  typedef void (*NAME##_fn)(const char*, const char*, const int*, const int*, const int*, const T*, const T*,    \
                            const int*, const T*, const int*, const T*, T*, const int*);                         \
  void NAME(const char* ta, const char* tb, const int* m, const int* n, const int* k, const T* alpha,            \
            const T* a, const int* lda, const T* b, const int* ldb, const T* beta, T* c, const int* ldc) {       \
    static NAME##_fn real = NULL;                                                                                \
    if (!real) real = (NAME##_fn)dlsym(RTLD_NEXT, #NAME);                                                        \
    if (!real) {                                                                                                 \
      fprintf(stderr, "faulty_blas: no real " #NAME "\n");                                                       \
      abort();                                                                                                   \
    }                                                                                                            \
    const char* fault = getenv("MMAPP_FAULT");                                                                   \
    const char* d = getenv("MMAPP_FAULT_DELTA");                                                                 \
    const T delta = (T)(d ? atof(d) : 1.0);                                                                      \
    int kk = *k;                                                                                                 \
    if (fault && strcmp(fault, "halfk") == 0 && kk > 1) kk /= 2;                                                 \
    real(ta, tb, m, n, &kk, alpha, a, lda, b, ldb, beta, c, ldc);                                                \
    if (!fault) return;                                                                                          \
    const int rows = *m, cols = *n, ld = *ldc;                                                                   \
    if (strcmp(fault, "element") == 0) {                                                                         \
      c[(rows / 3) + (long)(cols / 2) * ld] += delta;                                                            \
    } else if (strcmp(fault, "zero") == 0) {                                                                     \
      for (long j = 0; j < cols; ++j)                                                                            \
        for (long i = 0; i < rows; ++i) c[i + j * ld] = 0;                                                       \
    } else if (strcmp(fault, "row") == 0 && rows > 1) {                                                          \
      /* mmapp's row cols/2 is column cols/2 here: shift it by one element */                                   \
      T* col = c + (long)(cols / 2) * ld;                                                                        \
      const T first = col[0];                                                                                    \
      for (int i = 0; i + 1 < rows; ++i) col[i] = col[i + 1];                                                    \
      col[rows - 1] = first;                                                                                     \
    }                                                                                                            \
  }

DEFINE_GEMM(sgemm_, float)
DEFINE_GEMM(dgemm_, double)
}  // extern "C"
