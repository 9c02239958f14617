// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// chunk.hpp — the 16-byte unit of the GPU kernels' wide loads and stores
// (float4 / double2: one LDG.128 / LDS.128 / STG.128 on CUDA) and the
// alignment test that decides whether a pointer may be accessed in such
// units. Used by gemm_tiled_warp (kernels/gpu/warp/), the gemv kernels and
// the split-K workspace check (splitk.hpp); the loop over a thread's chunks.
#pragma once

#include <Kokkos_Macros.hpp>

#include "kernels/unroll.hpp"

#include <cstddef>
#include <cstdint>

namespace mmapp {
namespace detail {

/// One 16-byte chunk of T (float4, double2): the unit of a wide global load,
/// of a scratch fragment read and of a wide C store; `width` elements.
template <class T>
struct alignas(16) Chunk16 {
  static constexpr int width = 16 / int(sizeof(T));
  T v[16 / sizeof(T)];
};

/// True when p is aligned to `bytes`.
inline bool aligned_to(const void* p, std::size_t bytes) { return reinterpret_cast<std::uintptr_t>(p) % bytes == 0; }

/// True when every row of the row-major matrix at p (row stride ld elements
/// of T) starts on a 16-byte boundary, so each row may be read in Chunk16
/// units from any column that is a multiple of Chunk16<T>::width: p 16-byte
/// aligned and ld a multiple of that width.
template <class T>
bool rows_in_chunks(const T* p, long ld) {
  return aligned_to(p, 16) && ld % Chunk16<T>::width == 0;
}

/// f(l) for l < n: a thread's chunks of a tile, unrolled, or kept rolled
/// where Rolled (a warp-specialized team's producers, left with few
/// registers by setmaxnreg: warp/ws_pipeline.hpp, tiled_gpu_wgmma.hpp).
template <int n, bool Rolled, class F>
KOKKOS_FORCEINLINE_FUNCTION void chunk_loop(const F& f) {
  if constexpr (Rolled) {
    MMAPP_NO_UNROLL
    for (int l = 0; l < n; ++l) f(l);
  } else {
    MMAPP_UNROLL
    for (int l = 0; l < n; ++l) f(l);
  }
}

}  // namespace detail
}  // namespace mmapp
