// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// A Kokkos kernel on every execution space compiled into the binary: the
// build and the runtime of each backend work (issue 2's smoke test).
#include "core/exec_spaces.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

namespace {
template <class Space>
long fill_and_sum(int n) {
  Kokkos::View<long*, typename Space::memory_space> v("v", n);
  Kokkos::parallel_for("mmapp::test_smoke_fill", Kokkos::RangePolicy<Space>(0, n),
                       KOKKOS_LAMBDA(int i) { v(i) = 3L * i; });
  long sum = 0;
  Kokkos::parallel_reduce("mmapp::test_smoke_sum", Kokkos::RangePolicy<Space>(0, n),
                          KOKKOS_LAMBDA(int i, long& s) { s += v(i); }, sum);
  return sum;
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("a Kokkos kernel runs on every enabled execution space", "[kokkos]",
                        mmapp::EnabledSpaces) {
  const int n = 100003;
  INFO("execution space " << TestType::name());
  CHECK(fill_and_sum<TestType>(n) == 3L * n * (n - 1) / 2);
}
