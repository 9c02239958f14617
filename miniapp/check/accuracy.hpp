// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// accuracy.hpp — the measured accuracy of a GEMM result C = A B against an
// FP64 reference (verify.accuracy: true), elementwise:
//     e_ij = |C_ij - C64_ij| / D_ij,   C64 = A B and D = |A| |B| in double,
//     figure = max_i max_j e_ij, with the global row i where it occurs.
// Conventions: D_ij == 0 gives e_ij = 0 when C_ij == C64_ij exactly and +inf
// otherwise; a non-finite C_ij gives +inf.
// Why this normalisation: the componentwise bound of a computed product,
// |C - fl(AB)| <= gamma_K |A||B| with gamma_K = K u / (1 - K u) for any
// summation order (N. J. Higham, "Accuracy and Stability of Numerical
// Algorithms", 2nd ed., SIAM 2002, section 3.5, eq. 3.13), so e_ij is the
// error in units of its own worst-case scale; a correct SIMT kernel or FP32/
// FP64 vendor GEMM stays below gamma_K(u) (u = eps/2 of the element type),
// a 3xTF32 kernel below its math path's bound (verify.hpp), and real errors
// grow like sqrt(K) u. Unlike the Freivalds check (verify.hpp), this looks
// at every element of C, and it costs a GEMM's work (twice) in double.
// The reference: one thread per element of C (RangePolicy over |I| N, no
// teams, no scratch), a loop over k in double: the products a_ik b_kj
// (exact for float inputs) summed with Neumaier's compensated summation
// (A. Neumaier, "Rundungsfehleranalyse einiger Verfahren zur Summation
// endlicher Summen", ZAMM 54, 1974; Higham, section 4.3), so C64's own error
// is about u_d |A||B| for double inputs (their products' rounding) and
// 2 u_d |C64| + O(K u_d^2) |A||B| for float inputs: far below a float
// kernel's; for double inputs the figure is only meaningful above a few u_d.
// D = sum_k |a_ik| |b_kj| is plain double summation (relative error
// gamma_K(u_d), immaterial in a denominator). No BLAS, no kernel under test.
// Layout: this rank's rows I of A (|I| x K) and C (|I| x N), all of B (K x
// N): the row split (a 2-D process grid is refused by the deck parser:
// a rank's block of C needs rows of A and columns of B it does not hold).
// Memory: C64 and D, 2 |I| N doubles in Space's memory (bytes()).
// FLOP count: 4 |I| N K in double (plus the compensation), once per case.
#pragma once

#include "core/kokkos_compat.hpp"
#include "core/long_range.hpp"
#include "core/types.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <limits>

namespace mmapp {

/// The report's description of the figure (RunRecord::accuracy).
inline constexpr const char* kAccuracyReference = "fp64 elementwise |C - C64| / (|A||B|)";

/// The accuracy of one C: the worst e_ij (see the file comment) and the
/// global row of C where it occurs (the smallest such row; -1: no rows).
struct AccuracyFigure {
  double worst_error = 0;  ///< max over elements of e_ij; +inf for a non-finite or (where |A||B| = 0) inexact C_ij
  long worst_row = -1;     ///< global row of C of that maximum (the smallest row on ties)
};

/// The figure over every rank (collective on `comm`): the largest worst_error
/// (MPI_MAX) and the smallest global row with it (MPI_MIN over the ranks that
/// hold it); identical on every rank.
AccuracyFigure global_accuracy(const AccuracyFigure& mine, MPI_Comm comm);

/// e_ij of one element: c (C_ij, already converted to double), whether C_ij
/// was finite, c64 = C64_ij and d = D_ij (see the file comment). Never NaN.
KOKKOS_INLINE_FUNCTION double accuracy_element_error(double c, bool finite, double c64, double d) {
  const double inf = Kokkos::Experimental::infinity<double>::value;
  if (!finite) return inf;
  const double diff = compat::fabs(c - c64);
  if (d == 0) return diff == 0 ? 0.0 : inf;
  const double e = diff / d;
  return e >= 0 ? e : inf;  // a non-finite reference (overflow) is no agreement
}

/// The FP64 reference of this rank's rows of C = A B and the figure of any
/// C against it (see the file comment). A: this rank's rows of the global A
/// (|I| x K, row-major, Space's memory), B: the whole K x N matrix, row0: the
/// global row of A's first row. Construction computes C64 and D on `space`
/// (asynchronously; evaluate() and the accessors wait for it). Views A and B
/// are read during construction only.
template <class Space, class T>
class AccuracyReference {
 public:
  using DView = Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>;

  AccuracyReference(const Space& space, const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B, long row0)
      : space_(space), row0_(row0), rows_(long(A.extent(0))), cols_(long(B.extent(1))) {
    C64_ = DView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::accuracy_c64"), rows_, cols_);
    D_ = DView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::accuracy_abs"), rows_, cols_);
    compute(A, B);
  }

  /// Bytes the reference allocates in Space's memory for |I| rows and N columns.
  static double bytes(long rows, long cols) { return 2.0 * double(rows) * double(cols) * sizeof(double); }

  /// The figure of C (|I| x N, this rank's rows, Space's memory) on this
  /// rank; global_accuracy combines the ranks'. Two passes over C.
  AccuracyFigure evaluate(const ConstMatrix<T, Space>& C) const;

  /// C64 (|I| x N) and D = |A||B| (|I| x N), in Space's memory.
  const DView& product() const { return C64_; }
  const DView& magnitude() const { return D_; }

  // Public only because CUDA's extended lambdas cannot live in private member functions.
  void compute(const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B);

 private:
  Space space_;
  long row0_, rows_, cols_;
  DView C64_, D_;
};

template <class Space, class T>
void AccuracyReference<Space, T>::compute(const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B) {
  const long n = cols_, K = long(A.extent(1));
  const DView C64 = C64_, D = D_;
  if (rows_ == 0 || n == 0) return;
  parallel_for_long(
      "mmapp::accuracy_reference", space_, rows_ * n, KOKKOS_LAMBDA(const long e) {
        const long i = e / n, j = e % n;
        double s = 0, comp = 0, d = 0;
        for (long k = 0; k < K; ++k) {
          const double a = double(A(i, k)), b = double(B(k, j));
          const double p = a * b;
          const double t = s + p;  // Neumaier: the rounding error of s + p, exactly, into comp
          comp += compat::fabs(s) >= compat::fabs(p) ? (s - t) + p : (p - t) + s;
          s = t;
          d += compat::fabs(a) * compat::fabs(b);
        }
        C64(i, j) = s + comp;
        D(i, j) = d;
      });
}

template <class Space, class T>
AccuracyFigure AccuracyReference<Space, T>::evaluate(const ConstMatrix<T, Space>& C) const {
  AccuracyFigure out;
  const long n = cols_, total = rows_ * cols_;
  if (rows_ == 0) return out;
  if (n == 0) {
    out.worst_row = row0_;
    return out;
  }
  const DView C64 = C64_, D = D_;
  const auto error_at = KOKKOS_LAMBDA(const long e) {
    const long i = e / n, j = e % n;
    const T c = C(i, j);
    return accuracy_element_error(double(c), compat::isfinite(c), C64(i, j), D(i, j));
  };
  using policy_t = Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>;
  double worst = 0;
  Kokkos::parallel_reduce(
      "mmapp::accuracy_worst", policy_t(space_, 0, total),
      KOKKOS_LAMBDA(const long e, double& m) {
        const double x = error_at(e);
        if (x > m) m = x;
      },
      Kokkos::Max<double>(worst));
  // The smallest row holding it (a second pass, so ties resolve the same way every run).
  long first = total;
  Kokkos::parallel_reduce(
      "mmapp::accuracy_row", policy_t(space_, 0, total),
      KOKKOS_LAMBDA(const long e, long& m) {
        if (error_at(e) == worst && e < m) m = e;
      },
      Kokkos::Min<long>(first));
  out.worst_error = worst;
  out.worst_row = row0_ + (first < total ? first / n : 0);
  return out;
}

}  // namespace mmapp
