// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_isa.cpp — the host ISA dispatcher (see host_isa.hpp for the contracts).
// Compiled for the build's default target: it only reads the CPU's features
// and picks a table row, never running an ISA's kernel itself.
#include "kernels/host/host_isa.hpp"

#include "kernels/host/host_isa_config.hpp"

#include <algorithm>
#include <cctype>
#include <cstdlib>

namespace mmapp::host {

#define MMAPP_DECLARE_HOST_ISA(ns) \
  namespace ns {                   \
  extern const HostIsaKernels table; \
  }
MMAPP_HOST_ISA_NAMESPACES(MMAPP_DECLARE_HOST_ISA)
#undef MMAPP_DECLARE_HOST_ISA

const std::vector<const HostIsaKernels*>& compiled_host_isas() {
#define MMAPP_HOST_ISA_ENTRY(ns) &ns::table,
  static const std::vector<const HostIsaKernels*> all{MMAPP_HOST_ISA_NAMESPACES(MMAPP_HOST_ISA_ENTRY)};
#undef MMAPP_HOST_ISA_ENTRY
  return all;
}

bool cpu_supports_level(int level) {
#if defined(__x86_64__) && (defined(__GNUC__) || defined(__clang__))
  __builtin_cpu_init();
  // The x86-64 psABI levels; libgcc's and compiler-rt's feature bits include
  // the OS's support for the AVX and AVX-512 register state (XGETBV).
  const bool v2 = __builtin_cpu_supports("sse3") && __builtin_cpu_supports("ssse3") &&
                  __builtin_cpu_supports("sse4.1") && __builtin_cpu_supports("sse4.2") &&
                  __builtin_cpu_supports("popcnt");
  const bool v3 = v2 && __builtin_cpu_supports("avx") && __builtin_cpu_supports("avx2") &&
                  __builtin_cpu_supports("fma") && __builtin_cpu_supports("bmi") && __builtin_cpu_supports("bmi2");
  const bool v4 = v3 && __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
                  __builtin_cpu_supports("avx512cd") && __builtin_cpu_supports("avx512dq") &&
                  __builtin_cpu_supports("avx512vl");
  switch (level) {
    case 0:
    case 1: return true;
    case 2: return v2;
    case 3: return v3;
    case 4: return v4;
    default: return false;
  }
#elif defined(__x86_64__)
  return level <= 1;  // no feature query: only the baseline is known to run
#else
  return level == 0;
#endif
}

int host_isa_level_of(const std::string& name) {
  std::string n = name;
  std::transform(n.begin(), n.end(), n.begin(), [](unsigned char c) { return char(std::tolower(c)); });
  if (n == "x86-64-v4" || n == "avx512" || n == "avx-512") return 4;
  if (n == "x86-64-v3" || n == "avx2") return 3;
  if (n == "x86-64-v2" || n == "sse4.2" || n == "sse4_2") return 2;
  if (n == "x86-64" || n == "x86-64-v1" || n == "sse2" || n == "baseline") return 1;
  if (n == "generic") return 0;
  return -1;
}

namespace {
std::string level_list(const std::vector<const HostIsaKernels*>& compiled) {
  std::string s;
  for (const auto* k : compiled) s += std::string(s.empty() ? "" : ", ") + k->name;
  return s;
}
}  // namespace

const HostIsaKernels& choose_host_isa(const std::string& request,
                                      const std::vector<const HostIsaKernels*>& compiled,
                                      const std::function<bool(int)>& supports, std::string& chosen_by) {
  const std::string accepted = "auto, x86-64-v4 (avx512), x86-64-v3 (avx2), x86-64-v2 (sse4.2), x86-64 (sse2), generic";
  if (request.empty() || request == "auto") {
    for (const auto* k : compiled)
      if (supports(k->level)) {
        chosen_by = "cpu";
        return *k;
      }
    throw HostIsaError("mmapp: this CPU runs none of the host ISA levels compiled (" + level_list(compiled) +
                       "): rebuild with MMAPP_HOST_ARCH for it");
  }
  const int level = host_isa_level_of(request);
  if (level < 0)
    throw HostIsaError("MMAPP_HOST_ISA=" + request + ": unknown host ISA level; expected one of " + accepted);
  for (const auto* k : compiled) {
    if (k->level != level) continue;
    if (!supports(level))
      throw HostIsaError("MMAPP_HOST_ISA=" + request + ": this CPU does not support " + k->name +
                         " (it runs the levels up to the highest of: " + [&] {
                           std::string s;
                           for (const auto* c : compiled)
                             if (supports(c->level)) s += std::string(s.empty() ? "" : ", ") + c->name;
                           return s.empty() ? std::string("none") : s;
                         }() + ")");
    chosen_by = "MMAPP_HOST_ISA=" + request;
    return *k;
  }
  throw HostIsaError("MMAPP_HOST_ISA=" + request + ": this build has no host kernels for that level (compiled: " +
                     level_list(compiled) + "); unset it or name a compiled level");
}

namespace {
struct Selection {
  const HostIsaKernels* isa = nullptr;
  std::string chosen_by, error;
};
const Selection& selection() {
  static const Selection s = [] {
    Selection r;
    const char* env = std::getenv("MMAPP_HOST_ISA");
    try {
      r.isa = &choose_host_isa(env ? env : "", compiled_host_isas(), cpu_supports_level, r.chosen_by);
      if (std::string(MMAPP_HOST_ISA_FIXED_BY).size() && r.chosen_by == "cpu")
        r.chosen_by = "build: " + std::string(MMAPP_HOST_ISA_FIXED_BY);  // the one level compiled
    } catch (const HostIsaError& e) {
      r.error = e.what();
    }
    return r;
  }();
  return s;
}
}  // namespace

const HostIsaKernels& selected_host_isa() {
  const Selection& s = selection();
  if (!s.isa) throw HostIsaError(s.error);
  return *s.isa;
}

const std::string& selected_host_isa_chosen_by() {
  selected_host_isa();
  return selection().chosen_by;
}

}  // namespace mmapp::host
