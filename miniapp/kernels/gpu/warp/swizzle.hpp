// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/swizzle.hpp — which block tile of C a team of gemm_tiled_warp
// computes: league rank -> (block row, block column), in the order that
// keeps the concurrently running teams on few A and B panels (CUTLASS 2.x:
// gemm/threadblock/threadblock_swizzle.h). Integer arithmetic only.
#pragma once

#include <Kokkos_Core.hpp>

namespace mmapp {
namespace detail {

/// A block tile's coordinates in units of tiles: block row m, block column n.
struct BlockCoord {
  int m, n;
};

/// League order of the block tiles (switch 4 of tiled_gpu_warp.hpp).
/// G > 0: teams walk G block rows together before the next block column (the
/// last band has the remaining tiles_m % G rows), so the teams that run at
/// the same time share fewer distinct A and B panels in L2. G == 0: block
/// row fastest, so neighbouring teams share a column panel of B.
template <int G>
struct BlockSwizzle {
  /// The block tile of tile index t in [0, tiles_m * tiles_n).
  KOKKOS_INLINE_FUNCTION static BlockCoord tile(const int t, const int tiles_m, const int tiles_n) {
    BlockCoord c;
    if constexpr (G > 0) {
      const int band = t / (G * tiles_n), in = t % (G * tiles_n);
      const int left = tiles_m - band * G;  // block rows in this band (fewer in the last)
      const int rows_here = left < G ? left : G;
      c.m = band * G + in % rows_here;
      c.n = in / rows_here;
    } else {
      c.m = t % tiles_m;
      c.n = t / tiles_m;
    }
    return c;
  }
};

/// Block coordinates of tile index t under BlockSwizzle<Swizzle> on a
/// tiles_m x tiles_n grid (a kernel's mapping, for tail_split_reduce and
/// stream_k_reduce).
template <int Swizzle>
struct SwizzledTile {
  int tiles_m, tiles_n;
  KOKKOS_INLINE_FUNCTION BlockCoord operator()(const int t) const {
    return BlockSwizzle<Swizzle>::tile(t, tiles_m, tiles_n);
  }
};

}  // namespace detail
}  // namespace mmapp
