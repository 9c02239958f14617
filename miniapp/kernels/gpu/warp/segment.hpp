// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/segment.hpp — what one gemm_tiled_mma team computes: one or (Stream-K,
// stream_k.hpp) two segments, each a block tile's K range, multiplied into
// the warps' accumulators and written to C, a split-K slice or a partial tile.
#pragma once

#include <Kokkos_Core.hpp>

namespace mmapp {
namespace detail {

/// One segment of a team's work: the block tile at rows bm, columns bn
/// (elements), its K range [k_begin, k_end) run as `ktiles` K tiles from
/// k_begin (more than the range holds where a Stream-K segment is padded to
/// its pipeline's stages: the loads past k_end are zeros), and where its
/// result goes: `partial` (a whole BM x BN tile, row-major) when not null,
/// else the kernel's output (C or split-K slice).
template <class T>
struct TeamSegment {
  int bm, bn, k_begin, k_end, ktiles;
  T* partial;
};

/// A team's segments: MaxSeg at most (1, or 2 for Stream-K), n of them used.
template <class T, int MaxSeg>
struct TeamSegments {
  static_assert(MaxSeg == 1 || MaxSeg == 2, "one segment, or two (Stream-K)");
  TeamSegment<T> seg[MaxSeg];
  int n = 1;

  /// f(segment) for each segment in order (one call, unrolled, where MaxSeg is 1).
  template <class F>
  KOKKOS_FORCEINLINE_FUNCTION void for_each(const F& f) const {
    if constexpr (MaxSeg == 1) {
      f(seg[0]);
    } else {
      for (int i = 0; i < n; ++i) f(seg[i]);
    }
  }
};

}  // namespace detail
}  // namespace mmapp
