// verify.hpp — correctness of C, separate from timing.
//
// Norm-wise check against a reference Cref computed on the same execution
// space (the vendor GEMM), as SLATE's gemm tester does (test/test_gemm.cc,
// ICL SLATE; after Higham, "Accuracy and Stability of Numerical Algorithms",
// 2nd ed., section 3.5):
//     error = ||C - Cref||_F / ((sqrt(K) + 2) * ||A||_F * ||B||_F)
//     pass  : error <= tolerance * eps(T)   (tolerance 3 by default)
// The Frobenius norms are summed over all ranks' rows (A, C) so every rank
// computes the same global error. A non-finite element of C (e.g. the NaN
// poison left by a kernel that skipped an element) fails on its own.
// Exact checks: init identity -> C == A bit for bit; init ones -> C == K.
#pragma once

#include "types.hpp"

#include <mpi.h>

#include <cmath>
#include <limits>

namespace mmapp {

/// Local (this rank's) sums for the norm-wise check.
struct ErrorSums {
  double diff_sq = 0;    ///< sum over local elements of (C - Cref)^2
  double max_abs = 0;    ///< max |C - Cref|
  long nonfinite = 0;    ///< elements of C that are NaN or Inf
  long inexact = 0;      ///< elements differing from the exact expectation (identity/ones)
};

/// Global outcome of a check (identical on every rank).
struct Verdict {
  bool passed = false;
  double rel_error = 0;      ///< SLATE's normalised error (see file comment)
  double max_abs_error = 0;  ///< max over all elements of |C - Cref|
  long nonfinite = 0;        ///< NaN/Inf elements in C over all ranks
  long inexact = 0;          ///< elements violating the exact check, over all ranks
  double bound = 0;          ///< tolerance * eps
};

/// Squared Frobenius norm of X (local rows), computed on X's execution space.
template <class Space, class T>
double frobenius_sq(const Space& space, const ConstMatrix<T, Space>& X) {
  double s = 0;
  const long cols = X.extent(1);
  Kokkos::parallel_reduce(
      "mmapp::frobenius", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space, 0, long(X.size())),
      KOKKOS_LAMBDA(const long e, double& acc) {
        const double x = X(e / cols, e % cols);
        acc += x * x;
      },
      s);
  return s;
}

/// Local error sums of C against Cref and, for exact inits, against the
/// exact value: `exact_a` (identity: C must equal the local rows of A) or
/// `exact_value` (ones: every element must equal K); pass exact_mode 0 for
/// none, 1 for identity, 2 for ones.
template <class Space, class T>
ErrorSums error_sums(const Space& space, const ConstMatrix<T, Space>& C, const ConstMatrix<T, Space>& Cref,
                     const ConstMatrix<T, Space>& A, int exact_mode, T exact_value) {
  ErrorSums out;
  const long cols = C.extent(1);
  const long n = long(C.size());
  Kokkos::parallel_reduce(
      "mmapp::verify_sum", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space, 0, n),
      KOKKOS_LAMBDA(const long e, double& dsq, long& bad, long& inexact) {
        const long i = e / cols, j = e % cols;
        const T c = C(i, j);
        if (!Kokkos::Experimental::isfinite(c)) {
          ++bad;
          return;
        }
        const double d = double(c) - double(Cref(i, j));
        dsq += d * d;
        if (exact_mode == 1 && c != A(i, j)) ++inexact;
        if (exact_mode == 2 && c != exact_value) ++inexact;
      },
      out.diff_sq, out.nonfinite, out.inexact);
  Kokkos::parallel_reduce(
      "mmapp::verify_max", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space, 0, n),
      KOKKOS_LAMBDA(const long e, double& m) {
        const double d = Kokkos::Experimental::fabs(double(C(e / cols, e % cols)) - double(Cref(e / cols, e % cols)));
        if (d > m) m = d;  // NaN compares false: counted in nonfinite instead
      },
      Kokkos::Max<double>(out.max_abs));
  return out;
}

/// Combines every rank's sums into the global verdict (collective on comm).
/// a_fro_sq: local ||A||^2 (rows of this rank); b_fro_sq: ||B||^2 (replicated).
Verdict global_verdict(const ErrorSums& local, double a_fro_sq_local, double b_fro_sq, long k, double eps,
                       double tolerance, MPI_Comm comm);

}  // namespace mmapp
