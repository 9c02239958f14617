// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_isa.hpp — run-time dispatch of the host `tiled` micro-kernels by the
// CPU's instruction set. The portable build compiles the micro-kernels once
// per x86-64 level (x86-64, x86-64-v2 SSE4.2, x86-64-v3 AVX2+FMA, x86-64-v4
// AVX-512F/BW/CD/DQ/VL; isa_kernels.cpp) into one binary, and the dispatcher
// takes, once, the highest level this CPU runs (__builtin_cpu_supports), as
// OpenBLAS's DYNAMIC_ARCH does; MMAPP_HOST_ISA in the environment overrides
// the choice. A build with MMAPP_HOST_ARCH (or Kokkos_ARCH_<CPU>) has the one
// level it was compiled for; a non-x86 build has the one "generic" entry.
#pragma once

#include "kernels/host/host_isa_table.hpp"

#include <functional>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmapp::host {

/// A bad MMAPP_HOST_ISA: an unknown name, a level this build did not compile
/// or one this CPU cannot run. The message names the variable, the value and
/// what is accepted; mmapp exits with 2 (bad input) before computing anything.
struct HostIsaError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

/// The levels compiled into this binary, highest first (never empty).
const std::vector<const HostIsaKernels*>& compiled_host_isas();

/// Whether this CPU (and its OS, for the AVX state) runs x86-64 level `level`
/// (1 .. 4; 0, not x86, is always true): __builtin_cpu_supports of the
/// level's features.
bool cpu_supports_level(int level);

/// The level named by `name` (case-insensitive): "x86-64-v4" or "avx512",
/// "x86-64-v3" or "avx2", "x86-64-v2" or "sse4.2", "x86-64" or "sse2"
/// (also "x86-64-v1", "baseline"), "generic"; -1 for an unknown name.
int host_isa_level_of(const std::string& name);

/// The dispatcher's choice for the override `request` (the value of
/// MMAPP_HOST_ISA; "" or "auto": none) among `compiled` (highest first), with
/// `supports` telling which levels the CPU runs: the highest supported level
/// without an override, else the level named. Sets `chosen_by` to "cpu"
/// or "MMAPP_HOST_ISA=<request>". Throws HostIsaError for an unknown name, a
/// level not compiled or one the CPU lacks, and when no compiled level runs.
const HostIsaKernels& choose_host_isa(const std::string& request,
                                      const std::vector<const HostIsaKernels*>& compiled,
                                      const std::function<bool(int)>& supports, std::string& chosen_by);

/// The ISA the host kernels run with in this process: choose_host_isa of
/// the environment's MMAPP_HOST_ISA, this build's levels and this CPU, made
/// once (thread-safe) on first use. Throws HostIsaError (every call) when the
/// override is bad.
const HostIsaKernels& selected_host_isa();

/// How selected_host_isa() was chosen: "cpu" (the highest level this CPU
/// runs), "MMAPP_HOST_ISA=<value>" (the override), or, in a build of one
/// level without an override, "build: <what fixed it>" (e.g.
/// "build: MMAPP_HOST_ARCH=native").
const std::string& selected_host_isa_chosen_by();

/// The micro-kernels of `isa` for element type T (float or double), default first.
template <class T>
std::vector<HostMicroKernel<T>> isa_kernels(const HostIsaKernels& isa) {
  std::vector<HostMicroKernel<T>> v;
  for (int i = 0; i < isa.count; ++i) {
    if constexpr (sizeof(T) == 4)
      v.push_back(isa.f32[i]);
    else
      v.push_back(isa.f64[i]);
  }
  return v;
}

}  // namespace mmapp::host
