// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// verify.hpp — the independent check of C = A B: a randomized Freivalds test
// with a per-row rounding-error bound, evaluated in double precision by
// mmapp's own Kokkos loops (no BLAS, no kernel under test, no vendor result).
//
// Method (R. Freivalds, "Probabilistic machines can use less running time",
// IFIP Congress 1977; the checksum view of K.-H. Huang and J. A. Abraham,
// "Algorithm-based fault tolerance for matrix operations", IEEE Trans.
// Computers C-33(6), 1984): for kProbeVectors random vectors x with entries
// +-[1, 2),
//     r = C x - A (B x),           O(MK + KN + MN) per vector, all in double,
// and every row i must satisfy |r_i| <= bound_i. A wrong element c_ij moves
// r_i by (its error) * |x_j| >= its error; a whole wrong row, column or block
// moves the rows it touches by a sum with random signs, which cancels only
// with probability zero (the |x_j| are continuous).
//
// The bound for row i is the smaller of two rounding-error bounds, each
// covering the kernel's own rounding (precision T, unit roundoff u = eps/2)
// and the double-precision evaluation of the check (unit roundoff u_d):
//   deterministic (N. J. Higham, "Accuracy and Stability of Numerical
//     Algorithms", 2nd ed., SIAM 2002, eq. 3.4 and 3.13: |C - AB| <= gamma_K |A||B|
//     for any summation order, gamma_n = n u / (1 - n u)):
//       det_i = (gamma_K(u) + gamma_K(u_d) + gamma_N(u_d)) (|A| (|B| |x|))_i
//             + gamma_N(u_d) (|C| |x|)_i;
//     rigorous, but grows like K while real errors grow like sqrt(K).
//   probabilistic (N. J. Higham and T. Mary, "A new approach to probabilistic
//     rounding error analysis", SIAM J. Sci. Comput. 41(5), 2019, and "Sharper
//     probabilistic backward error analysis for basic linear algebra kernels
//     with random data", SIAM J. Sci. Comput. 42(5), 2020): rounding errors
//     are independent, mean zero and at most u in size, so the error of a sum
//     of n terms t_1..t_n is a sum of n such errors times partial sums, whose
//     squares add up to at most n (sum t^2 + (sum t)^2) for an order that does
//     not depend on the values (every GEMM kernel's). Summed over the row with
//     the weights x_j:
//       sigma_i^2 = (K+1) u^2 ((A.A)((B.B)(x.x)) + (C.C)(x.x))_i
//                 + u_d^2 [(N+1) ((C.C)(x.x) + w^2 + (A.A)((B.B)(x.x)) + (A.A)(y.y))
//                          + (K+1) ((A.A)(y.y) + z^2)]_i,
//     (y = Bx, z = Ay, w = Cx; X.X the elementwise square), and
//       prob_i = tau sigma_i + (tau^2 / 2 + 1) (K + N + 2) u^2 (|A| (|B| |x|))_i,
//     the second term the second-order part of Higham and Mary's
//     gamma~_n(lambda) = exp(lambda sqrt(n) u + n u^2 / (1 - u)) - 1.
//     tau (verify.tolerance, default 10) is a number of standard deviations:
//     a correct kernel's worst row over every shape, kernel and dtype tested
//     stays below 1/tau of it (docs/verification.md gives the measured margins).
// The (C.C)(x.x) term covers data whose partial sums grow linearly (nonzero
// mean); a wrong C inflates it only by u sqrt(K) times the error, far below
// the error itself.
//
// Math paths (ProductRounding; kernels/math_path.hpp): both bounds above
// assume every product a_ik b_kj exact before its rounding in T, true of
// SIMT FMAs, FP64 tensor cores and the vendor GEMM in FP32/FP64. 3xTF32
// (float on the TF32 tensor cores) sums instead a_big b_big + a_big b_small
// + a_small b_big of TF32 parts: each product carries a relative error up to
// e_p = 3 2^-22 + 2^-32 + 2^-43 (about 12 u, math_product_error; H. Ootomo
// and R. Yokota, arXiv:2203.03341; P. Blanchard, N. J. Higham, F. Lopez,
// T. Mary and S. Pranesh, SIAM J. Sci. Comput. 42(3), 2020), and its terms
// meet up to 2K additions (math_terms_per_product: `terms` = 2). With these
//   det_i  : gamma_K(u) -> gamma_{terms K}(u) + e_p (1 + gamma_{terms K}(u))
//            (the product errors perturb the summed terms by at most e_p |ab|);
//   sigma_i^2 : (K+1) -> (terms K + 1) (1 + e_p)^2, plus e_p^2 ((A.A)((B.B)(x.x))
//            + (A.A)(y.y))_i: the split errors are independent and of either
//            sign (round to nearest, ties away), one per element of A (da_ik,
//            weighted in row i by y_k: the (A.A)(y.y) term) and of B (db_kj,
//            weighted by a_ik x_j), their product terms a_small b_small
//            likewise, each of size at most 2^-22 |ab|, so 9 * 2^-44 >= their
//            variance factors; no e_p (|A||B||x|) term, which would grow
//            like K;
//   prob_i second-order term: (K + N + 2) u^2 -> (terms K + N + 2) u^2 + e_p^2.
// At K = 1 gamma_1(u) = u is below 3xTF32's product error, so without the
// path the check would fail correct 3xTF32 results (test_verify.cpp shows
// it on a host emulation of the split).
//
// Exact checks, in the same pass over C: init identity -> C == A bit for bit;
// ones -> C == K; closed_form -> C == closed_form_c(i, j, K) (init.hpp).
// A non-finite element (e.g. the NaN poison of an element a kernel never
// wrote) fails on its own. Each rank checks its own rows on its own execution
// space; the decision is reduced over all ranks (global_verdict).
//
// 2-D blocks (a p x q process grid, GridPlacement): rank (prow, pcol) holds
// A(I, Ka), B(Kb, J) and C(I, J) for ranges I of rows, J of columns and Ka,
// Kb of k (grid.hpp). The probe entries are keyed on the global column, so
// every rank generates x_J itself. Then
//   y = B x:   each rank sums its B(Kb, J) x_J into a full-length K vector
//              (zeros outside Kb); MPI_Allreduce over all P ranks completes it
//              (3 K doubles per probe vector: y, |B||x|, (B.B)(x.x));
//   z = A y:   each rank sums A(I, Ka) y_Ka; MPI_Allreduce along the process
//              row completes it (4 |I| doubles per vector, once per case);
//   w = C x:   each rank sums C(I, J) x_J; MPI_Allreduce along the process
//              row (3 |I| doubles per vector, plus the per-row counts of
//              non-finite and inexact elements); process column 0 then
//              evaluates the bound of every row of I and reports it.
// Nothing of size O(MN), O(MK) or O(KN) is allocated or moved.
// The bound accounts for the extra additions of these partial sums. A sum of
// n terms evaluated as any tree of additions satisfies |error| <= gamma_{n-1}
// sum |t| (Higham, Lemma 3.1 and eq. 3.5), and each term meets one more
// rounding per level of addition it goes through. The partial sums of y meet
// at most P - 1 more additions in the reduction over all ranks (the ranks
// outside the process row owning k contribute exact zeros, counted anyway),
// those of z and w at most q - 1 more along the process row. So in both bounds
// the double-precision evaluation's
//     N -> N_y = N + P (y),  N -> N_w = N + q (w),  K -> K_z = K + q (z),
// i.e. gamma_N(u_d) -> gamma_{N+P}(u_d) / gamma_{N+q}(u_d), gamma_K(u_d) ->
// gamma_{K+q}(u_d), and the variance factors (N+1) -> (N_y+1), (K+1) ->
// (K_z+1). The kernel's own rounding keeps gamma_K(u): SUMMA's C(i, j) =
// ((AB)_panel1 + (AB)_panel2) + ... is still one summation tree of the K
// products, each meeting at most K - 1 additions, in an order that does not
// depend on the values. The row split is the same check with one process
// column whose ranks each hold all of B: nothing is reduced over MPI, so it
// keeps the plain bound (N_y = N_w = N, K_z = K).
#pragma once

#include "deck/init.hpp"
#include "core/kokkos_compat.hpp"
#include "kernels/math_path.hpp"
#include "core/types.hpp"

#include <mpi.h>

#include <cstdint>
#include <limits>
#include <stdexcept>
#include <string>

namespace mmapp {

/// Number of random probe vectors per check (Freivalds' error probability for
/// an exact-arithmetic check is 2^-vectors with +-1 entries, and 0 with the
/// continuous magnitudes used here).
inline constexpr int kProbeVectors = 2;

/// Which exact expectation applies, besides the Freivalds test.
enum class ExactCheck { none, identity, ones, closed_form };

/// Short description of the verifier for reports ("freivalds x2, tau 10 + C == A").
std::string verifier_name(ExactCheck exact, double tau);

/// Fixed-size sums of doubles for nested team reductions (Kokkos::Sum).
template <int NQ>
struct Sums {
  double v[NQ];
  KOKKOS_INLINE_FUNCTION Sums() {
    for (int q = 0; q < NQ; ++q) v[q] = 0;
  }
  KOKKOS_INLINE_FUNCTION Sums& operator+=(const Sums& o) {
    for (int q = 0; q < NQ; ++q) v[q] += o.v[q];
    return *this;
  }
#if KOKKOS_VERSION < 40000
  // Kokkos 3.x joins reduction values through volatile references.
  KOKKOS_INLINE_FUNCTION void operator+=(const volatile Sums& o) volatile {
    for (int q = 0; q < NQ; ++q) v[q] += o.v[q];
  }
#endif
};

}  // namespace mmapp

namespace Kokkos {
template <int NQ>
struct reduction_identity<mmapp::Sums<NQ>> {
  KOKKOS_FORCEINLINE_FUNCTION static mmapp::Sums<NQ> sum() { return mmapp::Sums<NQ>(); }
};
}  // namespace Kokkos

namespace mmapp {

/// What one check of C found on this rank (its own rows).
struct LocalCheck {
  double worst_ratio = 0;     ///< max over rows and vectors of |r_i| / bound_i (inf: non-finite)
  long worst_row = -1;        ///< global row of that maximum (-1: no rows)
  double worst_residual = 0;  ///< |r_i| there
  double worst_bound = 0;     ///< bound_i there
  bool worst_probabilistic = false;  ///< whether that bound was the probabilistic one
  double relative_residual = 0;      ///< max_i |r_i| / (|A| (|B| |x|))_i
  long rows_failed = 0;       ///< rows with |r_i| > bound_i (or non-finite)
  long nonfinite = 0;         ///< NaN/Inf elements of C
  long inexact = 0;           ///< elements that differ from the exact expectation
};

/// The global outcome of one or more checks (identical on every rank).
struct Verdict {
  bool passed = false;
  double worst_ratio = 0, worst_residual = 0, worst_bound = 0, relative_residual = 0;
  long worst_row = -1, rows_failed = 0, nonfinite = 0, inexact = 0;
  bool worst_probabilistic = false;
};

/// Folds `b` into `a` (the worst of two local checks of the same rank).
void merge_checks(LocalCheck& a, const LocalCheck& b);

/// Reduces every rank's LocalCheck into the global Verdict (collective on
/// `comm`): worst ratio and its row, residual and bound from the rank that
/// owns it; counts summed. Passed iff no non-finite element, no exact-check
/// violation, and every row's residual within its bound.
Verdict global_verdict(const LocalCheck& mine, MPI_Comm comm);

/// Element (j) of probe vector v: +-[1, 2) from a counter-based hash of
/// (seed, v, j), so every rank generates the same vector for any split.
KOKKOS_INLINE_FUNCTION double probe_entry(std::uint64_t seed, int v, long j) {
  const std::uint64_t h = mix64(mix64(seed ^ (0xa0761d6478bd642fULL * std::uint64_t(v + 1))) ^ std::uint64_t(j));
  const double mag = 1.0 + double(h >> 11) * (1.0 / 9007199254740992.0);  // [1, 2)
  return (h & 1) ? -mag : mag;
}

/// gamma_n(u) = n u / (1 - n u) (Higham, eq. 3.8); 1e300 (no bound) when n u >= 1.
KOKKOS_INLINE_FUNCTION double gamma_n(double n, double u) { return n * u < 1 ? n * u / (1 - n * u) : 1e300; }

/// Where this rank's blocks of C = A B lie, for the verifier (see the method
/// comment). Indices are global; the local blocks are A (|I| x |Ka|), B (|Kb|
/// x |J|), C (|I| x |J|), row-major. A 2-D process grid fills every field; the
/// row split is the grid with one process column whose ranks hold all of B
/// (row_split(): no communicator, nothing reduced).
struct GridPlacement {
  long row0 = 0;   ///< first global row of A's and C's blocks (I)
  long col0 = 0;   ///< first global column of B's and C's blocks (J)
  long a_k0 = 0;   ///< first global column of A's block (Ka)
  long b_k0 = 0;   ///< first global row of B's block (Kb)
  long K = 0;      ///< global inner dimension
  long N = 0;      ///< global columns of B and C
  int p = 1, q = 1;                ///< the process grid
  MPI_Comm all = MPI_COMM_NULL;    ///< every rank of the grid (completes y = B x); null: B is whole here
  MPI_Comm row = MPI_COMM_NULL;    ///< this rank's process row (completes z = A y and w = C x); null: one column
  bool reports_rows = true;        ///< this rank evaluates and reports I's rows (process column 0)

  /// A row split's rows [row0, row0 + |I|) of an M x N x K product: A holds
  /// whole rows (Ka = [0, K)), B is the whole K x N matrix, nothing is reduced.
  static GridPlacement row_split(long row0, long K, long N) {
    GridPlacement w;
    w.row0 = row0, w.K = K, w.N = N;
    return w;
  }
  /// Whether the check reduces partial sums over MPI (a 2-D grid) or not (the row split).
  bool reduces() const { return all != MPI_COMM_NULL || row != MPI_COMM_NULL; }
};

/// The bound of one row (see the method comment) from its sums: w = (Cx)_i,
/// wabs = (|C||x|)_i, wsq = ((C.C)(x.x))_i, z = (Ay)_i, zabs = (|A||B||x|)_i,
/// zsq = ((A.A)(B.B)(x.x))_i, zy2 = ((A.A)(y.y))_i. K: the kernel's inner
/// dimension; Kz, Ny, Nw: the number of terms (plus extra additions) of the
/// double-precision sums z, y and w. Returns the bound; `probabilistic` says
/// which of the two bounds it is.
/// ep, terms: the kernel's math path (ProductRounding): the extra relative
/// error of each product and the summation terms per product (the kernel's
/// K becomes terms * K in both bounds); 0 and 1 for plain rounding.
KOKKOS_INLINE_FUNCTION double freivalds_row_bound(double w, double wabs, double wsq, double z, double zabs,
                                                  double zsq, double zy2, double K, double Kz, double Ny, double Nw,
                                                  double u, double ud, double tau, bool& probabilistic,
                                                  double ep = 0, double terms = 1) {
  const double Kt = terms * K, gk = gamma_n(Kt, u);
  const double det = (gk + ep * (1 + gk) + gamma_n(Kz, ud) + gamma_n(Ny, ud)) * zabs * (1 + 1e-12) + gamma_n(Nw, ud) * wabs;
  const double var = (Kt + 1) * u * u * (1 + ep) * (1 + ep) * (zsq + wsq) + ep * ep * (zsq + zy2) +
                     ud * ud * ((Ny + 1) * (wsq + w * w + zsq + zy2) + (Kz + 1) * (zy2 + z * z));
  const double pb = tau * compat::sqrt(var) + (tau * tau / 2 + 1) * ((Kt + Ny + 2) * u * u + ep * ep) * zabs;
  probabilistic = !(det < pb);
  return det < pb ? det : pb;
}

/// What a kernel's math path adds to the rounding model of the check (see
/// the method comment; kernels/math_path.hpp computes both numbers from a
/// path): `error`, the extra relative error e_p of every product a b before
/// the accumulation (|computed product - ab| <= e_p |ab|, independent and of
/// either sign between products); `terms`, the summation terms each product
/// becomes (the kernel's gamma_K(u) becomes gamma_{terms K}(u)). The default
/// is plain rounding of exact products (SIMT, DMMA, vendor in FP32/FP64).
struct ProductRounding {
  double error = 0;
  double terms = 1;
};

/// The ProductRounding of a math path for element type double (is_double)
/// or float (kernels/math_path.hpp).
inline ProductRounding product_rounding(MathPath path, bool is_double) {
  return {math_product_error(path, is_double), math_terms_per_product(path)};
}

/// Bytes the verifier allocates for its probes, products and per-row
/// results: in Space's memory (`device`) and, when it reduces partial sums
/// over MPI through host copies, in host memory (`host`).
struct VerifierBytes {
  double device = 0, host = 0;
};

/// The Freivalds check of C = A B for this rank's blocks (GridPlacement):
/// A (|I| x |Ka|), B (|Kb| x |J|) and C (|I| x |J|) in Space's memory. For
/// the row split (GridPlacement::row_split, or the row0 constructor) A holds
/// this rank's rows of the global A and B the whole K x N matrix. Construction
/// computes y = B x, |B||x|, (B.B)(x.x) and the per-row A products once
/// (O(|I| K + K |J|) per vector, MPI_Allreduce of K doubles x 3 NV over
/// where.all and |I| x 4 NV over where.row when they are communicators);
/// check(C) then costs O(|I| |J|) per vector (plus |I| x (3 NV + 2) doubles
/// reduced over where.row). All arithmetic in double on `space`. Collective
/// over the grid when it reduces; views must stay alive. Throws
/// std::invalid_argument when exact == identity and A's columns are not C's
/// (identity needs K == N, so the blocks coincide).
template <class Space, class T>
class FreivaldsCheck {
 public:
  static constexpr int NV = kProbeVectors;
  using DView = Kokkos::View<double**, Kokkos::LayoutRight, typename Space::memory_space>;

  FreivaldsCheck(const Space& space, const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B,
                 const GridPlacement& where, ExactCheck exact, double tau, std::uint64_t seed)
      : space_(space), A_(A), where_(where), M_(A.extent(0)), ncols_(B.extent(1)), exact_(exact), tau_(tau),
        seed_(seed) {
    if (exact == ExactCheck::identity && (where.a_k0 != where.col0 || long(A.extent(1)) != ncols_))
      throw std::invalid_argument("verifier: identity needs A's column block to be C's (k == n)");
    compute_probes(B);
    compute_rows();
  }

  /// The row split: A holds rows [row0, row0 + m) of the global A (m x K), B
  /// the whole K x N matrix (GridPlacement::row_split).
  FreivaldsCheck(const Space& space, const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B, long row0,
                 ExactCheck exact, double tau, std::uint64_t seed)
      : FreivaldsCheck(space, A, B, GridPlacement::row_split(row0, long(A.extent(1)), long(B.extent(1))), exact,
                       tau, seed) {}

  /// What a check of an |I| x |J| block with inner dimension k allocates
  /// (`reduces`: GridPlacement::reduces()).
  static VerifierBytes bytes(long rows, long cols, long k, bool reduces) {
    VerifierBytes b;
    b.device = double(NV * cols + 3 * NV * k + 4 * NV * rows + (3 * NV + 2) * rows + 8 * rows) * sizeof(double);
    if (reduces) b.host = double(3 * NV * k + 4 * NV * rows + (3 * NV + 2) * rows) * sizeof(double);
    return b;
  }

  /// Checks C's block (|I| x |J|) against this rank's A and the probes,
  /// collectively along the process row when the grid has one (only process
  /// column 0's LocalCheck then carries rows and counts). `rounding`: the
  /// kernel's math path (default: plain rounding in T); throws
  /// std::invalid_argument for a negative error or terms < 1.
  LocalCheck check(const ConstMatrix<T, Space>& C, const ProductRounding& rounding = {}) const;

  // Steps of the construction and the check; public only because CUDA's
  // extended lambdas cannot live in private member functions.
  void compute_probes(const ConstMatrix<T, Space>& B);
  void compute_rows();
  /// The LocalCheck of per-row results R (|I| x 8, see check).
  LocalCheck summarize_rows(const DView& R) const;

 private:
  Space space_;
  ConstMatrix<T, Space> A_;
  GridPlacement where_;
  long M_;      ///< local rows (|I|)
  long ncols_;  ///< local columns of B and C (|J|)
  ExactCheck exact_;
  double tau_;
  std::uint64_t seed_;
  DView X_;  ///< NV x |J| probe vectors (the local columns)
  DView Y_;  ///< 3 NV x K: per vector y = Bx, |B||x|, (B.B)(x.x)
  DView Z_;  ///< 4 NV x |I|: per vector z = Ay, |A| ybar, (A.A) ysq, (A.A)(y.y)
};

namespace detail {
/// Sums a device view of doubles over `comm` in place (through a host copy
/// when the view is not host-accessible). Collective; no-op for MPI_COMM_NULL.
template <class View>
void allreduce_sum(const View& v, MPI_Comm comm) {
  if (comm == MPI_COMM_NULL) return;
  auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), v);
  MPI_Allreduce(MPI_IN_PLACE, h.data(), int(h.span()), MPI_DOUBLE, MPI_SUM, comm);
  Kokkos::deep_copy(v, h);
}
/// For each row r in [0, rows): the sum over c in [0, cols) of
/// contrib(r, c, acc) (which adds to a Sums<NQ>), one team per row
/// (TeamThreadRange, Kokkos::Sum), then store(r, sums) once per team. The
/// verifier's three passes (B x, A y, C x) are this loop. Asynchronous.
template <int NQ, class Space, class Contrib, class Store>
void team_row_sums(const Space& space, const std::string& label, long rows, long cols, const Contrib& contrib,
                   const Store& store) {
  using policy_t = Kokkos::TeamPolicy<Space>;
  using member_t = typename policy_t::member_type;
  Kokkos::parallel_for(
      label, policy_t(space, rows, Kokkos::AUTO), KOKKOS_LAMBDA(const member_t& team) {
        const long r = team.league_rank();
        Sums<NQ> s;
        Kokkos::parallel_reduce(
            Kokkos::TeamThreadRange(team, cols), [&](const long c, Sums<NQ>& acc) { contrib(r, c, acc); },
            Kokkos::Sum<Sums<NQ>>(s));
        Kokkos::single(Kokkos::PerTeam(team), [&]() { store(r, s); });
      });
}
}  // namespace detail

template <class Space, class T>
LocalCheck FreivaldsCheck<Space, T>::summarize_rows(const DView& R) const {
  LocalCheck out;
  if (M_ == 0) return out;
  // Worst row, and the totals.
  using maxloc_t = Kokkos::MaxLoc<double, long>;
  typename maxloc_t::value_type worst;
  Kokkos::parallel_reduce(
      "mmapp::verify_worst", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space_, 0, M_),
      KOKKOS_LAMBDA(const long i, typename maxloc_t::value_type& acc) {
        if (R(i, 0) > acc.val) acc.val = R(i, 0), acc.loc = i;
      },
      maxloc_t(worst));
  double totals[4] = {0, 0, 0, 0};  // failed rows, nonfinite, inexact, max relative residual
  Kokkos::parallel_reduce(
      "mmapp::verify_totals", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space_, 0, M_),
      KOKKOS_LAMBDA(const long i, double& f, double& nf, double& ie) {
        f += R(i, 5);
        nf += R(i, 6);
        ie += R(i, 7);
      },
      totals[0], totals[1], totals[2]);
  Kokkos::parallel_reduce(
      "mmapp::verify_relres", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space_, 0, M_),
      KOKKOS_LAMBDA(const long i, double& m) {
        if (!(R(i, 4) <= m)) m = R(i, 4);
      },
      Kokkos::Max<double>(totals[3]));
  const auto row = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), Kokkos::subview(R, worst.loc, Kokkos::ALL));
  out.worst_ratio = row(0);
  out.worst_row = where_.row0 + worst.loc;
  out.worst_residual = row(1);
  out.worst_bound = row(2);
  out.worst_probabilistic = row(3) > 0;
  out.relative_residual = totals[3];
  out.rows_failed = long(totals[0]);
  out.nonfinite = long(totals[1]);
  out.inexact = long(totals[2]);
  return out;
}

template <class Space, class T>
void FreivaldsCheck<Space, T>::compute_probes(const ConstMatrix<T, Space>& B) {
  const long J = ncols_, K = where_.K, col0 = where_.col0, b_k0 = where_.b_k0;
  const long kb = B.extent(0);
  const std::uint64_t seed = seed_;
  X_ = DView(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::verify_x"), NV, J);
  Y_ = DView("mmapp::verify_y", 3 * NV, K);  // zeros outside this rank's Kb
  const DView X = X_, Y = Y_;
  if (J > 0)
    Kokkos::parallel_for(
        "mmapp::verify_probes", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space_, 0, NV * J),
        KOKKOS_LAMBDA(const long e) { X(e / J, e % J) = probe_entry(seed, int(e / J), col0 + e % J); });
  if (kb > 0 && J > 0)
    detail::team_row_sums<3 * NV>(
        space_, "mmapp::verify_b_products", kb, J,
        KOKKOS_LAMBDA(const long k, const long j, Sums<3 * NV>& acc) {
          const double b = double(B(k, j));
          for (int v = 0; v < NV; ++v) {
            const double x = X(v, j);
            acc.v[3 * v] += b * x;
            acc.v[3 * v + 1] += compat::fabs(b) * compat::fabs(x);
            acc.v[3 * v + 2] += (b * b) * (x * x);
          }
        },
        KOKKOS_LAMBDA(const long k, const Sums<3 * NV>& sums) {
          for (int q = 0; q < 3 * NV; ++q) Y(q, b_k0 + k) = sums.v[q];
        });
  Kokkos::fence();
  detail::allreduce_sum(Y_, where_.all);
}

template <class Space, class T>
void FreivaldsCheck<Space, T>::compute_rows() {
  const ConstMatrix<T, Space> A = A_;
  const long ka = A.extent(1), a_k0 = where_.a_k0;
  Z_ = DView("mmapp::verify_z", 4 * NV, M_);
  const DView Y = Y_, Z = Z_;
  if (M_ > 0 && ka > 0)
    detail::team_row_sums<4 * NV>(
        space_, "mmapp::verify_a_products", M_, ka,
        KOKKOS_LAMBDA(const long i, const long k, Sums<4 * NV>& acc) {
          const double a = double(A(i, k));
          for (int v = 0; v < NV; ++v) {
            const double y = Y(3 * v, a_k0 + k);
            acc.v[4 * v] += a * y;
            acc.v[4 * v + 1] += compat::fabs(a) * Y(3 * v + 1, a_k0 + k);
            acc.v[4 * v + 2] += (a * a) * Y(3 * v + 2, a_k0 + k);
            acc.v[4 * v + 3] += (a * a) * (y * y);
          }
        },
        KOKKOS_LAMBDA(const long i, const Sums<4 * NV>& sums) {
          for (int q = 0; q < 4 * NV; ++q) Z(q, i) = sums.v[q];
        });
  Kokkos::fence();
  detail::allreduce_sum(Z_, where_.row);
}

template <class Space, class T>
LocalCheck FreivaldsCheck<Space, T>::check(const ConstMatrix<T, Space>& C, const ProductRounding& rounding) const {
  if (!(rounding.error >= 0) || !(rounding.terms >= 1))
    throw std::invalid_argument("verifier: product rounding needs error >= 0 and terms >= 1");
  const long J = ncols_, K = where_.K, N = where_.N, row0 = where_.row0, col0 = where_.col0;
  const int exact = static_cast<int>(exact_);
  const ConstMatrix<T, Space> A = A_;
  const DView X = X_, Z = Z_;
  constexpr int NQ = 3 * NV + 2;
  // Per row, over this rank's columns: w, |C||x|, (C.C)(x.x) per vector, non-finite and inexact counts.
  DView S("mmapp::verify_c_partial", M_, NQ);
  if (M_ > 0 && J > 0)
    detail::team_row_sums<NQ>(
        space_, "mmapp::verify_c", M_, J,
        KOKKOS_LAMBDA(const long i, const long j, Sums<NQ>& acc) {
          const T cv = C(i, j);
          if (!compat::isfinite(cv)) {
            acc.v[3 * NV] += 1;
            return;
          }
          const double c = double(cv);
          for (int v = 0; v < NV; ++v) {
            const double x = X(v, j);
            acc.v[3 * v] += c * x;
            acc.v[3 * v + 1] += compat::fabs(c) * compat::fabs(x);
            acc.v[3 * v + 2] += (c * c) * (x * x);
          }
          bool ok = true;
          if (exact == int(ExactCheck::identity)) ok = cv == A(i, j);
          if (exact == int(ExactCheck::ones)) ok = cv == T(K);
          if (exact == int(ExactCheck::closed_form)) ok = cv == T(closed_form_c(row0 + i, col0 + j, K));
          if (!ok) acc.v[3 * NV + 1] += 1;
        },
        KOKKOS_LAMBDA(const long i, const Sums<NQ>& sums) {
          for (int q = 0; q < NQ; ++q) S(i, q) = sums.v[q];
        });
  Kokkos::fence();
  detail::allreduce_sum(S, where_.row);
  if (!where_.reports_rows || M_ == 0) return LocalCheck{};

  const double u = std::numeric_limits<T>::epsilon() / 2, ud = std::numeric_limits<double>::epsilon() / 2;
  const double tau = tau_, ep = rounding.error, terms = rounding.terms;
  const double inf = std::numeric_limits<double>::infinity();
  // The extra additions of the partial sums over MPI (see the method
  // comment); none without communicators (the row split).
  const long over_all = where_.all != MPI_COMM_NULL ? long(where_.p) * where_.q : 0;
  const long over_row = where_.row != MPI_COMM_NULL ? where_.q : 0;
  const double Ny = double(N + over_all), Nw = double(N + over_row), Kz = double(K + over_row);
  DView R(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::verify_rows"), M_, 8);
  Kokkos::parallel_for(
      "mmapp::verify_rows", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(space_, 0, M_),
      KOKKOS_LAMBDA(const long i) {
        double worst = 0, res = 0, bnd = 0, prob = 0, rel = 0;
        bool failed = S(i, 3 * NV) > 0;
        for (int v = 0; v < NV; ++v) {
          const double w = S(i, 3 * v), wabs = S(i, 3 * v + 1), wsq = S(i, 3 * v + 2);
          const double z = Z(4 * v, i), zabs = Z(4 * v + 1, i), zsq = Z(4 * v + 2, i), zy2 = Z(4 * v + 3, i);
          const double r = compat::fabs(w - z);
          bool is_prob = false;
          const double bound =
              freivalds_row_bound(w, wabs, wsq, z, zabs, zsq, zy2, double(K), Kz, Ny, Nw, u, ud, tau, is_prob, ep, terms);
          const double ratio = r <= bound ? (bound > 0 ? r / bound : 0.0) : (bound > 0 ? r / bound : inf);
          if (!(r <= bound)) failed = true;
          if (!(ratio <= worst)) worst = ratio, res = r, bnd = bound, prob = is_prob ? 1.0 : 0.0;
          const double rr = zabs > 0 ? r / zabs : (r > 0 ? inf : 0.0);
          if (!(rr <= rel)) rel = rr;
        }
        if (S(i, 3 * NV) > 0) worst = inf;
        R(i, 0) = worst, R(i, 1) = res, R(i, 2) = bnd, R(i, 3) = prob, R(i, 4) = rel;
        R(i, 5) = failed ? 1 : 0, R(i, 6) = S(i, 3 * NV), R(i, 7) = S(i, 3 * NV + 1);
      });
  return summarize_rows(R);
}

}  // namespace mmapp
