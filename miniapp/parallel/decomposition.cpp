// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// decomposition.cpp — implementation of decomposition.hpp (see there for the contracts).
#include "parallel/decomposition.hpp"

#include <algorithm>
#include <cmath>
#include <iomanip>
#include <numeric>
#include <sstream>
#include <stdexcept>
#include <string>

namespace mmapp {

std::vector<long> split_by_weights(long m, const std::vector<double>& weights, const std::string& key) {
  if (weights.empty()) throw std::invalid_argument(key + ": no weights");
  if (m < 0) throw std::invalid_argument(key + ": cannot split m = " + std::to_string(m) + " rows");
  const size_t n = weights.size();
  double wmax = 0;
  for (size_t r = 0; r < n; ++r) {
    const double w = weights[r];
    if (!(w > 0) || !std::isfinite(w)) {  // NaN fails w > 0
      std::ostringstream s;
      s << key << "[" << r << "]: weights must be positive and finite, got " << std::setprecision(17) << w;
      throw std::invalid_argument(s.str());
    }
    wmax = std::max(wmax, w);
  }
  // Normalised by the largest weight in long double: every w / wmax lies in
  // (0, 1] (long double's exponent range holds 5e-324 / 1.8e308 without
  // underflow) and their sum in [1, n], so m * share never overflows and
  // floor() fits a long (it is at most m).
  std::vector<long double> share(n);
  long double total = 0;
  for (size_t r = 0; r < n; ++r) total += share[r] = static_cast<long double>(weights[r]) / wmax;
  std::vector<long> rows(n);
  std::vector<long double> remainder(n);
  __int128 assigned = 0;  // the floors may overshoot m by a row or so: no overflow near 2^63
  for (size_t r = 0; r < n; ++r) {
    const long double exact = std::min<long double>(static_cast<long double>(m) * share[r] / total, m);
    rows[r] = static_cast<long>(std::floor(exact));
    remainder[r] = exact - static_cast<long double>(rows[r]);
    assigned += rows[r];
  }
  std::vector<size_t> order(n);
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return remainder[a] > remainder[b]; });
  // Largest remainder: the floors leave fewer than n rows over (rounding of
  // the shares can make it n or more, or overshoot, by a row or so; both are
  // evened out here so the rows always sum to exactly m).
  for (size_t i = 0; assigned < m; ++i, ++assigned) ++rows[order[i % n]];
  for (size_t i = 0; assigned > m; ++i)
    if (long& r = rows[order[n - 1 - i % n]]; r > 0) --r, --assigned;
  long check = 0;
  for (long r : rows) {
    if (r < 0) throw std::invalid_argument(key + ": a rank's rows came out negative");
    check += r;
  }
  if (check != m)
    throw std::invalid_argument(key + ": rows sum to " + std::to_string(check) + ", not m = " + std::to_string(m));
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
        if (__builtin_add_overflow(sum, r, &sum))
          throw std::invalid_argument("parallel.decomposition.rows: the entries' sum overflows; problem.m is " +
                                      std::to_string(m));
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
      return split_by_weights(m, measured, "parallel.decomposition.weights (auto, measured)");
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
  const std::vector<long> part = split_by_weights(m, pos, "parallel.decomposition.weights (auto, measured rates)");
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
