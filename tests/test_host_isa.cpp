// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The host ISA dispatcher (miniapp/kernels/host/host_isa.hpp):
//  - the level picked without an override is one this CPU runs, checked
//    against the CPU's flags in /proc/cpuinfo (not the dispatcher's own
//    __builtin_cpu_supports), and no higher compiled level runs here;
//  - every name and alias of a level is understood, an unknown one is not;
//  - choose_host_isa with a fake CPU: the override is obeyed, a level the
//    CPU lacks, an unknown name and a level not compiled are refused with
//    a message naming MMAPP_HOST_ISA; no runnable level at all is refused;
//  - the catalog's host `tiled` micro-tiles are the chosen level's.
// That each level's kernels compute the right product: test_host_gemm.cpp.
// The override end to end (mmapp's exit code 2, the report's host_isa):
// tests/e2e/test_host_isa.py.
#include "core/exec_spaces.hpp"
#include "kernels/catalog.hpp"
#include "kernels/host/host_isa.hpp"

#include <catch2/catch_test_macros.hpp>

#include <fstream>
#include <set>
#include <sstream>
#include <string>
#include <vector>

namespace {

using mmapp::host::HostIsaError;
using mmapp::host::HostIsaKernels;

/// The CPU flags of /proc/cpuinfo's first "flags" line (empty off Linux or x86).
std::set<std::string> cpuinfo_flags() {
  std::ifstream f("/proc/cpuinfo");
  std::string line;
  while (std::getline(f, line))
    if (line.rfind("flags", 0) == 0) {
      std::istringstream in(line.substr(line.find(':') + 1));
      std::set<std::string> s;
      for (std::string w; in >> w;) s.insert(w);
      return s;
    }
  return {};
}

/// Whether the flags hold the x86-64 psABI level's features (the ones that
/// matter to vector code; Linux's names).
bool flags_have_level(const std::set<std::string>& f, int level) {
  const auto has = [&](std::initializer_list<const char*> names) {
    for (const char* n : names)
      if (!f.count(n)) return false;
    return true;
  };
  if (level <= 1) return true;
  const bool v2 = has({"ssse3", "sse4_1", "sse4_2", "popcnt"});
  const bool v3 = v2 && has({"avx", "avx2", "fma", "bmi1", "bmi2"});
  const bool v4 = v3 && has({"avx512f", "avx512bw", "avx512cd", "avx512dq", "avx512vl"});
  return level == 2 ? v2 : level == 3 ? v3 : level == 4 ? v4 : false;
}

/// A fake table of the four x86-64 levels (names and levels only).
std::vector<HostIsaKernels> fake_levels() {
  std::vector<HostIsaKernels> v(4);
  const char* names[] = {"x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64"};
  for (int i = 0; i < 4; ++i) v[i].name = names[i], v[i].level = 4 - i, v[i].count = 0;
  return v;
}

std::vector<const HostIsaKernels*> pointers(const std::vector<HostIsaKernels>& v) {
  std::vector<const HostIsaKernels*> p;
  for (const auto& k : v) p.push_back(&k);
  return p;
}

std::string refusal(const std::string& request, const std::vector<const HostIsaKernels*>& compiled, int max_level) {
  std::string by;
  try {
    mmapp::host::choose_host_isa(request, compiled, [&](int l) { return l <= max_level; }, by);
  } catch (const HostIsaError& e) {
    return e.what();
  }
  return "";
}

}  // namespace

TEST_CASE("host ISA: the dispatcher picks the highest compiled level this CPU runs", "[host_isa]") {
  const auto& compiled = mmapp::host::compiled_host_isas();
  REQUIRE(!compiled.empty());
  for (std::size_t i = 1; i < compiled.size(); ++i) CHECK(compiled[i - 1]->level > compiled[i]->level);
  std::string by;
  const HostIsaKernels& isa =
      mmapp::host::choose_host_isa("", compiled, mmapp::host::cpu_supports_level, by);
  INFO("picked " << isa.name << " among " << compiled.size() << " level(s)");
  CHECK(by == "cpu");
  CHECK(mmapp::host::cpu_supports_level(isa.level));
  for (const auto* k : compiled)
    if (k->level > isa.level) CHECK_FALSE(mmapp::host::cpu_supports_level(k->level));
#if defined(__x86_64__) && defined(__linux__)
  // An independent look at the CPU: /proc/cpuinfo's flags.
  const auto flags = cpuinfo_flags();
  REQUIRE(!flags.empty());
  CHECK(flags_have_level(flags, isa.level));
  for (int level = 1; level <= 4; ++level) {
    INFO("level " << level);
    CHECK(mmapp::host::cpu_supports_level(level) == flags_have_level(flags, level));
  }
  for (const auto* k : compiled)
    if (k->level > isa.level) CHECK_FALSE(flags_have_level(flags, k->level));
#endif
  // The micro-tiles fit the level's registers: MR x NV accumulators, NV vectors of B, one broadcast.
  for (const auto* k : compiled) {
    INFO(k->name);
    REQUIRE(k->count >= 1);
    for (const auto& uk : mmapp::host::isa_kernels<float>(*k)) {
      const int nv = uk.nr * 4 / k->simd_bytes;
      CHECK(uk.nr * 4 % k->simd_bytes == 0);
      CHECK(uk.mr * nv + nv + 1 <= k->simd_registers);
    }
    CHECK(mmapp::host::isa_kernels<double>(*k).size() == std::size_t(k->count));
  }
}

TEST_CASE("host ISA: level names and aliases", "[host_isa]") {
  using mmapp::host::host_isa_level_of;
  for (const char* n : {"x86-64-v4", "avx512", "AVX512", "avx-512"}) CHECK(host_isa_level_of(n) == 4);
  for (const char* n : {"x86-64-v3", "avx2", "AVX2"}) CHECK(host_isa_level_of(n) == 3);
  for (const char* n : {"x86-64-v2", "sse4.2", "SSE4_2"}) CHECK(host_isa_level_of(n) == 2);
  for (const char* n : {"x86-64", "x86-64-v1", "sse2", "baseline"}) CHECK(host_isa_level_of(n) == 1);
  CHECK(host_isa_level_of("generic") == 0);
  for (const char* n : {"", "avx", "x86-64-v5", "neon", "native"}) CHECK(host_isa_level_of(n) == -1);
}

TEST_CASE("host ISA: the override is obeyed, or refused with a clear message", "[host_isa]") {
  const auto levels = fake_levels();
  const auto all = pointers(levels);
  std::string by;
  // A CPU with AVX2 but no AVX-512: the dispatcher takes v3 by itself.
  const auto avx2_cpu = [](int l) { return l <= 3; };
  CHECK(std::string(mmapp::host::choose_host_isa("", all, avx2_cpu, by).name) == "x86-64-v3");
  CHECK(by == "cpu");
  CHECK(std::string(mmapp::host::choose_host_isa("auto", all, avx2_cpu, by).name) == "x86-64-v3");
  // Any lower level on request, by name or alias.
  CHECK(std::string(mmapp::host::choose_host_isa("sse4.2", all, avx2_cpu, by).name) == "x86-64-v2");
  CHECK(by == "MMAPP_HOST_ISA=sse4.2");
  CHECK(std::string(mmapp::host::choose_host_isa("x86-64", all, avx2_cpu, by).name) == "x86-64");
  CHECK(std::string(mmapp::host::choose_host_isa("AVX2", all, avx2_cpu, by).name) == "x86-64-v3");
  // Refused: a level the CPU lacks, an unknown name, a level not compiled.
  const std::string lacks = refusal("avx512", all, 3);
  CHECK(lacks.find("MMAPP_HOST_ISA=avx512") != std::string::npos);
  CHECK(lacks.find("does not support x86-64-v4") != std::string::npos);
  const std::string unknown = refusal("avx1024", all, 4);
  CHECK(unknown.find("MMAPP_HOST_ISA=avx1024: unknown host ISA level") != std::string::npos);
  CHECK(unknown.find("x86-64-v3 (avx2)") != std::string::npos);  // says what is accepted
  const std::vector<const HostIsaKernels*> only_v4{all[0]};
  const std::string missing = refusal("avx2", only_v4, 4);
  CHECK(missing.find("no host kernels for that level (compiled: x86-64-v4)") != std::string::npos);
  // No compiled level runs here (a build for a newer CPU).
  CHECK(refusal("", only_v4, 3).find("runs none of the host ISA levels compiled") != std::string::npos);
}

TEST_CASE("host ISA: the catalog's host tiled variants are the chosen level's micro-kernels", "[host_isa][host]") {
  using Space = Kokkos::DefaultHostExecutionSpace;
  const auto& isa = mmapp::host::selected_host_isa();
  const auto uks = mmapp::host::isa_kernels<float>(isa);
  const auto tiled = mmapp::variants_named<Space, float>("tiled");
  REQUIRE(tiled.size() == uks.size());
  for (std::size_t i = 0; i < uks.size(); ++i) {
    CHECK(tiled[i].thread_tile == std::vector<int>{uks[i].mr, uks[i].nr});
    CHECK(tiled[i].tag == uks[i].tag);
  }
  CHECK(!mmapp::host::selected_host_isa_chosen_by().empty());
}
