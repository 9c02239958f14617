// verify.cpp — implementation of verify.hpp (see there for the contracts).
#include "verify.hpp"

namespace mmapp {

Verdict global_verdict(const ErrorSums& local, double a_fro_sq_local, double b_fro_sq, long k, double eps,
                       double tolerance, MPI_Comm comm) {
  double sums[2] = {local.diff_sq, a_fro_sq_local};
  MPI_Allreduce(MPI_IN_PLACE, sums, 2, MPI_DOUBLE, MPI_SUM, comm);
  long counts[2] = {local.nonfinite, local.inexact};
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_LONG, MPI_SUM, comm);
  double max_abs = local.max_abs;
  MPI_Allreduce(MPI_IN_PLACE, &max_abs, 1, MPI_DOUBLE, MPI_MAX, comm);

  Verdict v;
  v.nonfinite = counts[0];
  v.inexact = counts[1];
  v.max_abs_error = max_abs;
  v.bound = tolerance * eps;
  const double denom = (std::sqrt(double(k)) + 2.0) * std::sqrt(sums[1]) * std::sqrt(b_fro_sq);
  v.rel_error = denom > 0 ? std::sqrt(sums[0]) / denom : std::sqrt(sums[0]);
  if (v.nonfinite > 0) v.rel_error = std::numeric_limits<double>::infinity();
  v.passed = v.nonfinite == 0 && v.inexact == 0 && v.rel_error <= v.bound;
  return v;
}

}  // namespace mmapp
