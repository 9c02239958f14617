// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/tile.hpp — the compile-time configuration of gemm_tiled_warp
// (GpuTile: block, warp and thread tiles and the feature switches listed in
// tiled_gpu_warp.hpp) and the team policy a configuration launches with
// (launch bounds when it asks for them). No device code.
#pragma once

#include "core/kokkos_compat.hpp"

#include <type_traits>

namespace mmapp {

namespace detail {
/// The team policy of a kernel: with launch bounds when MinBlocks > 0
/// (Kokkos::LaunchBounds<Team, MinBlocks>, i.e. __launch_bounds__ on CUDA).
template <class Space, int Team, int MinBlocks>
using team_policy_lb =
    std::conditional_t<(MinBlocks > 0),
                       Kokkos::TeamPolicy<Space, Kokkos::LaunchBounds<unsigned(Team), unsigned(MinBlocks)>>,
                       Kokkos::TeamPolicy<Space>>;
}  // namespace detail

/// Compile-time shape and features of gemm_tiled_warp (see the comment of
/// tiled_gpu_warp.hpp). BM x BN x BK block tile; WM x WN warp tile (WM == 0:
/// block-strided thread mapping, no warp tiles); TM x TN register tile per
/// thread; Stages 0, 1 or 2; Vec: 16-byte global loads where aligned;
/// Swizzle: block-row group (0: none); MinBlocks: launch bounds' minimum
/// blocks per SM (0: none); SplitKc: K chunk per team (0: no split-K);
/// FragPipe: register double buffering of the scratch fragments (switch 7);
/// FragBytes: bytes per scratch fragment read, 16 (default) or 8 (switch 8).
template <int BM_, int BN_, int BK_, int WM_, int WN_, int TM_, int TN_, int Stages_, bool Vec_, int Swizzle_,
          int MinBlocks_, int SplitKc_ = 0, bool FragPipe_ = false, int FragBytes_ = 16>
struct GpuTile {
  static constexpr int BM = BM_, BN = BN_, BK = BK_, WM = WM_, WN = WN_, TM = TM_, TN = TN_;
  static constexpr int stages = Stages_;
  static constexpr bool vec = Vec_;
  static constexpr int swizzle = Swizzle_;
  static constexpr int min_blocks = MinBlocks_;
  static constexpr int split_kc = SplitKc_;
  static constexpr bool split_waves = false;  ///< WaveSplit<Cfg>: K split to fill the waves (splitk.hpp)
  static constexpr bool frag_pipe = FragPipe_;
  static constexpr int frag_bytes = FragBytes_;
  static constexpr bool warp_tiled = WM_ > 0;
  static constexpr int team_size = (BM / TM) * (BN / TN);
  /// No warp tiles, or 32 lanes of TM x TN per warp tile, warp tiles dividing the block tile.
  static constexpr bool warp_shape_ok() {
    if constexpr (WM_ > 0 && WN_ > 0)
      return (WM_ / TM_) * (WN_ / TN_) == 32 && BM_ % WM_ == 0 && BN_ % WN_ == 0 && WM_ % TM_ == 0 && WN_ % TN_ == 0;
    else
      return WM_ == 0 && WN_ == 0;
  }
};

}  // namespace mmapp
