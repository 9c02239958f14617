// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// isa_kernels.cpp — one ISA level's build of the host `tiled` micro-kernels
// (micro_kernels.hpp) as a table (host_isa_table.hpp) for the dispatcher
// (host_isa.cpp). miniapp/CMakeLists.txt compiles this file once per level
// of the portable build (x86-64, -v2, -v3, -v4 on x86-64: -march=x86-64-vN,
// MMAPP_HOST_ISA_NS=isa_x86_64_vN), or once with the build's own flags when
// MMAPP_HOST_ARCH or Kokkos_ARCH_<CPU> fixes the ISA (isa_build), the way
// OpenBLAS's DYNAMIC_ARCH and BLIS's multi-configuration builds compile one
// kernel source per target. The level's name comes from the compiler's
// macros, so the table says what was really compiled.
#ifndef MMAPP_HOST_ISA_NS
#error "isa_kernels.cpp: compile with -DMMAPP_HOST_ISA_NS=<namespace> (miniapp/CMakeLists.txt)"
#endif

#include "kernels/host/host_isa_table.hpp"
#include "kernels/host/micro_kernels.hpp"

namespace mmapp::host::MMAPP_HOST_ISA_NS {

namespace {
#if defined(__x86_64__) && defined(__AVX512F__) && defined(__AVX512BW__) && defined(__AVX512DQ__) && \
    defined(__AVX512VL__) && defined(__AVX512CD__) && defined(__AVX2__) && defined(__FMA__)
constexpr const char* level_name = "x86-64-v4";
constexpr int level = 4;
#elif defined(__x86_64__) && defined(__AVX2__) && defined(__FMA__) && defined(__BMI2__)
constexpr const char* level_name = "x86-64-v3";
constexpr int level = 3;
#elif defined(__x86_64__) && defined(__SSE4_2__) && defined(__POPCNT__) && defined(__SSSE3__)
constexpr const char* level_name = "x86-64-v2";
constexpr int level = 2;
#elif defined(__x86_64__)
constexpr const char* level_name = "x86-64";
constexpr int level = 1;
#else
constexpr const char* level_name = "generic";
constexpr int level = 0;
#endif
}  // namespace

/// The `tiled` table of this ISA, default first. With 32 vector registers
/// (AVX-512): the packed kernel with an 8 x 3-vector micro-tile (24
/// accumulators; 8x48 float, 8x24 double), then 14 x 2 vectors, and the
/// few-rows kernel with 6 rows x 4 vectors. With 16 registers (AVX2, SSE):
/// 6 x 2 and 4 x 3 vectors, and 4 rows x 2 vectors. Measurements:
/// docs/performance.md, "Host (OpenMP): the GotoBLAS/BLIS kernel".
template <int Registers>
constexpr HostIsaKernels make_table() {
  if constexpr (Registers >= 32)
    return {level_name, level, simd_bytes, Registers, 3,
            {goto_kernel<float, 8, 3>(), goto_kernel<float, 14, 2>(), rows_kernel<float, 6, 4>(), {}},
            {goto_kernel<double, 8, 3>(), goto_kernel<double, 14, 2>(), rows_kernel<double, 6, 4>(), {}}};
  else
    return {level_name, level, simd_bytes, Registers, 3,
            {goto_kernel<float, 6, 2>(), goto_kernel<float, 4, 3>(), rows_kernel<float, 4, 2>(), {}},
            {goto_kernel<double, 6, 2>(), goto_kernel<double, 4, 3>(), rows_kernel<double, 4, 2>(), {}}};
}

extern const HostIsaKernels table;  // declared by host_isa.cpp for every level compiled
const HostIsaKernels table = make_table<simd_registers>();

}  // namespace mmapp::host::MMAPP_HOST_ISA_NS
