// catalog_host.hpp — the host spaces' (Serial, OpenMP) `tiled` table: the
// GotoBLAS/BLIS kernel at each micro-tile compiled, and the few-rows kernel
// (tiled_host.hpp), sized to the vector registers of the ISA compiled for
// (host_simd.hpp). The first is the default; the host rule
// (shape_rule.hpp) sends problems with fewer rows than its MR to "rows".
// Included only by kernels/instantiate_{serial,openmp}.cpp (through
// catalog_impl.hpp's declaration of host_variants).
#pragma once

#include "kernels/catalog.hpp"
#include "kernels/host/host_simd.hpp"
#include "kernels/host/tiled_host.hpp"

#include <vector>

namespace mmapp {

namespace detail {
/// Host `tiled`, GotoBLAS/BLIS loops: thread_tile = the MR x NR register
/// micro-tile (NR = NV vectors of the ISA compiled for), no fixed block tile
/// (MC, NC, KC come from the caches at run time), tag "goto"; printed
/// "/8x48 goto". A deck picks it with {name: tiled, thread_tile: [8, 48]}.
template <int MR, int NV, class Space, class T>
KernelVariant<Space, T> tiled_host_variant() {
  return {"tiled", {}, {MR, NV * host::lanes<T>}, &gemm_tiled_host<MR, NV, Space, T>, -1,
          &tiled_host_workspace<T, MR, NV>, "goto"};
}
/// Host `tiled` for few rows: thread_tile = R x NR (R rows of C per group,
/// NR = NV vectors of columns), tag "rows"; no workspace.
template <int R, int NV, class Space, class T>
KernelVariant<Space, T> tiled_host_rows_variant() {
  return {"tiled", {}, {R, NV * host::lanes<T>}, &gemm_tiled_host_rows<R, NV, Space, T>, -1, nullptr, "rows"};
}
}  // namespace detail

/// The host `tiled` table, default first. With 32 vector registers
/// (AVX-512): the packed kernel with an 8 x 3-vector micro-tile (24
/// accumulators; 8x48 float, 8x24 double), then 14 x 2 vectors, and the
/// few-rows kernel with 6 rows x 4 vectors. With 16 registers (AVX2, SSE):
/// 6 x 2 and 4 x 3 vectors, and 4 rows x 2 vectors. Measurements:
/// docs/performance.md, "Host (OpenMP): the GotoBLAS/BLIS kernel".
template <class Space, class T>
void host_variants(std::vector<KernelVariant<Space, T>>& v) {
  if constexpr (host::simd_registers >= 32) {
    v.push_back(detail::tiled_host_variant<8, 3, Space, T>());
    v.push_back(detail::tiled_host_variant<14, 2, Space, T>());
    v.push_back(detail::tiled_host_rows_variant<6, 4, Space, T>());
  } else {
    v.push_back(detail::tiled_host_variant<6, 2, Space, T>());
    v.push_back(detail::tiled_host_variant<4, 3, Space, T>());
    v.push_back(detail::tiled_host_rows_variant<4, 2, Space, T>());
  }
}

}  // namespace mmapp
