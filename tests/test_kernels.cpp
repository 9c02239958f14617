// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// Every kernel variant compiled for every enabled execution space, float and
// double, against an independent reference: a plain triple loop on the host
// in double precision (no Kokkos Kernels), on shapes that are not multiples
// of any tile, some with K larger than every host block K (so the K-block
// accumulation runs). Pass criterion, per element (Higham, "Accuracy
// and Stability of Numerical Algorithms", 2nd ed., eq. 3.13, with a factor 2
// of slack):
//     |C - Cref|_ij <= 2 * gamma_K * (|A| |B|)_ij,  gamma_K = K u / (1 - K u)
// Both beta = 0 (C poisoned with NaN: it must not be read) and beta != 0
// (C = A B + beta C0). Also: B = I gives C == A bit for bit.
#include "deck/init.hpp"
#include "kernels/portable/fma_peak.hpp"
#include "kernels/gpu/mma_peak.hpp"
#include "kernels/gpu/warp/mma_shapes.hpp"
#include "kernels/catalog.hpp"
#include "kernels/gpu/gemv_gpu.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/stream_k.hpp"
#include "kernels/vendor/vendor.hpp"
#include "core/exec_spaces.hpp"
#include "gemm_check.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <random>
#include <utility>
#include <vector>

namespace {

struct Shape {
  long m, n, k;
};
// m x n x k: the seeds' 3x4 times 4x5 (m=3, k=4, n=5) and shapes that are not
// multiples of any tile. Host kernels: K = 1537 and 1100 are above every KC
// (512 float, 256 double at the 2 KiB floor; more only with an L1 of hundreds
// of KiB), so C accumulates over K blocks; M = 130 gives two or more MC blocks
// from 2 threads up (one thread: tests/test_host_gemm.cpp shrinks the caches
// to run every block loop); M, N are no multiple of any MR (4, 6, 8, 14) or
// NR (8 .. 64); M = 3 and 7 take the few-rows kernel's partial groups, N = 257
// and 99 its partial column strip, K = 600 several of its K passes.
// 9x40x8229: K not a multiple of any split-K chunk (4096: 3 slices, 1024: 9
// slices, 256: 33, the last two through splitk_reduce's two-level sum);
// 1x1x73731: a dot product (gemv_dot: 10 slices of 8192, two levels).
const std::vector<Shape> shapes{{1, 1, 1},     {3, 4, 5},      {3, 5, 4},     {17, 33, 65},
                                {100, 1, 100}, {129, 257, 31}, {1, 300, 77},  {19, 70, 1537},
                                {130, 99, 1100}, {3, 257, 600}, {7, 130, 513}, {9, 40, 8229},
                                {1, 1, 73731}};

template <class T>
mmapp::HostMatrix<T> random_host(long rows, long cols, int which, std::uint64_t seed) {
  mmapp::HostMatrix<T> X("X", rows, cols);
  mmapp::fill_matrix<T>(X, which, 0, mmapp::Init::random, seed);
  return X;
}

template <class Space, class T>
mmapp::Matrix<T, Space> to_device(const mmapp::HostMatrix<T>& h) {
  mmapp::Matrix<T, Space> d("d", h.extent(0), h.extent(1));
  Kokkos::deep_copy(d, h);
  return d;
}

/// Runs `fn` on C = NaN (beta = 0) or on C = C0 (beta != 0) and returns C on the host.
template <class Space, class T>
mmapp::HostMatrix<T> run_kernel(const mmapp::KernelVariant<Space, T>& v, const mmapp::Matrix<T, Space>& A,
                                const mmapp::Matrix<T, Space>& B, const mmapp::HostMatrix<T>& C0, T beta) {
  const long m = A.extent(0), n = B.extent(1), k = A.extent(1);
  mmapp::Matrix<T, Space> C("C", m, n);
  if (beta == T(0))
    Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
  else
    Kokkos::deep_copy(C, C0);
  mmapp::Workspace<Space> work("work", v.workspace(m, n, k));
  v.run(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, beta, work});
  Kokkos::fence();
  mmapp::HostMatrix<T> h("h", m, n);
  Kokkos::deep_copy(h, C);
  return h;
}

template <class Space, class T>
void check_against_host_reference() {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  std::uint64_t seed = 2024;
  for (const auto& s : shapes) {
    const auto hA = random_host<T>(s.m, s.k, 0, seed), hB = random_host<T>(s.k, s.n, 1, seed);
    const auto C0 = random_host<T>(s.m, s.n, 2, seed);
    ++seed;
    const auto A = to_device<Space, T>(hA), B = to_device<Space, T>(hB);
    const double gamma = (s.k + 2) * u / (1 - (s.k + 2) * u);  // + 2: the beta term's multiply and add
    for (const T beta : {T(0), T(-0.75)}) {
      for (const auto& v : mmapp::kernel_variants<Space, T>()) {
        INFO(Space::name() << " " << v.name << " " << v.shape() << " " << (sizeof(T) == 4 ? "float" : "double")
                           << " m=" << s.m << " n=" << s.n << " k=" << s.k << " beta=" << beta);
        const auto C = run_kernel<Space, T>(v, A, B, C0, beta);
        long bad = 0;
        double worst = 0;
        for (long i = 0; i < s.m; ++i)
          for (long j = 0; j < s.n; ++j) {
            double ref = double(beta) * double(C0(i, j)), mag = std::fabs(ref);
            for (long p = 0; p < s.k; ++p) {
              ref += double(hA(i, p)) * double(hB(p, j));
              mag += std::fabs(double(hA(i, p)) * double(hB(p, j)));
            }
            const double err = std::fabs(double(C(i, j)) - ref);
            if (!(err <= 2 * gamma * mag + std::numeric_limits<double>::min())) ++bad;  // NaN counts as bad
            if (mag > 0) worst = std::max(worst, err / mag);
          }
        INFO("worst |C - ref| / (|A||B| + |beta C0|) = " << worst << ", bound " << 2 * gamma);
        CHECK(bad == 0);
      }
    }
  }
}

template <class Space, class T>
void check_identity_exact() {
  const long m = 37, n = 41;  // k = n
  const auto hA = random_host<T>(m, n, 0, 7);
  mmapp::HostMatrix<T> hI("I", n, n);
  mmapp::fill_matrix<T>(hI, 1, 0, mmapp::Init::identity, 7);
  const auto A = to_device<Space, T>(hA), I = to_device<Space, T>(hI);
  for (const auto& v : mmapp::kernel_variants<Space, T>()) {
    // 3xTF32 (tiled_gpu_mma.hpp) holds each element of A as big + small
    // with 11 + 11 significant bits: not exact for the 24-bit ones, by
    // construction; its accuracy is checked against the reference bound.
    if (v.tag.rfind("3xtf32", 0) == 0) continue;
    INFO(Space::name() << " " << v.name << " " << v.shape());
    const auto C = run_kernel<Space, T>(v, A, I, mmapp::HostMatrix<T>(), T(0));
    long differ = 0;
    for (long i = 0; i < m; ++i)
      for (long j = 0; j < n; ++j) differ += !(C(i, j) == hA(i, j));
    CHECK(differ == 0);
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("every kernel matches an independent host reference (float)", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_against_host_reference<TestType, float>();
}

TEMPLATE_LIST_TEST_CASE("every kernel matches an independent host reference (double)", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_against_host_reference<TestType, double>();
}

TEMPLATE_LIST_TEST_CASE("with B = I every kernel returns A bit for bit", "[kernels]", mmapp::EnabledSpaces) {
  check_identity_exact<TestType, float>();
  check_identity_exact<TestType, double>();
}

namespace {

/// splitk_reduce against the order it documents, computed here on the host
/// in T: group g = ((w[gL] + w[gL+1]) + ...), C = ((group 0 + group 1) + ...),
/// L = splitk_group_len(S). Bit for bit (beta = 0: additions only, no
/// contraction), on every space, whatever team size the space gives.
template <class Space, class T>
void check_splitk_reduce_order() {
  struct Case {
    long m, n;
    int slices;
  };
  for (const Case c : {Case{1, 1, 1}, Case{1, 1, 8}, Case{1, 1, 9}, Case{1, 1, 300}, Case{1, 1, 2500},
                       Case{3, 5, 9}, Case{3, 5, 2500}, Case{70, 40, 33}, Case{70, 40, 300}}) {
    INFO(Space::name() << " " << (sizeof(T) == 4 ? "float" : "double") << " " << c.m << "x" << c.n
                       << " slices=" << c.slices);
    const long mn = c.m * c.n;
    const auto hw = random_host<T>(c.slices, mn, 3, 99 + c.slices);
    const auto w = to_device<Space, T>(hw);
    mmapp::Matrix<T, Space> C("C", c.m, c.n);
    Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
    mmapp::splitk_reduce<Space, T>(Space{}, w.data(), c.slices, C, T(0));
    Kokkos::fence();
    mmapp::HostMatrix<T> h("h", c.m, c.n);
    Kokkos::deep_copy(h, C);
    const int L = mmapp::splitk_group_len(c.slices), G = (c.slices + L - 1) / L;
    long differ = 0;
    for (long e = 0; e < mn; ++e) {
      T total = T(0);
      for (int g = 0; g < G; ++g) {
        const int s0 = g * L, s1 = std::min(s0 + L, c.slices);
        T part = hw(s0, e);
        for (int p = s0 + 1; p < s1; ++p) part += hw(p, e);
        total = g == 0 ? part : total + part;
      }
      const T got = h(e / c.n, e % c.n);
      differ += std::memcmp(&got, &total, sizeof(T)) != 0;
    }
    CHECK(differ == 0);
  }
}

/// gemv_dot over many slices (two-level reduction): within the bound of
/// check_against_host_reference, and the same bits on a second run.
template <class Space, class T>
void check_dot_product() {
  const double u = std::numeric_limits<T>::epsilon() / 2;
  for (const long k : {73731L, 8192L * 300 + 5}) {
    INFO(Space::name() << " " << (sizeof(T) == 4 ? "float" : "double") << " k=" << k);
    const auto hA = random_host<T>(1, k, 0, 11), hB = random_host<T>(k, 1, 1, 11);
    const auto A = to_device<Space, T>(hA), B = to_device<Space, T>(hB);
    mmapp::Workspace<Space> work("work", mmapp::gemv_dot_workspace_bytes<T, 8192>(1, 1, k));
    T got[2];
    for (T& g : got) {
      mmapp::Matrix<T, Space> C("C", 1, 1);
      Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
      mmapp::gemv_dot<8192, Space, T>(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, T(0), work});
      Kokkos::fence();
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), C);
      g = h(0, 0);
    }
    double ref = 0, mag = 0;
    for (long p = 0; p < k; ++p) {
      ref += double(hA(0, p)) * double(hB(p, 0));
      mag += std::fabs(double(hA(0, p)) * double(hB(p, 0)));
    }
    const double gamma = k * u / (1 - k * u);
    CHECK(std::fabs(double(got[0]) - ref) <= 2 * gamma * mag);
    CHECK(std::memcmp(&got[0], &got[1], sizeof(T)) == 0);
  }
}

/// The ceiling kernel (kernels/fma_peak.hpp) computes every step of every
/// chain: each work item's result equals the host recurrence, fused or not,
/// bit for bit; one step fewer (or a chain skipped) does not.
template <class Space, class T>
void check_fma_chains() {
  const long items = 37, iters = 1000;
  const T a = T(1) - T(1.0 / (1 << 20)), b = T(1.0 / 1024), x0 = T(1), step = T(1.0 / 4096);
  Kokkos::View<T*, typename Space::memory_space> out("out", items);
  mmapp::fma_chains<Space, T>(Space{}, out, iters, a, b, x0, step);
  Kokkos::fence();
  const auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
  long wrong = 0;
  for (long i = 0; i < items; ++i) {
    const T fused = mmapp::fma_chains_reference<T>(i, iters, a, b, x0, step, true);
    const T plain = mmapp::fma_chains_reference<T>(i, iters, a, b, x0, step, false);
    wrong += !(h(i) == fused || h(i) == plain);
  }
  CHECK(wrong == 0);
  // The check tells a short count apart: the result of iters - 1 steps differs.
  CHECK(mmapp::fma_chains_reference<T>(0, iters - 1, a, b, x0, step, true) != h(0));
  CHECK(mmapp::fma_chains_reference<T>(0, iters - 1, a, b, x0, step, false) != h(0));
  CHECK(mmapp::fma_chains_flops(items, iters) == 2.0 * items * mmapp::kFmaChains * iters);
}

/// The tensor-core peak loop's closed form (kernels/gpu/mma_peak.hpp), on
/// the host: n steps of a warp's chain, emulated lane by lane (mma_emulate,
/// A and B from mma_peak_a / mma_peak_b through Shape's layouts), equal
/// mma_chains_reference bit for bit; tri(n) (mma_peak_steps_sign) is the
/// signed count of steps when the A fragment flips sign every kMmaFlip
/// steps; every element of A B is a signed power of two up to 4, so the
/// largest accumulator, kMmaFlip * 4, is exact in Shape::Elem; one step
/// fewer changes the expected value.
template <class Shape>
void check_mma_peak_closed_form() {
  using E = typename Shape::Elem;
  using Reg = typename Shape::Reg;
  Reg a[32][Shape::a_regs], b[32][Shape::b_regs];
  for (int l = 0; l < 32; ++l) {
    for (int q = 0; q < Shape::a_regs; ++q)
      a[l][q] = mmapp::detail::mma_peak_reg<Shape>(mmapp::mma_peak_a(Shape::a_row(l, q), Shape::a_col(l, q), Shape::K));
    for (int q = 0; q < Shape::b_regs; ++q)
      b[l][q] = mmapp::detail::mma_peak_reg<Shape>(mmapp::mma_peak_b(Shape::b_row(l, q), Shape::b_col(l, q)));
  }
  // n steps from C = 0, every lane's accumulator fed back (a chain).
  E c[32][Shape::c_regs] = {};
  long wrong = 0, not_pow2 = 0;
  for (long n = 1; n <= 9; ++n) {
    E d[32][Shape::c_regs];
    for (int l = 0; l < 32; ++l) mmapp::detail::mma_emulate<Shape>(l, a, b, c[l], d[l]);
    for (int l = 0; l < 32; ++l)
      for (int r = 0; r < Shape::c_regs; ++r) {
        c[l][r] = d[l][r];
        wrong += !(c[l][r] == mmapp::mma_chains_reference<Shape>(l, r, n));
        if (n == 1) {
          const double v = std::fabs(double(c[l][r]));
          not_pow2 += !(v == 1 || v == 2 || v == 4);
        }
      }
  }
  CHECK(wrong == 0);
  CHECK(not_pow2 == 0);
  // The largest value and one step fewer.
  for (int l = 0; l < 32; ++l)
    for (int r = 0; r < Shape::c_regs; ++r) {
      const E one = mmapp::mma_chains_reference<Shape>(l, r, 1);
      CHECK(double(mmapp::mma_chains_reference<Shape>(l, r, mmapp::kMmaFlip)) == double(mmapp::kMmaFlip) * double(one));
      CHECK(mmapp::mma_chains_reference<Shape>(l, r, 3 * mmapp::kMmaFlip + 5) !=
            mmapp::mma_chains_reference<Shape>(l, r, 3 * mmapp::kMmaFlip + 4));
    }
  CHECK(mmapp::mma_chains_flops<Shape>(3, 5) == 2.0 * Shape::M * Shape::N * Shape::K * mmapp::kMmaChains * 15);
}

/// The GPU shape rule (gpu_shape_rule, through default_variant) on classes whose choice
/// does not depend on the device's SM count: the variant's tag. (Float
/// 8192^3: its 2048 tiles of 128x256 fill their waves to at least 90% for
/// every SM count from 1 to 252; the H200 has 132.)
template <class Space>
void check_gpu_shape_rule() {
  if constexpr (!mmapp::is_host_space_v<Space>) {
    auto tag = [](auto zero, long m, long n, long k) {
      using T = decltype(zero);
      const auto same = mmapp::variants_named<Space, T>("tiled");
      std::string why;
      const auto& v = same[mmapp::default_variant<Space, T>(same, m, n, k, why)];
      INFO(m << "x" << n << "x" << k << ": " << why);
      return v.shape();
    };
    // The FP64 tensor-core variants, where this build has them (sm_80 and later).
    bool dmma = false, sm90 = false, deep = false, ws = false;  // sm_90: the m16n8k8 / m16n8k16 variants
    for (const auto& v : mmapp::variants_named<Space, double>("tiled")) {
      dmma = dmma || v.tag.rfind("dmma", 0) == 0;
      sm90 = sm90 || v.tag.rfind("dmma16", 0) == 0;
      deep = deep || v.rule == mmapp::GpuRuleChoice::dmma_deep;  // sm_90 on the in-tree Kokkos
      ws = ws || v.rule == mmapp::GpuRuleChoice::dmma_deep_ws;   // sm_90a on the in-tree Kokkos
    }
    if (deep) {
      // 8192^3: 4096 tiles of 128x128, two waves or more for up to 2048 SMs; with the tail split
      // where the plan (one team per SM, K tiles of 16) splits its last wave on this device.
      const bool tail = mmapp::tail_split_plan(4096, 8192, mmapp::gpu_sm_estimate(Space()), 16).active();
      const std::string ws_tag = std::string("128x128x16/64x32 dmma16k16 w64x32 cp4 ws4 lb1 sw8") + (tail ? " tail" : "");
      const std::string big = ws ? ws_tag : "128x64x16/64x32 dmma16 w64x32 cp3 lb2 sw8";
      CHECK(tag(double(0), 8192, 8192, 8192) == big);
      CHECK(tag(double(0), 8192, 8191, 8192) == big);  // odd N: copied
      // K <= 768: the 64x64 deep tile at three teams per SM (thirty-fifth round); K 769-1023 without
      // the ws tile: the 128x64 one
      CHECK(tag(double(0), 8192, 8192, 512) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024");
      if (!ws) CHECK(tag(double(0), 8192, 8192, 1000) == "128x64x16/64x32 dmma16 w64x32 cp3 lb2 sw8");
      // 1024^2 x 4096: 64 tiles of 128x128, C in whole tiles; streamed where the plan (one team per SM,
      // K tiles of 16, 4 stages) streams this device's last wave in runs of at most half a tile.
      const long sms = mmapp::gpu_sm_estimate(Space());
      const auto sk = mmapp::stream_k_plan(64, 4096, sms, 16, 4);
      if (ws && 64 < 4 * sms && !mmapp::tail_split_plan(64, 4096, sms, 16).active() && sk.active() &&
          2 * sk.team_iters <= sk.tile_iters)
        CHECK(tag(double(0), 1024, 1024, 4096) == "128x128x16/64x32 dmma16k16 w64x32 cp4 ws4 lb1 sw8 sk");
      CHECK(tag(double(0), 16384, 16384, 64) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024");  // short K
      // The 128x64 tiles in one wave, the 64x64 ones in more (132 SMs: 256 tiles, 512): the 128x64
      // tile, on m16n8k8 up to K 128; odd operands left in place under 5e8 M·N·K where the 64x64
      // tiles fill one wave of three per SM, more than one of two (450 x 2501: 320): the deep tile, in
      // its ElemChunks form (forty-seventh round).
      if (sms == 132) {
        CHECK(tag(double(0), 128, 16384, 128) == "128x64x16/64x32 dmma16k8 w64x32 cp3 lb2 sw8");
        CHECK(tag(double(0), 128, 16384, 300) == "128x64x16/64x32 dmma16 w64x32 cp3 lb2 sw8");
        CHECK(tag(double(0), 450, 2501, 399) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024 el");
      }
      CHECK(tag(double(0), 96, 96, 500000) == "96x96x8/48x32 dmma16k8 w48x32 cp4 lb2 splitk1024");
      CHECK(tag(double(0), 256, 256, 262144) == "128x64x16/64x32 dmma16 w64x32 cp3 lb2 wsplit256");
      CHECK(tag(double(0), 96, 96, 499999) == "64x64x16/32x32 dmma16k8 w32x32 lb2 splitk1024");  // odd K, N < 1024
      // the 64x64 split tile at three teams per SM, also where the 128x64 tile would split (twelfth
      // round), but with the ws tile past a wave of 128x128 tiles filled to 0.84 (thirty-fourth round;
      // 1500^2: 144 tiles, on 132 SMs with the tail split)
      CHECK(tag(double(0), 100, 100, 300000) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024");
      if (!ws)
        CHECK(tag(double(0), 1500, 1500, 8192) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024");
      else if (sms == 132)
        CHECK(tag(double(0), 1500, 1500, 8192) == "128x128x16/64x32 dmma16k16 w64x32 cp4 ws4 lb1 sw8 tail");
      // K in one slice: the same deep tile unsplit (twenty-ninth round); odd N and K that the copy
      // bounds of the DMMA tiles copy (along more than 192 rows and columns, 1.0e9 M·N·K:
      // CopyRule::dmma) read in place by its form copying nothing (forty-eighth round); under 5e8
      // M·N·K not copied: the register-path tile (few tiles: its wave split)
      CHECK(tag(double(0), 200, 200, 64) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024");
      CHECK(tag(double(0), 1001, 1003, 999) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 splitk1024 el inplace");
      CHECK(tag(double(0), 701, 703, 999) == "64x64x16/32x32 dmma16k8 w32x32 lb2 wsplit128");
      // Few tiles, K 257-16384: K split into the slices that fill the waves (thirtieth round), on the
      // deep tile and (odd N and K, not copied) on the register path.
      CHECK(tag(double(0), 100, 100, 1000) == "64x64x16/32x32 dmma16k8 w32x32 cp3 lb3 wsplit128");
      CHECK(tag(double(0), 97, 101, 306) == "64x64x16/32x32 dmma16k8 w32x32 lb2 wsplit128");
    } else if (sm90) {
      CHECK(tag(double(0), 8192, 8192, 8192) == "128x64x8/64x32 dmma16 w64x32 lb2 sw8");
      CHECK(tag(double(0), 96, 96, 500000) == "64x64x16/32x32 dmma16k8 w32x32 lb2 splitk1024");
      CHECK(tag(double(0), 64, 64, 1048576) == "64x64x16/32x32 dmma16k8 w32x32 lb2 splitk1024");
      CHECK(tag(double(0), 200, 200, 64) == "64x64x16/32x32 dmma16k8 w32x32 lb2 sw8");
    } else if (dmma) {
      CHECK(tag(double(0), 8192, 8192, 8192) == "128x64x8/64x32 dmma w64x32 lb2 sw8");
      CHECK(tag(double(0), 96, 96, 500000) == "64x64x16/32x32 dmma w32x32 lb3 splitk1024");
      CHECK(tag(double(0), 64, 64, 1048576) == "64x64x16/32x32 dmma w32x32 lb3 splitk1024");
      CHECK(tag(double(0), 200, 200, 64) == "64x64x16/32x32 dmma w32x32 lb3 sw8");
    } else {
      CHECK(tag(double(0), 8192, 8192, 8192) == "64x128x8/8x8 w32x64 2st vec sw8 lb2 fragdb");
      CHECK(tag(double(0), 96, 96, 500000) == "96x96x8/8x6 w32x48 2st vec lb2 splitk1024");
      CHECK(tag(double(0), 64, 64, 1048576) == "64x64x8/8x4 w32x32 2st vec lb3 splitk1024");
    }
    CHECK(tag(double(0), 16, 8192, 8192) == "8x64x256/8x2 gemv-cols m8");
    CHECK(tag(float(0), 16, 8192, 8192) == "64x64x16/4x8 w32x32 2st vec lb4 splitk1024");
    CHECK(tag(float(0), 96, 96, 500000) == "96x96x16/4x12 w32x48 2st vec lb2 splitk1024");
    // C's rows not in 16-byte chunks, K 33-64, a small C: the block-tiled 64x64x8 tile on every
    // build (forty-fifth round).
    CHECK(tag(float(0), 185, 2923, 61) == "64x64x8/4x4");
    // Float on wgmma where the catalog has it (sm_90a, the in-tree Kokkos), else SIMT.
    bool wgmma = false;
    for (const auto& v : mmapp::variants_named<Space, float>("tiled"))
      wgmma = wgmma || v.rule == mmapp::GpuRuleChoice::wgmma_big;
    if (wgmma) {
      CHECK(tag(float(0), 8192, 8192, 8192) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8");
      CHECK(tag(float(0), 1000, 1000, 8192) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8 wsplit256");
      CHECK(tag(float(0), 1000, 1000, 1000) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8 splitk512");
      CHECK(tag(float(0), 777, 1234, 4321) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8 splitk1024");
      // Under M 512 where the in-loop split is estimated at least 0.92 of the pre-split tile's time.
      CHECK(tag(float(0), 400, 4096, 4096) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8");
      // The in-loop split tile: K split into the slices that fill its waves (one tile x 131 slices; 40
      // tiles x 2 or more on any device of more than 40 SMs), by 1024 where the wave split's workspace
      // would pass kSplitKMaxBytes (24 tiles of K 262144).
      CHECK(tag(float(0), 100, 100, 300000) == "128x128x32/64x128 3xtf32 wgmma w64x128 lb1 sw8 wsplit256");
      CHECK(tag(float(0), 5000, 128, 20000) == "128x128x32/64x128 3xtf32 wgmma w64x128 lb1 sw8 wsplit256");
      CHECK(tag(float(0), 100, 3000, 262144) == "128x128x32/64x128 3xtf32 wgmma w64x128 lb1 sw8 splitk1024");
      // A small C (thirtieth round): 3xTF32 on mma.sync (chunks of at least 32 since the forty-fourth
      // round) below 4.8e7 multiply-adds, or 8.5e7 with K to 1536, else the pre-split 64x128 wgmma
      // tile, K split into the slices that fill the waves.
      CHECK(tag(float(0), 100, 100, 1000) == "64x64x16/32x32 3xtf32 w32x32 lb3 sw8 wsplit32");
      CHECK(tag(float(0), 200, 200, 1500) == "64x64x16/32x32 3xtf32 w32x32 lb3 sw8 wsplit32");
      CHECK(tag(float(0), 300, 300, 1000) == "64x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8 wsplit128");
      // Forty-fourth round: a small C over a long K, the C^T tile; N odd at K 65-128, the pre-split
      // 128x128 tile.
      CHECK(tag(float(0), 68, 213, 15525) == "80x64x32/80x64 3xtf32 wgmma t80x64 lb2 sw8 wsplit256 inplace");
      CHECK(tag(float(0), 1352, 1013, 89) == "128x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8");
      // A thin C (thirty-first round): past 1024 rows, 65-1024 columns: the same step; 17-64 columns:
      // the SIMT small tile, K split into the slices that fill its waves.
      CHECK(tag(float(0), 2000, 100, 1000) == "64x128x32/64x128 3xtf32 wgmma w64x128 3st pre lb1 sw8 wsplit128");
      CHECK(tag(float(0), 5000, 50, 2000) == "64x64x16/4x8 w32x32 2st vec lb4 wsplit256");
      // One column of 128x128 tiles with unaligned rows (K 7926): the in-loop wave split reading them
      // in place, not the pre-split tile (fifty-first round).
      CHECK(tag(float(0), 6422, 79, 7926) == "128x128x32/64x128 3xtf32 wgmma w64x128 lb1 sw8 wsplit256 inplace");
      // C of 65-96 rows against more than 1024 columns (thirty-ninth round): the C^T tiles, in their
      // forms that read an unaligned A in place (forty-seventh round).
      CHECK(tag(float(0), 70, 6000, 20000) == "80x64x32/80x64 3xtf32 wgmma t80x64 lb2 sw8 wsplit256 inplace");
      CHECK(tag(float(0), 96, 30001, 128) == "96x64x32/96x64 3xtf32 wgmma t96x64 lb2 sw8 wsplit256 inplace");
      CHECK(tag(float(0), 90, 6000, 1025) == "96x64x32/96x64 3xtf32 wgmma t96x64 lb2 sw8 wsplit256 inplace");
      // 97-128 rows, A copied by the plain tiles (K not a multiple of 4): the in-loop wave split reading
      // it in place (forty-eighth round; on 132 SMs, two slices).
      if (mmapp::gpu_sm_estimate(Space()) == 132)
        CHECK(tag(float(0), 110, 6000, 1029) == "128x128x32/64x128 3xtf32 wgmma w64x128 lb1 sw8 wsplit256 inplace");
    } else {
      CHECK(tag(float(0), 100, 100, 300000) == "64x64x16/4x8 w32x32 2st vec lb4 splitk1024");
      CHECK(tag(float(0), 8192, 8192, 8192) == "128x256x8/8x16 w64x64 2st vec sw8 lb1");
      CHECK(tag(float(0), 1000, 1000, 8192) == "128x128x8/8x8 w32x64 2st vec lb2 splitk1024");
    }
    CHECK(tag(float(0), 1, 1, 4000000) == "1x1x8192/1x4 gemv-dot");
    CHECK(tag(double(0), 1, 8192, 8192) == "1x64x256/1x2 gemv-cols m1");
  }
}

}  // namespace

namespace {

/// The tensor-core variants (tags "dmma ..." and "3xtf32 ...",
/// kernels/gpu/tiled_gpu_mma.hpp) of a GPU space against the independent
/// reference (count_bad: Higham's bound, as above) on sizes that are no
/// multiple of any tile, K tails, beta != 0, rows that are not 16-byte
/// aligned (pad 1), split-K over several slices, and operands scaled
/// towards FLT_MIN / DBL_MIN (A by 2^-120 (float) or 2^-1000 (double), B
/// by 2^100: the 3xTF32 split's small part of A would underflow without its
/// 2^11 scale), and init wide (exponents over 2^-60..2^40 in float,
/// 2^-60..2^60 in double, init.hpp: products of a small part fall to 2^-131
/// and below). A build for sm_80 or later must have them.
template <class Space, class T>
void check_tensor_core_variants() {
  if constexpr (!mmapp::is_host_space_v<Space>) {
    std::vector<mmapp::KernelVariant<Space, T>> tc;
    for (const auto& v : mmapp::kernel_variants<Space, T>())
      if (v.tag.rfind("dmma", 0) == 0 || v.tag.rfind("3xtf32", 0) == 0) tc.push_back(v);
#if defined(KOKKOS_ARCH_AMPERE80) || defined(KOKKOS_ARCH_AMPERE86) || defined(KOKKOS_ARCH_HOPPER90)
    REQUIRE(tc.size() >= 2);
#endif
    struct Case {
      long m, n, k;
      double beta;
      long pad;
      int scale_a, scale_b;  // powers of two applied to A and B
      mmapp::Init init = mmapp::Init::random;  // of A and B
    };
    const int tiny = std::is_same_v<T, float> ? -120 : -1000;
    // {1025, 1027, 33}: odd K and N over kOperandCopyMinReuse rows and columns (the cp.async forms
    // read copies of A and B, aligned_operands.hpp).
    const std::vector<Case> cases{{129, 257, 31, 0, 0, 0, 0},     {1, 1, 1, 0, 0, 0, 0},       {17, 33, 65, -0.75, 1, 0, 0},
                                  {1025, 1027, 33, 0.5, 0, 0, 0},
                                  {333, 190, 1537, 0.5, 0, 0, 0}, {70, 99, 5000, 0, 0, 0, 0},  {64, 64, 2049, 0, 1, 0, 0},
                                  {1000, 1000, 100, 0, 0, 0, 0},  {200, 300, 300, 0, 0, tiny, 100},
                                  {200, 300, 300, 0, 0, 0, 0, mmapp::Init::wide},
                                  {129, 257, 1537, 0.5, 1, 0, 0, mmapp::Init::wide}};
    std::uint64_t seed = 404;
    for (const auto& c : cases) {
      const T sa = T(std::ldexp(1.0, c.scale_a)), sb = T(std::ldexp(1.0, c.scale_b));
      const auto A = mmapp_test::padded<Space, T>(c.m, c.k, c.pad, 0, seed, sa, c.init);
      const auto B = mmapp_test::padded<Space, T>(c.k, c.n, c.pad, 1, seed, sb, c.init);
      const auto C0 = mmapp_test::padded<Space, T>(c.m, c.n, c.pad, 2, seed);
      ++seed;
      for (const auto& v : tc) {
        INFO(Space::name() << " " << v.shape() << " m=" << c.m << " n=" << c.n << " k=" << c.k << " beta=" << c.beta
                           << " pad=" << c.pad << " scales 2^" << c.scale_a << ", 2^" << c.scale_b << " init "
                           << mmapp::to_string(c.init));
        auto C = mmapp_test::padded<Space, T>(c.m, c.n, c.pad, 2, seed - 1);
        if (c.beta == 0) Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
        mmapp::Workspace<Space> work("work", v.workspace(c.m, c.n, c.k));
        v.run(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, T(c.beta), work});
        Kokkos::fence();
        CHECK(mmapp_test::count_bad<T>(A, B, C0, C, T(c.beta)) == 0);
      }
    }
  }
}

}  // namespace

namespace {

/// Chunk c of x through tf32_split4 and, value by value, through tf32_split
/// (kernels/gpu/warp/mma_shapes.hpp): bad(c) counts the parts whose bits
/// differ. A functor, not a lambda: it runs on any space from a test.
template <class Space>
struct Tf32SplitAgreement {
  Kokkos::View<const float*, typename Space::memory_space> x;
  Kokkos::View<int*, typename Space::memory_space> bad;
  KOKKOS_INLINE_FUNCTION void operator()(const long c) const {
    const float v[4] = {x(4 * c), x(4 * c + 1), x(4 * c + 2), x(4 * c + 3)};
    std::uint32_t big4[4], small4[4];
    mmapp::detail::tf32_split4(v, big4, small4);
    int n = 0;
    for (int q = 0; q < 4; ++q) {
      std::uint32_t big, small;
      mmapp::detail::tf32_split(v[q], big, small);
      n += (big != big4[q]) + (small != small4[q]);
    }
    bad(c) = n;
  }
};

/// tf32_split4's short path (the integer form of cvt.rna.tf32.f32) gives
/// tf32_split's parts bit for bit on Space (on a GPU: against the device's
/// cvt.rna.tf32.f32), on random bit patterns (every class: zeros,
/// subnormals, normals, Inf, NaN), values over every exponent, and the edges
/// of the short path (kTf32ShortPathBelow and its neighbours, FLT_MAX, Inf,
/// NaN) at each place of a chunk among ordinary values.
template <class Space>
void check_tf32_split4() {
  std::vector<float> h;
  const auto from = [](const std::uint32_t u) { return mmapp::detail::bits_f32(u); };
  std::mt19937 gen(21);
  for (int i = 0; i < 40000; ++i) h.push_back(from(std::uint32_t(gen())));
  std::uniform_real_distribution<float> mant(1, 2);
  for (int e = -149; e <= 127; ++e)
    for (int i = 0; i < 16; ++i) h.push_back((i % 2 ? -1 : 1) * std::ldexp(mant(gen), e));
  const std::uint32_t edges[] = {0x7f7fefffu, 0x7f7ff000u, 0x7f7fe000u, 0x7f7ff001u, 0x7f7fffffu, 0xff7fefffu,
                                 0xff7ff000u, 0x7f800000u, 0xff800000u, 0x7f800001u, 0x7fc00000u, 0x7fffffffu,
                                 0xffffffffu, 0x00001000u, 0x00000fffu, 0x807fffffu, 0x00000000u, 0x80000000u};
  for (const std::uint32_t u : edges)
    for (int at = 0; at < 4; ++at)
      for (int q = 0; q < 4; ++q) h.push_back(q == at ? from(u) : std::ldexp(mant(gen), q * 7 - 10));
  while (h.size() % 4 != 0) h.push_back(1.0f);
  const long chunks = long(h.size()) / 4;
  Kokkos::View<float*, typename Space::memory_space> x("x", h.size());
  Kokkos::deep_copy(x, Kokkos::View<const float*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(h.data(), h.size()));
  Kokkos::View<int*, typename Space::memory_space> bad("bad", chunks);
  Kokkos::parallel_for("test::tf32_split4", Kokkos::RangePolicy<Space>(0, chunks), Tf32SplitAgreement<Space>{x, bad});
  const auto hb = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), bad);
  long wrong = 0;
  for (long c = 0; c < chunks; ++c) wrong += hb(c);
  INFO(Space::name() << ": " << chunks << " chunks of four");
  CHECK(wrong == 0);
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("the four-value 3xTF32 split equals tf32_split bit for bit", "[kernels][tensor-core]",
                        mmapp::EnabledSpaces) {
  check_tf32_split4<TestType>();
}

TEMPLATE_LIST_TEST_CASE("tensor-core variants (DMMA, 3xTF32) match the reference on odd shapes",
                        "[kernels][tensor-core]", mmapp::EnabledSpaces) {
  check_tensor_core_variants<TestType, double>();
  check_tensor_core_variants<TestType, float>();
}

TEMPLATE_LIST_TEST_CASE("the GPU shape rule picks the documented variant per class", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_gpu_shape_rule<TestType>();
}

TEMPLATE_LIST_TEST_CASE("the multiply-add ceiling kernel computes every step", "[kernels]", mmapp::EnabledSpaces) {
  check_fma_chains<TestType, float>();
  check_fma_chains<TestType, double>();
}

TEST_CASE("the tensor-core ceiling loop's closed form holds on the host emulation", "[kernels][mma-peak]") {
  // tri(n) is the sum of the signs the A fragment has at each step.
  long sum = 0;
  long wrong = 0;
  for (long n = 1; n <= 3 * mmapp::kMmaFlip + 7; ++n) {
    sum += (((n - 1) / mmapp::kMmaFlip) % 2 == 0) ? 1 : -1;
    wrong += sum != mmapp::mma_peak_steps_sign(n);
  }
  CHECK(wrong == 0);
  check_mma_peak_closed_form<mmapp::detail::MmaF64m8n8k4>();
  check_mma_peak_closed_form<mmapp::detail::MmaF64m16n8k4>();
  check_mma_peak_closed_form<mmapp::detail::MmaF64m16n8k8>();
  check_mma_peak_closed_form<mmapp::detail::MmaF64m16n8k16>();
  check_mma_peak_closed_form<mmapp::detail::MmaTf32m16n8k8>();
}

TEST_CASE("split-K slices: nearly equal, on K tiles and chunks, as many as ceil(K / Kc), none empty", "[kernels]") {
  // The chunks of the catalog (256 .. 8192) and of the host tests (16, 24, 32).
  for (const int kc : {16, 24, 32, 256, 1024, 2048, 4096, 8192}) {
    int g = 64;  // gcd(kc, 64): every K tile (4 .. 32) and 16-byte chunk (2, 4) divides it
    while (kc % g != 0) g /= 2;
    for (long k = 1; k <= 40000; k += (k < 3000 ? 1 : 97)) {
      const int s = mmapp::splitk_slices(7, 9, k, kc, sizeof(double));
      const int c = mmapp::splitk_chunk(k, kc, s);
      INFO("K " << k << " Kc " << kc << ": " << s << " slices of " << c);
      REQUIRE(s == (k + kc - 1) / kc);
      if (s == 1) {
        CHECK(c == k);
        continue;
      }
      CHECK(c <= kc);
      CHECK(c % g == 0);
      CHECK(c % 8 == 0);
      CHECK(long(s - 1) * c < k);  // the last slice is not empty
      CHECK(long(s) * c >= k);     // the slices cover K
      CHECK(c < (k + s - 1) / s + g);  // nearly equal: at most one rounding step above K / S
    }
  }
  // 2049 = 2 x 1024 + 1: three slices of 704, 704 and 641 instead of 1024, 1024 and 1.
  CHECK(mmapp::splitk_chunk(2049, 1024, 3) == 704);
  CHECK(mmapp::splitk_chunk(8192, 1024, 8) == 1024);
}

TEST_CASE("wave-balanced split-K: the slices that fill the waves, on K tiles, none empty, the least estimate",
          "[kernels]") {
  // Documented cases: 4 tiles (100 x 100 in 64x64) on 264 slots, K = 300000: 66 slices of 4608 (one
  // wave of 264 teams); 8 tiles, K = 262144: 33 slices of 8000; tiles already filling the slots
  // (231 of 264, K = 5000): no split; at most max_slices.
  CHECK(mmapp::splitk_wave_slices(4, 300000, 256, 1172, 264) == 66);
  CHECK(mmapp::splitk_wave_chunk(300000, 256, 66) == 4608);
  CHECK(mmapp::splitk_wave_slices(8, 262144, 256, 1024, 264) == 33);
  CHECK(mmapp::splitk_wave_chunk(262144, 256, 33) == 8000);
  CHECK(mmapp::splitk_wave_slices(231, 5000, 256, 20, 264) == 1);
  CHECK(mmapp::splitk_wave_slices(4, 300000, 256, 10, 264) == 10);
  CHECK(mmapp::splitk_wave_slices(4, 300000, 256, 1, 264) == 1);
  CHECK(mmapp::splitk_wave_chunk(5000, 256, 1) == 5000);
  // Properties over a grid: 1 <= S <= max; the chunks cover K, none empty, on multiples of 64;
  // and no S in [1, max] has a smaller estimate (waves x (chunk + kSplitTeamOverheadK)).
  const auto estimate = [](long tiles, long k, int s, long slots) {
    const long c = mmapp::splitk_wave_chunk(k, 256, s);
    const long made = (k + c - 1) / c;
    return double((tiles * made + slots - 1) / slots) * double(c + mmapp::kSplitTeamOverheadK);
  };
  for (const long tiles : {1L, 3L, 8L, 35L, 100L, 263L, 264L, 1000L})
    for (const long slots : {132L, 264L})
      for (const long k : {1L, 255L, 256L, 257L, 2049L, 5000L, 65536L, 300001L}) {
        const int max_slices = mmapp::splitk_slices(100, 100, k, 256, sizeof(double));
        const int s = mmapp::splitk_wave_slices(tiles, k, 256, max_slices, slots);
        const int c = mmapp::splitk_wave_chunk(k, 256, s);
        INFO(tiles << " tiles, " << slots << " slots, K " << k << ": " << s << " slices of " << c);
        REQUIRE(s >= 1);
        CHECK(s <= max_slices);
        if (s == 1) {
          CHECK(c == k);
          continue;
        }
        CHECK(c % 64 == 0);
        CHECK(long(s - 1) * c < k);
        CHECK(long(s) * c >= k);
        for (int other = 1; other <= max_slices; ++other) CHECK(estimate(tiles, k, s, slots) <= estimate(tiles, k, other, slots));
      }
}

TEST_CASE("Stream-K: the last wave's K tiles in equal runs over one wave, each tile's segments summed in order",
          "[kernels]") {
  // Documented cases (132 slots: an H200 at one team per SM; K tiles of 16, 4 stages): a lone wave of
  // 70 tiles (1234 x 778 in 128x128) at K 4320: 272 K tiles a tile (270 padded to 4), 19040 in all,
  // runs of 148 (ceil(19040 / 132) = 145, padded) over 129 teams; 8192^3's 4096 tiles: 4092 whole,
  // the 4 left in runs of 16 over 128 teams (the tail split's 32 slices of 256). Not streamed: whole
  // waves; a last wave so full that a run saves less than kStreamKOverheadK (131 of 132 tiles); K
  // shorter than a run and the overhead (300).
  const auto lone = mmapp::stream_k_plan(70, 4320, 132, 16, 4);
  REQUIRE(lone.active());
  CHECK(lone.head == 0);
  CHECK(lone.tiles == 70);
  CHECK(lone.tile_iters == 272);
  CHECK(lone.team_iters == 148);
  CHECK(lone.teams == 129);
  CHECK(lone.league() == 129);
  CHECK(lone.partials() == 258);
  const auto tail = mmapp::stream_k_plan(4096, 8192, 132, 16, 4);
  REQUIRE(tail.active());
  CHECK(tail.head == 4092);
  CHECK(tail.team_iters == 16);
  CHECK(tail.teams == 128);
  for (const auto& [tiles, k] : std::vector<std::pair<long, long>>{{264, 8192}, {131, 8192}, {70, 300}, {0, 8192}}) {
    INFO(tiles << " tiles, K " << k);
    const auto none = mmapp::stream_k_plan(tiles, k, 132, 16, 4);
    CHECK_FALSE(none.active());
    CHECK(none.head == tiles);
    CHECK(none.league() == tiles);
  }
  CHECK_FALSE(mmapp::stream_k_plan(70, 4320, 0, 16, 4).active());
  // Properties over a grid: the whole waves whole; at most one wave of teams within the cap; runs and
  // tiles on stage boundaries, a run shorter than a tile; the segments of the teams in order cover
  // every K tile of every streamed tile once, at most two per team, none past the padding; the
  // reduce's slots (its loop, copied from stream_k_reduce) are those segments; the workspace bound
  // holds them for any slots.
  for (const int stages : {2, 3, 4})
    for (const long slots : {1L, 3L, 5L, 132L, 264L, 1000L})
      for (const long tiles : {1L, 2L, 4L, 70L, 133L, 200L, 4096L})
        for (const long k : {1L, 255L, 300L, 1025L, 4320L, 8192L, 300001L}) {
          const auto p = mmapp::stream_k_plan(tiles, k, slots, 16, stages);
          INFO(tiles << " tiles, " << slots << " slots, " << stages << " stages, K " << k << ": head " << p.head
                     << ", " << p.tiles << " tiles of " << p.tile_iters << " in " << p.teams << " runs of "
                     << p.team_iters);
          if (!p.active()) {
            CHECK(p.head == tiles);
            continue;
          }
          CHECK(p.head % slots == 0);
          CHECK(p.head + p.tiles == tiles);
          CHECK(p.tiles < slots);
          CHECK(p.teams <= slots);
          CHECK(p.partials() <= mmapp::kTailMaxTeams);
          CHECK(p.tile_iters % stages == 0);
          CHECK(p.team_iters % stages == 0);
          CHECK(long(p.tile_iters - stages) * 16 < k);
          CHECK(long(p.tile_iters) * 16 >= k);
          CHECK(p.team_iters < p.tile_iters);
          CHECK(long(p.team_iters) * 16 >= mmapp::kTailMinSliceK);
          const std::size_t room = mmapp::stream_k_workspace_bytes<double, 16, 16>(tiles * 16, 16, k, 16, stages);
          CHECK(std::size_t(p.partials()) * 16 * 16 * sizeof(double) <= room);
          std::vector<std::vector<std::pair<int, int>>> covered(p.tiles);  // per tile: (it0, slot) in order
          long next = 0;  // the next K tile of all, in order
          for (int j = 0; j < p.teams; ++j) {
            mmapp::StreamKSegment sg{};
            int n = 0;
            for (int s = 0; s < 2 && mmapp::stream_k_segment(p, j, s, sg); ++s, ++n) {
              CHECK(sg.slot == 2 * j + s);
              CHECK(long(sg.tile) * p.tile_iters + sg.it0 == next);
              CHECK(sg.it1 > sg.it0);
              CHECK(sg.it1 <= p.tile_iters);
              CHECK(long(sg.it0) * 16 < k);  // not in the padding alone
              CHECK((sg.it1 - sg.it0) % stages == 0);
              next += sg.it1 - sg.it0;
              if (sg.tile < p.tiles) covered[sg.tile].push_back({sg.it0, sg.slot});
            }
            CHECK(n >= 1);
          }
          CHECK(next == long(p.tiles) * p.tile_iters);
          for (long u = 0; u < p.tiles; ++u) {
            const long start = u * p.tile_iters, end = start + p.tile_iters;
            std::vector<int> slots_of_reduce;
            for (long t = start / p.team_iters; t * p.team_iters < end; ++t)
              slots_of_reduce.push_back(int(2 * t + (t * p.team_iters < start ? 1 : 0)));
            std::vector<int> slots_of_segments;
            for (const auto& c : covered[u]) slots_of_segments.push_back(c.second);
            CHECK(slots_of_reduce == slots_of_segments);
          }
        }
}

TEST_CASE("tail split: the last wave's tiles cut in K to fill that wave, the whole waves whole", "[kernels]") {
  // Documented cases (132 slots: an H200 at one team per SM; K tiles of 16): 8192^3 in 128x128 tiles,
  // 4096 tiles, 31 waves and 4: the 4 cut into 33 slices at most, made 32 of 256 (8192 / 33 = 249,
  // rounded up to 16); 4096^3's 1024 tiles (100 in the last wave: 132 / 100 = 1 slice) and
  // 12288^3's 9216 (108): no split; whole waves (4092), less than one wave (100 tiles), short K
  // (200: one slice of kTailMinSliceK): no split. The team cap: 1 tile over 1000 slots at most
  // kTailMaxTeams slices.
  const auto plan = mmapp::tail_split_plan(4096, 8192, 132, 16);
  CHECK(plan.active());
  CHECK(plan.head == 4092);
  CHECK(plan.tiles == 4);
  CHECK(plan.slices == 32);
  CHECK(plan.kc == 256);
  CHECK(plan.teams() == 4092 + 128);
  CHECK(plan.partials() == 128);
  const std::vector<std::pair<long, long>> unsplit{{1024, 4096}, {9216, 12288}, {4092, 8192}, {100, 8192}, {4096, 200}};
  for (const auto& [tiles, k] : unsplit) {
    INFO(tiles << " tiles, K " << k);
    const auto none = mmapp::tail_split_plan(tiles, k, 132, 16);
    CHECK_FALSE(none.active());
    CHECK(none.head == tiles);
    CHECK(none.partials() == 0);
    CHECK(none.teams() == tiles);
  }
  CHECK(mmapp::tail_split_plan(1001, 1000000, 1000, 16).slices <= mmapp::kTailMaxTeams);
  CHECK_FALSE(mmapp::tail_split_plan(4096, 8192, 0, 16).active());
  // Properties over a grid: the whole waves are whole (head a multiple of the slots), the split
  // tiles' teams fit one wave and the cap, the slices cover K, none empty, on K tiles.
  for (const long slots : {1L, 3L, 132L, 264L})
    for (const long tiles : {1L, 2L, 4L, 133L, 134L, 200L, 265L, 4096L, 9216L})
      for (const long k : {1L, 255L, 256L, 300L, 1025L, 8192L, 300001L}) {
        const auto p = mmapp::tail_split_plan(tiles, k, slots, 16);
        INFO(tiles << " tiles, " << slots << " slots, K " << k << ": head " << p.head << ", " << p.tiles << " x "
                   << p.slices << " slices of " << p.kc);
        if (!p.active()) {
          CHECK(p.head == tiles);
          continue;
        }
        CHECK(p.head % slots == 0);
        CHECK(p.head >= slots);
        CHECK(p.head + p.tiles == tiles);
        CHECK(p.tiles < slots);
        CHECK(p.partials() <= slots);
        CHECK(p.partials() <= mmapp::kTailMaxTeams);
        CHECK(p.kc % 16 == 0);
        CHECK(p.kc >= mmapp::kTailMinSliceK);
        CHECK(long(p.slices - 1) * p.kc < k);
        CHECK(long(p.slices) * p.kc >= k);
      }
}

TEMPLATE_LIST_TEST_CASE("split-K reduction sums in its documented fixed order, bit for bit", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_splitk_reduce_order<TestType, float>();
  check_splitk_reduce_order<TestType, double>();
}

TEMPLATE_LIST_TEST_CASE("the dot-product kernel is accurate and deterministic over many slices", "[kernels]",
                        mmapp::EnabledSpaces) {
  check_dot_product<TestType, float>();
  check_dot_product<TestType, double>();
}

TEST_CASE("vendor calls: C and A go in row blocks below 2^31 elements", "[kernels][vendor]") {
  using mmapp::vendor_rows_per_call;
  // A SUMMA block of 65536 x 65536 floats with a panel of 2048: 32767 rows of 65536 per call.
  CHECK(vendor_rows_per_call(65536, 65536, 2048) == 32767);
  CHECK(vendor_rows_per_call(65536, 65536, 2048) * 65536 < (1L << 31));
  // What fits goes in one call; A's width counts as well as C's.
  CHECK(vendor_rows_per_call(32768, 32768, 32768) == 32768);
  CHECK(vendor_rows_per_call(100, 3, 1L << 40) == 1);
  // Small limits (the rule itself): the blocks tile m with no block over the limit, none empty.
  for (long m : {1L, 7L, 64L, 1000L})
    for (long n : {1L, 5L, 33L})
      for (long k : {1L, 9L, 40L})
        for (long limit : {1L, 40L, 333L, 1L << 31}) {
          const long rows = vendor_rows_per_call(m, n, k, limit);
          INFO(m << "x" << n << "x" << k << " limit " << limit << ": " << rows);
          CHECK(rows >= 1);
          CHECK(rows <= m);
          if (std::max(n, k) <= limit) CHECK(rows * std::max(n, k) <= limit);
          if (m * std::max(n, k) <= limit) CHECK(rows == m);
        }
}
