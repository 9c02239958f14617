// kernel_registry.hpp — the table the driver loops over: every kernel by
// its deck name, with the tile shapes it was compiled for on each kind of
// backend (the first listed is the backend's default). A new kernel is one
// header plus one entry here.
#pragma once

#include "deck/config.hpp"
#include "kernels/portable/naive.hpp"
#include "kernels/portable/shared.hpp"
#include "kernels/gpu/gemv_gpu.hpp"
#include "kernels/gpu/tiled_gpu.hpp"
#include "kernels/gpu/tiled_gpu_warp.hpp"
#include "kernels/host/tiled_host.hpp"
#include "kernels/vendor/vendor.hpp"

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace mmapp {

/// Bytes of device workspace a variant needs for an M x N x K problem
/// (see Workspace in types.hpp).
using WorkspaceFn = std::size_t (*)(long m, long n, long k);

/// One runnable kernel variant: its deck name, its shape and the function.
template <class Space, class T>
struct KernelVariant {
  std::string name;
  std::vector<int> tile;         ///< as written in a deck's `tile:`
  std::vector<int> thread_tile;  ///< as written in a deck's `thread_tile:`
  GemmFn<Space, T> run;
  int prefetch = -1;             ///< tiled on GPUs: 1 with register prefetch, 0 without; -1 n/a
  WorkspaceFn workspace_bytes = nullptr;  ///< nullptr: needs none
  std::string tag;               ///< further distinguishing words of the shape ("" for none)
  /// The shape as text, e.g. "128x128x8/8x8", "128x128x8/8x8 nopf"; "" when it has none.
  std::string shape() const {
    std::string s;
    for (size_t i = 0; i < tile.size(); ++i) s += (i ? "x" : "") + std::to_string(tile[i]);
    for (size_t i = 0; i < thread_tile.size(); ++i) s += (i ? "x" : "/") + std::to_string(thread_tile[i]);
    if (prefetch == 0) s += " nopf";
    if (!tag.empty()) s += (s.empty() ? "" : " ") + tag;
    return s;
  }
  /// Workspace for an M x N x K problem, in bytes.
  std::size_t workspace(long m, long n, long k) const { return workspace_bytes ? workspace_bytes(m, n, k) : 0; }
};

/// The names `kernels:` accepts, in ladder order.
inline const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names{"naive", "shared", "tiled", "kokkoskernels"};
  return names;
}

namespace detail {
template <int BM, int BN, int BK, int TM, int TN, bool P, class Space, class T>
KernelVariant<Space, T> tiled_variant() {
  return {"tiled", {BM, BN, BK}, {TM, TN}, &gemm_tiled<BM, BN, BK, TM, TN, P, Space, T>, P ? 1 : 0, nullptr, ""};
}
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

/// The tag of a warp-tiled variant: its features in words, e.g.
/// "w32x64 2st vec sw8 lb2" (warp tile, scratch stages, 16-byte loads,
/// block-order group, launch bounds' blocks per SM; "strided": no warp tiles;
/// "splitk4096": K chunk per team; "fragdb": fragment double buffering;
/// "lds8": 8-byte fragment reads).
template <class Cfg>
std::string gpu_tile_tag() {
  std::string t = Cfg::warp_tiled ? "w" + std::to_string(Cfg::WM) + "x" + std::to_string(Cfg::WN) : "strided";
  t += " " + std::to_string(Cfg::stages) + "st";
  if (Cfg::vec) t += " vec";
  if (Cfg::swizzle > 0) t += " sw" + std::to_string(Cfg::swizzle);
  if (Cfg::min_blocks > 0) t += " lb" + std::to_string(Cfg::min_blocks);
  if (Cfg::split_kc > 0) t += " splitk" + std::to_string(Cfg::split_kc);
  if (Cfg::frag_pipe) t += " fragdb";
  if (Cfg::frag_bytes != 16) t += " lds" + std::to_string(Cfg::frag_bytes);
  return t;
}
/// A gemm_tiled_warp variant; prefetch: 1 when its K loop overlaps loads and compute.
template <class Cfg, class Space, class T>
KernelVariant<Space, T> warp_variant() {
  return {"tiled",
          {Cfg::BM, Cfg::BN, Cfg::BK},
          {Cfg::TM, Cfg::TN},
          &gemm_tiled_warp<Cfg, Space, T>,
          Cfg::stages > 0 ? 1 : 0,
          Cfg::split_kc > 0 ? &splitk_workspace_bytes<T, Cfg::split_kc> : nullptr,
          gpu_tile_tag<Cfg>()};
}
/// gemv_cols (M <= MT): tile [MT, 32 chunks of columns, K chunk], thread tile [MT, chunk].
template <int MT, int KS, int Kc, class Space, class T>
KernelVariant<Space, T> gemv_cols_variant() {
  constexpr int vw = 16 / int(sizeof(T));
  return {"tiled", {MT, 32 * vw, Kc}, {MT, vw}, &gemv_cols<MT, KS, Kc, Space, T>, -1,
          Kc > 0 ? &gemv_workspace_bytes<T, Kc> : nullptr, "gemv-cols m" + std::to_string(MT)};
}
/// gemv_dot (M = N = 1): tile [1, 1, K chunk], thread tile [1, chunk].
template <int Kc, class Space, class T>
KernelVariant<Space, T> gemv_dot_variant() {
  constexpr int vw = 16 / int(sizeof(T));
  return {"tiled", {1, 1, Kc}, {1, vw}, &gemv_dot<Kc, Space, T>, -1, &gemv_dot_workspace_bytes<T, Kc>, "gemv-dot"};
}
/// gemv_rows (N <= NT): tile [rows per team, NT, K chunk (or the K step of
/// a row's lanes without split-K)], thread tile [rows per member, NT].
template <int NT, int R, int RPW, int Kc, class Space, class T>
KernelVariant<Space, T> gemv_rows_variant() {
  constexpr int step = 32 * (16 / int(sizeof(T)));  // K elements a row's 32 lanes cover per step
  return {"tiled", {R * RPW, NT, Kc > 0 ? Kc : step}, {RPW, NT}, &gemv_rows<NT, R, RPW, Kc, Space, T>, -1,
          Kc > 0 ? &gemv_workspace_bytes<T, Kc> : nullptr, "gemv-rows n" + std::to_string(NT)};
}

// The GPU variants. Tags (gpu_tile_tag) tell apart variants of one tile and
// thread tile; a deck's {tile, thread_tile, prefetch} names the first of
// them listed, `tiled` alone the shape rule's choice (gpu_tiled_default),
// `tile: auto` the fastest of all on the problem.
/// Float: the large-problem default (the ladder's top rung, see
/// docs/performance.md), then the ladder at 128x128x8 / 8x8, then other tiles.
using FloatBig = GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 8, 2>;
/// Float, tiles that fill their waves (round 5): 8x16 register tiles, one
/// 256-thread team per SM (rung 11; 5-6% over FloatBig at N = 4096-8192 and
/// 5% at 12288 with round 5's loads, docs/performance.md).
using FloatHuge = GpuTile<128, 256, 8, 64, 64, 8, 16, 2, true, 8, 1>;
using FloatSplitK = GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 4096>;
using FloatSmall = GpuTile<64, 64, 16, 32, 32, 4, 8, 2, true, 8, 4>;
using FloatSmallSplitK = GpuTile<64, 64, 16, 32, 32, 4, 8, 2, true, 0, 4, 1024>;
/// Double: 8x8 register tiles in 128-thread teams with K steps of 8 (the
/// FP64 accumulators take 128 registers; two teams per SM fit in 254
/// registers without spills; BK = 8 measured 5.6% faster than BK = 4 at N =
/// 8192), two scratch stages with the cross-tile fragment pipeline (round 5:
/// one barrier per K tile, no spill since the edge loads use masks; 7% over
/// round 4's one-stage form at N = 4096-8192), 8x4 tiles where
/// a problem has fewer block tiles, and a 96x96 tile of 8x6 register tiles
/// for problems whose M and N fill it better than 64x64 tiles
/// (docs/performance.md).
using DoubleBig = GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 0, true>;
using DoubleBigSplitK = GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 4096, true>;
using DoubleSmall = GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 8, 3>;
using DoubleSmallSplitK = GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 0, 3, 1024>;
using DoubleMidSplitK = GpuTile<96, 96, 8, 32, 48, 8, 6, 2, true, 0, 2, 1024>;

/// GPU variants of `tiled` for float (non-host spaces).
template <class Space>
void gpu_variants(std::vector<KernelVariant<Space, float>>& v) {
  using T = float;
  v.push_back(tiled_variant<128, 128, 8, 8, 8, true, Space, T>());   // rung 5 (tiled_gpu.hpp)
  v.push_back(tiled_variant<128, 128, 8, 8, 8, false, Space, T>());  // rung 4
  v.push_back(tiled_variant<64, 64, 8, 4, 4, true, Space, T>());     // rung 3
  // The ladder from rung 5, one feature per rung, all 128x128x8 / 8x8:
  v.push_back(warp_variant<GpuTile<128, 128, 8, 0, 0, 8, 8, 1, true, 0, 0>, Space, T>());    // 6: 16-byte loads
  v.push_back(warp_variant<GpuTile<128, 128, 8, 0, 0, 8, 8, 1, true, 0, 2>, Space, T>());    // 7: + launch bounds
  v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 0, 2>, Space, T>());  // 8: + warp tiles
  v.push_back(warp_variant<FloatBig, Space, T>());                                           // 9: + block swizzle
  v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());  // 10: two stages
  v.push_back(warp_variant<FloatHuge, Space, T>());                                          // 11: 8x16
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 4>, Space, T>());
  v.push_back(warp_variant<FloatSmall, Space, T>());
  v.push_back(warp_variant<FloatSplitK, Space, T>());
  v.push_back(warp_variant<FloatSmallSplitK, Space, T>());
  v.push_back(gemv_cols_variant<1, 8, 256, Space, T>());
  v.push_back(gemv_cols_variant<8, 8, 256, Space, T>());
  v.push_back(gemv_rows_variant<1, 8, 1, 2048, Space, T>());
  v.push_back(gemv_rows_variant<4, 8, 4, 0, Space, T>());
  v.push_back(gemv_dot_variant<8192, Space, T>());
}

/// GPU variants of `tiled` for double (non-host spaces).
template <class Space>
void gpu_variants(std::vector<KernelVariant<Space, double>>& v) {
  using T = double;
  v.push_back(tiled_variant<128, 128, 8, 8, 8, true, Space, T>());  // rung 5 (tiled_gpu.hpp)
  v.push_back(tiled_variant<64, 64, 8, 4, 4, true, Space, T>());    // rung 3
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());  // rounds 2-3's default
  v.push_back(warp_variant<GpuTile<64, 128, 4, 32, 64, 8, 8, 2, true, 8, 2>, Space, T>());  // round 1's default
  v.push_back(warp_variant<GpuTile<64, 128, 4, 32, 64, 8, 8, 1, true, 8, 2>, Space, T>());
  v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 2, true, 8, 1>, Space, T>());
  // Round 2 (docs/performance.md, FP64): one scratch stage, the 128x128
  // tile in one 256-thread team, BK = 16 (twice the prefetch distance), the
  // transposed 128x64 block, and 16 warps per SM with 8x4 tiles.
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2>, Space, T>());
  v.push_back(warp_variant<GpuTile<128, 128, 8, 32, 64, 8, 8, 1, true, 8, 1>, Space, T>());
  v.push_back(warp_variant<GpuTile<128, 128, 16, 32, 64, 8, 8, 1, true, 8, 1>, Space, T>());
  v.push_back(warp_variant<GpuTile<128, 64, 8, 64, 32, 8, 8, 1, true, 8, 2>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 1, true, 8, 4>, Space, T>());
  v.push_back(warp_variant<DoubleSmall, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 1, true, 8, 3>, Space, T>());
  // Round 3 (docs/performance.md, GPU round 3): fragment double buffering
  // ("fragdb") on 8x8 tiles at two teams per SM (one, two and no scratch
  // stages), 8x4 at three and four teams and 4x8 at three; 8-byte fragment
  // reads ("lds8") on the rule's tile; BK = 16 on the rule's tile without
  // prefetch registers (with them it spills).
  v.push_back(warp_variant<DoubleBig, Space, T>());  // F2, the default since round 5
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2, 0, true>, Space, T>());  // F1 (round 4)
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 0, true, 8, 2, 0, true>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 2, true, 8, 3, 0, true>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 8, 4, 0, true, 8, 4, 0, true>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 64, 8, 32, 32, 4, 8, 1, true, 8, 3, 0, true>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 2, true, 8, 2, 0, false, 8>, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 128, 16, 32, 64, 8, 8, 0, true, 8, 2>, Space, T>());
  // Round 4 (docs/performance.md, GPU round 4): the 96x96 tile of 8x6
  // register tiles (192-thread teams, two per SM), split by 1024, for
  // problems whose M and N it fills better than 64x64 tiles.
  v.push_back(warp_variant<DoubleMidSplitK, Space, T>());
  v.push_back(warp_variant<DoubleBigSplitK, Space, T>());
  v.push_back(warp_variant<GpuTile<64, 128, 8, 32, 64, 8, 8, 1, true, 8, 2, 4096, true>, Space, T>());  // round 4's
  v.push_back(warp_variant<DoubleSmallSplitK, Space, T>());
  v.push_back(gemv_cols_variant<1, 8, 256, Space, T>());
  v.push_back(gemv_cols_variant<8, 8, 256, Space, T>());
  v.push_back(gemv_rows_variant<1, 8, 1, 2048, Space, T>());
  v.push_back(gemv_rows_variant<4, 8, 4, 0, Space, T>());
  v.push_back(gemv_dot_variant<8192, Space, T>());
}

/// Index of the variant whose kernel is `fn` in `same_name` (npos if none).
template <class Space, class T>
std::size_t index_of(const std::vector<KernelVariant<Space, T>>& same_name, GemmFn<Space, T> fn) {
  for (std::size_t i = 0; i < same_name.size(); ++i)
    if (same_name[i].run == fn) return i;
  return std::size_t(-1);
}

/// The GPU shape rule for `tiled` (non-host spaces): the variant to run for
/// an m x n x k problem and why, in words, for the report. In order:
///  0. M = N = 1: gemv_dot (a dot product), K split by 8192;
///  1. M <= 8 (double: M <= 16, two groups of 8 rows, measured 10% faster
///     than split 64x64 tiles at 16x8192x8192): gemv_cols (M = 1: the
///     one-row variant);
///  2. N == 1: gemv_rows, K split by 2048; N <= 4 (double) / 8 (float):
///     gemv_rows with 4 rows per member (double N <= 4) or the small tile
///     split by 1024;
///  3. float, round 5: the 128x256 tile of 8x16 register tiles when it is
///     at least 3/4 used, its tiles fill their waves (one 256-thread team
///     per SM) to at least 90%, K >= 512, and K and N are multiples of 4
///     (contiguous rows then 16-byte aligned: 3072^3, 2.2 waves, ran at 78%
///     of cuBLAS on it against 88% on 128x128 tiles; misaligned 4097x4095x4093
///     74% against 78%; N = 2048-12288 squares 92-96% against 88-92%);
///     the big tile (float 128x128, double 64x128) when it is at least half
///     used (M*N / (tiles * tile area) >= 1/2) and there are at least
///     `sms` (float) / 2*`sms` (double) tiles; else, at that use, the big
///     tile split by 4096 when the slices make at least that many teams
///     and 1.5*`sms` (fewer leave SMs idle or half the teams with a short
///     last chunk: float 777x1234x4321 ran 70 tiles x 2 slices at 40% of
///     cuBLAS);
///  4. otherwise the small tile (float 64x64 / 4x8, double 64x64 / 8x4),
///     split by 1024 when it has fewer tiles than SMs; for double, in that
///     split case, the 96x96 / 8x6 tile split by 1024 instead when it
///     covers M x N with less waste (96x96x500000: one full 96x96 tile
///     against four 64x64 tiles 56% used, 15.1 against 10.6 TFLOP/s).
/// `sms`: the device's multiprocessors, estimated as
/// Space::concurrency() / 2048 (resident threads per SM on sm_70 to sm_90).
/// Measured on an H200: docs/performance.md.
template <class Space, class T>
std::size_t gpu_tiled_default(const std::vector<KernelVariant<Space, T>>& same_name, long m, long n, long k,
                              std::string& why) {
  constexpr bool f32 = std::is_same_v<T, float>;
  using Big = std::conditional_t<f32, FloatBig, DoubleBig>;
  using BigSplitK = std::conditional_t<f32, FloatSplitK, DoubleBigSplitK>;
  using Small = std::conditional_t<f32, FloatSmall, DoubleSmall>;
  using SmallSplitK = std::conditional_t<f32, FloatSmallSplitK, DoubleSmallSplitK>;
  const long sms = std::max<long>(1, long(Space().concurrency()) / 2048);
  auto pick = [&](GemmFn<Space, T> fn, std::string rule) {
    const std::size_t i = index_of(same_name, fn);
    why = "shape rule: " + rule;
    return i == std::size_t(-1) ? std::size_t(0) : i;
  };
  if (m == 1 && n == 1) return pick(&gemv_dot<8192, Space, T>, "M = N = 1: gemv_dot, K split by 8192");
  if (m <= 8 || (!f32 && m <= 16))
    return m == 1  ? pick(&gemv_cols<1, 8, 256, Space, T>, "M = 1: gemv_cols, K split by 256")
           : m <= 8 ? pick(&gemv_cols<8, 8, 256, Space, T>, "M <= 8: gemv_cols, K split by 256")
                    : pick(&gemv_cols<8, 8, 256, Space, T>,
                           "M <= 16 (double): gemv_cols in groups of 8 rows, K split by 256");
  if (n == 1) return pick(&gemv_rows<1, 8, 1, 2048, Space, T>, "N = 1: gemv_rows, K split by 2048");
  if (!f32 && n <= 4) return pick(&gemv_rows<4, 8, 4, 0, Space, T>, "N <= 4: gemv_rows, 4 rows per member");
  if (n <= 8) return pick(&gemm_tiled_warp<SmallSplitK, Space, T>, "N <= 8: small tile, K split by 1024");
  const long tiles = ((m + Big::BM - 1) / Big::BM) * ((n + Big::BN - 1) / Big::BN);
  const double use = double(m) * double(n) / (double(tiles) * Big::BM * Big::BN);
  const long enough = f32 ? sms : 2 * sms;
  const std::string big = std::to_string(Big::BM) + "x" + std::to_string(Big::BN);
  if constexpr (f32) {  // 128x256 tiles (one team per SM) filling their waves, rows 16-byte aligned
    const long tiles_h = ((m + FloatHuge::BM - 1) / FloatHuge::BM) * ((n + FloatHuge::BN - 1) / FloatHuge::BN);
    const double use_h = double(m) * double(n) / (double(tiles_h) * FloatHuge::BM * FloatHuge::BN);
    const long waves_h = (tiles_h + sms - 1) / sms;
    const double fill_h = double(tiles_h) / double(waves_h * sms);
    if (use_h >= 0.75 && fill_h >= 0.9 && n % 4 == 0 && k % 4 == 0 && k >= 512)
      return pick(&gemm_tiled_warp<FloatHuge, Space, T>, "128x256 tiles (8x16 per thread) filling their waves");
  }
  if (use >= 0.5) {
    if (tiles >= enough) return pick(&gemm_tiled_warp<Big, Space, T>, big + " tiles");
    const long split_enough = std::max(enough, (3 * sms + 1) / 2);
    if (tiles * splitk_slices(m, n, k, BigSplitK::split_kc, sizeof(T)) >= split_enough)
      return pick(&gemm_tiled_warp<BigSplitK, Space, T>, "few " + big + " tiles: K split by 4096");
  }
  const long tiles64 = ((m + 63) / 64) * ((n + 63) / 64);
  if (tiles64 < sms && tiles64 * splitk_slices(m, n, k, SmallSplitK::split_kc, sizeof(T)) > tiles64) {
    if constexpr (!f32) {  // 96x96 tiles covering fewer cells than 64x64 tiles
      const long tiles96 = ((m + 95) / 96) * ((n + 95) / 96);
      if (tiles96 * 96 * 96 < tiles64 * 64 * 64 &&
          tiles96 * splitk_slices(m, n, k, DoubleMidSplitK::split_kc, sizeof(T)) > tiles96)
        return pick(&gemm_tiled_warp<DoubleMidSplitK, Space, T>, "few tiles, 96x96 fuller than 64x64: K split by 1024");
    }
    return pick(&gemm_tiled_warp<SmallSplitK, Space, T>, "few 64x64 tiles: K split by 1024");
  }
  return pick(&gemm_tiled_warp<Small, Space, T>, "64x64 tiles");
}
}  // namespace detail

/// Every variant compiled for (Space, T), defaults first for each name.
/// GPU shapes (non-host spaces): detail::gpu_variants (the ladder's rungs,
/// the shape rule's tiles, split-K and GEMV-like variants; on GPUs the
/// default is the shape rule's, detail::gpu_tiled_default). Host shapes
/// (tiled_host.hpp), sized to the vector registers of the ISA compiled for
/// (host_simd.hpp): with 32 registers (AVX-512) the GotoBLAS/BLIS kernel with
/// an 8 x 3-vector micro-tile (24 accumulators; 8x48 float, 8x24 double) by
/// default and 14 x 2 vectors, and the few-rows kernel with 6 rows x 4
/// vectors; with 16 registers (AVX2, SSE) 6 x 2 and 4 x 3 vectors, and 4 rows
/// x 2 vectors (docs/performance.md).
template <class Space, class T>
std::vector<KernelVariant<Space, T>> kernel_variants() {
  std::vector<KernelVariant<Space, T>> v{
      {"naive", {}, {}, &gemm_naive<Space, T>, -1, nullptr, ""},
      {"shared", {16}, {}, &gemm_shared<16, Space, T>, -1, nullptr, ""},
      {"shared", {32}, {}, &gemm_shared<32, Space, T>, -1, nullptr, ""},
  };
  if constexpr (is_host_space_v<Space>) {
    if constexpr (host::simd_registers >= 32) {
      v.push_back(detail::tiled_host_variant<8, 3, Space, T>());
      v.push_back(detail::tiled_host_variant<14, 2, Space, T>());
      v.push_back(detail::tiled_host_rows_variant<6, 4, Space, T>());
    } else {
      v.push_back(detail::tiled_host_variant<6, 2, Space, T>());
      v.push_back(detail::tiled_host_variant<4, 3, Space, T>());
      v.push_back(detail::tiled_host_rows_variant<4, 2, Space, T>());
    }
  } else {
    detail::gpu_variants<Space>(v);
  }
  v.push_back({"kokkoskernels", {}, {}, &gemm_vendor<Space, T>, -1, nullptr, ""});
  return v;
}

/// Every compiled variant named `name` for (Space, T), in registry order.
template <class Space, class T>
std::vector<KernelVariant<Space, T>> variants_named(const std::string& name) {
  std::vector<KernelVariant<Space, T>> out;
  for (auto& v : kernel_variants<Space, T>())
    if (v.name == name) out.push_back(v);
  return out;
}

/// The default variant of a kernel for an m x n x k problem, chosen from the
/// problem's shape, and the rule that chose it (for the report). `same_name`
/// holds every compiled variant of that kernel, in registry order (not empty).
/// The rule: on GPUs (non-host spaces), `tiled` follows
/// detail::gpu_tiled_default (GEMV-like, split-K and tile-size cases, see
/// docs/performance.md). On host spaces a problem with fewer rows than the
/// default variant's micro-tile (m < its thread_tile[0], MR: 8 with AVX-512,
/// 6 with AVX2/SSE) takes the few-rows variant (tag "rows") when the name has
/// one: the packed kernel would pad those rows to MR and pack all of B for
/// them (read, write, reread), while the rows kernel streams B once; measured
/// on the development machine, N = K = 4096: rows 1.4-1.7x faster at m = 6;
/// from m = 8 the packed kernel ties or wins (docs/performance.md, host
/// rule). Otherwise the first listed variant of the name (the backend's
/// default).
template <class Space, class T>
std::size_t default_variant(const std::vector<KernelVariant<Space, T>>& same_name, long m, long n, long k,
                            std::string& why) {
  if constexpr (is_host_space_v<Space>) {
    (void)n, (void)k;
    const long mr = same_name.front().thread_tile.empty() ? 0 : same_name.front().thread_tile[0];
    for (std::size_t i = 0; i < same_name.size(); ++i)
      if (same_name[i].tag == "rows" && m < mr) {
        why = "host rule: m < " + std::to_string(mr) + " rows (the packed kernel's micro-tile)";
        return i;
      }
  } else {
    if (!same_name.empty() && same_name.front().name == "tiled")
      return detail::gpu_tiled_default<Space, T>(same_name, m, n, k, why);
  }
  why = same_name.size() > 1 ? "default for the backend" : "";
  return 0;
}

/// A deck entry resolved to a variant, with why that variant ("deck: tile
/// as given", "default for the backend", ...).
template <class Space, class T>
struct ResolvedKernel {
  KernelVariant<Space, T> variant;
  std::string selection;
};

/// The variant a deck entry asks for, for an m x n x k problem: the first
/// variant of that name matching every key the entry gives (tile,
/// thread_tile, prefetch, variant = the tag; prefetch is ignored where a
/// variant has no such switch), or, when it gives none, default_variant() for the shape. A
/// `tile: auto` entry resolves to the shape default here; the driver then
/// times every variant of the name. Throws DeckError
/// ("FILE:LINE: kernels[i].tile: ...") naming the shapes compiled for this
/// backend when the shape is not one of them, or when the name is unknown.
template <class Space, class T>
ResolvedKernel<Space, T> resolve_kernel(const KernelSpec& spec, const std::string& deck, int index, long m, long n,
                                        long k) {
  const auto same = variants_named<Space, T>(spec.name);
  const std::string where = deck + (spec.line > 0 ? ":" + std::to_string(spec.line) : std::string()) +
                            ": kernels[" + std::to_string(index) + "]";
  if (same.empty()) throw DeckError(where + ".name: unknown kernel '" + spec.name + "'");
  if (spec.tile.empty() && spec.thread_tile.empty() && spec.prefetch < 0 && spec.variant.empty()) {
    std::string why;
    const std::size_t i = default_variant<Space, T>(same, m, n, k, why);
    return {same[i], why};
  }
  std::string shapes;
  for (const auto& v : same) {
    const bool tile_ok = spec.tile.empty() || spec.tile == v.tile;
    const bool thread_ok = spec.thread_tile.empty() || spec.thread_tile == v.thread_tile;
    const bool prefetch_ok = spec.prefetch < 0 || v.prefetch < 0 || spec.prefetch == v.prefetch;
    const bool variant_ok = spec.variant.empty() || spec.variant == v.tag;
    if (tile_ok && thread_ok && prefetch_ok && variant_ok) return {v, "deck"};
    shapes += (shapes.empty() ? "" : ", ") + v.shape();
  }
  throw DeckError(where + ".tile: shape not compiled for backend " + std::string(Space::name()) +
                  " and this dtype; available: " + shapes);
}

}  // namespace mmapp
