// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// A Kokkos kernel on every execution space compiled into the binary: the
// build and the runtime of each backend work (issue 2's smoke test); and the
// launches of core/long_range.hpp, whose cut ranges must visit every index
// once (on a GPU with room for it: a fill of 2^32 + 3 bytes, the span
// Kokkos 3.4's own launch never finished).
#include "core/exec_spaces.hpp"
#include "core/long_range.hpp"
#include "core/types.hpp"
#include "driver/measure.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <algorithm>
#include <vector>

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

namespace {
/// How many times parallel_for_long(n, max_launch) visits each index of [0, n).
template <class Space>
std::vector<int> visits(long n, long max_launch) {
  Kokkos::View<int*, typename Space::memory_space> hits("hits", n);
  mmapp::parallel_for_long(
      "mmapp::test_long_range", Space(), n, KOKKOS_LAMBDA(const long i) { Kokkos::atomic_add(&hits(i), 1); },
      max_launch);
  Kokkos::fence();
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), hits);
  return std::vector<int>(h.data(), h.data() + n);
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("parallel_for_long visits every index once across its launches", "[kokkos][long-range]",
                        mmapp::EnabledSpaces) {
  INFO("execution space " << TestType::name());
  for (const long n : {1L, 63L, 64L, 65L, 1000L})
    for (const long max_launch : {1L, 7L, 64L, mmapp::kMaxRangeLaunch}) {
      INFO("n " << n << ", max_launch " << max_launch);
      const std::vector<int> v = visits<TestType>(n, max_launch);
      CHECK(std::count(v.begin(), v.end(), 1) == n);
    }
  CHECK(visits<TestType>(0, 64).empty());
  CHECK_THROWS_WITH(visits<TestType>(10, 0), Catch::Matchers::ContainsSubstring("max_launch"));
}

TEMPLATE_LIST_TEST_CASE("fill_span sets every element of a contiguous view and refuses a strided one",
                        "[kokkos][long-range]", mmapp::EnabledSpaces) {
  using Space = TestType;
  INFO("execution space " << Space::name());
  Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space> v("v", 37, 53);
  mmapp::fill_span(Space(), v, 2.5);
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  long right = 0;
  for (long i = 0; i < 37; ++i)
    for (long j = 0; j < 53; ++j) right += h(i, j) == 2.5;
  CHECK(right == 37 * 53);
  const auto column = Kokkos::subview(v, Kokkos::ALL, 3);
  CHECK_THROWS_WITH(mmapp::fill_span(Space(), column, 1.0), Catch::Matchers::ContainsSubstring("not contiguous"));
}

TEMPLATE_LIST_TEST_CASE("fill_span past 2^32 elements ends, and writes the last element", "[kokkos][long-range]",
                        mmapp::EnabledSpaces) {
  using Space = TestType;
  using byte = unsigned char;  // the wrap is in the iteration count, not the bytes: 4 GiB, not 16
  const long n = (1L << 32) + 3;
  if (mmapp::is_host_space_v<Space> || mmapp::detail::available_bytes<Space>() < 1.5 * double(n)) {
    SKIP("needs a GPU with 6 GiB free (" << Space::name() << ")");
  }
  Kokkos::View<byte*, typename Space::memory_space> v(Kokkos::view_alloc(Kokkos::WithoutInitializing, "big"), n);
  mmapp::fill_span(Space(), v, byte(0));
  mmapp::fill_span(Space(), v, byte(1));
  Kokkos::View<long, typename Space::memory_space> wrong("wrong");
  mmapp::parallel_for_long(
      "mmapp::test_fill_span_check", Space(), n, KOKKOS_LAMBDA(const long i) {
        if (v(i) != byte(1)) Kokkos::atomic_add(&wrong(), 1L);
      });
  long w = -1;
  Kokkos::deep_copy(w, wrong);
  CHECK(w == 0);
  byte last = 0;
  Kokkos::deep_copy(last, Kokkos::subview(v, n - 1));
  CHECK(last == byte(1));
}
