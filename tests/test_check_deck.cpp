// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The up-front check of a whole deck (driver.hpp's check_deck): every
// (size, dtype) case resolved and its memory compared before anything runs,
// every distinct error listed once with the cases it holds for. Runs at 1
// and 2 ranks (unit_np1, unit_np2): every rank must throw the same message.
#include "deck/config.hpp"
#include "driver/driver.hpp"
#include "kernels/catalog.hpp"
#include "parallel/parallel_env.hpp"

#include <Kokkos_Core.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>
#include <mpi.h>

#include <algorithm>
#include <sstream>
#include <string>
#include <vector>

namespace {

/// check_deck's message ("" when the deck passes), after checking that every
/// rank threw the same one, with exit code 2.
std::string check_message(const mmapp::Config& cfg) {
  const mmapp::RankPlacement place = mmapp::place_rank();
  const std::vector<std::string> backends(place.size, "openmp");
  std::string msg;
  int code = 0;
  try {
    mmapp::check_deck(cfg, place, backends);
  } catch (const mmapp::RunError& e) {
    msg = e.what();
    code = e.exit_code;
  }
  if (!msg.empty()) CHECK(code == 2);
  const std::vector<std::string> all = mmapp::gather_strings(msg, MPI_COMM_WORLD);
  for (const auto& m : all) CHECK(m == all.front());
  return msg;
}

/// The lines of a message (one error each).
std::vector<std::string> lines_of(const std::string& msg) {
  std::vector<std::string> out;
  std::istringstream in(msg);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

}  // namespace

TEST_CASE("check_deck passes a deck whose every case can run", "[check-deck]") {
  const auto cfg = mmapp::parse_deck_string(
      "problem: {sizes: [64, 100], dtype: [float, double]}\nkernels: [naive, tiled, vendor]\n"
      "run: {backend: openmp}\n", "ok.yaml");
  CHECK(check_message(cfg).empty());
}

TEST_CASE("check_deck lists every case that does not fit, the late ones too", "[check-deck]") {
  const auto cfg = mmapp::parse_deck_string(
      "problem: {sizes: [64, 300000, 96, 400000], dtype: [float, double]}\nkernels: [naive]\n"
      "run: {backend: openmp}\n", "big.yaml");
  const std::string msg = check_message(cfg);
  const auto lines = lines_of(msg);
  REQUIRE(lines.size() == 4);
  for (const char* m : {"m=300000", "m=400000"})
    for (const char* dt : {" float", " double"})
      CHECK(std::count_if(lines.begin(), lines.end(), [&](const std::string& l) {
              return l.find(m) != std::string::npos && l.find(dt) != std::string::npos &&
                     l.find("needs") != std::string::npos && l.find("available") != std::string::npos;
            }) == 1);
  CHECK(msg.find("m=64 ") == std::string::npos);
  CHECK(msg.find("m=96 ") == std::string::npos);
}

TEST_CASE("check_deck finds a kernel option compiled for float only, in the double cases", "[check-deck]") {
  // A tiled shape of the float catalog that the double one lacks (host backend).
  const auto fl = mmapp::variants_named<Kokkos::OpenMP, float>("tiled");
  const auto db = mmapp::variants_named<Kokkos::OpenMP, double>("tiled");
  std::string thread_tile;
  for (const auto& v : fl)
    if (!v.thread_tile.empty() &&
        std::none_of(db.begin(), db.end(), [&](const auto& d) { return d.thread_tile == v.thread_tile; })) {
      thread_tile = "[" + std::to_string(v.thread_tile[0]) + ", " + std::to_string(v.thread_tile[1]) + "]";
      break;
    }
  if (thread_tile.empty()) SKIP("every float thread tile is compiled for double too");
  const auto cfg = mmapp::parse_deck_string("problem: {sizes: [64, 96], dtype: [float, double]}\n"
                                            "kernels: [naive, {name: tiled, thread_tile: " +
                                                thread_tile + "}]\nrun: {backend: openmp}\n",
                                            "tiles.yaml");
  const auto lines = lines_of(check_message(cfg));
  REQUIRE(lines.size() == 1);
  using Catch::Matchers::ContainsSubstring;
  CHECK_THAT(lines[0], ContainsSubstring("tiles.yaml:2: kernels[1]") &&
                           ContainsSubstring("cases 64x64x64 double, 96x96x96 double"));
  CHECK(lines[0].find("float") == std::string::npos);
}

TEST_CASE("check_deck refuses a process grid that does not fit the job, once", "[check-deck]") {
  int nranks = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &nranks);
  const auto cfg = mmapp::parse_deck_string(
      "problem: {sizes: [64, 96], dtype: [float, double]}\nkernels: [naive]\nrun: {backend: openmp}\n"
      "parallel: {decomposition: {grid: [" + std::to_string(nranks + 1) + ", 1]}}\n", "grid.yaml");
  const auto lines = lines_of(check_message(cfg));
  REQUIRE(lines.size() == 1);  // the same error for every case: one line, no case list
  CHECK(lines[0].find("grid") != std::string::npos);
  CHECK(lines[0].find("(case") == std::string::npos);
}
