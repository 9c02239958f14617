// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// naive.hpp — C = A * B + beta * C with one thread per element of C, A and B
// read straight from global memory (the seeds' first kernel; the ladder's
// rung 1).
//
// Parallel mapping: a flat RangePolicy over the M*N elements of C; index
// idx -> (i, j) = (idx / N, idx % N), so consecutive threads (a CUDA warp)
// take consecutive j: loads of B(k, j) and stores of C(i, j) coalesce, A(i, k)
// is a broadcast. No scratch memory. FLOPs: 2*M*N*K.
#pragma once

#include "core/long_range.hpp"
#include "core/types.hpp"

namespace mmapp {

/// C (M x N) = A (M x K) * B (K x N) + beta * C, row-major, on `space`.
/// Any M, N, K >= 1 (an empty C is a no-op). Asynchronous: the caller fences.
template <class Space, class T>
void gemm_naive(const Space& space, const GemmArgs<Space, T>& args) {
  const auto A = args.A;
  const auto B = args.B;
  const auto C = args.C;
  const T beta = args.beta;
  const long M = C.extent(0), N = C.extent(1), K = A.extent(1);
  parallel_for_long(
      "mmapp::gemm_naive", space, M * N, KOKKOS_LAMBDA(const long idx) {
        const long i = idx / N, j = idx % N;
        T sum = 0;
        for (long k = 0; k < K; ++k) sum += A(i, k) * B(k, j);
        C(i, j) = beta == T(0) ? sum : sum + beta * C(i, j);
      });
}

}  // namespace mmapp
