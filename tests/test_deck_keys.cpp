// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
//
// test_deck_keys.cpp — inputs/example.yaml claims to show every deck key: each
// key of deck_keys() (the parser's own tables, miniapp/deck/config.cpp) must
// appear in it, in its own section (as a key or in the section's comments,
// since exclusive forms such as problem.sizes or parallel.decomposition.grid
// can only be shown as comments). And deck_keys() is what the parser accepts:
// each key is taken (whatever it then says about the value), a made-up one is
// an "unknown key". Pure host code: no Kokkos, no MPI, no files written.
#include "deck/config.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <fstream>
#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

using namespace mmapp;

namespace {

std::string read_file(const std::string& path) {
  std::ifstream in(path);
  REQUIRE(in.good());
  std::stringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

/// The text of each top-level section of a deck: from the comment block right
/// above `name:` (at column 0) to the line before the next section's block.
std::map<std::string, std::string> sections_of(const std::string& text) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) lines.push_back(line);
  const std::regex top(R"(^([A-Za-z_]+)\s*:)");
  std::vector<std::pair<std::size_t, std::string>> starts;  // first line of the block, section name
  for (std::size_t i = 0; i < lines.size(); ++i) {
    std::smatch m;
    if (!std::regex_search(lines[i], m, top)) continue;
    std::size_t begin = i;
    while (begin > 0 && !lines[begin - 1].empty() && lines[begin - 1][0] == '#') --begin;
    starts.emplace_back(begin, m[1].str());
  }
  std::map<std::string, std::string> out;
  for (std::size_t s = 0; s < starts.size(); ++s) {
    const std::size_t end = s + 1 < starts.size() ? starts[s + 1].first : lines.size();
    std::string body;
    for (std::size_t i = starts[s].first; i < end; ++i) body += lines[i] + "\n";
    out[starts[s].second] += body;
  }
  return out;
}

/// The keys of `keys` that `text` does not document: a section must be a key
/// at column 0; any other key's last name must appear as `name:` in its
/// section's text (a YAML key or a comment showing one).
std::vector<std::string> undocumented(const std::string& text, const std::vector<std::string>& keys) {
  const auto sections = sections_of(text);
  std::vector<std::string> missing;
  for (const auto& key : keys) {
    const std::string section = key.substr(0, key.find_first_of(".["));
    const auto it = sections.find(section);
    if (it == sections.end()) {
      missing.push_back(key);
      continue;
    }
    if (section == key) continue;
    std::string leaf = key.substr(key.find_last_of('.') + 1);
    const std::regex shown("(^|[^A-Za-z_])" + leaf + R"(\s*:)");
    if (!std::regex_search(it->second, shown)) missing.push_back(key);
  }
  return missing;
}

/// The DeckError message of parsing `yaml` with `overrides` ("" if none).
std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    parse_deck_string(yaml, "keys.yaml", overrides);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("deck keys: every key the parser accepts is documented in inputs/example.yaml", "[deck-keys]") {
  const auto keys = deck_keys();
  REQUIRE(keys.size() > 30);
  const std::string example = read_file(std::string(MMAPP_SOURCE_DIR) + "/inputs/example.yaml");
  CHECK(undocumented(example, keys) == std::vector<std::string>{});
  // example.yaml itself is a valid deck.
  CHECK(error_of(example).empty());
}

TEST_CASE("deck keys: the documentation check finds a key left out", "[deck-keys]") {
  const std::string deck =
      "# the size\nproblem:\n  n: 4\n  # also m: and k:\n"
      "# kernels: entries {name: ..., tile: ...}\nkernels: [naive]\n"
      "run:\n  warmup: 1\n";
  const std::vector<std::string> keys{"problem", "problem.n", "problem.m", "problem.k", "problem.seed",
                                      "kernels", "kernels[].name", "kernels[].tile", "kernels[].variant",
                                      "run", "run.warmup", "run.n", "verify"};
  // run.n: `n:` is shown, but under problem, not run; verify: no section.
  CHECK(undocumented(deck, keys) ==
        std::vector<std::string>{"problem.seed", "kernels[].variant", "run.n", "verify"});
}

TEST_CASE("deck keys: the parser accepts every listed key and no other", "[deck-keys]") {
  const std::string base = "problem: {n: 4}\n";
  for (const auto& key : deck_keys()) {
    INFO(key);
    std::string err;
    if (key.rfind("kernels[].", 0) == 0) {
      err = error_of(base + "kernels:\n  - {name: tiled, " + key.substr(10) + ": 1}\n");
    } else if (key.rfind("problem.sizes[].", 0) == 0) {
      err = error_of("problem:\n  sizes:\n    - {" + key.substr(16) + ": 4}\n");
    } else if (key.find('.') == std::string::npos) {
      err = error_of(base + (key == "problem" ? "" : key + ":\n"));
    } else {
      err = error_of(base, {key + "=1"});
    }
    CHECK_THAT(err, !Catch::Matchers::ContainsSubstring("unknown key"));
  }
  CHECK_THAT(error_of(base, {"problem.bogus=1"}), Catch::Matchers::ContainsSubstring("unknown key"));
  CHECK_THAT(error_of(base + "kernels:\n  - {name: tiled, bogus: 1}\n"),
             Catch::Matchers::ContainsSubstring("unknown key"));
  CHECK_THAT(error_of("problem:\n  sizes:\n    - {m: 4, n: 4, k: 4, bogus: 4}\n"),
             Catch::Matchers::ContainsSubstring("unknown key"));
  CHECK_THAT(error_of(base + "bogus: 1\n"), Catch::Matchers::ContainsSubstring("unknown key"));
}
