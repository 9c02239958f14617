// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The measurement machinery (driver/measure.hpp) with stand-in multiplies:
// tile: auto (autotune) runs each candidate once untimed and `reps` times
// timed, on the input sets the timed repetitions would use, and keeps the
// fastest. Collective over the test's ranks (every rank runs the same).
#include "driver/measure.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <chrono>
#include <string>
#include <thread>
#include <vector>

namespace {
using Space = Kokkos::DefaultHostExecutionSpace;

mmapp::KernelVariant<Space, float> candidate(const int id) {
  mmapp::KernelVariant<Space, float> v;
  v.name = "tiled";
  v.tile = {id, id, 1};
  return v;
}
}  // namespace

TEST_CASE("tile: auto times every candidate on the input sets the repetitions use and keeps the fastest",
          "[measure]") {
  mmapp::detail::PlannedKernel<Space, float> p;
  p.name = "tiled";
  p.candidates = {candidate(1), candidate(2), candidate(3)};
  p.variant = p.candidates[0];
  p.selection = "shape rule: before tile: auto";
  mmapp::RunRecord rec;
  mmapp::detail::PhaseClock ph;
  std::vector<std::pair<int, int>> runs;  // (candidate's tile, turn)
  int poisons = 0;
  const int reps = 2;
  const int stop = mmapp::detail::autotune(
      p, rec, ph, reps, [&] { ++poisons; },
      [&](const mmapp::KernelVariant<Space, float>& c, const int turn) {
        runs.emplace_back(c.tile[0], turn);
        // Candidate 2 is the fastest by a margin no scheduler noise closes.
        std::this_thread::sleep_for(std::chrono::milliseconds(c.tile[0] == 2 ? 1 : 20));
      },
      MPI_COMM_WORLD);
  CHECK(stop == 0);
  // One untimed and `reps` timed runs per candidate, in catalog order, each run on the next
  // input set (turn 0, 1, 2, ...), as the warm-up and timed repetitions rotate them.
  const std::vector<std::pair<int, int>> expected = {{1, 0}, {1, 1}, {1, 2}, {2, 3}, {2, 4},
                                                     {2, 5}, {3, 6}, {3, 7}, {3, 8}};
  CHECK(runs == expected);
  CHECK(poisons == 9);  // C poisoned before every run
  CHECK(p.variant.tile == std::vector<int>{2, 2, 1});
  CHECK_THAT(p.selection, Catch::Matchers::StartsWith("tile: auto: fastest of 3 compiled variants ("));
  REQUIRE(rec.autotune_s.size() == 3);
  CHECK(rec.autotune_s[1].second < rec.autotune_s[0].second);
  CHECK(rec.autotune_s[1].second < rec.autotune_s[2].second);
  CHECK(rec.autotune_s[1].second >= 0.001);  // the timed runs' median, not the untimed one's
  CHECK(ph.seconds.at("autotune") > 0.0);
}

TEST_CASE("tile: auto skips a candidate that throws and records it as failed", "[measure]") {
  mmapp::detail::PlannedKernel<Space, float> p;
  p.name = "tiled";
  p.candidates = {candidate(1), candidate(2)};
  p.variant = p.candidates[1];
  mmapp::RunRecord rec;
  mmapp::detail::PhaseClock ph;
  std::vector<int> turns;
  const int stop = mmapp::detail::autotune(
      p, rec, ph, 2, [] {},
      [&](const mmapp::KernelVariant<Space, float>& c, const int turn) {
        turns.push_back(turn);
        if (c.tile[0] == 1) throw std::runtime_error("candidate 1 refuses this shape");
      },
      MPI_COMM_WORLD);
  CHECK(stop == 0);
  CHECK(turns == std::vector<int>{0, 1, 2, 3});  // candidate 1 stops at its first run
  CHECK(p.variant.tile == std::vector<int>{2, 2, 1});
  REQUIRE(rec.autotune_s.size() == 2);
  CHECK(rec.autotune_s[0].second == -1.0);
}
