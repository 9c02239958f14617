// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// probe_tool.cpp — the smallest Kokkos Tools library (the kokkosp_* C
// interface of kokkos-tools' profiling/all/impl/Kokkos_Profiling_C_Interface.h):
// says "mmapp probe tool: loaded" on stdout when Kokkos loads it, so that a
// test can check that KOKKOS_TOOLS_LIBS reaches Kokkos (tests/e2e/test_cli.py).
#include <cstdint>
#include <cstdio>

extern "C" void kokkosp_init_library(const int, const std::uint64_t, const std::uint32_t, void*) {
  std::printf("mmapp probe tool: loaded\n");
  std::fflush(stdout);
}

extern "C" void kokkosp_finalize_library() {}
