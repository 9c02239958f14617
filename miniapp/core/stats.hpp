// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// stats.hpp — summary statistics of raw timing samples (seconds), the noise
// criterion (coefficient of variation above a threshold) and the stopping
// rule of run.until_stable. Pure functions: no clock, no MPI.
#pragma once

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <vector>

namespace mmapp {

/// Running mean and variance by Welford's update (Welford 1962; Knuth, TAOCP
/// vol. 2, 4.2.2): numerically stable in one pass, so repetitions can be
/// added one at a time.
class RunningStats {
 public:
  /// Adds one sample.
  void add(double x) {
    ++n_;
    const double d = x - mean_;
    mean_ += d / double(n_);
    m2_ += d * (x - mean_);
  }
  long count() const { return n_; }
  double mean() const { return mean_; }
  /// Sample standard deviation (divisor n - 1, as Google Benchmark's
  /// `_stddev` aggregate); 0 for fewer than two samples.
  double stddev() const { return n_ < 2 ? 0.0 : std::sqrt(std::max(0.0, m2_ / double(n_ - 1))); }
  /// Coefficient of variation stddev / mean (a fraction: 0.05 is 5%); 0 for
  /// fewer than two samples or a mean of 0.
  double cv() const { return mean_ > 0 ? stddev() / mean_ : 0.0; }

 private:
  long n_ = 0;
  double mean_ = 0, m2_ = 0;
};

/// Summary of a set of samples, in seconds (cv is a fraction).
struct TimeStats {
  double min = 0, median = 0, max = 0;
  double mean = 0;    ///< arithmetic mean
  double stddev = 0;  ///< sample standard deviation (n - 1); 0 for one sample
  double cv = 0;      ///< stddev / mean; 0 for one sample
  long count = 0;     ///< number of samples
};

/// Summarises `samples` (seconds, at least one). The median of an even
/// count is the mean of the two middle samples; mean, stddev and cv as
/// RunningStats. Throws std::invalid_argument on an empty vector.
inline TimeStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  RunningStats rs;
  for (double x : samples) rs.add(x);
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  const double median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return {samples.front(), median, samples.back(), rs.mean(), rs.stddev(), rs.cv(), long(n)};
}

/// The noise criterion: a run is noisy when the coefficient of variation of
/// its samples is strictly above `threshold` (a fraction; deck key
/// run.noise_threshold, default 0.05). A run of fewer than two samples has
/// no measured spread and is never noisy.
inline bool is_noisy(const TimeStats& t, double threshold) {
  return t.count >= 2 && t.cv > threshold;
}

/// Where run.until_stable stands after a timed repetition.
enum class StableState {
  more,       ///< run another repetition
  converged,  ///< the CV is at most max_cv: stop
  timed_out,  ///< max_seconds spent without converging: stop
  capped,     ///< max_repetitions reached without converging: stop
};

/// The stopping rule of run.until_stable, after nvbench's noise criterion
/// (nvbench docs/benchmarks.md, "stdrel" stopping criterion: keep sampling
/// until the relative standard deviation falls under --max-noise, or a
/// timeout): given the samples so far (seconds) and the seconds spent in
/// timed repetitions (`elapsed_s`, wall clock since the first timed
/// repetition began, verification included),
///  - fewer than `min_repetitions` samples (the deck's repetitions): more;
///  - else CV (TimeStats::cv, at least two samples) <= max_cv: converged;
///  - else elapsed_s >= max_seconds: timed_out;
///  - else samples >= max_repetitions: capped;
///  - else more.
/// max_cv is a fraction. nvbench's extra rule (stop once the noise itself
/// stops falling) is not applied: a run that does not converge says so.
inline StableState until_stable_step(const std::vector<double>& samples, int min_repetitions, double max_cv,
                                     double max_seconds, long max_repetitions, double elapsed_s) {
  const long n = long(samples.size());
  if (n < min_repetitions) return StableState::more;
  if (n >= 2 && summarize(samples).cv <= max_cv) return StableState::converged;
  if (elapsed_s >= max_seconds) return StableState::timed_out;
  if (n >= max_repetitions) return StableState::capped;
  return StableState::more;
}

/// "more" / "converged" / "timed_out" / "capped".
inline const char* to_string(StableState s) {
  switch (s) {
    case StableState::more:
      return "more";
    case StableState::converged:
      return "converged";
    case StableState::timed_out:
      return "timed_out";
    case StableState::capped:
      return "capped";
  }
  return "?";
}

/// GFLOP/s of a GEMM of m x n x k taking `seconds`: 2*m*n*k / seconds / 1e9
/// (one multiply and one add per term of each dot product).
inline double gemm_gflops(long m, long n, long k, double seconds) {
  return seconds > 0 ? 2.0 * double(m) * double(n) * double(k) / seconds * 1e-9 : 0.0;
}

}  // namespace mmapp
