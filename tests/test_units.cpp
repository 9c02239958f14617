// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// Pure units: the row decomposition, timing statistics, the counter-based
// generator. No MPI communication, no device.
#include "parallel/decomposition.hpp"
#include "driver/driver.hpp"
#include "deck/init.hpp"
#include "core/stats.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <numeric>
#include <utility>

using mmapp::Decomposition;
using mmapp::SplitKind;

namespace {
long sum(const std::vector<long>& v) { return std::accumulate(v.begin(), v.end(), 0L); }
}  // namespace

TEST_CASE("even split gives the remainder to the first ranks", "[decomposition]") {
  Decomposition d;
  CHECK(mmapp::split_rows(10, 3, d) == std::vector<long>{4, 3, 3});
  CHECK(mmapp::split_rows(3072, 2, d) == std::vector<long>{1536, 1536});
  const std::vector<long> more_ranks_than_rows{1, 1, 0, 0};
  CHECK(mmapp::split_rows(2, 4, d) == more_ranks_than_rows);
  CHECK(mmapp::row_offsets({4, 3, 3}) == std::vector<long>{0, 4, 7});
}

TEST_CASE("explicit rows are taken as given and must sum to m", "[decomposition]") {
  Decomposition d;
  d.kind = SplitKind::rows;
  d.rows = {2048, 1024};
  CHECK(mmapp::split_rows(3072, 2, d) == d.rows);
  d.rows = {3072, 0};
  CHECK(mmapp::split_rows(3072, 2, d) == d.rows);  // a rank may get zero rows
  d.rows = {2048, 1000};
  CHECK_THROWS_WITH(mmapp::split_rows(3072, 2, d), Catch::Matchers::ContainsSubstring("sum to 3048"));
  d.rows = {3072};
  CHECK_THROWS_WITH(mmapp::split_rows(3072, 2, d), Catch::Matchers::ContainsSubstring("2 ranks"));
}

TEST_CASE("weights split proportionally with largest remainders", "[decomposition]") {
  Decomposition d;
  d.kind = SplitKind::weights;
  d.weights = {2, 1};
  CHECK(mmapp::split_rows(3072, 2, d) == std::vector<long>{2048, 1024});
  CHECK(mmapp::split_rows(10, 2, d) == std::vector<long>{7, 3});  // 6.67 -> 7, 3.33 -> 3
  d.weights = {1, 1, 1};
  CHECK(mmapp::split_rows(10, 3, d) == std::vector<long>{4, 3, 3});
  for (long m : {1L, 7L, 1000L, 16384L}) {
    d.weights = {0.3, 5.0, 1.7};
    CHECK(sum(mmapp::split_rows(m, 3, d)) == m);
  }
  d.weights = {1, 0};
  CHECK_THROWS_WITH(mmapp::split_rows(10, 2, d), Catch::Matchers::ContainsSubstring("positive"));
}

namespace {
/// Hamilton's method in exact integer arithmetic for integer weights c (an
/// independent reference): floor(m c_i / C), then one row each to the
/// largest remainders (m c_i mod C), ties to the lower rank.
std::vector<long> hamilton_exact(long m, const std::vector<long>& c) {
  __int128 total = 0;
  for (long x : c) total += x;
  std::vector<long> rows;
  std::vector<__int128> rem;
  long left = m;
  for (long x : c) {
    const __int128 q = __int128(m) * x;
    rows.push_back(long(q / total));
    rem.push_back(q % total);
    left -= rows.back();
  }
  std::vector<size_t> order(c.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) { return rem[a] > rem[b]; });
  for (size_t i = 0; left > 0; ++i, --left) ++rows[order[i]];
  return rows;
}
}  // namespace

TEST_CASE("weights of any finite positive size give non-negative rows summing to m", "[decomposition]") {
  // Integer weights scaled by powers of two are exact doubles with the same
  // shares, from denormals (2^-1074 = 5e-324) to near DBL_MAX.
  const std::vector<std::vector<long>> weight_sets{{3, 5, 7}, {1, 1}, {1, 2, 3, 4, 5, 6, 7}, {1000003, 1}, {1}};
  for (const auto& c : weight_sets)
    for (int e : {-1074, -1060, -600, -1, 0, 10, 600, 1000, 1020})
      for (long m : {0L, 1L, 2L, 3L, 10L, 67L, 1000L, 65537L, 2147483647L, (1L << 53) + 1}) {
        std::vector<double> w;
        for (long x : c) w.push_back(std::ldexp(double(x), e));
        if (!std::isfinite(std::ldexp(double(c.front()), e))) continue;  // 1000003 * 2^1020 is beyond DBL_MAX
        INFO("weights " << w.front() << "..., m " << m);
        CHECK(mmapp::split_by_weights(m, w) == hamilton_exact(m, c));
      }
  // 1e306 (the overflow: m * w was infinite), one and two ranks.
  Decomposition d;
  d.kind = SplitKind::weights;
  for (double big : {1e306, 1.7976931348623157e308}) {
    d.weights = {big};
    CHECK(mmapp::split_rows(100000, 1, d) == std::vector<long>{100000});
    d.weights = {big, big};
    CHECK(mmapp::split_rows(64, 2, d) == std::vector<long>{32, 32});
    d.weights = {big, big, big};
    CHECK(mmapp::split_rows(2147483647, 3, d) == std::vector<long>{715827883, 715827882, 715827882});
  }
  // Denormals alone, and mixed huge/tiny: the tiny share rounds to no rows.
  d.weights = {5e-324, 5e-324};
  CHECK(mmapp::split_rows(7, 2, d) == std::vector<long>{4, 3});
  d.weights = {1e308, 5e-324};
  CHECK(mmapp::split_rows(4096, 2, d) == std::vector<long>{4096, 0});
  d.weights = {5e-324, 1e308, 5e-324};
  CHECK(mmapp::split_rows(4096, 3, d) == std::vector<long>{0, 4096, 0});
  d.weights = {1e-300, 1e300};
  CHECK(mmapp::split_rows(1L << 40, 2, d) == std::vector<long>{0, 1L << 40});
}

TEST_CASE("weights: rounding that lands on m - 1 or m + 1 still sums to exactly m", "[decomposition]") {
  // Many shares that are not exact in binary (thirds, tenths, random sizes
  // over 600 decades): the floors leave the deficit to the largest
  // remainders; each rank stays within one row of its exact quota.
  std::uint64_t state = 12345;
  const auto next = [&] { return state = state * 6364136223846793005ULL + 1442695040888963407ULL; };
  for (int trial = 0; trial < 2000; ++trial) {
    const int n = 1 + int(next() >> 59);  // 1..32 ranks
    std::vector<double> w(n);
    for (auto& x : w) x = std::ldexp(1.0 + double(next() >> 11) / 9007199254740992.0, int(next() >> 54) % 1000 - 500);
    const long m = long(next() >> (trial % 2 ? 1 : 40));  // up to 2^63 - 1, and small
    const auto rows = mmapp::split_by_weights(m, w);
    REQUIRE(rows.size() == w.size());
    long double total = 0, wmax = *std::max_element(w.begin(), w.end());
    for (double x : w) total += x / wmax;
    __int128 s = 0;
    for (int r = 0; r < n; ++r) {
      CHECK(rows[r] >= 0);
      const long double quota = (long double)m * (w[r] / wmax) / total;
      CHECK(std::fabs((long double)rows[r] - quota) < 1.0L + 1e-6L * quota);
      s += rows[r];
    }
    CHECK(s == m);
  }
  for (long m : {1L, 2L, 10L, 100L, 1000001L})
    CHECK(sum(mmapp::split_by_weights(m, {0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1, 0.1})) == m);
  CHECK(mmapp::split_by_weights(2, {1.0 / 3, 1.0 / 3, 1.0 / 3}) == std::vector<long>{1, 1, 0});
}

TEST_CASE("weights that are zero, negative, infinite or NaN are refused naming the key", "[decomposition]") {
  Decomposition d;
  d.kind = SplitKind::weights;
  using Catch::Matchers::ContainsSubstring;
  for (double bad : {0.0, -1.0, -1e306, -5e-324, std::numeric_limits<double>::infinity(),
                     -std::numeric_limits<double>::infinity(), std::numeric_limits<double>::quiet_NaN()}) {
    d.weights = {1.0, bad};
    CHECK_THROWS_WITH(mmapp::split_rows(10, 2, d), ContainsSubstring("parallel.decomposition.weights[1]") &&
                                                       ContainsSubstring("positive and finite"));
  }
  d.weights = {};
  CHECK_THROWS_WITH(mmapp::split_rows(10, 0, d), ContainsSubstring("no ranks"));
  CHECK_THROWS_WITH(mmapp::split_by_weights(10, {}), ContainsSubstring("parallel.decomposition.weights"));
  d.kind = SplitKind::rows;
  d.rows = {std::numeric_limits<long>::max(), std::numeric_limits<long>::max()};
  CHECK_THROWS_WITH(mmapp::split_rows(10, 2, d), ContainsSubstring("parallel.decomposition.rows"));
}

TEST_CASE("weights: auto follows the measured throughputs", "[decomposition]") {
  Decomposition d;
  d.kind = SplitKind::auto_weights;
  const auto rows = mmapp::split_rows(16384, 2, d, {45000.0, 15000.0});
  CHECK(rows == std::vector<long>{12288, 4096});
  CHECK_THROWS(mmapp::split_rows(16384, 2, d, {45000.0}));
}

TEST_CASE("timing statistics", "[stats]") {
  const auto s = mmapp::summarize({3.0, 1.0, 2.0, 10.0});
  CHECK(s.min == 1.0);
  CHECK(s.max == 10.0);
  CHECK(s.median == Catch::Approx(2.5));
  CHECK(mmapp::summarize({4.0}).median == 4.0);
  CHECK_THROWS(mmapp::summarize({}));
  CHECK(mmapp::gemm_gflops(1000, 1000, 1000, 1.0) == Catch::Approx(2.0));
}

namespace {
/// Mean and sample standard deviation by the two-pass textbook formula
/// (sum, then the sum of squared deviations from the mean): independent of
/// RunningStats' one-pass Welford update.
std::pair<double, double> two_pass(const std::vector<double>& x) {
  double sum = 0;
  for (double v : x) sum += v;
  const double mean = sum / double(x.size());
  double ss = 0;
  for (double v : x) ss += (v - mean) * (v - mean);
  return {mean, x.size() < 2 ? 0.0 : std::sqrt(ss / double(x.size() - 1))};
}
}  // namespace

TEST_CASE("mean, stddev and CV: Welford against the two-pass formula", "[stats]") {
  // A hand case: {2, 4, 4, 4, 5, 5, 7, 9}: mean 5, sum of squares 32, s = sqrt(32 / 7).
  const auto h = mmapp::summarize({2, 4, 4, 4, 5, 5, 7, 9});
  CHECK(h.mean == Catch::Approx(5.0));
  CHECK(h.stddev == Catch::Approx(std::sqrt(32.0 / 7.0)));
  CHECK(h.cv == Catch::Approx(std::sqrt(32.0 / 7.0) / 5.0));
  CHECK(h.count == 8);
  // Timing-like samples: a large offset and a tiny spread (where the naive
  // one-pass sum-of-squares formula loses every digit), and a few outliers.
  std::vector<double> x;
  std::uint64_t state = 88172645463325252ull;
  for (int i = 0; i < 1000; ++i) {
    state ^= state << 13, state ^= state >> 7, state ^= state << 17;  // xorshift64
    const double u = double(state >> 11) * 0x1.0p-53;
    x.push_back(1e3 + 1e-6 * u + (i % 97 == 0 ? 5e-6 : 0.0));
  }
  const auto [mean, sd] = two_pass(x);
  const auto s = mmapp::summarize(x);
  CHECK(s.mean == Catch::Approx(mean).epsilon(1e-14));
  CHECK(s.stddev == Catch::Approx(sd).epsilon(1e-6));
  CHECK(s.cv == Catch::Approx(sd / mean).epsilon(1e-6));
  mmapp::RunningStats rs;
  for (double v : x) rs.add(v);
  CHECK(rs.count() == 1000);
  CHECK(rs.stddev() == Catch::Approx(sd).epsilon(1e-6));
  // One sample: no spread; equal samples: none either.
  CHECK(mmapp::summarize({4.0}).stddev == 0.0);
  CHECK(mmapp::summarize({4.0}).cv == 0.0);
  CHECK(mmapp::summarize({3.0, 3.0, 3.0}).cv == 0.0);
}

TEST_CASE("the noisy flag: CV strictly above the threshold", "[stats]") {
  // {1, 3}: mean 2, s = sqrt(2), CV = sqrt(2) / 2 = 0.7071...
  const auto t = mmapp::summarize({1.0, 3.0});
  const double cv = std::sqrt(2.0) / 2.0;
  CHECK(t.cv == Catch::Approx(cv));
  CHECK_FALSE(mmapp::is_noisy(t, t.cv));           // at the threshold: not noisy
  CHECK(mmapp::is_noisy(t, std::nextafter(t.cv, 0.0)));  // just below it: noisy
  CHECK_FALSE(mmapp::is_noisy(t, 0.75));
  CHECK(mmapp::is_noisy(t, 0.05));
  CHECK_FALSE(mmapp::is_noisy(mmapp::summarize({1.0}), 0.0));  // one sample: never noisy
}

TEST_CASE("until_stable: at least the deck's repetitions, then CV, time, cap", "[stats]") {
  using mmapp::StableState;
  using mmapp::until_stable_step;
  const std::vector<double> steady{1.0, 1.0, 1.001}, noisy{1.0, 2.0, 1.0, 3.0};
  // Fewer than the deck's repetitions: always more, even when steady or out of time.
  CHECK(until_stable_step({1.0, 1.0}, 3, 0.5, 10, 100, 1e9) == StableState::more);
  // Converged on CV <= max_cv once the minimum is reached (before time and cap).
  CHECK(until_stable_step(steady, 3, 0.01, 10, 3, 1e9) == StableState::converged);
  const double cv = mmapp::summarize(noisy).cv;
  CHECK(until_stable_step(noisy, 3, cv, 10, 100, 0) == StableState::converged);  // at the bound: converged
  // Not converged: goes on while the (fake) clock is under max_seconds ...
  CHECK(until_stable_step(noisy, 3, 0.01, 10, 100, 0.0) == StableState::more);
  CHECK(until_stable_step(noisy, 3, 0.01, 10, 100, 9.999) == StableState::more);
  // ... stops when it reaches it ...
  CHECK(until_stable_step(noisy, 3, 0.01, 10, 100, 10.0) == StableState::timed_out);
  // ... or at max_repetitions.
  CHECK(until_stable_step(noisy, 3, 0.01, 10, 4, 1.0) == StableState::capped);
  // A simulated run: samples settle to a constant, the clock advances 1 s a repetition.
  std::vector<double> run{5.0, 1.0, 9.0};
  double clock = 0;
  StableState st = StableState::more;
  while ((st = until_stable_step(run, 3, 0.05, 1e6, 100000, clock)) == StableState::more) run.push_back(2.0), clock += 1;
  CHECK(st == StableState::converged);
  CHECK(mmapp::summarize(run).cv <= 0.05);
  std::vector<double> shorter(run.begin(), run.end() - 1);
  CHECK(mmapp::summarize(shorter).cv > 0.05);  // it stopped at the first repetition that converged
  // The same run with a 10 s budget stops on time instead.
  run = {5.0, 1.0, 9.0}, clock = 0;
  while ((st = until_stable_step(run, 3, 0.05, 10, 100000, clock)) == StableState::more) run.push_back(2.0), clock += 1;
  CHECK(st == StableState::timed_out);
  CHECK(run.size() == 13);
}

TEST_CASE("the counter-based generator is uniform in [-1, 1) and rank-independent", "[init]") {
  double lo = 1, hi = -1, mean = 0;
  const int n = 100000;
  for (int i = 0; i < n; ++i) {
    const double x = mmapp::counter_uniform<double>(42, 0, i / 317, i % 317);
    lo = std::min(lo, x), hi = std::max(hi, x), mean += x / n;
  }
  CHECK(lo >= -1.0);
  CHECK(hi < 1.0);
  CHECK(lo < -0.99);
  CHECK(hi > 0.99);
  CHECK(std::abs(mean) < 0.01);
  // Same (seed, matrix, i, j) -> same value; different matrix or seed -> different.
  CHECK(mmapp::counter_uniform<float>(1, 0, 5, 6) == mmapp::counter_uniform<float>(1, 0, 5, 6));
  CHECK(mmapp::counter_uniform<float>(1, 0, 5, 6) != mmapp::counter_uniform<float>(1, 1, 5, 6));
  CHECK(mmapp::counter_uniform<float>(1, 0, 5, 6) != mmapp::counter_uniform<float>(2, 0, 5, 6));
}

TEST_CASE("input sets cover twice the L2, bounded", "[stats]") {
  const double l2 = 60.0 * (1 << 20);
  CHECK(mmapp::input_sets(512.0 * 1024, l2, true) == 241);        // N = 256 float: A + B = 512 KiB
  CHECK(mmapp::input_sets(2.0 * 4096 * 4096 * 4, l2, true) == 1);  // N = 4096: already > 2 x L2
  CHECK(mmapp::input_sets(72.0, l2, true) == mmapp::kMaxInputSets);  // m = 1: bounded
  CHECK(mmapp::input_sets(512.0 * 1024, l2, false) == 1);
  CHECK(mmapp::input_sets(0.0, l2, true) == 1);  // a rank with no rows and an empty B
}

TEST_CASE("weights: auto candidates: proportional to measured rates, thin slow slabs dropped", "[decomposition]") {
  using mmapp::SplitTrial;
  // Calibration: 1024 rows each; rank 0 is 100x faster than rank 1.
  std::vector<SplitTrial> trials{{{1024, 1024}, {0.01, 1.0}}};
  const auto first = mmapp::next_split(8192, trials);
  CHECK(first == std::vector<long>{8111, 81});  // 102400 vs 1024 rows/s
  CHECK(mmapp::fastest_rank(8192, trials) == 0);
  // Rank 1 turns out 10x slower still at its thin slab: its next share shrinks.
  trials.push_back({first, {0.0792, 0.81 * 10}});
  const auto second = mmapp::next_split(8192, trials);
  CHECK(second[1] < first[1]);
  CHECK(second[0] + second[1] == 8192);
  // The fastest alone wins when it measures faster than every split.
  trials.push_back({second, {0.080, 0.5}});
  trials.push_back({{8192, 0}, {0.0801, 0.0}});
  CHECK(mmapp::best_trial(std::vector<SplitTrial>(trials.begin() + 1, trials.end())).rows ==
        std::vector<long>{8192, 0});
  CHECK(trials.back().makespan() == Catch::Approx(0.0801));
  // A rank that could not run (+inf) gets no rows; none at all is an error.
  const std::vector<SplitTrial> inf{{{100, 100}, {std::numeric_limits<double>::infinity(), 0.5}}};
  CHECK(mmapp::next_split(1000, inf) == std::vector<long>{0, 1000});
  const std::vector<SplitTrial> none{{{100, 100}, {std::numeric_limits<double>::infinity(),
                                                   std::numeric_limits<double>::infinity()}}};
  CHECK_THROWS_AS(mmapp::next_split(1000, none), std::invalid_argument);
  CHECK_THROWS_AS(mmapp::best_trial({}), std::invalid_argument);
}
