// Pure units: the row decomposition, timing statistics, the counter-based
// generator. No MPI communication, no device.
#include "parallel/decomposition.hpp"
#include "driver/driver.hpp"
#include "deck/init.hpp"
#include "core/stats.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <catch2/catch_test_macros.hpp>

#include <numeric>

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
