// stats.hpp — summary statistics of raw timing samples (seconds).
#pragma once

#include <algorithm>
#include <stdexcept>
#include <vector>

namespace mmapp {

/// Minimum, median and maximum of a set of samples, in seconds.
struct TimeStats {
  double min = 0, median = 0, max = 0;
};

/// Summarises `samples` (seconds, at least one). The median of an even
/// count is the mean of the two middle samples. Throws std::invalid_argument
/// on an empty vector.
inline TimeStats summarize(std::vector<double> samples) {
  if (samples.empty()) throw std::invalid_argument("summarize: no samples");
  std::sort(samples.begin(), samples.end());
  const size_t n = samples.size();
  const double median = n % 2 ? samples[n / 2] : 0.5 * (samples[n / 2 - 1] + samples[n / 2]);
  return {samples.front(), median, samples.back()};
}

/// GFLOP/s of a GEMM of m x n x k taking `seconds`: 2*m*n*k / seconds / 1e9
/// (one multiply and one add per term of each dot product).
inline double gemm_gflops(long m, long n, long k, double seconds) {
  return seconds > 0 ? 2.0 * double(m) * double(n) * double(k) / seconds * 1e-9 : 0.0;
}

}  // namespace mmapp
