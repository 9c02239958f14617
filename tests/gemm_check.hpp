// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// gemm_check.hpp — helpers shared by the kernel tests that run a GEMM on
// padded operands and check it against an independent reference:
//  - padded(): an m x n LayoutRight matrix whose rows are longer than n;
//  - count_bad(): elements of C outside Higham's componentwise bound against
//    a double-precision triple loop on the host.
#pragma once

#include "deck/init.hpp"
#include "core/types.hpp"

#include <Kokkos_Core.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

namespace mmapp_test {

/// An m x n matrix in a LayoutRight view whose rows are `pad` elements longer
/// than n (a subview of an m x (n + pad) allocation: stride(0) = n + pad),
/// filled from the app's generator (operand `which`, `seed`, `init`: random
/// or wide), each element times `scale` (a power of two keeps the values exact).
template <class Space, class T>
mmapp::Matrix<T, Space> padded(long m, long n, long pad, int which, std::uint64_t seed, T scale = T(1),
                               mmapp::Init init = mmapp::Init::random) {
  mmapp::Matrix<T, Space> full("full", m, n + pad);
  mmapp::HostMatrix<T> h("h", m, n + pad);
  mmapp::fill_matrix<T>(h, which, 0, init, seed);
  if (scale != T(1))
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n + pad; ++j) h(i, j) *= scale;
  Kokkos::deep_copy(full, h);
  return Kokkos::subview(full, Kokkos::ALL, std::make_pair(0L, n));
}

/// A host copy of the 2-D view v (any layout and memory space): v is first
/// copied into a contiguous view in its own memory space (a copy between
/// views of one space may be strided; Kokkos::deep_copy between spaces
/// needs both contiguous: a padded device view copied straight to the host
/// throws "no available copy mechanism"), then to the host.
template <class V>
auto host_copy(const V& v) {
  using T = typename V::non_const_value_type;
  Kokkos::View<T**, Kokkos::LayoutRight, typename V::memory_space> dense("dense", v.extent(0), v.extent(1));
  Kokkos::deep_copy(dense, v);
  return Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), dense);
}

/// Elements of C (m x n) outside the componentwise bound
/// 2 gamma_{k+2} (|A||B| + |beta C0|), gamma_j = j u / (1 - j u), against a
/// triple loop in double on the host (N. J. Higham, "Accuracy and Stability
/// of Numerical Algorithms", 2nd ed., eq. 3.13, with a factor 2 of slack;
/// NaN counts as outside). A: m x k, B: k x n, C0: C's contents before the
/// GEMM (read only where beta != 0); any 2-D views, padded (strided) device
/// views included (host_copy).
template <class T, class VA, class VB, class VC>
long count_bad(const VA& A, const VB& B, const VC& C0, const VC& C, T beta) {
  const auto hA = host_copy(A);
  const auto hB = host_copy(B);
  const auto hC0 = host_copy(C0);
  const auto hC = host_copy(C);
  const long m = hC.extent(0), n = hC.extent(1), k = hA.extent(1);
  const double u = std::numeric_limits<T>::epsilon() / 2, gamma = (k + 2) * u / (1 - (k + 2) * u);
  long bad = 0;
  for (long i = 0; i < m; ++i)
    for (long j = 0; j < n; ++j) {
      double ref = beta == T(0) ? 0.0 : double(beta) * double(hC0(i, j)), mag = std::fabs(ref);
      for (long p = 0; p < k; ++p) {
        ref += double(hA(i, p)) * double(hB(p, j));
        mag += std::fabs(double(hA(i, p)) * double(hB(p, j)));
      }
      if (!(std::fabs(double(hC(i, j)) - ref) <= 2 * gamma * mag + std::numeric_limits<double>::min())) ++bad;
    }
  return bad;
}

}  // namespace mmapp_test
