// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// test_config.cpp — the YAML deck parser (miniapp/config.cpp): every valid
// form of every key, the defaults, --set overrides, the resolved_yaml round
// trip, the shipped decks in inputs/, and a table of invalid decks whose
// messages must name the file, the 1-based line and the key. Pure host code:
// no Kokkos, no MPI, no files written (safe at any rank count).
#include "deck/config.hpp"

#include <catch2/catch_approx.hpp>
#include <catch2/catch_test_macros.hpp>
#include <catch2/generators/catch_generators.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <yaml-cpp/yaml.h>

#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <string>
#include <vector>

using namespace mmapp;

namespace {
/// The 1-based number of the first line of `path` that starts with `prefix`
/// (0 if none): deck line numbers checked against the file, not a literal.
int line_of(const std::string& path, const std::string& prefix) {
  std::ifstream in(path);
  std::string text;
  for (int n = 1; std::getline(in, text); ++n)
    if (text.rfind(prefix, 0) == 0) return n;
  return 0;
}

const std::string kInputs = std::string(MMAPP_SOURCE_DIR) + "/inputs";

Config parse(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  return parse_deck_string(yaml, "deck.yaml", overrides);
}

/// The message of the DeckError that parsing throws ("" if none is thrown).
std::string error_of(const std::string& yaml, const std::vector<std::string>& overrides = {}) {
  try {
    parse_deck_string(yaml, "bad.yaml", overrides);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

bool same_size(const ProblemSize& a, const ProblemSize& b) { return a.m == b.m && a.n == b.n && a.k == b.k; }

/// Every field that a deck sets (not deck_path, KernelSpec::line or resolved_yaml).
void require_same(const Config& a, const Config& b) {
  REQUIRE(a.sizes.size() == b.sizes.size());
  for (std::size_t i = 0; i < a.sizes.size(); ++i) CHECK(same_size(a.sizes[i], b.sizes[i]));
  CHECK(a.dtypes == b.dtypes);
  CHECK(a.init == b.init);
  CHECK(a.seed == b.seed);
  REQUIRE(a.kernels.size() == b.kernels.size());
  for (std::size_t i = 0; i < a.kernels.size(); ++i) {
    CHECK(a.kernels[i].name == b.kernels[i].name);
    CHECK(a.kernels[i].tile == b.kernels[i].tile);
    CHECK(a.kernels[i].thread_tile == b.kernels[i].thread_tile);
    CHECK(a.kernels[i].prefetch == b.kernels[i].prefetch);
    CHECK(a.kernels[i].tile_auto == b.kernels[i].tile_auto);
    CHECK(a.kernels[i].variant == b.kernels[i].variant);
    CHECK(a.kernels[i].label == b.kernels[i].label);
  }
  CHECK(a.warmup == b.warmup);
  CHECK(a.repetitions == b.repetitions);
  CHECK(a.backend == b.backend);
  CHECK(a.rotate_inputs == b.rotate_inputs);
  CHECK(a.noise_threshold == b.noise_threshold);
  CHECK(a.math == b.math);
  CHECK(a.until_stable.enabled == b.until_stable.enabled);
  CHECK(a.until_stable.max_cv == b.until_stable.max_cv);
  CHECK(a.until_stable.max_seconds == b.until_stable.max_seconds);
  CHECK(a.until_stable.max_repetitions == b.until_stable.max_repetitions);
  CHECK(a.verify == b.verify);
  CHECK(a.tolerance == b.tolerance);
  CHECK(a.report_path == b.report_path);
  CHECK(a.decomposition.kind == b.decomposition.kind);
  CHECK(a.decomposition.rows == b.decomposition.rows);
  CHECK(a.decomposition.weights == b.decomposition.weights);
  CHECK(a.decomposition.calibration_n == b.decomposition.calibration_n);
  CHECK(a.decomposition.grid_p == b.decomposition.grid_p);
  CHECK(a.decomposition.grid_q == b.decomposition.grid_q);
  CHECK(a.decomposition.panel == b.decomposition.panel);
  CHECK(a.decomposition.overlap == b.decomposition.overlap);
  CHECK(a.decomposition.transfer == b.decomposition.transfer);
  CHECK(a.data_mode == b.data_mode);
  CHECK(a.share_devices == b.share_devices);
}

/// Parsing resolved_yaml gives the same Config, and the same resolved_yaml.
void require_round_trip(const Config& c) {
  INFO(c.resolved_yaml);
  const Config again = parse_deck_string(c.resolved_yaml, "resolved.yaml");
  require_same(c, again);
  CHECK(again.resolved_yaml == c.resolved_yaml);
}

std::vector<std::string> kernel_names(const Config& c) {
  std::vector<std::string> names;
  for (const auto& k : c.kernels) names.push_back(k.name);
  return names;
}

const char* const kFullDeck = R"(# a comment on line 1
problem:
  sizes:
    - 64
    - {m: 3, n: 5, k: 4}
    - m: 10
      n: 20
      k: 30
  dtype: [double, float]
  init: ones
  seed: 0
kernels:
  - naive
  - name: tiled
    tile: [128, 128, 8]
    thread_tile: [8, 8]
  - {name: shared, tile: [16]}
  - name: kokkoskernels
run:
  warmup: 0
  repetitions: 7
  backend: [cuda, openmp, serial]
  rotate_inputs: false
  noise_threshold: 2.5%
  until_stable: {max_cv: 0.01, max_seconds: 30, max_repetitions: 50}
verify:
  enabled: false
  tolerance: 0.25
output:
  report: out/r.json
parallel:
  decomposition:
    rows: [0, 40, 24]
  data: local
  share_devices: true
)";

}  // namespace

TEST_CASE("config: a square problem.n and the defaults of every other key", "[config]") {
  const Config c = parse("problem:\n  n: 1024\n");
  const Config d;  // the member initialisers are the defaults
  REQUIRE(c.sizes.size() == 1);
  CHECK(same_size(c.sizes[0], ProblemSize{1024, 1024, 1024}));
  CHECK(c.deck_path == "deck.yaml");
  CHECK(c.dtypes == std::vector<DType>{DType::f32});
  CHECK(c.dtypes == d.dtypes);
  CHECK(c.init == Init::random);
  CHECK(c.seed == 12345u);
  CHECK(kernel_names(c) == std::vector<std::string>{"naive", "tiled", "vendor"});
  for (const auto& k : c.kernels) {
    CHECK(k.tile.empty());
    CHECK(k.thread_tile.empty());
    CHECK(k.line == 0);
  }
  CHECK(c.warmup == d.warmup);
  CHECK(c.warmup == 1);
  CHECK(c.repetitions == d.repetitions);
  CHECK(c.repetitions == 5);
  CHECK(c.backend.empty());
  CHECK(c.rotate_inputs);
  CHECK(c.verify);
  CHECK(c.tolerance == 10.0);
  CHECK(c.report_path.empty());
  CHECK(c.decomposition.kind == SplitKind::even);
  CHECK(c.decomposition.calibration_n == 1024);
  CHECK(c.data_mode == DataMode::scatter);
  CHECK_FALSE(c.share_devices);
  CHECK(contains(c.resolved_yaml, "n: 1024"));
  CHECK(contains(c.resolved_yaml, "backend: default"));
  CHECK(contains(c.resolved_yaml, "decomposition: even"));
  // Empty sections are sections with every key at its default.
  const Config e = parse("problem: {n: 8}\nrun:\nverify: {}\noutput:\nparallel:\n");
  require_same(e, parse("problem: {n: 8}\n"));
}

TEST_CASE("config: rectangular m, n, k and sweeps of sizes", "[config]") {
  SECTION("m, n and k") {
    const Config c = parse("problem:\n  m: 2000\n  k: 2000\n  n: 6000\n");
    REQUIRE(c.sizes.size() == 1);
    CHECK(same_size(c.sizes[0], ProblemSize{2000, 6000, 2000}));
    CHECK(contains(c.resolved_yaml, "m: 2000"));
    require_round_trip(c);
  }
  SECTION("sizes as integers") {
    const Config c = parse("problem:\n  sizes: [256, 512, 1024]\n");
    REQUIRE(c.sizes.size() == 3);
    CHECK(same_size(c.sizes[0], ProblemSize{256, 256, 256}));
    CHECK(same_size(c.sizes[1], ProblemSize{512, 512, 512}));
    CHECK(same_size(c.sizes[2], ProblemSize{1024, 1024, 1024}));
    require_round_trip(c);
  }
  SECTION("sizes as maps, and mixed") {
    const Config c = parse("problem:\n  sizes:\n    - {m: 3, n: 5, k: 4}\n    - {n: 7}\n    - 9\n");
    REQUIRE(c.sizes.size() == 3);
    CHECK(same_size(c.sizes[0], ProblemSize{3, 5, 4}));
    CHECK(same_size(c.sizes[1], ProblemSize{7, 7, 7}));
    CHECK(same_size(c.sizes[2], ProblemSize{9, 9, 9}));
    require_round_trip(c);
  }
  SECTION("a single size in a list is the same as problem.n") {
    require_same(parse("problem: {sizes: [64]}\n"), parse("problem: {n: 64}\n"));
  }
  SECTION("the largest dimension allowed: INT_MAX, what cuBLAS, BLAS and MPI counts take") {
    const Config c = parse("problem: {m: 2147483647, n: 2147483647, k: 1}\n");
    CHECK(c.sizes[0].m == 2147483647L);
  }
}

TEST_CASE("config: dtype, init and seed", "[config]") {
  CHECK(parse("problem: {n: 4, dtype: double}\n").dtypes == std::vector<DType>{DType::f64});
  CHECK(parse("problem: {n: 4, dtype: [float, double]}\n").dtypes == std::vector<DType>{DType::f32, DType::f64});
  CHECK(parse("problem: {n: 4, dtype: [double]}\n").dtypes == std::vector<DType>{DType::f64});
  CHECK(parse("problem: {n: 4, init: identity}\n").init == Init::identity);
  CHECK(parse("problem: {m: 3, n: 4, k: 4, init: identity}\n").init == Init::identity);
  CHECK(parse("problem: {n: 4, init: ones}\n").init == Init::ones);
  CHECK(parse("problem: {n: 4, init: wide}\n").init == Init::wide);
  CHECK(parse("problem: {m: 3, n: 4, k: 100000000, dtype: [float, double], init: wide}\n").init == Init::wide);
  CHECK(parse("problem: {n: 4, seed: 0}\n").seed == 0u);
  CHECK(parse("problem: {n: 4, seed: 18446744073709551615}\n").seed == 18446744073709551615ull);
  CHECK(to_string(DType::f32) == std::string("float"));
  CHECK(to_string(DType::f64) == std::string("double"));
  CHECK(to_string(Init::random) == std::string("random"));
  CHECK(to_string(Init::identity) == std::string("identity"));
  CHECK(to_string(Init::ones) == std::string("ones"));
  CHECK(to_string(Init::wide) == std::string("wide"));
  CHECK(to_string(DataMode::scatter) == std::string("scatter"));
  CHECK(to_string(DataMode::local) == std::string("local"));
}

TEST_CASE("config: kernels as names and as maps, with their deck lines", "[config]") {
  const Config c = parse(kFullDeck);
  REQUIRE(c.kernels.size() == 4);
  CHECK(c.kernels[0].name == "naive");
  CHECK(c.kernels[0].tile.empty());
  CHECK(c.kernels[0].line == 13);
  CHECK(c.kernels[1].name == "tiled");
  CHECK(c.kernels[1].tile == std::vector<int>{128, 128, 8});
  CHECK(c.kernels[1].thread_tile == std::vector<int>{8, 8});
  CHECK(c.kernels[1].line == 14);
  CHECK(c.kernels[2].name == "shared");
  CHECK(c.kernels[2].tile == std::vector<int>{16});
  CHECK(c.kernels[2].thread_tile.empty());
  CHECK(c.kernels[2].line == 17);
  CHECK(c.kernels[3].name == "vendor");  // the deprecated alias, accepted with a note
  REQUIRE(c.notes.size() == 1);
  CHECK_THAT(c.notes[0], Catch::Matchers::ContainsSubstring("kernels[3].name: 'kokkoskernels' is the deprecated name of 'vendor'"));
  CHECK(c.kernels[3].line == 18);

  SECTION("tiled with only a block tile; a single kernel name; repeats allowed") {
    const Config t = parse("problem: {n: 4}\nkernels: [{name: tiled, tile: [64, 64, 16]}, tiled]\n");
    REQUIRE(t.kernels.size() == 2);
    CHECK(t.kernels[0].tile == std::vector<int>{64, 64, 16});
    CHECK(t.kernels[0].thread_tile.empty());
    CHECK(t.kernels[1].tile.empty());
    CHECK(kernel_names(parse("problem: {n: 4}\nkernels: shared\n")) == std::vector<std::string>{"shared"});
  }
}

TEST_CASE("config: a deck with every key set away from its default", "[config]") {
  const Config c = parse(kFullDeck);
  REQUIRE(c.sizes.size() == 3);
  CHECK(same_size(c.sizes[0], ProblemSize{64, 64, 64}));
  CHECK(same_size(c.sizes[1], ProblemSize{3, 5, 4}));
  CHECK(same_size(c.sizes[2], ProblemSize{10, 20, 30}));
  CHECK(c.dtypes == std::vector<DType>{DType::f64, DType::f32});
  CHECK(c.init == Init::ones);
  CHECK(c.seed == 0u);
  CHECK(c.warmup == 0);
  CHECK(c.repetitions == 7);
  CHECK(c.backend == std::vector<std::string>{"cuda", "openmp", "serial"});
  CHECK_FALSE(c.rotate_inputs);
  CHECK(c.noise_threshold == Catch::Approx(0.025));
  CHECK(c.until_stable.enabled);
  CHECK(c.until_stable.max_cv == 0.01);
  CHECK(c.until_stable.max_seconds == 30);
  CHECK(c.until_stable.max_repetitions == 50);
  CHECK_FALSE(c.verify);
  CHECK(c.tolerance == 0.25);
  CHECK(c.report_path == "out/r.json");
  CHECK(c.decomposition.kind == SplitKind::rows);
  CHECK(c.decomposition.rows == std::vector<long>{0, 40, 24});
  CHECK(c.data_mode == DataMode::local);
  CHECK(c.share_devices);
  require_round_trip(c);
}

TEST_CASE("config: run.backend forms", "[config]") {
  CHECK(parse("problem: {n: 4}\nrun: {backend: openmp}\n").backend == std::vector<std::string>{"openmp"});
  CHECK(parse("problem: {n: 4}\nrun: {backend: [cuda, cuda]}\n").backend ==
        std::vector<std::string>{"cuda", "cuda"});
  CHECK(parse("problem: {n: 4}\nrun: {backend: default}\n").backend.empty());
  require_round_trip(parse("problem: {n: 4}\nrun: {backend: serial}\n"));
  require_round_trip(parse("problem: {n: 4}\nrun: {backend: [serial, openmp]}\n"));
}

TEST_CASE("config: every form of parallel.decomposition", "[config]") {
  SECTION("even") {
    const Config c = parse("problem: {n: 4}\nparallel: {decomposition: even}\n");
    CHECK(c.decomposition.kind == SplitKind::even);
    require_round_trip(c);
  }
  SECTION("rows, a rank may get zero rows") {
    const Config c = parse("problem: {n: 3072}\nparallel:\n  decomposition: {rows: [2048, 1024, 0]}\n");
    CHECK(c.decomposition.kind == SplitKind::rows);
    CHECK(c.decomposition.rows == std::vector<long>{2048, 1024, 0});
    require_round_trip(c);
  }
  SECTION("weights") {
    const Config c = parse("problem: {n: 4}\nparallel:\n  decomposition:\n    weights: [2, 1, 0.1]\n");
    CHECK(c.decomposition.kind == SplitKind::weights);
    CHECK(c.decomposition.weights == std::vector<double>{2.0, 1.0, 0.1});
    require_round_trip(c);
  }
  SECTION("weights: auto, with and without calibration_n") {
    const Config c = parse("problem: {n: 4}\nparallel: {decomposition: {weights: auto, calibration_n: 512}}\n");
    CHECK(c.decomposition.kind == SplitKind::auto_weights);
    CHECK(c.decomposition.calibration_n == 512);
    require_round_trip(c);
    const Config d = parse("problem: {n: 4}\nparallel: {decomposition: {weights: auto}}\n");
    CHECK(d.decomposition.kind == SplitKind::auto_weights);
    CHECK(d.decomposition.calibration_n == 1024);
  }
  SECTION("grid: [p, q] with a panel, and its defaults") {
    const Config c = parse("problem: {n: 4}\nparallel:\n  decomposition: {grid: [2, 3], panel: 64}\n");
    CHECK(c.decomposition.kind == SplitKind::grid);
    CHECK(c.decomposition.grid_p == 2);
    CHECK(c.decomposition.grid_q == 3);
    CHECK(c.decomposition.panel == 64);
    CHECK(c.decomposition.overlap == Overlap::automatic);
    CHECK(c.decomposition.transfer == Transfer::automatic);
    CHECK(c.decomposition.grid_where == "deck.yaml:3: ");  // for run-time messages (p x q vs ranks)
    CHECK(contains(c.resolved_yaml, "grid: [2, 3]"));
    CHECK(contains(c.resolved_yaml, "panel: 64"));
    require_round_trip(c);
    CHECK(parse("problem: {n: 4}\nparallel: {decomposition: {grid: [1, 1]}}\n").decomposition.panel == 512);
  }
  SECTION("grid: auto, overlap and transfer") {
    const Config c = parse("problem: {n: 4}\nparallel:\n  decomposition:\n    grid: auto\n    overlap: none\n"
                           "    transfer: staged\n");
    CHECK(c.decomposition.kind == SplitKind::grid);
    CHECK(c.decomposition.grid_p == 0);
    CHECK(c.decomposition.grid_q == 0);
    CHECK(c.decomposition.overlap == Overlap::none);
    CHECK(c.decomposition.transfer == Transfer::staged);
    CHECK(contains(c.resolved_yaml, "grid: auto"));
    require_round_trip(c);
    for (const char* o : {"auto", "ibcast", "none"})
      CHECK(std::string(to_string(parse(std::string("problem: {n: 4}\nparallel: {decomposition: {grid: auto, overlap: ") +
                                        o + "}}\n").decomposition.overlap)) == o);
    for (const char* t : {"auto", "cuda-aware", "staged", "shared", "nccl"})
      CHECK(std::string(to_string(parse(std::string("problem: {n: 4}\nparallel: {decomposition: {grid: auto, transfer: ") +
                                        t + "}}\n").decomposition.transfer)) == t);
  }
  SECTION("scalapack with a grid") {
    const Config c = parse("problem: {n: 4}\nkernels: [vendor, scalapack]\nparallel: {decomposition: {grid: auto}}\n");
    CHECK(kernel_names(c) == std::vector<std::string>{"vendor", "scalapack"});
    require_round_trip(c);
  }
}

TEST_CASE("config: --set switches between the row split and a grid", "[config]") {
  const std::string rows = "problem: {n: 4}\nparallel:\n  decomposition: {rows: [1, 3]}\n";
  const Config g = parse(rows, {"parallel.decomposition.grid=[1, 2]", "parallel.decomposition.panel=16"});
  CHECK(g.decomposition.kind == SplitKind::grid);
  CHECK(g.decomposition.grid_q == 2);
  CHECK(g.decomposition.panel == 16);
  CHECK(g.decomposition.grid_where == "--set ");
  const std::string grid = "problem: {n: 4}\nparallel:\n  decomposition: {grid: [2, 2], panel: 8, overlap: none}\n";
  const Config r = parse(grid, {"parallel.decomposition.weights=[1, 2, 3, 4]"});
  CHECK(r.decomposition.kind == SplitKind::weights);
  CHECK(parse(grid, {"parallel.decomposition=even"}).decomposition.kind == SplitKind::even);
  CHECK(parse(grid, {"parallel.decomposition.grid=auto"}).decomposition.panel == 8);
}

TEST_CASE("config: --set overrides apply before validation", "[config]") {
  const std::string deck = "problem:\n  n: 64\n";
  SECTION("a scalar, parsed as YAML") {
    const Config c = parse(deck, {"problem.n=4096"});
    CHECK(same_size(c.sizes[0], ProblemSize{4096, 4096, 4096}));
    CHECK(contains(c.resolved_yaml, "n: 4096"));
  }
  SECTION("list values, and missing sections created") {
    const Config c = parse(deck, {"problem.dtype=[float,double]", "run.backend=openmp", "verify.tolerance=10",
                                  "parallel.decomposition.weights=[3, 1]", "output.report=r.json"});
    CHECK(c.dtypes == std::vector<DType>{DType::f32, DType::f64});
    CHECK(c.backend == std::vector<std::string>{"openmp"});
    CHECK(c.tolerance == 10.0);
    CHECK(c.decomposition.kind == SplitKind::weights);
    CHECK(c.decomposition.weights == std::vector<double>{3.0, 1.0});
    CHECK(c.report_path == "r.json");
    require_round_trip(c);
  }
  SECTION("applied in order: the last one wins") {
    CHECK(parse(deck, {"run.repetitions=2", "run.repetitions=9"}).repetitions == 9);
  }
  SECTION("problem.n replaces the deck's sizes") {
    const Config c = parse("problem:\n  sizes: [1, 2, 3]\n", {"problem.n=5"});
    REQUIRE(c.sizes.size() == 1);
    CHECK(same_size(c.sizes[0], ProblemSize{5, 5, 5}));
  }
  SECTION("problem.n with m and k in the deck sets n only") {
    const Config c = parse("problem: {m: 3, n: 4, k: 5}\n", {"problem.n=6"});
    CHECK(same_size(c.sizes[0], ProblemSize{3, 6, 5}));
  }
  SECTION("problem.sizes replaces the deck's m, n, k") {
    const Config c = parse("problem: {m: 3, n: 4, k: 5}\n", {"problem.sizes=[8, {m: 1, n: 2, k: 3}]"});
    REQUIRE(c.sizes.size() == 2);
    CHECK(same_size(c.sizes[1], ProblemSize{1, 2, 3}));
  }
  SECTION("a whole kernels list; its entries have no deck line") {
    const Config c = parse(deck, {"kernels=[naive, {name: tiled, tile: [64, 64, 8], thread_tile: [4, 4]}]"});
    REQUIRE(c.kernels.size() == 2);
    CHECK(c.kernels[1].tile == std::vector<int>{64, 64, 8});
    CHECK(c.kernels[1].thread_tile == std::vector<int>{4, 4});
    CHECK(c.kernels[1].line == 0);
  }
  SECTION("a decomposition key replaces a scalar decomposition and the exclusive key") {
    CHECK(parse("problem: {n: 4}\nparallel: {decomposition: even}\n", {"parallel.decomposition.rows=[1, 3]"})
              .decomposition.rows == std::vector<long>{1, 3});
    const Config c = parse("problem: {n: 4}\nparallel: {decomposition: {weights: auto, calibration_n: 64}}\n",
                           {"parallel.decomposition.weights=[1, 2]"});
    CHECK(c.decomposition.kind == SplitKind::weights);
    CHECK(c.decomposition.weights == std::vector<double>{1.0, 2.0});
  }
  SECTION("an empty value clears the report") {
    CHECK(parse("problem: {n: 4}\noutput: {report: x.json}\n", {"output.report="}).report_path.empty());
  }
}

TEST_CASE("config: resolved_yaml parses back to the same Config", "[config]") {
  require_round_trip(parse("problem: {n: 256}\n"));
  require_round_trip(parse(kFullDeck));
  require_round_trip(parse("problem: {n: 4, seed: 18446744073709551615}\nverify: {tolerance: 0.1}\n"));
  require_round_trip(parse("problem: {n: 4}\noutput: {report: 'has: colon #and hash'}\n"));
  require_round_trip(parse("problem: {n: 4}\nparallel: {decomposition: {weights: [0.3, 1e-3]}}\n"));
}

TEST_CASE("config: every bench deck in inputs/bench/ parses", "[config]") {
  namespace fs = std::filesystem;
  std::size_t decks = 0;
  for (const auto& entry : fs::directory_iterator(kInputs + "/bench")) {
    if (entry.path().extension() != ".yaml") continue;
    INFO(entry.path().string());
    Config c;
    REQUIRE_NOTHROW(c = parse_deck(entry.path().string()));
    CHECK_FALSE(c.sizes.empty());
    ++decks;
  }
  CHECK(decks >= 40);
}

TEST_CASE("config: every deck in inputs/ parses", "[config]") {
  namespace fs = std::filesystem;
  std::vector<std::string> decks;
  for (const auto& entry : fs::directory_iterator(kInputs))
    if (entry.path().extension() == ".yaml") decks.push_back(entry.path().string());
  REQUIRE(decks.size() >= 6);
  for (const auto& path : decks) {
    INFO(path);
    Config c;
    REQUIRE_NOTHROW(c = parse_deck(path));
    CHECK(c.deck_path == path);
    CHECK(c.backend.empty());  // shipped decks use the build's default backend
    require_round_trip(c);
  }
}

TEST_CASE("config: the shipped decks say what their names say", "[config]") {
  const Config example = parse_deck(kInputs + "/example.yaml");
  CHECK(same_size(example.sizes[0], ProblemSize{1024, 1024, 1024}));
  CHECK(example.report_path == "results/report.json");
  CHECK(kernel_names(example) == std::vector<std::string>{"naive", "shared", "tiled", "vendor"});

  const Config def = parse_deck(kInputs + "/default.yaml");
  CHECK(same_size(def.sizes[0], ProblemSize{256, 256, 256}));
  CHECK(def.dtypes == std::vector<DType>{DType::f32});
  CHECK(kernel_names(def) == std::vector<std::string>{"naive", "tiled", "vendor"});
  CHECK(def.warmup == 1);
  CHECK(def.repetitions == 3);

  const Config big = parse_deck(kInputs + "/3072.yaml");
  CHECK(same_size(big.sizes[0], ProblemSize{3072, 3072, 3072}));
  CHECK(kernel_names(big) == std::vector<std::string>{"tiled", "vendor", "naive"});
  CHECK(big.repetitions == 5);
  CHECK(big.decomposition.kind == SplitKind::even);
  CHECK(big.data_mode == DataMode::scatter);

  const Config rect = parse_deck(kInputs + "/rect-2000x6000.yaml");
  CHECK(same_size(rect.sizes[0], ProblemSize{2000, 6000, 2000}));

  const Config tiny = parse_deck(kInputs + "/tiny-3x4x5.yaml");
  CHECK(same_size(tiny.sizes[0], ProblemSize{3, 5, 4}));
  CHECK(tiny.dtypes == std::vector<DType>{DType::f64});
  CHECK(tiny.kernels.size() == 4);
  CHECK(tiny.repetitions == 3);

  const Config id = parse_deck(kInputs + "/identity.yaml");
  CHECK(id.init == Init::identity);
  CHECK(same_size(id.sizes[0], ProblemSize{203, 203, 203}));

  // A deck's kernel lines are its file lines (counted here from the file
  // itself: its header comment may grow).
  CHECK(def.kernels[1].line == line_of(kInputs + "/default.yaml", "  - tiled"));
}

namespace {

/// An invalid deck and what its message must start with and contain.
struct BadDeck {
  const char* what;
  std::string yaml;
  std::vector<std::string> overrides;
  std::string prefix;    ///< "bad.yaml:LINE: KEY:" (or "--set KEY:")
  std::string fragment;  ///< a part of the rest of the message
};

}  // namespace

TEST_CASE("config: run.noise_threshold and run.until_stable forms", "[config]") {
  const Config d = parse("problem: {n: 4}\n");
  CHECK(d.noise_threshold == 0.05);
  CHECK_FALSE(d.until_stable.enabled);
  CHECK(parse("problem: {n: 4}\nrun: {noise_threshold: 0.1}\n").noise_threshold == 0.1);
  CHECK(parse("problem: {n: 4}\nrun: {noise_threshold: 10%}\n").noise_threshold == Catch::Approx(0.1));
  CHECK(parse("problem: {n: 4}\nrun: {noise_threshold: 1}\n").noise_threshold == 1.0);
  const Config on = parse("problem: {n: 4}\nrun: {until_stable: true}\n");
  CHECK(on.until_stable.enabled);
  CHECK(on.until_stable.max_cv == d.until_stable.max_cv);
  CHECK(on.until_stable.max_seconds == d.until_stable.max_seconds);
  CHECK(on.until_stable.max_repetitions == d.until_stable.max_repetitions);
  CHECK_FALSE(parse("problem: {n: 4}\nrun: {until_stable: false}\n").until_stable.enabled);
  CHECK_FALSE(parse("problem: {n: 4}\nrun: {until_stable: }\n").until_stable.enabled);
  const Config part = parse("problem: {n: 4}\nrun: {until_stable: {max_seconds: 2.5}}\n");
  CHECK(part.until_stable.enabled);
  CHECK(part.until_stable.max_seconds == 2.5);
  CHECK(part.until_stable.max_cv == d.until_stable.max_cv);
  // --set of one sub-key turns it on; --set false turns a deck's off.
  const Config set = parse("problem: {n: 4}\n", {"run.until_stable.max_cv=1%"});
  CHECK(set.until_stable.enabled);
  CHECK(set.until_stable.max_cv == Catch::Approx(0.01));
  CHECK_FALSE(parse("problem: {n: 4}\nrun: {until_stable: {max_cv: 0.1}}\n", {"run.until_stable=false"})
                  .until_stable.enabled);
  require_round_trip(part);
  require_round_trip(d);
}

TEST_CASE("config: run.math: auto (default) or simt, with where it was given", "[config]") {
  const Config d = parse("problem: {n: 4}\n");
  CHECK(d.math == mmapp::MathMode::automatic);
  CHECK(d.origins.count("run.math") == 0);
  const Config s = parse("problem: {n: 4}\nrun:\n  math: simt\n");
  CHECK(s.math == mmapp::MathMode::simt);
  CHECK(s.where("run.math").find(":3: run.math") != std::string::npos);
  CHECK(parse("problem: {n: 4}\nrun: {math: auto}\n").math == mmapp::MathMode::automatic);
  const Config set = parse("problem: {n: 4}\n", {"run.math=simt"});
  CHECK(set.math == mmapp::MathMode::simt);
  CHECK(set.where("run.math") == "--set run.math");
  CHECK(std::string(mmapp::to_string(mmapp::MathMode::simt)) == "simt");
  CHECK(std::string(mmapp::to_string(mmapp::MathMode::automatic)) == "auto");
  require_round_trip(s);
  require_round_trip(d);
}

TEST_CASE("config: inputs/example.yaml names every key the parser accepts", "[config]") {
  // The resolved deck lists every key (emit()); with until_stable on, its sub-keys too.
  const Config c = parse_deck(kInputs + "/example.yaml", {"run.until_stable=true"});
  std::ifstream f(kInputs + "/example.yaml");
  const std::string example((std::istreambuf_iterator<char>(f)), std::istreambuf_iterator<char>());
  std::vector<std::string> keys;
  std::function<void(const YAML::Node&)> walk = [&](const YAML::Node& n) {
    if (n.IsMap())
      for (const auto& kv : n) keys.push_back(kv.first.Scalar()), walk(kv.second);
    else if (n.IsSequence())
      for (const auto& item : n) walk(item);
  };
  walk(YAML::Load(c.resolved_yaml));
  CHECK(keys.size() > 20);
  for (const auto& k : keys) {
    INFO(k);
    CHECK(contains(example, k + ":"));
  }
}

TEST_CASE("config: invalid decks name the file, the line and the key", "[config]") {
  const std::string ok = "problem:\n  n: 64\n";
  const BadDeck bad = GENERATE_COPY(values<BadDeck>({
      {"unknown key, did you mean", "problem:\n  nn: 64\n", {}, "bad.yaml:2: problem.nn:", "unknown key; did you mean 'n'?"},
      {"unknown section", "problem: {n: 4}\nrunn:\n  warmup: 1\n", {}, "bad.yaml:2: runn:", "did you mean 'run'?"},
      {"unknown key, far from all", "problem: {n: 4}\nrun:\n  speed: 1\n", {}, "bad.yaml:3: run.speed:",
       "unknown key; expected one of warmup, repetitions, backend, rotate_inputs, noise_threshold, until_stable"},
      {"wrong type: a map for a scalar", "problem:\n  n: {a: 1}\n", {}, "bad.yaml:2: problem.n:",
       "expected an integer >= 1, got a map"},
      {"wrong type: a list for a section", "problem: {n: 4}\nrun: [1, 2]\n", {}, "bad.yaml:2: run:",
       "got a list"},
      {"wrong type: a list for a bool", "problem: {n: 4}\nverify:\n  enabled: [true]\n", {},
       "bad.yaml:3: verify.enabled:", "expected true or false, got a list"},
      {"missing size", "# no size\nproblem:\n  dtype: float\n", {}, "bad.yaml:2: problem.n:",
       "missing required key problem.n"},
      {"missing size, no problem section", "run: {warmup: 1}\n", {}, "bad.yaml: problem.n:",
       "missing required key problem.n"},
      {"m without k", "problem:\n  m: 3\n  n: 4\n", {}, "bad.yaml:1: problem.k:", "missing required key problem.k"},
      {"k alone", "problem:\n  k: 3\n", {}, "bad.yaml:1: problem.m:", "missing required key problem.m"},
      {"sizes with n", "problem:\n  n: 3\n  sizes: [4]\n", {}, "bad.yaml:2: problem.n:", "exclusive with problem.sizes"},
      {"n = 0", "problem:\n  n: 0\n", {}, "bad.yaml:2: problem.n:", "expected an integer >= 1, got '0'"},
      {"n = -3", "problem:\n  n: -3\n", {}, "bad.yaml:2: problem.n:", "expected an integer >= 1, got '-3'"},
      {"n = 1.5", "problem:\n  n: 1.5\n", {}, "bad.yaml:2: problem.n:", "expected an integer >= 1, got '1.5'"},
      {"n = abc", "problem:\n  n: abc\n", {}, "bad.yaml:2: problem.n:", "expected an integer >= 1, got 'abc'"},
      {"n = true", "problem:\n  n: true\n", {}, "bad.yaml:2: problem.n:", "got 'true'"},
      {"n empty", "problem:\n  n:\n  dtype: float\n", {}, "bad.yaml:2: problem.n:", "got nothing"},
      {"m = abc", "problem:\n  m: abc\n  n: 4\n  k: 4\n", {}, "bad.yaml:2: problem.m:", "got 'abc'"},
      {"n over INT_MAX", "problem:\n  n: 3000000000\n", {}, "bad.yaml:2: problem.n:",
       "3000000000 exceeds 2147483647, the largest dimension cuBLAS and BLAS accept"},
      {"k = 2^31 + 1", "problem:\n  m: 2\n  n: 2\n  k: 2147483649\n", {}, "bad.yaml:4: problem.k:",
       "2147483649 exceeds 2147483647"},
      {"m = 2^31", "problem:\n  m: 2147483648\n  n: 2\n  k: 2\n", {}, "bad.yaml:2: problem.m:", "exceeds 2147483647"},
      {"sweep k over INT_MAX", "problem:\n  sizes:\n    - {m: 2, n: 2, k: 4294967296}\n", {},
       "bad.yaml:3: problem.sizes[0].k:", "exceeds 2147483647"},
      {"k over INT_MAX by --set", "problem:\n  n: 4\n", {"problem.k=2200000001", "problem.m=2"}, "--set problem.k:",
       "2200000001 exceeds 2147483647"},
      {"ones in float beyond 2^24", "problem:\n  m: 2\n  n: 2\n  k: 16777217\n  init: ones\n", {},
       "bad.yaml:5: problem.init:", "exact in float only for k <= 16777216"},
      {"closed_form in float beyond 2^24", "problem:\n  sizes: [4, {m: 1, n: 1, k: 20000000}]\n  init: closed_form\n",
       {}, "bad.yaml:3: problem.init:", "problem.sizes[1] has k = 20000000"},
      {"calibration_n over INT_MAX", "problem: {n: 4}\nparallel:\n  decomposition: {weights: auto, calibration_n: 2147483648}\n",
       {}, "bad.yaml:3: parallel.decomposition.calibration_n:", "exceeds 2147483647"},
      {"sizes item 0", "problem:\n  sizes: [4, 0]\n", {}, "bad.yaml:2: problem.sizes[1]:", "got '0'"},
      {"sizes map item", "problem:\n  sizes:\n    - {m: 2, n: 3}\n", {}, "bad.yaml:3: problem.sizes[0].k:",
       "missing required key"},
      {"empty sizes", "problem:\n  sizes: []\n", {}, "bad.yaml:2: problem.sizes:", "non-empty list"},
      {"identity with k != n", "problem:\n  m: 4\n  n: 5\n  k: 4\n  init: identity\n", {}, "bad.yaml:5: problem.init:",
       "k == n"},
      {"unknown init", "problem:\n  n: 4\n  init: zeros\n", {}, "bad.yaml:3: problem.init:", "unknown init 'zeros'"},
      {"negative seed", "problem:\n  n: 4\n  seed: -1\n", {}, "bad.yaml:3: problem.seed:", "expected an integer >= 0"},
      {"unknown dtype", "problem:\n  n: 4\n  dtype: half\n", {}, "bad.yaml:3: problem.dtype:",
       "unknown dtype 'half'; expected one of float, double"},
      {"dtype typo", "problem:\n  n: 4\n  dtype: [float, doubel]\n", {}, "bad.yaml:3: problem.dtype[1]:",
       "did you mean 'double'?"},
      {"duplicate dtype", "problem:\n  n: 4\n  dtype: [float, float]\n", {}, "bad.yaml:3: problem.dtype[1]:",
       "duplicate dtype"},
      {"unknown kernel", "problem: {n: 4}\nkernels:\n  - naive\n  - tild\n", {}, "bad.yaml:4: kernels[1]:",
       "unknown kernel 'tild'; did you mean 'tiled'?"},
      {"unknown kernel in a map", "problem: {n: 4}\nkernels:\n  - name: cublas\n", {}, "bad.yaml:3: kernels[0].name:",
       "unknown kernel 'cublas'"},
      {"kernel map without name", "problem: {n: 4}\nkernels:\n  - tile: [1]\n", {}, "bad.yaml:3: kernels[0].name:",
       "missing required key"},
      {"unknown kernel key", "problem: {n: 4}\nkernels:\n  - name: tiled\n    tiles: [1, 2, 3]\n", {},
       "bad.yaml:4: kernels[0].tiles:", "did you mean 'tile'?"},
      {"tile with 2 values on tiled", "problem: {n: 4}\nkernels:\n  - name: tiled\n    tile: [64, 64]\n", {},
       "bad.yaml:4: kernels[0].tile:", "tiled takes tile: [block_m, block_n, block_k]"},
      {"thread_tile with 3 values", "problem: {n: 4}\nkernels:\n  - {name: tiled, thread_tile: [1, 2, 3]}\n", {},
       "bad.yaml:3: kernels[0].thread_tile:", "got 3 values"},
      {"tile on naive", "problem: {n: 4}\nkernels:\n  - name: naive\n    tile: [16]\n", {},
       "bad.yaml:4: kernels[0].tile:", "naive takes no tile"},
      {"tile on vendor", "problem: {n: 4}\nkernels:\n  - {name: vendor, tile: [16]}\n", {},
       "bad.yaml:3: kernels[0].tile:", "vendor takes no tile"},
      {"thread_tile on shared", "problem: {n: 4}\nkernels:\n  - {name: shared, tile: [16], thread_tile: [2, 2]}\n",
       {}, "bad.yaml:3: kernels[0].thread_tile:", "shared takes no thread_tile"},
      {"tile 0", "problem: {n: 4}\nkernels:\n  - {name: shared, tile: [0]}\n", {}, "bad.yaml:3: kernels[0].tile[0]:",
       "expected an integer >= 1"},
      {"empty kernels", "problem: {n: 4}\nkernels: []\n", {}, "bad.yaml:2: kernels:", "non-empty list"},
      {"unknown backend", "problem: {n: 4}\nrun:\n  backend: hip\n", {}, "bad.yaml:3: run.backend:",
       "unknown backend 'hip'; expected one of serial, openmp, cuda"},
      {"unknown backend in a list", "problem: {n: 4}\nrun:\n  backend: [cuda, opnmp]\n", {},
       "bad.yaml:3: run.backend[1]:", "did you mean 'openmp'?"},
      {"repetitions 0", "problem: {n: 4}\nrun:\n  repetitions: 0\n", {}, "bad.yaml:3: run.repetitions:",
       "expected an integer >= 1, got '0'"},
      {"warmup -1", "problem: {n: 4}\nrun:\n  warmup: -1\n", {}, "bad.yaml:3: run.warmup:", "expected an integer >= 0"},
      {"warmup too large", "problem: {n: 4}\nrun:\n  warmup: 3000000000\n", {}, "bad.yaml:3: run.warmup:",
       "<= 2147483647"},
      {"rotate_inputs not a bool", "problem: {n: 4}\nrun:\n  rotate_inputs: maybe\n", {},
       "bad.yaml:3: run.rotate_inputs:", "expected true or false, got 'maybe'"},
      {"tolerance -1", "problem: {n: 4}\nverify:\n  tolerance: -1\n", {}, "bad.yaml:3: verify.tolerance:",
       "expected a number > 0, got '-1'"},
      {"tolerance inf", "problem: {n: 4}\nverify:\n  tolerance: .inf\n", {}, "bad.yaml:3: verify.tolerance:",
       "expected a number > 0"},
      {"report a list", "problem: {n: 4}\noutput:\n  report: [a]\n", {}, "bad.yaml:3: output.report:", "got a list"},
      {"rows with a negative entry", "problem: {n: 4}\nparallel:\n  decomposition:\n    rows: [2, -1, 3]\n", {},
       "bad.yaml:4: parallel.decomposition.rows[1]:", "expected an integer >= 0, got '-1'"},
      {"rows all zero", "problem: {n: 4}\nparallel:\n  decomposition: {rows: [0, 0]}\n", {},
       "bad.yaml:3: parallel.decomposition.rows:", "at least one rank"},
      {"weights with 0", "problem: {n: 4}\nparallel:\n  decomposition:\n    weights: [1, 0]\n", {},
       "bad.yaml:4: parallel.decomposition.weights[1]:", "expected a number > 0, got '0'"},
      {"rows and weights", "problem: {n: 4}\nparallel:\n  decomposition:\n    rows: [4]\n    weights: [1]\n", {},
       "bad.yaml:5: parallel.decomposition.weights:", "exclusive"},
      {"calibration_n without auto", "problem: {n: 4}\nparallel:\n  decomposition:\n    weights: [1]\n"
       "    calibration_n: 64\n", {}, "bad.yaml:5: parallel.decomposition.calibration_n:", "weights: auto"},
      {"unknown decomposition", "problem: {n: 4}\nparallel:\n  decomposition: uneven\n", {},
       "bad.yaml:3: parallel.decomposition:", "expected even"},
      {"grid and rows", "problem: {n: 4}\nparallel:\n  decomposition:\n    grid: [2, 2]\n    rows: [4]\n", {},
       "bad.yaml:5: parallel.decomposition.rows:", "exclusive with parallel.decomposition.grid"},
      {"grid and weights", "problem: {n: 4}\nparallel:\n  decomposition:\n    weights: auto\n    grid: auto\n", {},
       "bad.yaml:4: parallel.decomposition.weights:", "exclusive with parallel.decomposition.grid"},
      {"grid of one value", "problem: {n: 4}\nparallel:\n  decomposition: {grid: [4]}\n", {},
       "bad.yaml:3: parallel.decomposition.grid:", "expected [p, q]"},
      {"grid as text", "problem: {n: 4}\nparallel:\n  decomposition: {grid: 2x2}\n", {},
       "bad.yaml:3: parallel.decomposition.grid:", "expected [p, q] (process rows, process columns; integers >= 1) or auto"},
      {"grid with 0", "problem: {n: 4}\nparallel:\n  decomposition:\n    grid: [0, 2]\n", {},
       "bad.yaml:4: parallel.decomposition.grid[0]:", "expected an integer >= 1, got '0'"},
      {"panel 0", "problem: {n: 4}\nparallel:\n  decomposition:\n    grid: [2, 2]\n    panel: 0\n", {},
       "bad.yaml:5: parallel.decomposition.panel:", "expected an integer >= 1, got '0'"},
      {"panel -8 by --set", "problem: {n: 4}\nparallel: {decomposition: {grid: auto}}\n",
       {"parallel.decomposition.panel=-8"}, "--set parallel.decomposition.panel:", "expected an integer >= 1"},
      {"panel without grid", "problem: {n: 4}\nparallel:\n  decomposition:\n    rows: [4]\n    panel: 8\n", {},
       "bad.yaml:5: parallel.decomposition.panel:", "only with parallel.decomposition.grid"},
      {"unknown overlap", "problem: {n: 4}\nparallel:\n  decomposition: {grid: auto, overlap: async}\n", {},
       "bad.yaml:3: parallel.decomposition.overlap:", "unknown overlap 'async'; expected one of auto, ibcast, none"},
      {"unknown transfer", "problem: {n: 4}\nparallel:\n  decomposition: {grid: auto, transfer: stage}\n", {},
       "bad.yaml:3: parallel.decomposition.transfer:", "did you mean 'staged'?"},
      {"scalapack without a grid", "problem: {n: 4}\nkernels:\n  - naive\n  - scalapack\n", {},
       "bad.yaml:4: kernels[1]:", "needs a process grid"},
      {"scalapack takes no tile", "problem: {n: 4}\nkernels: [{name: scalapack, tile: [8]}]\nparallel: {decomposition: {grid: auto}}\n",
       {}, "bad.yaml:2: kernels[0].tile:", "scalapack takes no tile"},
      {"unknown data mode", "problem: {n: 4}\nparallel:\n  data: gather\n", {}, "bad.yaml:3: parallel.data:",
       "unknown data mode 'gather'; expected one of scatter, local"},
      {"duplicate key", "problem:\n  n: 4\n  n: 5\n", {}, "bad.yaml:3: problem.n:", "duplicate key"},
      {"malformed YAML", "problem:\n  n: [4\n  dtype: float\n", {}, "bad.yaml:", "malformed YAML"},
      {"malformed YAML, tab", "problem:\n\tn: 4\n", {}, "bad.yaml:", "malformed YAML"},
      {"not a map", "- problem\n", {}, "bad.yaml:1:", "expected a map of sections"},
      {"two documents", "problem: {n: 4}\n---\nproblem: {n: 5}\n", {}, "bad.yaml:3:", "one YAML document"},
      {"empty file", "", {}, "bad.yaml:", "empty deck"},
      {"only comments", "# nothing here\n", {}, "bad.yaml:", "empty deck"},
      {"bad --set: no '='", ok, {"problem.n"}, "--set problem.n:", "expected KEY=VALUE"},
      {"bad --set: unknown key", ok, {"problem.nn=4"}, "--set problem.nn:", "unknown key; did you mean 'n'?"},
      {"bad --set: unknown section", ok, {"problm.n=4"}, "--set problm.n:", "unknown key 'problm'; did you mean 'problem'?"},
      {"bad --set: into a list", ok, {"kernels.name=naive"}, "--set kernels.name:", "kernels is a list"},
      {"bad --set: into a value", ok, {"problem.n.m=4"}, "--set problem.n.m:", "problem.n is a value"},
      {"bad --set: empty segment", ok, {"problem..n=4"}, "--set problem..n:", "empty key name"},
      {"bad --set: bad value", ok, {"problem.n=0"}, "--set problem.n:", "expected an integer >= 1, got '0'"},
      {"bad --set: bad list item", ok, {"problem.dtype=[float, half]"}, "--set problem.dtype[1]:", "unknown dtype 'half'"},
      {"bad --set: malformed value", ok, {"problem.dtype=[float"}, "--set problem.dtype:", "malformed YAML value"},
      {"noise_threshold above 1", "problem: {n: 4}\nrun:\n  noise_threshold: 5\n", {}, "bad.yaml:3: run.noise_threshold:",
       "expected a fraction in (0, 1] (0.05) or a percentage ('5%'), got '5'"},
      {"noise_threshold 0", "problem: {n: 4}\nrun: {noise_threshold: 0}\n", {}, "bad.yaml:2: run.noise_threshold:",
       "expected a fraction in (0, 1]"},
      {"noise_threshold over 100%", ok, {"run.noise_threshold=150%"}, "--set run.noise_threshold:", "got '150%'"},
      {"noise_threshold not a number", ok, {"run.noise_threshold=low"}, "--set run.noise_threshold:", "got 'low'"},
      {"unknown math mode", "problem: {n: 4}\nrun:\n  math: tf32\n", {}, "bad.yaml:3: run.math:",
       "unknown math mode 'tf32'; expected one of auto, simt"},
      {"math mode not a scalar", "problem: {n: 4}\nrun:\n  math: [simt]\n", {}, "bad.yaml:3: run.math:", "got a list"},
      {"bad --set math mode", ok, {"run.math=tensor"}, "--set run.math:", "unknown math mode 'tensor'"},
      {"until_stable: a string", "problem: {n: 4}\nrun:\n  until_stable: yes please\n", {},
       "bad.yaml:3: run.until_stable:", "expected false, true or a map {max_cv, max_seconds, max_repetitions}"},
      {"until_stable: unknown key", "problem: {n: 4}\nrun:\n  until_stable:\n    max_time: 3\n", {},
       "bad.yaml:4: run.until_stable.max_time:", "unknown key; expected one of max_cv, max_seconds, max_repetitions"},
      {"until_stable: max_seconds 0", ok, {"run.until_stable.max_seconds=0"}, "--set run.until_stable.max_seconds:",
       "expected a number > 0"},
      {"until_stable: max_cv 2", ok, {"run.until_stable.max_cv=2"}, "--set run.until_stable.max_cv:",
       "expected a fraction in (0, 1]"},
      {"until_stable: max_repetitions under repetitions", "problem: {n: 4}\nrun:\n  repetitions: 9\n  until_stable: {max_repetitions: 8}\n",
       {}, "bad.yaml:4: run.until_stable.max_repetitions:", "expected an integer >= run.repetitions (9), got '8'"},
  }));
  INFO(bad.what);
  const std::string msg = error_of(bad.yaml, bad.overrides);
  INFO(msg);
  CHECK(msg.rfind(bad.prefix, 0) == 0);
  CHECK(contains(msg, bad.fragment));
  CHECK_FALSE(contains(msg, "\n"));
}

TEST_CASE("config: unreadable deck files", "[config]") {
  const std::string missing = kInputs + "/no-such-deck.yaml";
  try {
    parse_deck(missing);
    FAIL("no DeckError for a missing file");
  } catch (const DeckError& e) {
    CHECK(std::string(e.what()) == missing + ": cannot open: No such file or directory");
  }
  try {
    parse_deck(kInputs);  // a directory is refused before it is opened
    FAIL("no DeckError for a directory");
  } catch (const DeckError& e) {
    CHECK(std::string(e.what()) == kInputs + ": not a deck file: a directory (a deck is a regular YAML file)");
  }
}

TEST_CASE("config: an error in a deck file names the file and its line", "[config]") {
  // The deck file is good; an override makes the error, and the file's own
  // messages carry the path as given.
  try {
    parse_deck(kInputs + "/default.yaml", {"run.repetitions=0"});
    FAIL("no DeckError");
  } catch (const DeckError& e) {
    CHECK(std::string(e.what()) == "--set run.repetitions: expected an integer >= 1, got '0'");
  }
  try {
    parse_deck(kInputs + "/identity.yaml", {"problem.m=3", "problem.k=3"});
    FAIL("no DeckError");
  } catch (const DeckError& e) {
    CHECK(std::string(e.what()) == kInputs + "/identity.yaml:" + std::to_string(line_of(kInputs + "/identity.yaml", "  init:")) +
                                       ": problem.init: identity sets B = I, which needs k == n, "
                                       "but the problem has k = 3, n = 203");
  }
}

TEST_CASE("config: tiled takes prefetch, other kernels do not", "[config]") {
  const Config c = parse("problem: {n: 64}\nkernels:\n  - {name: tiled, prefetch: false}\n  - tiled\n");
  REQUIRE(c.kernels.size() == 2);
  CHECK(c.kernels[0].prefetch == 0);
  CHECK(c.kernels[1].prefetch == -1);
  require_round_trip(c);
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: naive, prefetch: true}]\n"),
                    Catch::Matchers::ContainsSubstring("naive takes no prefetch"));
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: tiled, prefetch: 3}]\n"),
                    Catch::Matchers::ContainsSubstring("prefetch"));
}

TEST_CASE("config: tile: auto for tiled and shared, alone", "[config]") {
  const Config c = parse("problem: {n: 64}\nkernels:\n  - {name: tiled, tile: auto}\n  - {name: shared, tile: auto}\n");
  REQUIRE(c.kernels.size() == 2);
  CHECK(c.kernels[0].tile_auto);
  CHECK(c.kernels[0].tile.empty());
  CHECK(c.kernels[1].tile_auto);
  require_round_trip(c);
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: naive, tile: auto}]\n"),
                    Catch::Matchers::ContainsSubstring("naive takes no tile"));
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: tiled, tile: auto, thread_tile: [8, 8]}]\n"),
                    Catch::Matchers::ContainsSubstring("exclusive with tile: auto"));
  // Any other string is a tile label (test_cli_flags.cpp), checked against the catalog when resolved.
  CHECK(parse("problem: {n: 64}\nkernels: [{name: tiled, tile: fast}]\n").kernels[0].label == "fast");
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: tiled, tile: [1, 2]}]\n"),
                    Catch::Matchers::ContainsSubstring("[block_m, block_n, block_k], auto or a label"));
}

TEST_CASE("config: tiled takes a variant tag", "[config]") {
  const Config c = parse("problem: {n: 64}\nkernels:\n  - {name: tiled, tile: [128, 128, 8], variant: w32x64 1st vec sw8 lb2}\n");
  REQUIRE(c.kernels.size() == 1);
  CHECK(c.kernels[0].variant == "w32x64 1st vec sw8 lb2");
  require_round_trip(c);
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: shared, variant: x}]\n"),
                    Catch::Matchers::ContainsSubstring("shared takes no variant"));
  CHECK_THROWS_WITH(parse("problem: {n: 64}\nkernels: [{name: tiled, tile: auto, variant: x}]\n"),
                    Catch::Matchers::ContainsSubstring("exclusive with tile: auto"));
}

TEST_CASE("config: fuzzer findings stay fixed (tests/fuzz/regressions)", "[config]") {
  // 01: deck text quoted in a message kept its control characters, so the
  // one-line message spanned lines (a quoted key "ru\nn", a NUL in a key).
  const std::string key = error_of("problem: {n: 4}\n\"ru\\nn\": 1\n");
  CHECK(key.rfind("bad.yaml:2: ru\\nn: unknown key", 0) == 0);
  CHECK_FALSE(contains(key, "\n"));
  const std::string value = error_of("problem: {n: \"4\\t\\u0001\"}\n");
  CHECK(contains(value, "got '4\\t\\x01'"));
  CHECK_FALSE(contains(value, "\t"));
  // 02: NUL bytes (yaml-cpp reads the text as UTF-32 and sees nothing).
  const char with_nul[] = "problem: {n: 4}\n\0\0\0,x: 1\n";
  CHECK(error_of(std::string(with_nul, sizeof with_nul - 1)) ==
        "bad.yaml:2: not a text deck: a NUL byte (decks are UTF-8 YAML)");
  // 03: a stray ',' before the first node: yaml-cpp's LoadAll looped for ever
  // (a hang, then out of memory); now a malformed-YAML error at once.
  CHECK(contains(error_of(", 147483648: 4}\nkernels:\n  - tile: [1]\n"), "bad.yaml: malformed YAML"));
  CHECK(contains(error_of("]\n"), "malformed YAML"));
  // Two documents are still told apart from one.
  CHECK(error_of("problem: {n: 4}\n---\nproblem: {n: 5}\n") == "bad.yaml:3: expected one YAML document, found 2");
}
