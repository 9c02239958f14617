// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The GPU's warp-tiled GEMM (kernels/gpu/tiled_gpu_warp.hpp) run on the host
// backend: the same portable sources, in teams of 64 threads (the shapes are
// the GPU tiles scaled down: a 32x64 block of 4x8 register tiles in 32x32
// warp tiles, two warps per team). Every switch combination the GPU
// registry uses, on the host, for every load path: lean (whole tiles
// inside), edge with origins and bit masks (the fragment-pipelined forms),
// per-chunk masked (the others, and team shapes whose rounds are not whole
// tile rows), misaligned rows (element-wise loads), K tails, split-K.
// Checks: (1) the plain form against an independent reference (a triple
// loop in double within Higham's bound: gemm_check.hpp's count_bad); (2)
// every form of one tile and thread tile without split-K returns the same
// bits as its plain form (Vec off, no pipeline: the FMAs and their order are
// the same in every form, file comment of tiled_gpu_warp.hpp); split-K forms
// within rounding.
// Needs 64 host threads: the hidden tag [warp-host] runs in its own CTest
// entry (unit_warp_host, OMP_NUM_THREADS=64), which requires them.
#include "gemm_check.hpp"
#include "kernels/gpu/tiled_gpu_warp.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;

struct Case {
  long m, n, k;
  double beta;
  long pad;  // extra elements per row of A, B and C (pad 1: rows not 16-byte aligned)
};
// Not multiples of the 32x64x8 tile, K tails of 1 .. 7, whole tiles (lean
// teams), one tile, K = 0, misaligned rows, several split-K slices.
const std::vector<Case> cases{{70, 130, 37, 0, 0},   {128, 128, 64, 0.5, 0}, {96, 64, 100, 0, 0},
                              {1, 1, 1, 0, 0},       {65, 129, 17, 1, 0},    {64, 128, 8, 0, 0},
                              {3, 200, 0, 0.25, 0},  {131, 67, 9, 0, 0},     {64, 64, 64, 0, 0},
                              {64, 128, 40, -0.75, 0}, {96, 192, 72, 0, 0},  {64, 128, 48, 0, 1},
                              {64, 128, 48, 0, 2},   {33, 65, 24, 0, 0},     {32, 64, 7, 0, 0},
                              {128, 128, 200, 0, 4},  {1025, 1030, 13, 0, 0}};  // the last: A and B copied

/// C = A B + beta C: C is `pad`-padded like C0 and holds C0's values
/// (padded() with C0's operand index and seed) where beta != 0, NaN where
/// beta == 0 (it must not be read then); returns C.
template <class Cfg, class T>
mmapp::Matrix<T, Host> run(const Case& c, const mmapp::Matrix<T, Host>& A, const mmapp::Matrix<T, Host>& B,
                           std::uint64_t seed) {
  auto C = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
  if (c.beta == 0) Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
  // The catalog's sizing: room for aligned copies of a contiguous operand with odd K or N (their
  // 16-byte path); a padded (strided) operand gets none and keeps the element-wise path.
  mmapp::Workspace<Host> work("work", mmapp::tiled_gpu_workspace_bytes<T, Cfg::split_kc, Cfg::vec>(c.m, c.n, c.k));
  mmapp::gemm_tiled_warp<Cfg>(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(c.beta), work});
  Kokkos::fence();
  return C;
}

// Long K for the 96x96 tiles split by 1024 (rule choice mid_splitk): 3
// and 2 slices with a short last one, K not a multiple of BK, M and N past
// a tile, misaligned rows (pad 1).
const std::vector<Case> long_k_cases{{100, 97, 2500, 0, 0}, {96, 96, 3000, 0.5, 0}, {100, 97, 2500, -0.75, 1},
                                     {97, 100, 1025, 1, 0}};

/// Runs the plain form Ref and every form Cfgs of one tile on every case of `cs`.
template <class T, class Ref, class... Cfgs>
void check_family(const std::vector<Case>& cs = cases) {
  std::uint64_t seed = 11;
  for (const auto& c : cs) {
    const auto A = mmapp_test::padded<Host, T>(c.m, c.k, c.pad, 0, seed);
    const auto B = mmapp_test::padded<Host, T>(c.k, c.n, c.pad, 1, seed);
    const auto C0 = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
    INFO((sizeof(T) == 4 ? "float " : "double ") << c.m << "x" << c.n << "x" << c.k << " beta " << c.beta << " pad "
                                                 << c.pad);
    const auto ref = run<Ref, T>(c, A, B, seed);
    CHECK(mmapp_test::count_bad<T>(A, B, C0, ref, T(c.beta)) == 0);
    const double u = std::numeric_limits<T>::epsilon() / 2, gamma = (c.k + 2) * u / (1 - (c.k + 2) * u);
    auto same = [&](auto cfg) {
      using Cfg = decltype(cfg);
      INFO("stages " << Cfg::stages << " vec " << Cfg::vec << " fragdb " << Cfg::frag_pipe << " lds"
                     << Cfg::frag_bytes << " splitk " << Cfg::split_kc << " warp tile " << Cfg::WM << "x" << Cfg::WN);
      const auto out = run<Cfg, T>(c, A, B, seed);
      long differ = 0;
      for (long i = 0; i < c.m; ++i)
        for (long j = 0; j < c.n; ++j) {
          if (Cfg::split_kc == 0)
            differ += !(out(i, j) == ref(i, j));  // same FMAs, same order: the same bits
          else
            differ += !(std::fabs(double(out(i, j)) - double(ref(i, j))) <=
                        4 * gamma * (1 + std::fabs(double(ref(i, j)))));  // another summation order
        }
      CHECK(differ == 0);
    };
    (same(Cfgs{}), ...);
    ++seed;
  }
}

template <int S, bool V, int Sw, int Kc = 0, bool F = false, int FB = 16>
using D = mmapp::GpuTile<32, 64, 8, 32, 32, 4, 8, S, V, Sw, 0, Kc, F, FB>;  // double and float: 64 threads

}  // namespace

TEST_CASE("the GPU's warp-tiled GEMM on the host backend: every form, every load path", "[.warp-host]") {
  REQUIRE(Host().concurrency() >= 64);  // run by unit_warp_host with 64 OpenMP threads
  // Lean-capable tiles (64 threads make whole rows of A's and B's chunks).
  check_family<double, D<0, false, 0>, D<0, true, 0>, D<1, true, 2>, D<2, true, 2>, D<1, true, 0, 0, true>,
               D<2, true, 2, 0, true>, D<0, true, 0, 0, true>, D<2, true, 0, 0, true, 8>,
               mmapp::GpuTile<32, 64, 8, 0, 0, 4, 8, 2, true, 0, 0>, D<2, true, 0, 16, true>, D<1, true, 0, 24, true>,
               D<2, true, 0, 8>>();
  check_family<float, D<0, false, 0>, D<0, true, 0>, D<1, true, 2>, D<2, true, 2>, D<1, true, 0, 0, true>,
               D<2, true, 2, 0, true>, mmapp::GpuTile<32, 64, 8, 0, 0, 4, 8, 2, true, 0, 0>,
               D<2, true, 0, 16, true>>();
  // The wave split (WaveSplit, chunks of at least 16) at one team per SM: the slices that fill the
  // host's slots (one 2048-thread "SM" per 2048 threads of the pool, at least one).
  check_family<float, D<2, true, 0>, mmapp::WaveSplit<mmapp::GpuTile<32, 64, 8, 32, 32, 4, 8, 2, true, 0, 1, 16>>>(
      long_k_cases);
  // Rounds of chunks that are not whole tile rows (96-column B tiles): the
  // per-chunk masked loads in every form.
  check_family<double, mmapp::GpuTile<16, 96, 8, 16, 48, 4, 6, 0, false, 0, 0>,
               mmapp::GpuTile<16, 96, 8, 16, 48, 4, 6, 1, true, 0, 0>,
               mmapp::GpuTile<16, 96, 8, 16, 48, 4, 6, 2, true, 0, 0, 0, true>,
               mmapp::GpuTile<16, 96, 8, 16, 48, 4, 6, 2, true, 0, 0>,
               mmapp::GpuTile<16, 96, 8, 16, 48, 4, 6, 2, true, 0, 0, 16, true>>();
  check_family<float, mmapp::GpuTile<32, 96, 8, 32, 48, 4, 12, 0, false, 0, 0>,
               mmapp::GpuTile<32, 96, 8, 32, 48, 4, 12, 1, true, 0, 0>,
               mmapp::GpuTile<32, 96, 8, 32, 48, 4, 12, 2, true, 0, 0, 0, true>,
               mmapp::GpuTile<32, 96, 8, 32, 48, 4, 12, 2, true, 0, 0, 16>>();
  // The rule's 96x96 split tiles (192 threads, past the host's 64-member
  // teams) by their warp and thread tiles in 32x96 teams of two warps, split
  // by 1024 on long K: float 96x96x16 / 4x12 (FloatMidSplitK), double
  // 96x96x8 / 8x6 (DoubleMidSplitK); their two-stage forms unsplit give the
  // plain form's bits.
  check_family<float, mmapp::GpuTile<32, 96, 16, 32, 48, 4, 12, 0, false, 0, 0>,
               mmapp::GpuTile<32, 96, 16, 32, 48, 4, 12, 2, true, 0, 0>,
               mmapp::GpuTile<32, 96, 16, 32, 48, 4, 12, 2, true, 0, 0, 1024>>(long_k_cases);
  check_family<double, mmapp::GpuTile<32, 96, 8, 32, 48, 8, 6, 0, false, 0, 0>,
               mmapp::GpuTile<32, 96, 8, 32, 48, 8, 6, 2, true, 0, 0>,
               mmapp::GpuTile<32, 96, 8, 32, 48, 8, 6, 2, true, 0, 0, 1024>>(long_k_cases);
}

TEST_CASE("AlignedOperands: aligned copies of operands whose rows are not 16-byte aligned", "[aligned]") {
  // float (4 per chunk) and double (2 per chunk); A 1025 x 7 (K odd), B 7 x 1025 (N odd), each read
  // along 1025 >= kOperandCopyMinReuse rows or columns of C.
  static_assert(mmapp::kOperandCopyMinReuse <= 1025, "the copies are made");
  auto check = [](auto zero) {
    using T = decltype(zero);
    constexpr long vw = 16 / sizeof(T);
    const long m = 1025, k = 7, n = 1025;
    const auto A = mmapp_test::padded<Host, T>(m, k, 0, 0, 3);
    const auto B = mmapp_test::padded<Host, T>(k, n, 0, 1, 3);
    mmapp::Matrix<T, Host> C("C", m, n);
    auto same = [](const mmapp::OperandView<T>& v, const mmapp::Matrix<T, Host>& x) {
      long bad = 0;
      for (long i = 0; i < long(x.extent(0)); ++i)
        for (long j = 0; j < v.ld; ++j)
          bad += j < long(x.extent(1)) ? !(v.data[i * v.ld + j] == x(i, j)) : !(v.data[i * v.ld + j] == T(0));
      return bad;
    };
    const std::size_t need = mmapp::tiled_gpu_workspace_bytes<T, 0>(m, n, k);
    REQUIRE(need > 0);
    {  // room: both copied, past the split-K partials (`used` bytes), with a padded pitch
      const std::size_t used = 100;
      mmapp::Workspace<Host> work("work", 256 + need);
      const mmapp::AlignedOperands<Host, T> ops(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(0), work}, used);
      Kokkos::fence();
      CHECK(ops.a.vec);
      CHECK(ops.b.vec);
      CHECK(ops.a.ld == (k + vw - 1) / vw * vw);
      CHECK(ops.b.ld == (n + vw - 1) / vw * vw);
      CHECK(static_cast<const void*>(ops.a.data) >= static_cast<const void*>(work.data() + used));
      CHECK(static_cast<const void*>(ops.b.data) > static_cast<const void*>(ops.a.data));
      CHECK(reinterpret_cast<std::uintptr_t>(ops.a.data) % 16 == 0);
      CHECK(reinterpret_cast<std::uintptr_t>(ops.b.data) % 16 == 0);
      CHECK(same(ops.a, A) == 0);
      CHECK(same(ops.b, B) == 0);
    }
    {  // room for A's copy alone: A copied, B used in place, element by element
      mmapp::Workspace<Host> work("work", need - 1);
      const mmapp::AlignedOperands<Host, T> ops(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(0), work}, 0);
      Kokkos::fence();
      CHECK(ops.a.vec);
      CHECK(same(ops.a, A) == 0);
      CHECK(ops.b.data == B.data());
      CHECK_FALSE(ops.b.vec);
      CHECK(ops.b.ld == n);
    }
    {  // the partials take all of it: both in place
      mmapp::Workspace<Host> work("work", need);
      const mmapp::AlignedOperands<Host, T> ops(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(0), work}, need);
      CHECK(ops.a.data == A.data());
      CHECK_FALSE(ops.a.vec);
      CHECK(ops.a.ld == k);
      CHECK(ops.b.data == B.data());
      CHECK_FALSE(ops.b.vec);
    }
    {  // few rows of C (m < kOperandCopyMinReuse): B is read in place even with room; A is copied
      const auto A5 = mmapp_test::padded<Host, T>(5, k, 0, 0, 3);
      mmapp::Matrix<T, Host> C5("C5", 5, n);
      const std::size_t need5 = mmapp::tiled_gpu_workspace_bytes<T, 0>(5, n, k);
      CHECK(need5 < need);
      mmapp::Workspace<Host> work("work", need);
      const mmapp::AlignedOperands<Host, T> ops(Host{}, mmapp::GemmArgs<Host, T>{A5, B, C5, T(0), work}, 0);
      Kokkos::fence();
      CHECK(ops.a.vec);
      CHECK(same(ops.a, A5) == 0);
      CHECK(ops.b.data == B.data());
      CHECK_FALSE(ops.b.vec);
    }
    {  // aligned operands: used in place, no copy, no workspace needed
      const auto A2 = mmapp_test::padded<Host, T>(m, 2 * vw, 0, 0, 3);
      const auto B2 = mmapp_test::padded<Host, T>(2 * vw, vw, 0, 1, 3);
      CHECK(mmapp::tiled_gpu_workspace_bytes<T, 0>(m, vw, 2 * vw) == 0);
      const mmapp::AlignedOperands<Host, T> ops(Host{}, mmapp::GemmArgs<Host, T>{A2, B2, C, T(0), {}}, 0);
      CHECK(ops.a.data == A2.data());
      CHECK(ops.b.data == B2.data());
      CHECK(ops.a.vec);
      CHECK(ops.b.vec);
    }
  };
  check(float{});
  check(double{});
}

TEST_CASE("AlignedOperands, CopyRule::dmma: copies reused along more than 192 rows in GEMMs of 5e8 M·N·K",
          "[aligned]") {
  // The double cp.async DMMA tiles' bounds (aligned_operands.hpp): B (N odd) read along M = 300 rows
  // of C is copied by their rule and not by the SIMT tiles' (kOperandCopyMinReuse, 1024); along 192
  // rows, or in a GEMM under 5e8 M·N·K, by neither. A (K odd, N = 2001 columns) by both.
  using T = double;
  using mmapp::CopyRule;
  static_assert(mmapp::operand_copied<T, CopyRule::dmma>(1001, 2001, 300));
  static_assert(!mmapp::operand_copied<T>(1001, 2001, 300));
  static_assert(!mmapp::operand_copied<T, CopyRule::dmma>(1001, 2001, 192));
  static_assert(!mmapp::operand_copied<T, CopyRule::dmma>(801, 2001, 300));   // 4.8e8 M·N·K
  static_assert(!mmapp::operand_copied<T, CopyRule::dmma>(1001, 2000, 300));  // aligned rows
  static_assert(mmapp::operand_copied<T>(300, 1001, 2001));
  const long n = 2001;
  auto copies = [&](const long m, const long k, const bool b_copied) {
    INFO(m << "x" << n << "x" << k);
    const auto A = mmapp_test::padded<Host, T>(m, k, 0, 0, 3);
    const auto B = mmapp_test::padded<Host, T>(k, n, 0, 1, 3);
    mmapp::Matrix<T, Host> C("C", m, n);
    const std::size_t need = mmapp::tiled_gpu_workspace_bytes<T, 0, true, CopyRule::dmma>(m, n, k);
    const std::size_t need_tiles = mmapp::tiled_gpu_workspace_bytes<T, 0>(m, n, k);
    CHECK((need > need_tiles) == b_copied);
    mmapp::Workspace<Host> work("work", need);
    const mmapp::AlignedOperands<Host, T, CopyRule::dmma> ops(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(0), work}, 0);
    const mmapp::AlignedOperands<Host, T> tiles(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(0), work}, 0);
    Kokkos::fence();
    CHECK(ops.a.vec);
    CHECK(tiles.a.vec);
    CHECK(ops.b.vec == b_copied);
    CHECK_FALSE(tiles.b.vec);
    CHECK(tiles.b.data == B.data());
    if (b_copied) {
      CHECK(ops.b.ld == n + 1);
      long bad = 0;
      for (long i = 0; i < k; ++i)
        for (long j = 0; j <= n; ++j) bad += !(ops.b.data[i * ops.b.ld + j] == (j < n ? B(i, j) : T(0)));
      CHECK(bad == 0);
    } else {
      CHECK(ops.b.data == B.data());
    }
  };
  copies(300, 1001, true);
  copies(192, 1303, false);  // along 192 rows (5.006e8 M·N·K)
  copies(300, 801, false);   // 4.8e8 M·N·K
}
