// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// test_cli_flags.cpp — what the command line hands the deck parser and
// Kokkos (issue 23 item 1, issue 24 items 3, 5, 6, 7): printable() for user
// text in messages, the Kokkos flags checked and translated for Kokkos 3.4
// and 4.x, KOKKOS_TOOLS_LIBS on 3.4, verbatim --report / --backend strings,
// `--set` and flag attribution of messages, deck files that are not regular
// files or too large, and every label of --list accepted back by `tile:`.
// No MPI; the label round trip resolves against the compiled catalog.
#include "core/exec_spaces.hpp"
#include "core/kokkos_args.hpp"
#include "core/printable.hpp"
#include "deck/config.hpp"
#include "driver/listing.hpp"
#include "driver/resolve_kernel.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include <sys/stat.h>
#include <unistd.h>

using namespace mmapp;
using Catch::Matchers::ContainsSubstring;

namespace {

std::string error_of(const std::string& yaml, const std::vector<std::string>& sets = {},
                     const std::vector<FlagOverride>& flags = {}) {
  try {
    parse_deck_string(yaml, "deck.yaml", sets, flags);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

std::string file_error(const std::string& path) {
  try {
    parse_deck(path);
  } catch (const DeckError& e) {
    return e.what();
  }
  return "";
}

/// A fresh private folder for files of one test (removed at the end).
struct TempDir {
  std::filesystem::path path;
  TempDir() {
    char tmpl[] = "/tmp/mmapp-cli-XXXXXX";
    path = mkdtemp(tmpl);
  }
  ~TempDir() { std::filesystem::remove_all(path); }
};

}  // namespace

TEST_CASE("printable: control characters, bidi overrides, invalid UTF-8, truncation", "[cli]") {
  CHECK(printable("plain text") == "plain text");
  CHECK(printable("a\nb\rc\td\x01\x7f") == "a\\nb\\rc\\td\\x01\\x7f");
  CHECK(printable("caf\xc3\xa9 \xe6\x97\xa5") == "caf\xc3\xa9 \xe6\x97\xa5");  // letters stay
  CHECK(printable("a\xe2\x80\xae" "b") == "a\\u202eb");                       // RIGHT-TO-LEFT OVERRIDE
  CHECK(printable("\xe2\x81\xa6x\xe2\x81\xa9") == "\\u2066x\\u2069");        // isolates
  CHECK(printable("\xef\xbb\xbf") == "\\ufeff");
  CHECK(printable("\xc2\x85") == "\\u0085");                                   // C1 NEL
  CHECK(printable("\xf3\xa0\x80\x81") == "\\U000e0001");                       // tag
  CHECK(printable("\xff\xc3") == "\\xff\\xc3");                                // invalid, truncated sequence
  CHECK(printable("\xc0\xaf") == "\\xc0\\xaf");                                // overlong '/'
  CHECK(printable("\xed\xa0\x80") == "\\xed\\xa0\\x80");                       // surrogate
  const std::string big(1 << 20, 'v');
  const std::string shown = printable(big);
  CHECK(shown == std::string(kMaxShownChars, 'v') + "...[+" + std::to_string(big.size() - kMaxShownChars) + " bytes]");
  CHECK(printable(printable("x\x1b\xe2\x80\xae")) == printable("x\x1b\xe2\x80\xae"));  // idempotent
  CHECK(quoted("it") == "'it'");
}

TEST_CASE("deck messages: a 1 MB value or key and U+202E are truncated and escaped", "[cli]") {
  const std::string huge(1 << 20, 'y');
  const std::string value = error_of("problem: {n: '" + huge + "'}\n");
  CHECK_THAT(value, ContainsSubstring("deck.yaml:1: problem.n: expected an integer >= 1, got 'yyyy"));
  CHECK_THAT(value, ContainsSubstring("...[+"));
  CHECK(value.size() < 400);
  const std::string key = error_of("problem:\n  n: 4\n  ? " + huge + "\n  : 1\n");  // an explicit key: any length
  CHECK_THAT(key, ContainsSubstring("unknown key"));
  CHECK(key.size() < 600);
  const std::string bidi = error_of("problem: {n: \"\\u202e4\"}\n");
  CHECK_THAT(bidi, ContainsSubstring("got '\\u202e4'"));
  CHECK(bidi.find("\xe2\x80\xae") == std::string::npos);
  const std::string set = error_of("problem: {n: 4}\n", {"problem.n=" + huge});
  CHECK(set.rfind("--set problem.n: ", 0) == 0);
  CHECK(set.size() < 400);
  const std::string set_key = error_of("problem: {n: 4}\n", {"run." + huge + "\xe2\x80\xae=1"});
  CHECK(set_key.rfind("--set run.yyy", 0) == 0);
  CHECK(set_key.size() < 600);
  CHECK(set_key.find("\xe2\x80\xae") == std::string::npos);
}

TEST_CASE("kokkos flags: translated for Kokkos 3.4 and 4.x", "[cli]") {
  for (const std::string flag : {"--kokkos-num-threads=2", "--kokkos-threads=2"}) {
    const KokkosArgs old = translate_kokkos_args({flag}, 30401);
    CHECK(old.error.empty());
    CHECK(old.args == std::vector<std::string>{"--kokkos-threads=2"});
    CHECK(old.threads == 2);
    const KokkosArgs now = translate_kokkos_args({flag}, 40601);
    CHECK(now.args == std::vector<std::string>{"--kokkos-num-threads=2"});
  }
  CHECK(translate_kokkos_args({"--kokkos-num-threads=2"}, 30401).notes.size() == 1);
  CHECK(translate_kokkos_args({"--kokkos-tools-libs=libx.so"}, 30401).args ==
        std::vector<std::string>{"--kokkos-tools-library=libx.so"});
  CHECK(translate_kokkos_args({"--kokkos-tools-library=libx.so"}, 40601).args ==
        std::vector<std::string>{"--kokkos-tools-libs=libx.so"});
  CHECK(translate_kokkos_args({"--kokkos-disable-warnings=yes"}, 30401).args ==
        std::vector<std::string>{"--kokkos-disable-warnings"});
  CHECK(translate_kokkos_args({"--kokkos-disable-warnings=false"}, 30401).args.empty());
  CHECK(translate_kokkos_args({"--kokkos-num-devices=2,1"}, 30401).args ==
        std::vector<std::string>{"--kokkos-num-devices=2,1"});
  CHECK(translate_kokkos_args({"--kokkos-device-id=0"}, 30401).args ==
        std::vector<std::string>{"--kokkos-device-id=0"});
  const KokkosArgs help = translate_kokkos_args({"--kokkos-help"}, 30401);
  CHECK(help.help);
  CHECK(help.error.empty());
}

TEST_CASE("kokkos flags: an unknown flag or a bad value is an error naming the flag", "[cli]") {
  const std::vector<std::pair<std::string, std::string>> bad{
      {"--kokkos-bogus=3", "unknown Kokkos flag"},
      {"--kokkos-threads=abc", "expected the number of host threads"},
      {"--kokkos-threads=0", "expected the number of host threads"},
      {"--kokkos-threads=-2", "expected the number of host threads"},
      {"--kokkos-threads=", "expected the number of host threads"},
      {"--kokkos-threads", "expected the number of host threads"},
      {"--kokkos-num-threads=99999999999999999999", "expected the number of host threads"},
      {"--kokkos-num-threads=1.5", "expected the number of host threads"},
      {"--kokkos-device-id=-1", "expected a device id"},
      {"--kokkos-num-devices=0", "expected DEVICES[,SKIP]"},
      {"--kokkos-num-devices=2,x", "expected DEVICES[,SKIP]"},
      {"--kokkos-disable-warnings=maybe", "expected no value or true/false"},
      {"--kokkos-help=1", "takes no value"},
      {"--kokkos-tools-libs=", "non-empty"},
  };
  for (int version : {30401, 40601})
    for (const auto& [flag, why] : bad) {
      const KokkosArgs k = translate_kokkos_args({"--kokkos-num-threads=1", flag}, version);
      INFO(flag << " on " << version);
      CHECK(k.error.rfind(flag + ": ", 0) == 0);
      CHECK_THAT(k.error, ContainsSubstring(why));
    }
  CHECK_THAT(translate_kokkos_args({"--kokkos-map-device-id-by=mpi_rank"}, 30401).error,
             ContainsSubstring("not taken by Kokkos 3.4.1"));
  CHECK(translate_kokkos_args({"--kokkos-map-device-id-by=mpi_rank"}, 40601).error.empty());
  // a flag of 1 MB with a bidi override is shown truncated and escaped
  const std::string huge = "--kokkos-x" + std::string(1 << 20, 'z') + "\xe2\x80\xae";
  const std::string e = translate_kokkos_args({huge}, 30401).error;
  CHECK(e.size() < 1000);
  CHECK(e.find("\xe2\x80\xae") == std::string::npos);
  CHECK(is_kokkos_flag("--kokkos-threads=2"));
  CHECK_FALSE(is_kokkos_flag("--kokkos-info"));
  CHECK(kokkos_flag_takes_value("--kokkos-threads"));
  CHECK_FALSE(kokkos_flag_takes_value("--kokkos-disable-warnings"));
}

TEST_CASE("KOKKOS_TOOLS_LIBS is passed on as KOKKOS_PROFILE_LIBRARY where Kokkos reads only that", "[cli]") {
  const char* saved_libs = std::getenv("KOKKOS_TOOLS_LIBS");
  const char* saved_profile = std::getenv("KOKKOS_PROFILE_LIBRARY");
  const std::string keep_libs = saved_libs ? saved_libs : "", keep_profile = saved_profile ? saved_profile : "";
  setenv("KOKKOS_TOOLS_LIBS", "/opt/tools/libkp_kernel_timer.so", 1);
  unsetenv("KOKKOS_PROFILE_LIBRARY");
  const ToolsEnv fresh = forward_kokkos_tools_libs(40601);  // reads KOKKOS_TOOLS_LIBS itself
  CHECK(fresh.note.empty());
  CHECK(std::getenv("KOKKOS_PROFILE_LIBRARY") == nullptr);
  const ToolsEnv old = forward_kokkos_tools_libs(30401);
  CHECK_THAT(old.note, ContainsSubstring("KOKKOS_TOOLS_LIBS=/opt/tools/libkp_kernel_timer.so passed on"));
  REQUIRE(std::getenv("KOKKOS_PROFILE_LIBRARY") != nullptr);
  CHECK(std::string(std::getenv("KOKKOS_PROFILE_LIBRARY")) == "/opt/tools/libkp_kernel_timer.so");
  setenv("KOKKOS_PROFILE_LIBRARY", "/other.so", 1);
  CHECK_THAT(forward_kokkos_tools_libs(30401).error, ContainsSubstring("differ"));
  if (saved_libs) setenv("KOKKOS_TOOLS_LIBS", keep_libs.c_str(), 1); else unsetenv("KOKKOS_TOOLS_LIBS");
  if (saved_profile) setenv("KOKKOS_PROFILE_LIBRARY", keep_profile.c_str(), 1); else unsetenv("KOKKOS_PROFILE_LIBRARY");
}

TEST_CASE("--report and --backend are verbatim strings, never YAML", "[cli]") {
  for (const std::string path : {"out/a #1.json", "~", "null", "*.json", "[x]", "{a: 1}", "&a", "'q'", "-", ""}) {
    const Config c = parse_deck_string("problem: {n: 4}\noutput: {report: deck.json}\n", "deck.yaml", {},
                                       {{"output.report", path, "--report"}});
    CHECK(c.report_path == path);
    // and the resolved deck records it as such
    CHECK(parse_deck_string(c.resolved_yaml, "again.yaml").report_path == path);
  }
  // the deck's own output.report stays YAML
  CHECK(parse_deck_string("problem: {n: 4}\noutput: {report: ~}\n", "d.yaml").report_path.empty());
  // a flag's message names the flag
  const std::string e = error_of("problem: {n: 4}\n", {}, {{"run.backend", "hip #x", "--backend"}});
  CHECK(e.rfind("--backend: unknown backend 'hip #x'", 0) == 0);
}

TEST_CASE("messages about --set values say --set KEY, whenever they are found", "[cli]") {
  const Config c = parse_deck_string("problem: {n: 4}\nrun:\n  backend: openmp\n", "deck.yaml", {"run.backend=cuda"});
  CHECK(c.where("run.backend") == "--set run.backend");
  const Config d = parse_deck_string("problem: {n: 4}\nrun:\n  backend: openmp\n", "deck.yaml");
  CHECK(d.where("run.backend") == "deck.yaml:3: run.backend");
  const Config f = parse_deck_string("problem: {n: 4}\n", "deck.yaml", {}, {{"run.backend", "cuda", "--backend"}});
  CHECK(f.where("run.backend") == "--backend");
  const Config r = parse_deck_string("problem: {n: 4}\n", "deck.yaml", {"parallel.decomposition.rows=[5]"});
  CHECK(r.prefix("parallel.decomposition.rows") == "--set ");
  const Config rd = parse_deck_string("problem: {n: 4}\nparallel:\n  decomposition: {rows: [5]}\n", "deck.yaml");
  CHECK(rd.prefix("parallel.decomposition.rows") == "deck.yaml:3: ");
  const Config k = parse_deck_string("problem: {n: 4}\nkernels: [naive]\n", "deck.yaml", {"kernels=[naive, tiled]"});
  CHECK(k.kernels[1].where == "--set kernels[1]");
  const Config kd = parse_deck_string("problem: {n: 4}\nkernels:\n  - naive\n  - tiled\n", "deck.yaml");
  CHECK(kd.kernels[1].where == "deck.yaml:4: kernels[1]");
}

TEST_CASE("deck files: FIFOs, devices, directories and oversized files are refused at once", "[cli]") {
  TempDir dir;
  const std::string fifo = (dir.path / "deck.yaml").string();
  REQUIRE(mkfifo(fifo.c_str(), 0600) == 0);
  const auto t0 = std::chrono::steady_clock::now();
  CHECK(file_error(fifo) == fifo + ": not a deck file: a FIFO (named pipe) (a deck is a regular YAML file)");
  CHECK(std::chrono::steady_clock::now() - t0 < std::chrono::seconds(5));  // never blocks on open
  CHECK(file_error("/dev/zero") == "/dev/zero: not a deck file: a character device (a deck is a regular YAML file)");
  CHECK_THAT(file_error(dir.path.string()), ContainsSubstring("a directory"));
  const std::string big = (dir.path / "big.yaml").string();
  {
    std::ofstream out(big);
    out << "problem: {n: 4}\n# " << std::string(kMaxDeckBytes, 'x') << "\n";
  }
  CHECK_THAT(file_error(big), ContainsSubstring(big + ": too large for a deck: "));
  CHECK_THAT(file_error(big), ContainsSubstring("1048576 bytes (1 MiB)"));
  const std::string ok = (dir.path / "ok.yaml").string();
  {
    std::ofstream out(ok);
    out << "problem: {n: 4}\n# " << std::string(kMaxDeckBytes - 100, 'x') << "\n";
  }
  CHECK(parse_deck(ok).sizes.front().n == 4);
}

namespace {

/// Resolves `tile: LABEL` for one listed variant on its backend and dtype:
/// the variant resolved must print the same label.
template <class T>
std::string resolved_label(const ListedVariant& v) {
  const Config c = parse_deck_string("problem: {n: 64}\nkernels:\n  - {name: " + v.kernel + ", tile: \"" + v.label +
                                         "\"}\n",
                                     "labels.yaml");
  return with_backend(v.backend, [&](auto space) {
    using Space = decltype(space);
    return tile_label(resolve_kernel<Space, T>(c.kernels.front(), c.deck_path, 0, 64, 64, 64).variant.shape());
  });
}

}  // namespace

namespace {

/// Under run.math: simt, resolves `tile: LABEL` of one listed variant:
/// returns "" when it resolves to that variant, the error message when it is
/// refused; `tensor_cores` says whether the variant runs on tensor cores.
template <class T>
std::string resolved_under_simt(const ListedVariant& v, bool& tensor_cores) {
  const Config c = parse_deck_string("problem: {n: 64}\nrun: {math: simt}\nkernels:\n  - {name: " + v.kernel +
                                         ", tile: \"" + v.label + "\"}\n",
                                     "simt.yaml");
  return with_backend(v.backend, [&](auto space) -> std::string {
    using Space = decltype(space);
    const auto plain = resolve_kernel<Space, T>(c.kernels.front(), c.deck_path, 0, 64, 64, 64).variant;
    tensor_cores = uses_tensor_cores(plain.math);
    try {
      const auto r = resolve_kernel<Space, T>(c.kernels.front(), c.deck_path, 0, 64, 64, 64, true, c.where("run.math"));
      return tile_label(r.variant.shape()) == v.label ? "" : "resolved to " + r.variant.shape();
    } catch (const DeckError& e) {
      return e.what();
    }
  });
}

/// Under run.math: simt, the default variant of `kernel` for an m x n x k
/// problem on every backend: never a tensor-core one.
template <class T>
void default_is_simt(const std::string& kernel, long m, long n, long k) {
  const Config c = parse_deck_string("problem: {n: 64}\nrun: {math: simt}\nkernels: [" + kernel + "]\n", "simt.yaml");
  for (const auto& b : enabled_backends())
    with_backend(b, [&](auto space) {
      using Space = decltype(space);
      const auto r = resolve_kernel<Space, T>(c.kernels.front(), c.deck_path, 0, m, n, k, true, c.where("run.math"));
      INFO(b << " " << kernel << " " << m << "x" << n << "x" << k << ": " << r.variant.shape() << " (" << r.selection << ")");
      CHECK_FALSE(uses_tensor_cores(r.variant.math));
      CHECK(r.selection.find("tensor") == std::string::npos);
      return 0;
    });
}

}  // namespace

TEST_CASE("run.math: simt: SIMT variants as before, tensor-core ones refused naming the keys", "[cli][math]") {
  // Every compiled variant: a SIMT one resolves to itself under simt; a
  // tensor-core one (CUDA builds for sm_80 and later) is refused, naming the
  // entry's tile and where run.math was given. The catalog's math field
  // agrees with the tags: tensor cores exactly for "dmma*" and "3xtf32".
  long tc = 0;
  for (const auto& v : listed_variants()) {
    INFO(v.backend << " " << v.dtype << " " << v.kernel << " '" << v.label << "'");
    bool tensor_cores = false;
    const std::string msg = v.dtype == "float" ? resolved_under_simt<float>(v, tensor_cores)
                                               : resolved_under_simt<double>(v, tensor_cores);
    const bool tagged = v.label.find(" dmma") != std::string::npos || v.label.find(" 3xtf32") != std::string::npos;
    CHECK(tensor_cores == tagged);
    if (!tensor_cores) {
      CHECK(msg.empty());
    } else {
      ++tc;
      CHECK_THAT(msg, ContainsSubstring("simt.yaml:4: kernels[0].tile: tiled variant"));
      CHECK_THAT(msg, ContainsSubstring("runs on tensor cores"));
      CHECK_THAT(msg, ContainsSubstring("but simt.yaml:2: run.math is simt"));
    }
  }
  for (const auto& b : enabled_backends())
    with_backend(b, [&](auto space) {
      using Space = decltype(space);
      for (const auto& v : kernel_variants<Space, double>())
        CHECK((v.math == MathPath::vendor) == (v.name == "vendor"));
      return 0;
    });
  // The defaults under simt: the shape rule's SIMT choice, at shapes where
  // auto would take FP64 tensor cores (double on sm_80 and later).
  for (const long n : {64L, 1000L, 4096L}) {
    default_is_simt<double>("tiled", n, n, n);
    default_is_simt<float>("tiled", n, n, n);
  }
  default_is_simt<double>("tiled", 70, 1000, 5000);
  INFO("tensor-core variants compiled: " << tc);
}

TEST_CASE("every label --list prints is accepted back by tile: and names that variant", "[cli]") {
  const auto variants = listed_variants();
  REQUIRE(variants.size() >= enabled_backends().size() * 2 * 4);
  for (const auto& v : variants) {
    INFO(v.backend << " " << v.dtype << " " << v.kernel << " '" << v.label << "'");
    CHECK(v.label.find("  ") == std::string::npos);
    CHECK((v.dtype == "float" ? resolved_label<float>(v) : resolved_label<double>(v)) == v.label);
  }
  // the form the report table prints, pasted back with other blanks
  const Config c = parse_deck_string("problem: {n: 4}\nkernels: [{name: shared, tile: ' 16 '}]\n", "d.yaml");
  CHECK(c.kernels.front().label == "16");
  // --list's own text carries every variant line
  std::ostringstream list;
  print_list(list);
  for (const auto& b : enabled_backends()) CHECK_THAT(list.str(), ContainsSubstring("\nbackend " + b + "\n"));
  CHECK_THAT(list.str(), ContainsSubstring("\nkernel tiled\n"));
  CHECK_THAT(list.str(), ContainsSubstring("\ntransport "));
  // a label that is no variant: the message lists the labels compiled
  const Config bad = parse_deck_string("problem: {n: 4}\nkernels: [{name: tiled, tile: '/3x3 nothing'}]\n", "d.yaml");
  const std::string backend = enabled_backends().front();
  CHECK_THROWS_WITH(with_backend(backend,
                                 [&](auto space) {
                                   using Space = decltype(space);
                                   return resolve_kernel<Space, float>(bad.kernels.front(), "d.yaml", 0, 4, 4, 4)
                                       .selection;
                                 }),
                    ContainsSubstring("d.yaml:2: kernels[0].tile: no tiled variant labelled '/3x3 nothing'"));
  CHECK_THROWS_WITH(parse_deck_string("problem: {n: 4}\nkernels: [{name: tiled, tile: '/4x8', thread_tile: [4, 8]}]\n",
                                      "d.yaml"),
                    ContainsSubstring("exclusive with a tile label"));
}
