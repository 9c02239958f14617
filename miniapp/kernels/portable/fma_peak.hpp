// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// fma_peak.hpp — the arithmetic ceiling of an execution space, measured
// rather than taken from a datasheet: the sustained rate of chains of
// dependent multiply-adds with no memory traffic in the loop (the "two numbers
// first" of a roofline: S. Williams, A. Waterman, D. Patterson, "Roofline:
// an insightful visual performance model", CACM 52(4), 2009; the same kind
// of kernel as the flops tests of mixbench, E. Konstantinidis and
// Y. Cotronis, JPDC 2017).
//
// Each work item keeps kFmaChains independent chains x <- x * a + b (a, b
// run-time values, so nothing folds), advances each `iters` times and writes
// the sum of its chains once. On CUDA, nvcc contracts x * a + b into one
// FMA (FFMA / DFMA) by default; on host backends the compiler decides
// (GCC contracts only with -ffp-contract=fast or where -march has FMA).
// The chains keep the FMA pipes busy with independent work: kFmaChains per
// thread, many threads per core.
// Parallel mapping: RangePolicy over `items` work items (CUDA: one thread
// each); no scratch. FLOPs: 2 * items * kFmaChains * iters.
#pragma once

#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>

namespace mmapp {

/// Independent multiply-add chains per work item of fma_chains().
inline constexpr int kFmaChains = 16;

/// Runs `items` work items of kFmaChains chains x <- x * a + b, `iters`
/// steps each, chain c of item i starting at x0 + (i * kFmaChains + c) *
/// step, and stores each item's sum of chains in out(i) (out: items
/// elements in Space's memory). Asynchronous (the caller fences).
/// FLOPs: 2 * items * kFmaChains * iters (fma_chains_flops()).
template <class Space, class T>
void fma_chains(const Space& space, const Kokkos::View<T*, typename Space::memory_space>& out, long iters, T a,
                T b, T x0, T step) {
  const long items = long(out.extent(0));
  Kokkos::parallel_for(
      "mmapp::fma_peak", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space, 0, items),
      KOKKOS_LAMBDA(const long i) {
        T x[kFmaChains];
        for (int c = 0; c < kFmaChains; ++c) x[c] = x0 + T(i * kFmaChains + c) * step;
        for (long it = 0; it < iters; ++it) {
          MMAPP_UNROLL
          for (int c = 0; c < kFmaChains; ++c) x[c] = x[c] * a + b;
        }
        T s = 0;
        for (int c = 0; c < kFmaChains; ++c) s += x[c];
        out(i) = s;
      });
}

/// Work item i's result of fma_chains(), computed on the host in T, each
/// step fused (std::fma: what nvcc makes of x * a + b) or not (a rounded
/// product, then a rounded sum: a host compiler that does not contract).
/// A correct fma_chains() matches one of the two bit for bit.
template <class T>
T fma_chains_reference(long i, long iters, T a, T b, T x0, T step, bool fused) {
  T s = 0;
  for (int c = 0; c < kFmaChains; ++c) {
    T x = x0 + T(i * kFmaChains + c) * step;
    for (long it = 0; it < iters; ++it) {
      if (fused) {
        x = std::fma(x, a, b);
      } else {
        volatile T p = x * a;  // rounded before the add, whatever the host compiler contracts
        x = p + b;
      }
    }
    s += x;
  }
  return s;
}

/// FLOPs of one fma_chains() call: 2 * items * kFmaChains * iters.
inline double fma_chains_flops(long items, long iters) { return 2.0 * double(items) * kFmaChains * double(iters); }

}  // namespace mmapp
