// Every kernel variant compiled for every enabled execution space, float and
// double, against an independent reference: a plain triple loop on the host
// in double precision (no Kokkos Kernels), on shapes that are not multiples
// of any tile. Pass criterion, per element (Higham, "Accuracy and Stability
// of Numerical Algorithms", 2nd ed., eq. 3.13, with a factor 2 of slack):
//     |C - Cref|_ij <= 2 * gamma_K * (|A| |B|)_ij,  gamma_K = K u / (1 - K u)
// Also: B = I gives C == A bit for bit; a kernel that skips an element is
// caught by the NaN poison and the verifier.
#include "init.hpp"
#include "kernel_registry.hpp"
#include "exec_spaces.hpp"
#include "verify.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>
#include <vector>

namespace {

struct Shape {
  long m, n, k;
};
// The shapes, read as m x n x k, plus the seeds' 3x4 times 4x5 (m=3, k=4, n=5).
const std::vector<Shape> shapes{{1, 1, 1}, {3, 4, 5}, {3, 5, 4}, {17, 33, 65}, {100, 1, 100}, {129, 257, 31}};

template <class T>
mmapp::HostMatrix<T> random_host(long rows, long cols, int which, std::uint64_t seed) {
  mmapp::HostMatrix<T> X("X", rows, cols);
  mmapp::fill_matrix<T>(X, which, 0, mmapp::Init::random, seed);
  return X;
}

template <class Space, class T>
mmapp::Matrix<T, Space> to_device(const mmapp::HostMatrix<T>& h) {
  mmapp::Matrix<T, Space> d("d", h.extent(0), h.extent(1));
  Kokkos::deep_copy(d, h);
  return d;
}

template <class Space, class T>
mmapp::HostMatrix<T> run_poisoned(const mmapp::GemmFn<Space, T>& fn, const mmapp::Matrix<T, Space>& A,
                                  const mmapp::Matrix<T, Space>& B, long m, long n) {
  mmapp::Matrix<T, Space> C("C", m, n);
  Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
  fn(Space{}, A, B, C);
  Kokkos::fence();
  mmapp::HostMatrix<T> h("h", m, n);
  Kokkos::deep_copy(h, C);
  return h;
}

template <class Space, class T>
void check_against_host_reference() {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  std::uint64_t seed = 2024;
  for (const auto& s : shapes) {
    const auto hA = random_host<T>(s.m, s.k, 0, seed), hB = random_host<T>(s.k, s.n, 1, seed);
    ++seed;
    const auto A = to_device<Space, T>(hA), B = to_device<Space, T>(hB);
    const double gamma = s.k * u / (1 - s.k * u);
    for (const auto& v : mmapp::kernel_variants<Space, T>()) {
      INFO(Space::name() << " " << v.name << " " << v.shape() << " " << (sizeof(T) == 4 ? "float" : "double")
                         << " m=" << s.m << " n=" << s.n << " k=" << s.k);
      const auto C = run_poisoned<Space, T>(v.run, A, B, s.m, s.n);
      long bad = 0;
      double worst = 0;
      for (long i = 0; i < s.m; ++i)
        for (long j = 0; j < s.n; ++j) {
          double ref = 0, mag = 0;
          for (long p = 0; p < s.k; ++p) {
            ref += double(hA(i, p)) * double(hB(p, j));
            mag += std::fabs(double(hA(i, p)) * double(hB(p, j)));
          }
          const double err = std::fabs(double(C(i, j)) - ref);
          if (!(err <= 2 * gamma * mag + std::numeric_limits<double>::min())) ++bad;  // NaN counts as bad
          if (mag > 0) worst = std::max(worst, err / mag);
        }
      INFO("worst |C - ref| / (|A||B|) = " << worst << ", bound " << 2 * gamma);
      CHECK(bad == 0);
    }
  }
}

template <class Space, class T>
void check_identity_exact() {
  const long m = 37, n = 41;  // k = n
  const auto hA = random_host<T>(m, n, 0, 7);
  mmapp::HostMatrix<T> hI("I", n, n);
  mmapp::fill_matrix<T>(hI, 1, 0, mmapp::Init::identity, 7);
  const auto A = to_device<Space, T>(hA), I = to_device<Space, T>(hI);
  for (const auto& v : mmapp::kernel_variants<Space, T>()) {
    INFO(Space::name() << " " << v.name << " " << v.shape());
    const auto C = run_poisoned<Space, T>(v.run, A, I, m, n);
    long differ = 0;
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) differ += !(C(i, j) == hA(i, j));
    CHECK(differ == 0);
  }
}

/// A deliberately broken kernel: the naive GEMM that never writes C(m-1, n-1).
template <class Space, class T>
void gemm_skips_last(const Space& space, const mmapp::ConstMatrix<T, Space>& A, const mmapp::ConstMatrix<T, Space>& B,
                     const mmapp::Matrix<T, Space>& C) {
  const long M = C.extent(0), N = C.extent(1), K = A.extent(1);
  Kokkos::parallel_for(
      "mmapp::test_gemm_skips_last", Kokkos::RangePolicy<Space>(space, 0, M * N), KOKKOS_LAMBDA(const long idx) {
        if (idx == M * N - 1) return;
        T sum = 0;
        for (long p = 0; p < K; ++p) sum += A(idx / N, p) * B(p, idx % N);
        C(idx / N, idx % N) = sum;
      });
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("every kernel matches an independent host reference (float)", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_against_host_reference<TestType, float>();
}

TEMPLATE_LIST_TEST_CASE("every kernel matches an independent host reference (double)", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_against_host_reference<TestType, double>();
}

TEMPLATE_LIST_TEST_CASE("with B = I every kernel returns A bit for bit", "[kernels]", mmapp::EnabledSpaces) {
  check_identity_exact<TestType, float>();
  check_identity_exact<TestType, double>();
}

TEMPLATE_LIST_TEST_CASE("the NaN poison and the verifier catch a skipped element", "[kernels][verify]",
                        mmapp::EnabledSpaces) {
  using Space = TestType;
  using T = float;
  const long m = 19, n = 23, k = 29;
  const auto A = to_device<Space, T>(random_host<T>(m, k, 0, 11)), B = to_device<Space, T>(random_host<T>(k, n, 1, 11));
  mmapp::Matrix<T, Space> C("C", m, n), Cref("Cref", m, n);
  mmapp::gemm_naive<Space, T>(Space{}, A, B, Cref);
  const double a2 = mmapp::frobenius_sq<Space, T>(Space{}, A), b2 = mmapp::frobenius_sq<Space, T>(Space{}, B);
  const double eps = std::numeric_limits<T>::epsilon();

  SECTION("a correct kernel passes") {
    Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
    for (const auto& v : mmapp::kernel_variants<Space, T>())
      if (v.name == "tiled") {  // the backend's default tiled shape
        v.run(Space{}, A, B, C);
        break;
      }
    const auto sums = mmapp::error_sums<Space, T>(Space{}, C, Cref, A, 0, T(0));
    const auto v = mmapp::global_verdict(sums, a2, b2, k, eps, 3.0, MPI_COMM_SELF);
    CHECK(v.passed);
    CHECK(v.nonfinite == 0);
  }
  SECTION("a kernel that skips one element fails with one non-finite element") {
    Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
    gemm_skips_last<Space, T>(Space{}, A, B, C);
    const auto sums = mmapp::error_sums<Space, T>(Space{}, C, Cref, A, 0, T(0));
    const auto v = mmapp::global_verdict(sums, a2, b2, k, eps, 3.0, MPI_COMM_SELF);
    CHECK_FALSE(v.passed);
    CHECK(v.nonfinite == 1);
  }
  SECTION("a wrong value fails the norm-wise bound") {
    Kokkos::deep_copy(C, Cref);
    auto one = Kokkos::subview(C, 3, 5);
    Kokkos::deep_copy(one, T(1000));
    const auto sums = mmapp::error_sums<Space, T>(Space{}, C, Cref, A, 0, T(0));
    const auto v = mmapp::global_verdict(sums, a2, b2, k, eps, 3.0, MPI_COMM_SELF);
    CHECK_FALSE(v.passed);
    CHECK(v.rel_error > v.bound);
  }
}
