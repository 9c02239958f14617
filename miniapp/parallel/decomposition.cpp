// decomposition.cpp — implementation of decomposition.hpp (see there for the contracts).
#include "parallel/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <stdexcept>
#include <string>

namespace mmapp {

std::vector<long> split_by_weights(long m, const std::vector<double>& weights) {
  if (weights.empty()) throw std::invalid_argument("decomposition: no weights");
  double total = 0;
  for (double w : weights) {
    if (!(w > 0) || !std::isfinite(w))
      throw std::invalid_argument("decomposition: weights must be positive and finite, got " +
                                  std::to_string(w));
    total += w;
  }
  const size_t n = weights.size();
  std::vector<long> rows(n);
  std::vector<double> remainder(n);
  long assigned = 0;
  for (size_t r = 0; r < n; ++r) {
    const double exact = double(m) * weights[r] / total;
    rows[r] = static_cast<long>(std::floor(exact));
    remainder[r] = exact - double(rows[r]);
    assigned += rows[r];
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return remainder[a] > remainder[b]; });
  for (size_t i = 0; assigned < m; ++i, ++assigned) ++rows[order[i % n]];
  return rows;
}

std::vector<long> split_rows(long m, int nranks, const Decomposition& d, const std::vector<double>& measured) {
  if (nranks < 1) throw std::invalid_argument("decomposition: no ranks");
  auto check_length = [&](size_t len, const char* what) {
    if (len != static_cast<size_t>(nranks))
      throw std::invalid_argument(std::string("parallel.decomposition.") + what + ": has " + std::to_string(len) +
                                  " entries but the job has " + std::to_string(nranks) + " ranks");
  };
  switch (d.kind) {
    case SplitKind::even: {
      std::vector<long> rows(nranks, m / nranks);
      for (long r = 0; r < m % nranks; ++r) ++rows[r];
      return rows;
    }
    case SplitKind::rows: {
      check_length(d.rows.size(), "rows");
      long sum = 0;
      for (long r : d.rows) {
        if (r < 0) throw std::invalid_argument("parallel.decomposition.rows: negative entry " + std::to_string(r));
        sum += r;
      }
      if (sum != m)
        throw std::invalid_argument("parallel.decomposition.rows: sum to " + std::to_string(sum) +
                                    " but problem.m is " + std::to_string(m));
      return d.rows;
    }
    case SplitKind::weights:
      check_length(d.weights.size(), "weights");
      return split_by_weights(m, d.weights);
    case SplitKind::auto_weights:
      check_length(measured.size(), "weights (auto, measured)");
      return split_by_weights(m, measured);
    case SplitKind::grid:
      throw std::invalid_argument("parallel.decomposition.grid: a process grid is not a row split (grid.hpp)");
  }
  throw std::logic_error("split_rows: unknown kind");
}

double SplitTrial::makespan() const {
  double t = 0;
  for (size_t r = 0; r < rows.size(); ++r)
    if (rows[r] > 0) t = std::max(t, seconds[r]);
  return t;
}

namespace {
/// Rows per second of each rank at its most recent trial with rows > 0.
std::vector<double> measured_rates(const std::vector<SplitTrial>& trials) {
  if (trials.empty()) throw std::invalid_argument("decomposition: no calibration trials");
  const size_t n = trials.front().rows.size();
  std::vector<double> rate(n, 0.0);
  for (const auto& t : trials)
    for (size_t r = 0; r < n; ++r)
      if (t.rows[r] > 0 && t.seconds[r] > 0 && std::isfinite(t.seconds[r])) rate[r] = double(t.rows[r]) / t.seconds[r];
  return rate;
}
}  // namespace

int fastest_rank(long m, const std::vector<SplitTrial>& trials) {
  (void)m;
  const std::vector<double> rate = measured_rates(trials);
  return int(std::max_element(rate.begin(), rate.end()) - rate.begin());
}

std::vector<long> next_split(long m, const std::vector<SplitTrial>& trials) {
  const std::vector<double> rate = measured_rates(trials);
  std::vector<double> pos;
  std::vector<size_t> idx;
  for (size_t r = 0; r < rate.size(); ++r)
    if (rate[r] > 0) pos.push_back(rate[r]), idx.push_back(r);
  if (pos.empty()) throw std::invalid_argument("decomposition: no rank could run its calibration share");
  const std::vector<long> part = split_by_weights(m, pos);
  std::vector<long> rows(rate.size(), 0);
  for (size_t i = 0; i < idx.size(); ++i) rows[idx[i]] = part[i];
  return rows;
}

const SplitTrial& best_trial(const std::vector<SplitTrial>& trials) {
  if (trials.empty()) throw std::invalid_argument("decomposition: no calibration trials");
  size_t b = 0;
  for (size_t i = 1; i < trials.size(); ++i)
    if (trials[i].makespan() < trials[b].makespan()) b = i;
  return trials[b];
}

std::vector<long> row_offsets(const std::vector<long>& rows) {
  std::vector<long> off(rows.size(), 0);
  for (size_t r = 1; r < rows.size(); ++r) off[r] = off[r - 1] + rows[r - 1];
  return off;
}

}  // namespace mmapp
