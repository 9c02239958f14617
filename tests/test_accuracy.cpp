// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The FP64 reference of verify.accuracy (check/accuracy.hpp) against an
// independent host computation, on every enabled execution space, at a
// shape that is a multiple of nothing (37 x 53 x 29), float and double:
//  - C64 = A B and D = |A||B| agree with long double loops on the host;
//  - e of a C equal to C64 rounded to T, with one element moved by a known
//    relative amount (of |A||B| there), is exactly the hand computation's
//    maximum of |C - C64| / D, at that element's global row;
//  - D_ij == 0 (a zero row of A, a zero column of B): e = 0 for an exact
//    C_ij (0 or -0), +inf for anything else; a NaN or Inf in C: +inf, the
//    smallest such row reported;
//  - the figure over ranks: the largest error and its row on every rank.
#include "check/accuracy.hpp"
#include "core/exec_spaces.hpp"
#include "deck/init.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>
#include <type_traits>
#include <vector>

namespace {

constexpr long kM = 37, kN = 53, kK = 29;
constexpr long kRow0 = 100;  // the rank's first global row

template <class T>
struct Problem {
  mmapp::HostMatrix<T> A, B;
  std::vector<long double> c, d;  // the host reference, M x N row-major
};

/// A (M x K) and B (K x N) from the app's generator (random signs and
/// magnitudes), with `zero_row` of A and `zero_col` of B set to zero when >= 0;
/// the long double host product and |A||B|.
template <class T>
Problem<T> make_problem(long zero_row = -1, long zero_col = -1) {
  Problem<T> p;
  p.A = mmapp::HostMatrix<T>("A", kM, kK);
  p.B = mmapp::HostMatrix<T>("B", kK, kN);
  mmapp::fill_matrix<T>(p.A, 0, kRow0, mmapp::Init::random, 2026);
  mmapp::fill_matrix<T>(p.B, 1, 0, mmapp::Init::random, 2026);
  for (long k = 0; k < kK; ++k) {
    if (zero_row >= 0) p.A(zero_row, k) = T(0);
    if (zero_col >= 0) p.B(k, zero_col) = T(0);
  }
  p.c.assign(kM * kN, 0.0L);
  p.d.assign(kM * kN, 0.0L);
  for (long i = 0; i < kM; ++i)
    for (long j = 0; j < kN; ++j)
      for (long k = 0; k < kK; ++k) {
        const long double a = p.A(i, k), b = p.B(k, j);
        p.c[i * kN + j] += a * b;
        p.d[i * kN + j] += std::fabs(a) * std::fabs(b);
      }
  return p;
}

/// h in Space's memory (h itself where that is host memory).
template <class Space, class T>
mmapp::ConstMatrix<T, Space> on_space(const mmapp::HostMatrix<T>& h) {
  return Kokkos::create_mirror_view_and_copy(typename Space::memory_space(), h);
}

/// The hand computation of the figure: max over elements of e_ij (the
/// file comment of accuracy.hpp), its smallest global row.
template <class T>
mmapp::AccuracyFigure by_hand(const mmapp::HostMatrix<T>& C, const mmapp::HostMatrix<double>& c64,
                              const mmapp::HostMatrix<double>& d) {
  const double inf = std::numeric_limits<double>::infinity();
  mmapp::AccuracyFigure f;
  f.worst_row = kRow0;
  for (long i = 0; i < kM; ++i)
    for (long j = 0; j < kN; ++j) {
      double e;
      if (!std::isfinite(C(i, j))) e = inf;
      else if (d(i, j) == 0) e = double(C(i, j)) == c64(i, j) ? 0.0 : inf;
      else e = std::fabs(double(C(i, j)) - c64(i, j)) / d(i, j);
      if (e > f.worst_error) f.worst_error = e, f.worst_row = kRow0 + i;
    }
  return f;
}

template <class Space, class T>
struct Reference {
  mmapp::AccuracyReference<Space, T> ref;
  mmapp::HostMatrix<double> c64, d;
  explicit Reference(const Problem<T>& p)
      : ref(Space{}, on_space<Space, T>(p.A), on_space<Space, T>(p.B), kRow0),
        c64(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.product())),
        d(Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), ref.magnitude())) {}
  /// The figure of a host C, evaluated on Space.
  mmapp::AccuracyFigure of(const mmapp::HostMatrix<T>& C) const {
    return ref.evaluate(on_space<Space, T>(C));
  }
  /// C64 rounded to T.
  mmapp::HostMatrix<T> rounded() const {
    mmapp::HostMatrix<T> C("C", kM, kN);
    for (long i = 0; i < kM; ++i)
      for (long j = 0; j < kN; ++j) C(i, j) = T(c64(i, j));
    return C;
  }
};

}  // namespace

TEMPLATE_LIST_TEST_CASE("accuracy: the FP64 reference matches a long double host product, 37x53x29",
                        "[accuracy]", mmapp::EnabledSpaces) {
  using Space = TestType;
  const auto run = [](auto zero) {
    using T = decltype(zero);
    const Problem<T> p = make_problem<T>();
    const Reference<Space, T> r(p);
    const double ud = std::numeric_limits<double>::epsilon() / 2;
    for (long i = 0; i < kM; ++i)
      for (long j = 0; j < kN; ++j) {
        const long double c = p.c[i * kN + j], d = p.d[i * kN + j];
        REQUIRE(d > 0);
        // Compensated sum: about u_d |A||B| (double products' rounding) + 2 u_d |C| (the sum's).
        CHECK(std::fabs(r.c64(i, j) - c) <= 4 * ud * d);
        CHECK(std::fabs(r.d(i, j) - d) <= 2 * kK * ud * d);
      }
  };
  run(float{});
  run(double{});
}

TEMPLATE_LIST_TEST_CASE("accuracy: one element off by a known relative amount gives that error at its row",
                        "[accuracy]", mmapp::EnabledSpaces) {
  using Space = TestType;
  const auto run = [](auto zero, double delta) {
    using T = decltype(zero);
    const Reference<Space, T> r(make_problem<T>());
    mmapp::HostMatrix<T> C = r.rounded();
    const mmapp::AccuracyFigure exact = r.of(C);
    // C64 rounded to T: at most u(T) |C64| / D <= u(T) everywhere (0 in double).
    CHECK(exact.worst_error <= std::numeric_limits<T>::epsilon() / 2 * (1 + 1e-12));
    if (std::is_same_v<T, double>) CHECK(exact.worst_error == 0);
    const long i = 23, j = 41;
    C(i, j) = T(r.c64(i, j) + delta * r.d(i, j));
    const mmapp::AccuracyFigure f = r.of(C), hand = by_hand(C, r.c64, r.d);
    CHECK(f.worst_error == hand.worst_error);  // the same IEEE operations: bit for bit
    CHECK(f.worst_row == kRow0 + i);
    CHECK(hand.worst_row == kRow0 + i);
    CHECK(std::fabs(f.worst_error - delta) <= 1e-3 * delta);  // the perturbation, up to C's rounding to T
  };
  run(float{}, 1e-3);
  run(double{}, 1e-9);
  run(double{}, 0.5);
}

TEMPLATE_LIST_TEST_CASE("accuracy: |A||B| == 0 gives 0 for an exact C and inf otherwise; NaN and Inf give inf",
                        "[accuracy]", mmapp::EnabledSpaces) {
  using Space = TestType;
  const double inf = std::numeric_limits<double>::infinity();
  const auto run = [&](auto zero) {
    using T = decltype(zero);
    const long zrow = 5, zcol = 7;
    const Problem<T> p = make_problem<T>(zrow, zcol);
    const Reference<Space, T> r(p);
    for (long j = 0; j < kN; ++j) REQUIRE(r.d(zrow, j) == 0);
    for (long i = 0; i < kM; ++i) REQUIRE(r.d(i, zcol) == 0);
    mmapp::HostMatrix<T> C = r.rounded();
    C(zrow, 3) = T(-0.0);  // -0 == 0: exact
    const mmapp::AccuracyFigure clean = r.of(C);
    CHECK(clean.worst_error == by_hand(C, r.c64, r.d).worst_error);
    CHECK(std::isfinite(clean.worst_error));
    C(30, zcol) = T(1e-30);  // not zero where |A||B| is: inf
    mmapp::AccuracyFigure f = r.of(C);
    CHECK(f.worst_error == inf);
    CHECK(f.worst_row == kRow0 + 30);
    C(12, 0) = std::numeric_limits<T>::quiet_NaN();  // a smaller row: the one reported
    f = r.of(C);
    CHECK(f.worst_error == inf);
    CHECK(f.worst_row == kRow0 + 12);
    C = r.rounded();
    C(33, 50) = std::numeric_limits<T>::infinity();
    f = r.of(C);
    CHECK(f.worst_error == inf);
    CHECK(f.worst_row == kRow0 + 33);
    C(33, 50) = std::numeric_limits<T>::quiet_NaN();
    f = r.of(C);
    CHECK(f.worst_error == inf);
    CHECK(f.worst_row == kRow0 + 33);
  };
  run(float{});
  run(double{});
}

TEST_CASE("accuracy: the figure is the worst over all ranks, with its row", "[accuracy][mpi]") {
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  mmapp::AccuracyFigure mine{0.001 * (rank + 1), 10L * rank + 3};
  if (rank == size - 1) mine.worst_error = 7.5;
  mmapp::AccuracyFigure all = mmapp::global_accuracy(mine, MPI_COMM_WORLD);
  CHECK(all.worst_error == 7.5);
  CHECK(all.worst_row == 10L * (size - 1) + 3);
  // A tie: the smallest row; a rank with no rows takes no part.
  mine = {2.0, 10L * rank + 3};
  if (rank == 0) mine = {};  // no rows (worst_row -1)
  all = mmapp::global_accuracy(mine, MPI_COMM_WORLD);
  if (size == 1) {
    CHECK(all.worst_error == 0);
    CHECK(all.worst_row == -1);
  } else {
    CHECK(all.worst_error == 2.0);
    CHECK(all.worst_row == 13);
  }
  mine = {std::numeric_limits<double>::infinity(), 10L * rank + 3};
  all = mmapp::global_accuracy(mine, MPI_COMM_WORLD);
  CHECK(all.worst_error == std::numeric_limits<double>::infinity());
  CHECK(all.worst_row == 3);
}
