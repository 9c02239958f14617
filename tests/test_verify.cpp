// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The independent verifier (miniapp/verify.hpp) proves itself:
//  - fault injection: test-only faulty kernels (one element of C off by a
//    typical |c|, one row shifted by one column, one tile never written
//    (NaN poison) or left zero, C = 0, K silently halved) FAIL, float and
//    double, random init, on every enabled execution space, at shapes up to
//    4096 and at K = 4e6;
//  - no false positives: every kernel variant PASSES on shapes from 1x1x1 to
//    16x16x4e6, and the smallest margin (bound / residual) is printed;
//  - the exact checks (identity, ones, closed_form) and the closed form itself;
//  - a BLAS that rejects its arguments (xerbla_) becomes an error;
//  - the decision is global: one rank's failing row fails every rank.
#include "core/exec_spaces.hpp"
#include "deck/init.hpp"
#include "kernels/catalog.hpp"
#include "kernels/gpu/warp/mma_shapes.hpp"
#include "kernels/vendor/vendor.hpp"
#include "check/verify.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <cstring>
#include <random>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace {

template <class T>
const char* dtype_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

/// Random (uniform [-1, 1)) m x n matrix on Space, from the app's generator.
template <class Space, class T>
mmapp::Matrix<T, Space> random_matrix(long m, long n, int which, std::uint64_t seed,
                                      mmapp::Init init = mmapp::Init::random) {
  mmapp::HostMatrix<T> h(Kokkos::view_alloc(Kokkos::WithoutInitializing, "h"), m, n);
  mmapp::fill_matrix<T>(h, which, 0, init, seed);
  mmapp::Matrix<T, Space> d(Kokkos::view_alloc(Kokkos::WithoutInitializing, "d"), m, n);
  Kokkos::deep_copy(d, h);
  return d;
}

/// Runs `v` (beta = 0) into a NaN-poisoned C, as the driver does.
template <class Space, class T>
mmapp::Matrix<T, Space> run_variant(const mmapp::KernelVariant<Space, T>& v, const mmapp::Matrix<T, Space>& A,
                                    const mmapp::Matrix<T, Space>& B) {
  mmapp::Matrix<T, Space> C(Kokkos::view_alloc(Kokkos::WithoutInitializing, "C"), A.extent(0), B.extent(1));
  Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
  mmapp::Workspace<Space> work("work", v.workspace(A.extent(0), B.extent(1), A.extent(1)));
  v.run(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, T(0), work});
  Kokkos::fence();
  return C;
}

/// The vendor kernel of the registry (the fast, correct base of the faulty kernels).
template <class Space, class T>
mmapp::KernelVariant<Space, T> vendor() {
  for (const auto& v : mmapp::kernel_variants<Space, T>())
    if (v.name == "vendor") return v;
  FAIL("no vendor variant");
  return {};
}

mmapp::Verdict verdict_of(const mmapp::LocalCheck& c) { return mmapp::global_verdict(c, MPI_COMM_SELF); }

/// C(i, j) = C(i, j) * scale + add, on C's space.
template <class Space, class T>
void perturb(const mmapp::Matrix<T, Space>& C, long i, long j, T scale, T add) {
  Kokkos::parallel_for(
      "test_perturb", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) { C(i, j) = C(i, j) * scale + add; });
  Kokkos::fence();
}

/// Smallest bound / residual seen on a correct result, per kind of bound at
/// the worst row (the deterministic bound is a theorem: its margin is >= 1 by
/// construction; the probabilistic one's margin is the measured safety), and
/// the smallest residual / bound of a caught fault (how clearly it fails).
struct Margins {
  struct Min {
    double value = std::numeric_limits<double>::infinity();
    std::string where;
    void add(double v, const std::string& what) {
      if (v < value) value = v, where = what;
    }
  } probabilistic, deterministic, fault;
  void add_correct(const mmapp::LocalCheck& c, const std::string& what) {
    const double m = c.worst_ratio > 0 ? 1.0 / c.worst_ratio : std::numeric_limits<double>::infinity();
    (c.worst_probabilistic ? probabilistic : deterministic).add(m, what);
  }
};
Margins g_margin;

// --- the faulty kernels: the vendor GEMM, then one fault --------------------

enum class Fault { element, row_shift, tile_nan, tile_zero, zero, half_k };
const char* fault_name(Fault f) {
  switch (f) {
    case Fault::element: return "one element off by a typical |c|";
    case Fault::row_shift: return "one row shifted by one column";
    case Fault::tile_nan: return "one 64x64 tile never written (NaN poison)";
    case Fault::tile_zero: return "one 64x64 tile never written (C held zeros)";
    case Fault::zero: return "C = 0";
    case Fault::half_k: return "K silently halved";
  }
  return "?";
}

/// C as a faulty kernel leaves it: `good` is the correct C (for the
/// element, row and tile faults the fault is applied to a copy of it).
template <class Space, class T>
mmapp::Matrix<T, Space> faulty_c(Fault f, const mmapp::Matrix<T, Space>& A, const mmapp::Matrix<T, Space>& B,
                                 const mmapp::Matrix<T, Space>& good) {
  const long m = good.extent(0), n = good.extent(1), k = A.extent(1);
  mmapp::Matrix<T, Space> C(Kokkos::view_alloc(Kokkos::WithoutInitializing, "faulty"), m, n);
  Kokkos::deep_copy(C, good);
  const long i0 = m / 2, j0 = n / 3;
  using range = Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>;
  switch (f) {
    case Fault::element: {
      const T delta = T(std::sqrt(double(k) / 9.0));  // the RMS of c for uniform [-1, 1) inputs
      Kokkos::parallel_for(range(0, 1), KOKKOS_LAMBDA(long) { C(i0, j0) += delta; });
      break;
    }
    case Fault::row_shift:
      Kokkos::parallel_for(range(0, n), KOKKOS_LAMBDA(long j) { C(i0, j) = good(i0, (j + 1) % n); });
      break;
    case Fault::tile_nan:
    case Fault::tile_zero: {
      const T fill = f == Fault::tile_nan ? std::numeric_limits<T>::quiet_NaN() : T(0);
      const long r0 = (m / 2) / 64 * 64, c0 = (n / 2) / 64 * 64;
      Kokkos::parallel_for(range(0, m * n), KOKKOS_LAMBDA(long e) {
        const long i = e / n, j = e % n;
        if (i >= r0 && i < r0 + 64 && j >= c0 && j < c0 + 64) C(i, j) = fill;
      });
      break;
    }
    case Fault::zero: Kokkos::deep_copy(C, T(0)); break;
    case Fault::half_k: {
      const auto Ah = Kokkos::subview(A, Kokkos::ALL, std::make_pair(0L, k / 2));
      const auto Bh = Kokkos::subview(B, std::make_pair(0L, k / 2), Kokkos::ALL);
      mmapp::Matrix<T, Space> Ac("Ah", m, k / 2), Bc("Bh", k / 2, n);
      Kokkos::deep_copy(Ac, Ah);
      Kokkos::deep_copy(Bc, Bh);
      Kokkos::deep_copy(C, run_variant<Space, T>(vendor<Space, T>(), Ac, Bc));
      break;
    }
  }
  Kokkos::fence();
  return C;
}

struct Shape {
  long m, n, k;
};

template <class Space, class T>
void every_fault_fails(const std::vector<Shape>& shapes, const std::vector<Fault>& faults) {
  std::uint64_t seed = 99;
  for (const auto& s : shapes) {
    const auto A = random_matrix<Space, T>(s.m, s.k, 0, seed), B = random_matrix<Space, T>(s.k, s.n, 1, seed);
    ++seed;
    const auto good = run_variant<Space, T>(vendor<Space, T>(), A, B);
    const mmapp::FreivaldsCheck<Space, T> check(Space{}, A, B, 0, mmapp::ExactCheck::none, 10.0, seed);
    const std::string what = std::string(Space::name()) + " " + dtype_name<T>() + " " + std::to_string(s.m) + "x" +
                             std::to_string(s.n) + "x" + std::to_string(s.k);
    {
      INFO(what << ": the correct C");
      const auto c = check.check(good);
      CHECK(verdict_of(c).passed);
      g_margin.add_correct(c, what + " vendor");
    }
    // Every fault fails under plain rounding and, for float, under the
    // looser model of 3xTF32 (larger bound: the margin must stay > 1).
    std::vector<std::pair<mmapp::ProductRounding, std::string>> models{{{}, ""}};
    if (std::is_same_v<T, float>)
      models.push_back({mmapp::product_rounding(mmapp::MathPath::tf32x3, false), " (3xtf32 rounding)"});
    for (const Fault f : faults) {
      if (f == Fault::half_k && s.k < 2) continue;
      const auto C = faulty_c<Space, T>(f, A, B, good);
      for (const auto& [rounding, model] : models) {
        INFO(what << ": " << fault_name(f) << model);
        const auto c = check.check(C, rounding);
        const auto v = verdict_of(c);
        CHECK_FALSE(v.passed);
        CHECK(v.rows_failed >= 1);
        if (f == Fault::tile_nan) CHECK(v.nonfinite == 64 * 64);
        if (f != Fault::tile_nan) {
          CHECK(v.worst_ratio > 1.0);
          g_margin.fault.add(v.worst_ratio, what + ": " + fault_name(f) + model);
        }
      }
    }
  }
}

const std::vector<Fault> all_faults{Fault::element, Fault::row_shift, Fault::tile_nan,
                                    Fault::tile_zero, Fault::zero,      Fault::half_k};

template <class Space, class T>
void every_variant_passes(const std::vector<Shape>& shapes, const mmapp::Init init = mmapp::Init::random) {
  std::uint64_t seed = 7;
  for (const auto& s : shapes) {
    const auto A = random_matrix<Space, T>(s.m, s.k, 0, seed, init);
    const auto B = random_matrix<Space, T>(s.k, s.n, 1, seed, init);
    ++seed;
    const mmapp::FreivaldsCheck<Space, T> check(Space{}, A, B, 0, mmapp::ExactCheck::none, 10.0, seed);
    for (const auto& v : mmapp::kernel_variants<Space, T>()) {
      const std::string what = std::string(Space::name()) + " " + dtype_name<T>() + " " + mmapp::to_string(init) +
                               " " + v.name + " " + v.shape() + " " + std::to_string(s.m) + "x" + std::to_string(s.n) +
                               "x" + std::to_string(s.k);
      INFO(what);
      // The variant's math path sets the verifier's rounding model (as the driver does).
      const auto c = check.check(run_variant<Space, T>(v, A, B), mmapp::product_rounding(v.math, std::is_same_v<T, double>));
      const auto verdict = verdict_of(c);
      INFO("worst resid/bound " << verdict.worst_ratio << " at row " << verdict.worst_row);
      CHECK(verdict.passed);
      g_margin.add_correct(c, what);
    }
  }
}

void print_margin() {
  const auto line = [](const char* what, const Margins::Min& m) {
    if (std::isfinite(m.value)) std::printf("verifier: %s %.3g (%s)\n", what, m.value, m.where.c_str());
  };
  line("smallest margin bound/residual of a correct result, probabilistic bound:", g_margin.probabilistic);
  line("smallest margin bound/residual of a correct result, deterministic bound:", g_margin.deterministic);
  line("smallest residual/bound of a caught fault (excluding NaN):", g_margin.fault);
  std::fflush(stdout);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("verifier: every injected fault fails, float and double, up to 4096", "[verify][faults]",
                        mmapp::EnabledSpaces) {
  const std::vector<Shape> shapes{{64, 64, 64}, {129, 257, 31}, {1000, 999, 1001}, {4096, 4096, 4096}};
  every_fault_fails<TestType, float>(shapes, all_faults);
  every_fault_fails<TestType, double>(shapes, all_faults);
  print_margin();
}

TEMPLATE_LIST_TEST_CASE("verifier: C = 0 and a wrong element fail at K = 4e6", "[verify][faults]",
                        mmapp::EnabledSpaces) {
  const std::vector<Shape> shapes{{16, 16, 4000000}};
  every_fault_fails<TestType, float>(shapes, {Fault::element, Fault::zero, Fault::half_k});
  every_fault_fails<TestType, double>(shapes, {Fault::element, Fault::zero, Fault::half_k});
  print_margin();
}

TEMPLATE_LIST_TEST_CASE("verifier: every kernel variant passes, 1x1x1 to 16x16x4e6", "[verify][kernels]",
                        mmapp::EnabledSpaces) {
  const std::vector<Shape> shapes{{1, 1, 1},       {3, 4, 5},          {129, 257, 31},    {1, 777, 300},
                                  {300, 1, 2000},  {200, 170, 5000},   {16, 16, 4000000}};
  every_variant_passes<TestType, float>(shapes);
  every_variant_passes<TestType, double>(shapes);
  print_margin();
}

namespace {
/// C = A B (m x K times K x n, row-major host views) as the float tensor-core
/// kernel computes it with the 3xTF32 split (kernels/gpu/tiled_gpu_mma.hpp,
/// the host emulation of test_mma_host.cpp): per k, dc += a_small b_big, dc
/// += a_big b_small (small parts scaled by 2^11), acc += a_big b_big, all in
/// FP32 (products of TF32 parts are exact there); C = acc + dc 2^-11.
template <class HostView>
void emulate_3xtf32(const HostView& A, const HostView& B, const HostView& C) {
  const auto part = [](std::uint32_t u) {
    float f;
    std::memcpy(&f, &u, sizeof f);
    return f;
  };
  for (long i = 0; i < long(C.extent(0)); ++i)
    for (long j = 0; j < long(C.extent(1)); ++j) {
      float acc = 0, dc = 0;
      for (long k = 0; k < long(A.extent(1)); ++k) {
        std::uint32_t ab, as, bb, bs;
        mmapp::detail::tf32_split(A(i, k), ab, as);
        mmapp::detail::tf32_split(B(k, j), bb, bs);
        dc += part(as) * part(bb);
        dc += part(ab) * part(bs);
        acc += part(ab) * part(bb);
      }
      C(i, j) = acc + dc * (1.0f / mmapp::detail::kTf32SmallScale);
    }
}
}  // namespace

TEST_CASE("verifier: 3xTF32 products need their math path's rounding model, K = 1 to 8", "[verify][mma]") {
  // At K = 1 the plain bound is gamma_1(u) = u |ab|, below the split's
  // product error (up to about 12 u): a correct 3xTF32 result fails it. With
  // the path's ProductRounding every K passes; the faults still fail under
  // it (every_fault_fails checks float with both models).
  using Host = Kokkos::DefaultHostExecutionSpace;
  const auto tf32x3 = mmapp::product_rounding(mmapp::MathPath::tf32x3, false);
  CHECK(tf32x3.error == std::ldexp(3.0, -22) + std::ldexp(1.0, -32) + std::ldexp(1.0, -43));
  CHECK(tf32x3.terms == 2);
  CHECK(mmapp::product_rounding(mmapp::MathPath::simt, false).error == 0);
  CHECK(mmapp::product_rounding(mmapp::MathPath::dmma, true).error == 0);
  CHECK(mmapp::product_rounding(mmapp::MathPath::vendor, false).error == 0);
  CHECK_THROWS_AS(mmapp::product_rounding(mmapp::MathPath::tf32x3, true), std::invalid_argument);
  const long m = 512;
  std::vector<long> plain_fails;
  for (const long n : {1L, 3L})
    for (long k = 1; k <= 8; ++k) {
      const std::uint64_t seed = 1000 + 10 * k + n;
      const auto A = random_matrix<Host, float>(m, k, 0, seed), B = random_matrix<Host, float>(k, n, 1, seed);
      mmapp::Matrix<float, Host> C("C", m, n);
      emulate_3xtf32(A, B, C);
      const mmapp::FreivaldsCheck<Host, float> check(Host{}, A, B, 0, mmapp::ExactCheck::none, 10.0, seed);
      INFO("3xTF32 emulated, " << m << "x" << n << "x" << k);
      const auto with_path = verdict_of(check.check(C, tf32x3));
      INFO("worst resid/bound with the path " << with_path.worst_ratio);
      CHECK(with_path.passed);
      if (!verdict_of(check.check(C)).passed) plain_fails.push_back(k);
      g_margin.add_correct(check.check(C, tf32x3), "3xtf32 emulated " + std::to_string(m) + "x" + std::to_string(n) +
                                                       "x" + std::to_string(k));
    }
  INFO("K failing the plain bound: " << plain_fails.size());
  REQUIRE_FALSE(plain_fails.empty());
  CHECK(std::count(plain_fails.begin(), plain_fails.end(), 1L) == 2);  // K = 1 fails at n = 1 and n = 3
  // A negative error or fewer than one term per product is refused.
  const auto A = random_matrix<Host, float>(4, 4, 0, 5), B = random_matrix<Host, float>(4, 4, 1, 5);
  const mmapp::FreivaldsCheck<Host, float> check(Host{}, A, B, 0, mmapp::ExactCheck::none, 10.0, 5);
  CHECK_THROWS_AS(check.check(A, {-1e-7, 1}), std::invalid_argument);
  CHECK_THROWS_AS(check.check(A, {0, 0.5}), std::invalid_argument);
}

TEMPLATE_LIST_TEST_CASE("verifier: every kernel variant passes on init wide (exponents over 2^-60..2^60)",
                        "[verify][kernels][init]", mmapp::EnabledSpaces) {
  // No multiple of any tile; K above every host KC (float 512, double 256)
  // and over several split-K slices.
  const std::vector<Shape> shapes{{1, 1, 1}, {3, 4, 5}, {129, 257, 31}, {1, 777, 300}, {300, 1, 2000},
                                  {70, 99, 1537}, {9, 40, 8229}};
  every_variant_passes<TestType, float>(shapes, mmapp::Init::wide);
  every_variant_passes<TestType, double>(shapes, mmapp::Init::wide);
  print_margin();
}

/// init wide's values: normal numbers of both signs whose binary exponents
/// cover exactly [WideExponents<T>::lo, hi], each a pure function of
/// (seed, matrix, i, j): rows generated at an offset equal the same rows of
/// the whole matrix, and another seed gives other values.
template <class T>
void check_wide_values() {
  constexpr int lo = mmapp::WideExponents<T>::lo, hi = mmapp::WideExponents<T>::hi;
  const long rows = 300, cols = 200;
  mmapp::HostMatrix<T> X("X", rows, cols), part("part", 100, cols), other("other", rows, cols);
  mmapp::fill_matrix<T>(X, 0, 0, mmapp::Init::wide, 11);
  mmapp::fill_matrix<T>(part, 0, 150, mmapp::Init::wide, 11);
  mmapp::fill_matrix<T>(other, 0, 0, mmapp::Init::wide, 12);
  std::vector<long> seen(hi - lo + 1, 0);
  long negative = 0, outside = 0, differ = 0, same_other = 0;
  double mean_exponent = 0;
  for (long i = 0; i < rows; ++i)
    for (long j = 0; j < cols; ++j) {
      const T x = X(i, j);
      int e = 0;
      const double m = std::frexp(double(x), &e);  // |m| in [0.5, 1): x = m 2^e, so x's exponent is e - 1
      if (!(std::isnormal(x) && std::fabs(m) >= 0.5 && e - 1 >= lo && e - 1 <= hi)) {
        ++outside;
        continue;
      }
      ++seen[e - 1 - lo];
      mean_exponent += e - 1;
      negative += x < 0;
      same_other += other(i, j) == x;
      if (i >= 150 && i < 250) differ += !(part(i - 150, j) == x);
    }
  INFO(dtype_name<T>());
  CHECK(outside == 0);
  CHECK(differ == 0);
  CHECK(same_other < 10);
  CHECK(std::count(seen.begin(), seen.end(), 0L) == 0);  // every exponent of the range occurs
  const double n = double(rows * cols);
  CHECK(std::fabs(negative / n - 0.5) < 0.02);
  CHECK(std::fabs(mean_exponent / n - 0.5 * (lo + hi)) < 1.0);
}

TEST_CASE("init wide: random signs, exponents over the whole range, the same for any row split",
          "[verify][init]") {
  check_wide_values<float>();
  check_wide_values<double>();
}

TEST_CASE("closed_form_c is the product of the closed-form A and B", "[verify][init]") {
  for (const long K : {1L, 2L, 3L, 4L, 5L, 10L, 101L}) {
    for (long i = 0; i < 7; ++i)
      for (long j = 0; j < 7; ++j) {
        long c = 0;
        for (long k = 0; k < K; ++k) c += mmapp::closed_form_f(i + k) * mmapp::closed_form_f(k + j + 1);
        INFO("i=" << i << " j=" << j << " K=" << K);
        CHECK(mmapp::closed_form_c(i, j, K) == c);
      }
  }
}

TEMPLATE_LIST_TEST_CASE("verifier: exact inits are checked exactly", "[verify][init]", mmapp::EnabledSpaces) {
  using Space = TestType;
  using T = float;
  const long m = 37, n = 41, k = 1000;
  SECTION("closed_form: every variant exact; one element off by one is caught") {
    const auto A = random_matrix<Space, T>(m, k, 0, 1, mmapp::Init::closed_form);
    const auto B = random_matrix<Space, T>(k, n, 1, 1, mmapp::Init::closed_form);
    const mmapp::FreivaldsCheck<Space, T> check(Space{}, A, B, 0, mmapp::ExactCheck::closed_form, 10.0, 5);
    for (const auto& v : mmapp::kernel_variants<Space, T>()) {
      INFO(v.name << " " << v.shape());
      const auto C = run_variant<Space, T>(v, A, B);
      const auto verdict = verdict_of(check.check(C));
      CHECK(verdict.passed);
      CHECK(verdict.inexact == 0);
      perturb<Space, T>(C, 3, 4, T(1), T(1));
      CHECK(verdict_of(check.check(C)).inexact == 1);
    }
  }
  SECTION("ones: C == k; identity: C == A") {
    const auto A1 = random_matrix<Space, T>(m, k, 0, 1, mmapp::Init::ones);
    const auto B1 = random_matrix<Space, T>(k, n, 1, 1, mmapp::Init::ones);
    const mmapp::FreivaldsCheck<Space, T> ones(Space{}, A1, B1, 0, mmapp::ExactCheck::ones, 10.0, 5);
    CHECK(verdict_of(ones.check(run_variant<Space, T>(vendor<Space, T>(), A1, B1))).passed);
    const auto A = random_matrix<Space, T>(m, n, 0, 1);
    const auto I = random_matrix<Space, T>(n, n, 1, 1, mmapp::Init::identity);
    const mmapp::FreivaldsCheck<Space, T> id(Space{}, A, I, 0, mmapp::ExactCheck::identity, 10.0, 5);
    const auto C = run_variant<Space, T>(vendor<Space, T>(), A, I);
    CHECK(verdict_of(id.check(C)).passed);
    // An error far below the Freivalds bound is still caught by the exact check.
    perturb<Space, T>(C, 0, 0, T(1) + std::numeric_limits<T>::epsilon(), T(0));
    const auto v = verdict_of(id.check(C));
    CHECK_FALSE(v.passed);
    CHECK(v.inexact == 1);
  }
}

TEST_CASE("verifier: the decision is reduced over all ranks", "[verify][mpi]") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mmapp::LocalCheck mine;
  mine.worst_row = 10 * rank;
  mine.worst_ratio = 0.01 * (rank + 1);
  mine.worst_residual = 1e-3, mine.worst_bound = 1;
  const bool last_fails = true;
  if (last_fails && rank == size - 1) {
    mine.worst_ratio = 7.5, mine.rows_failed = 1, mine.worst_residual = 7.5;
  }
  const auto v = mmapp::global_verdict(mine, MPI_COMM_WORLD);
  CHECK_FALSE(v.passed);  // every rank, although only the last rank's row fails
  CHECK(v.worst_ratio == 7.5);
  CHECK(v.worst_row == 10 * (size - 1));
  CHECK(v.rows_failed == 1);
  mmapp::LocalCheck fine;
  fine.worst_row = rank, fine.worst_ratio = 0.5;
  CHECK(mmapp::global_verdict(fine, MPI_COMM_WORLD).passed);
}

#ifdef MMAPP_TEST_HOST_BLAS
extern "C" void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*);

TEST_CASE("a BLAS call that the library rejects is an error with its message", "[verify][vendor]") {
  mmapp::throw_if_blas_rejected();  // nothing pending
  const int m = 4, n = 4, k = 4, bad_lda = 0;
  const float one = 1, zero = 0;
  std::vector<float> a(16, 1), b(16, 1), c(16, 0);
  sgemm_("N", "N", &m, &n, &k, &one, a.data(), &bad_lda, b.data(), &k, &zero, c.data(), &m);
  try {
    mmapp::throw_if_blas_rejected();
    FAIL("the rejected call went unnoticed");
  } catch (const mmapp::VendorError& e) {
    const std::string what = e.what();
    CHECK(what.find("SGEMM") != std::string::npos);
    CHECK(what.find("parameter 8") != std::string::npos);
  }
  CHECK_NOTHROW(mmapp::throw_if_blas_rejected());  // reported once
}
#endif
