// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// long_range.hpp — flat loops over 2^31 elements and more (a C block of
// 65536 x 65536 is 2^32), cut into launches that every Kokkos version runs
// correctly.
//
// Why: Kokkos 3.4's CUDA RangePolicy parallel_for strides its threads by
// blockDim.y * gridDim.x, a product of two unsigned ints
// (core/src/Cuda/Kokkos_Cuda_Parallel.hpp, ParallelFor<RangePolicy>). At
// 2^32 iterations or more it wraps: to 0 at exactly 2^32 (64-thread blocks,
// 2^26 of them), so every thread loops forever on its first index. Seen on
// an H100 (2026-11-27): Kokkos::deep_copy(C, NaN) on a 65536 x 65536 float C
// never returned (cuda-gdb: ViewFill-1D active, grid 67108864 x 64), which
// is why SUMMA at N = 131072 on 4 GPUs never finished its first multiply.
// Kokkos fixed the stride in 4.6 (kokkos/kokkos#7892, #7797); the View
// initialisation and deep_copy(view, scalar) of 3.4 go through the same loop.
// Launches of at most kMaxRangeLaunch iterations keep every product of that
// loop below 2^32 on any version and backend; on the host they cost nothing.
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>

namespace mmapp {

/// Iterations of one RangePolicy launch in parallel_for_long: 2^30, so the
/// grid's threads (at most iterations + one block) stay below 2^31.
inline constexpr long kMaxRangeLaunch = 1L << 30;

/// f(i) for every i in [0, n), on `space`, in launches of at most
/// `max_launch` (default kMaxRangeLaunch) consecutive indices: RangePolicy
/// with a `long` index, see the file comment. Asynchronous on a GPU, like one
/// parallel_for. `label` names every launch (Kokkos Tools). n <= 0 launches
/// nothing. Throws std::invalid_argument for max_launch < 1.
template <class Space, class F>
void parallel_for_long(const std::string& label, const Space& space, long n, const F& f,
                       long max_launch = kMaxRangeLaunch) {
  if (max_launch < 1) throw std::invalid_argument("parallel_for_long: max_launch must be at least 1");
  for (long begin = 0; begin < n; begin += max_launch)
    Kokkos::parallel_for(
        label, Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space, begin, std::min(n, begin + max_launch)), f);
}

/// Every element of the contiguous view `v` (any rank, its span; in memory
/// that `space` can access) set to `value` on `space`, then `space` fenced:
/// Kokkos::deep_copy(v, value) without its single launch over the whole span
/// (file comment). Throws std::invalid_argument for a view whose span is not
/// contiguous.
template <class Space, class View>
void fill_span(const Space& space, const View& v, typename View::const_value_type value) {
  if (!v.span_is_contiguous()) throw std::invalid_argument("fill_span: the view " + v.label() + " is not contiguous");
  typename View::pointer_type p = v.data();
  parallel_for_long(
      "mmapp::fill_span", space, long(v.span()), KOKKOS_LAMBDA(const long i) { p[i] = value; });
  space.fence();
}

}  // namespace mmapp
