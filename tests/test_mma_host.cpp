// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The tensor-core layer of the GPU team-tiled kernel on the host
// (kernels/gpu/warp/mma_shapes.hpp, kernels/gpu/tiled_gpu_mma.hpp):
//  - the fragment layouts of mma.m8n8k4.f64, mma.m16n8k{4,8,16}.f64 and mma.m16n8k8.tf32 against
//    entries of the PTX ISA's tables, and each covering its matrix once;
//  - the host emulation of each instruction against a direct product;
//  - TF32 rounding (round to nearest, ties away, 10 mantissa bits) and the
//    3xTF32 split, from tiny magnitudes near FLT_MIN (where the split
//    without the 2^11 scale loses its small part) to near FLT_MAX; 3xTF32
//    dot products inside FP32's error bound where 1xTF32 is not;
//  - the epilogues' pair store (pair_store: one pair only where the flag
//    allows and both columns lie inside C) and the flag itself
//    (warp_gemm_params' pair_o: base, row stride and slice distance);
//  - the K permutation of kperm tiles (KPermK): a bijection of a K tile's
//    columns, each lane's A run contiguous, the run reads equal to the
//    scalar reads, the pitches' bank conflicts as derived;
//  - the whole kernel (gemm_tiled_mma: loader, scratch layout, fragment
//    reads, emulated MMAs, epilogue, split-K) on the host backend against
//    an independent double reference, on sizes that are not multiples of a
//    tile. The kernel cases need 64 threads: hidden tag [warp-host], run by
//    the CTest entry unit_warp_host (OMP_NUM_THREADS=64).
// What the host cannot show: that the hardware's layouts are the ones
// written here (the device run does: tests/test_kernels.cpp, [tensor-core]).
#include <algorithm>
#include "gemm_check.hpp"
#include "kernels/gpu/tiled_gpu_mma.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cfloat>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <random>
#include <string>
#include "kernels/gpu/tiled_gpu_wgmma.hpp"
#include <vector>

namespace {

using Host = Kokkos::DefaultHostExecutionSpace;
using mmapp::detail::MmaF64m16n8k16;
using mmapp::detail::MmaF64m16n8k4;
using mmapp::detail::MmaF64m16n8k8;
using mmapp::detail::MmaF64m8n8k4;
using mmapp::detail::MmaTf32m16n8k8;

float from_bits(std::uint32_t u) {
  float f;
  std::memcpy(&f, &u, sizeof f);
  return f;
}
std::uint32_t to_bits(float f) {
  std::uint32_t u;
  std::memcpy(&u, &f, sizeof u);
  return u;
}
float tf32(float x) { return from_bits(mmapp::detail::tf32_rna(x)); }

/// Every element of each of Shape's A, B, C held by exactly one (lane, register).
template <class Shape>
void check_cover() {
  std::vector<int> a(Shape::M * Shape::K, 0), b(Shape::K * Shape::N, 0), c(Shape::M * Shape::N, 0);
  for (int l = 0; l < 32; ++l) {
    for (int r = 0; r < Shape::a_regs; ++r) ++a[Shape::a_row(l, r) * Shape::K + Shape::a_col(l, r)];
    for (int r = 0; r < Shape::b_regs; ++r) ++b[Shape::b_row(l, r) * Shape::N + Shape::b_col(l, r)];
    for (int r = 0; r < Shape::c_regs; ++r) ++c[Shape::c_row(l, r) * Shape::N + Shape::c_col(l, r)];
  }
  for (int x : a) CHECK(x == 1);
  for (int x : b) CHECK(x == 1);
  for (int x : c) CHECK(x == 1);
}

/// Shape's emulated MMA on random A, B, C (TF32-exact values for tf32)
/// against D = A B + C computed here in double.
template <class Shape>
void check_emulation(std::uint64_t seed) {
  using E = typename Shape::Elem;
  using Reg = typename Shape::Reg;
  std::mt19937_64 gen(seed);
  std::uniform_real_distribution<double> dist(-1, 1);
  auto draw = [&] {
    const E x = E(dist(gen));
    if constexpr (std::is_same_v<E, float>)
      return tf32(x);
    else
      return x;
  };
  E A[Shape::M][Shape::K], B[Shape::K][Shape::N], C[Shape::M][Shape::N];
  for (auto& row : A)
    for (auto& x : row) x = draw();
  for (auto& row : B)
    for (auto& x : row) x = draw();
  for (auto& row : C)
    for (auto& x : row) x = draw();
  Reg a[32][Shape::a_regs], b[32][Shape::b_regs];
  auto reg = [](E x) {
    if constexpr (std::is_same_v<Reg, std::uint32_t>)
      return to_bits(x);
    else
      return x;
  };
  for (int l = 0; l < 32; ++l) {
    for (int r = 0; r < Shape::a_regs; ++r) a[l][r] = reg(A[Shape::a_row(l, r)][Shape::a_col(l, r)]);
    for (int r = 0; r < Shape::b_regs; ++r) b[l][r] = reg(B[Shape::b_row(l, r)][Shape::b_col(l, r)]);
  }
  for (int l = 0; l < 32; ++l) {
    E c[Shape::c_regs], d[Shape::c_regs];
    for (int r = 0; r < Shape::c_regs; ++r) c[r] = C[Shape::c_row(l, r)][Shape::c_col(l, r)];
    mmapp::detail::mma_emulate<Shape>(l, a, b, c, d);
    for (int r = 0; r < Shape::c_regs; ++r) {
      const int i = Shape::c_row(l, r), j = Shape::c_col(l, r);
      double ref = C[i][j];
      for (int p = 0; p < Shape::K; ++p) ref += double(A[i][p]) * double(B[p][j]);
      INFO("lane " << l << " register " << r);
      CHECK(std::fabs(double(d[r]) - ref) <= 4 * Shape::K * std::numeric_limits<E>::epsilon() * (1 + std::fabs(ref)));
    }
  }
}

}  // namespace

TEST_CASE("mma fragment layouts: the PTX ISA's tables", "[mma]") {
  // f64 m8n8k4: lane 5 (groupID 1, threadID_in_group 1) and lane 31.
  CHECK(MmaF64m8n8k4::a_row(5, 0) == 1);
  CHECK(MmaF64m8n8k4::a_col(5, 0) == 1);
  CHECK(MmaF64m8n8k4::a_row(30, 0) == 7);
  CHECK(MmaF64m8n8k4::a_col(30, 0) == 2);
  CHECK(MmaF64m8n8k4::b_row(30, 0) == 2);
  CHECK(MmaF64m8n8k4::b_col(30, 0) == 7);
  CHECK(MmaF64m8n8k4::c_row(30, 1) == 7);
  CHECK(MmaF64m8n8k4::c_col(30, 0) == 4);
  CHECK(MmaF64m8n8k4::c_col(30, 1) == 5);
  // tf32 m16n8k8: lane 6 (groupID 1, threadID_in_group 2).
  const int rows_a[4] = {1, 9, 1, 9}, cols_a[4] = {2, 2, 6, 6};
  for (int i = 0; i < 4; ++i) {
    CHECK(MmaTf32m16n8k8::a_row(6, i) == rows_a[i]);
    CHECK(MmaTf32m16n8k8::a_col(6, i) == cols_a[i]);
  }
  CHECK(MmaTf32m16n8k8::b_row(6, 0) == 2);
  CHECK(MmaTf32m16n8k8::b_row(6, 1) == 6);
  CHECK(MmaTf32m16n8k8::b_col(6, 1) == 1);
  const int rows_c[4] = {1, 1, 9, 9}, cols_c[4] = {4, 5, 4, 5};
  for (int i = 0; i < 4; ++i) {
    CHECK(MmaTf32m16n8k8::c_row(6, i) == rows_c[i]);
    CHECK(MmaTf32m16n8k8::c_col(6, i) == cols_c[i]);
  }
  // f64 m16n8k4: lane 6 (groupID 1, threadID_in_group 2).
  CHECK(MmaF64m16n8k4::a_row(6, 0) == 1);
  CHECK(MmaF64m16n8k4::a_row(6, 1) == 9);
  CHECK(MmaF64m16n8k4::a_col(6, 1) == 2);
  CHECK(MmaF64m16n8k4::b_row(6, 0) == 2);
  CHECK(MmaF64m16n8k4::b_col(6, 0) == 1);
  for (int i = 0; i < 4; ++i) {
    CHECK(MmaF64m16n8k4::c_row(6, i) == rows_c[i]);
    CHECK(MmaF64m16n8k4::c_col(6, i) == cols_c[i]);
  }
  // f64 m16n8k8 and m16n8k16 (sm_90): lane 6 (groupID 1, threadID_in_group 2);
  // A as tf32 m16n8k8's, continued by 4 columns per register pair; B by 4 rows per register.
  for (int i = 0; i < 4; ++i) {
    CHECK(MmaF64m16n8k8::a_row(6, i) == rows_a[i]);
    CHECK(MmaF64m16n8k8::a_col(6, i) == cols_a[i]);
    CHECK(MmaF64m16n8k8::c_row(6, i) == rows_c[i]);
    CHECK(MmaF64m16n8k8::c_col(6, i) == cols_c[i]);
    CHECK(MmaF64m16n8k16::c_row(6, i) == rows_c[i]);
    CHECK(MmaF64m16n8k16::c_col(6, i) == cols_c[i]);
  }
  CHECK(MmaF64m16n8k8::b_row(6, 1) == 6);
  CHECK(MmaF64m16n8k8::b_col(6, 1) == 1);
  const int cols_a16[8] = {2, 2, 6, 6, 10, 10, 14, 14};
  for (int i = 0; i < 8; ++i) {
    CHECK(MmaF64m16n8k16::a_row(6, i) == (i % 2 ? 9 : 1));
    CHECK(MmaF64m16n8k16::a_col(6, i) == cols_a16[i]);
  }
  for (int i = 0; i < 4; ++i) {
    CHECK(MmaF64m16n8k16::b_row(6, i) == 2 + 4 * i);
    CHECK(MmaF64m16n8k16::b_col(6, i) == 1);
  }
  CHECK(MmaF64m16n8k16::a_row(31, 7) == 15);
  CHECK(MmaF64m16n8k16::a_col(31, 7) == 15);
  check_cover<MmaF64m8n8k4>();
  check_cover<MmaF64m16n8k4>();
  check_cover<MmaF64m16n8k8>();
  check_cover<MmaF64m16n8k16>();
  check_cover<MmaTf32m16n8k8>();
}

TEST_CASE("mma host emulation: each lane's D = A B + C", "[mma]") {
  for (std::uint64_t seed = 1; seed <= 5; ++seed) {
    check_emulation<MmaF64m8n8k4>(seed);
    check_emulation<MmaF64m16n8k4>(seed);
    check_emulation<MmaF64m16n8k8>(seed);
    check_emulation<MmaF64m16n8k16>(seed);
    check_emulation<MmaTf32m16n8k8>(seed);
  }
}

/// The plan and operands warp_gemm_params reads (SplitKPlan's and AlignedOperands' fields).
template <class T>
struct FakePlan {
  int kc = 0, slices = 1;
  T* out = nullptr;
  long ldo = 0, slice_elems = 0;
};
template <class T>
struct FakeOperand {
  const T* data = nullptr;
  long ld = 0;
  bool vec = false;
};
template <class T>
struct FakeOps {
  FakeOperand<T> a, b;
};

TEMPLATE_TEST_CASE("pair_store: one pair where the flag allows and both columns lie inside C", "[mma]", float, double) {
  using T = TestType;
  using mmapp::detail::pair_store;
  const T s = T(7), beta = T(-0.75);
  alignas(16) T buf[6];
  const auto reset = [&] { std::fill(buf, buf + 6, s); };
  reset();
  pair_store<T>(buf + 2, 2, 4, true, false, beta, T(1), T(2));  // a pair, inside
  CHECK((buf[1] == s && buf[2] == T(1) && buf[3] == T(2) && buf[4] == s));
  reset();
  pair_store<T>(buf + 2, 2, 3, true, false, beta, T(1), T(2));  // C's last column: one element
  CHECK((buf[2] == T(1) && buf[3] == s));
  reset();
  pair_store<T>(buf + 1, 1, 3, false, false, beta, T(1), T(2));  // no flag (odd row stride): elements
  CHECK((buf[0] == s && buf[1] == T(1) && buf[2] == T(2) && buf[3] == s));
  reset();
  pair_store<T>(buf + 4, 4, 4, true, false, beta, T(1), T(2));  // past C: nothing
  CHECK((buf[4] == s && buf[5] == s));
  // beta: c + beta * old, the same expression on either path.
  for (const bool pair : {true, false}) {
    reset();
    pair_store<T>(buf + 2, 2, 4, pair, true, beta, T(1), T(2));
    CHECK((buf[2] == T(1) + beta * s && buf[3] == T(2) + beta * s));
  }
}

namespace {

/// store_staged_rows<BM, BN, Team> of a staged tile (pitch BN + 4) to the corner tile of a C of
/// 2 BM - 3 rows and BN + 5 columns (odd row stride: no pairs; BM - 3 rows and 5 columns inside),
/// with beta 0 and -0.75, into C itself and into the last of two split-K slices: every element
/// inside once, with beta only on C itself, nothing else written. Returns the wrong elements.
template <class T, int BM, int BN, int Team>
long staged_rows_bad() {
  constexpr int lds = BN + 4;
  std::vector<T> s(static_cast<std::size_t>(BM) * lds);
  for (std::size_t i = 0; i < s.size(); ++i) s[i] = T(i + 1);
  const T old = T(7);
  const int M = 2 * BM - 3, N = BN + 5;
  const long slice_elems = long(M) * N + 1;  // split-K slices M * N + 1 apart
  long bad = 0;
  for (const T beta : {T(0), T(-0.75)})
    for (const int slices : {1, 2}) {
      std::vector<T> out(std::size_t(slice_elems) * slices, old);
      mmapp::detail::WarpGemmParams<T> p{};
      p.M = M;
      p.N = N;
      p.beta = beta;
      const int slice = slices - 1, bm = BM, bn = BN;  // C's corner tile
      // C itself, or its slices (split-K) slice_elems apart.
      p.out = out.data();
      p.ldo = N;
      p.slices = slices;
      p.slice_elems = slice_elems;
      for (int tid = 0; tid < Team; ++tid)
        mmapp::detail::store_staged_rows<BM, BN, Team>(s.data(), lds, p, slice, bm, bn, tid);
      for (int e = 0; e < int(out.size()); ++e) {
        const int sl = e / slice_elems, i = e % slice_elems, row = i / N, col = i % N;
        const bool in = sl == slice && i < M * N && row >= bm && col >= bn;
        // beta applies to C itself (S == 1), never to a slice's partial tile.
        const T v = in ? s[std::size_t(row - bm) * lds + (col - bn)] : old;
        const T want = !in ? old : (slices == 1 && beta != T(0) ? v + beta * old : v);
        bad += !(out[e] == want);
      }
    }
  return bad;
}

}  // namespace

TEMPLATE_TEST_CASE("store_staged_rows: a staged tile to C's rows inside C, every element once, beta and slices",
                   "[mma]", float, double) {
  using T = TestType;
  CHECK(staged_rows_bad<T, 8, 16, 32>() == 0);     // 4 rows per thread: one batch
  CHECK(staged_rows_bad<T, 128, 64, 128>() == 0);  // 64 rows per thread: whole batches
  CHECK(staged_rows_bad<T, 80, 64, 128>() == 0);   // 40 (the C^T tile t80x64): batches of 8
  CHECK(staged_rows_bad<T, 112, 64, 128>() == 0);  // 56 (t112x64): batches of 8
}

TEMPLATE_TEST_CASE("warp_gemm_params: pair_o from the output's alignment, row stride and slice distance", "[mma]",
                   float, double) {
  using T = TestType;
  alignas(16) T out[64];
  const FakeOps<T> ops;
  const auto pair_o = [&](T* o, long ldo, int slices, long slice_elems) {
    FakePlan<T> plan;
    plan.out = o;
    plan.ldo = ldo;
    plan.slices = slices;
    plan.slice_elems = slice_elems;
    return mmapp::detail::warp_gemm_params<T>(4, 6, 8, 16, 16, plan, ops, T(0)).pair_o;
  };
  CHECK(pair_o(out, 6, 1, 24));
  CHECK_FALSE(pair_o(out, 7, 1, 28));      // odd row stride
  CHECK_FALSE(pair_o(out + 1, 6, 1, 24));  // base off a pair's alignment
  CHECK(pair_o(out, 6, 2, 24));
  CHECK_FALSE(pair_o(out, 6, 3, 21));  // odd distance between split-K slices
}

TEST_CASE("tf32 rounding: nearest, ties away from zero, 10 mantissa bits", "[mma]") {
  const float ulp = std::ldexp(1.0f, -10);  // TF32 ulp at 1
  CHECK(tf32(1.0f) == 1.0f);
  CHECK(tf32(1.0f + ulp / 2) == 1.0f + ulp);                            // tie: away from zero
  CHECK(tf32(-(1.0f + ulp / 2)) == -(1.0f + ulp));                      // tie, negative
  CHECK(tf32(1.0f + ulp + ulp / 2) == 1.0f + 2 * ulp);                  // tie from an odd TF32: away, not to even
  CHECK(tf32(1.0f + ulp / 2 - std::ldexp(1.0f, -23)) == 1.0f);          // below the tie
  CHECK(tf32(std::nextafter(2.0f, 0.0f)) == 2.0f);                      // carries into the exponent
  CHECK(std::isinf(tf32(FLT_MAX)));                                     // rounds past the largest TF32
  CHECK(std::isinf(tf32(INFINITY)));
  CHECK(std::isnan(tf32(NAN)));
  CHECK(tf32(FLT_MIN) == FLT_MIN);
  std::mt19937 gen(7);
  std::uniform_real_distribution<float> d(-1000, 1000);
  for (int i = 0; i < 10000; ++i) {
    const float x = d(gen), t = tf32(x);
    CHECK((to_bits(t) & 0x1fffu) == 0);  // 10 explicit mantissa bits
    CHECK(std::fabs(double(t) - x) <= std::ldexp(std::fabs(double(x)), -11));
  }
}

TEST_CASE("3xTF32 split: big + small * 2^-11 recovers FP32 values", "[mma]") {
  std::mt19937 gen(3);
  std::uniform_real_distribution<float> mant(1, 2);
  auto check_at = [&](int exponent, bool expect_unscaled_loss) {
    double worst_unscaled = 0;
    for (int i = 0; i < 2000; ++i) {
      const float x = (i % 2 ? -1 : 1) * std::ldexp(mant(gen), exponent);
      std::uint32_t big, small;
      mmapp::detail::tf32_split(x, big, small);
      CHECK((big & 0x1fffu) == 0);
      CHECK((small & 0x1fffu) == 0);
      const double back = double(from_bits(big)) + double(from_bits(small)) / 2048.0;
      INFO("x = " << x);
      CHECK(std::isfinite(back));
      CHECK(std::fabs(back - x) <= std::ldexp(std::fabs(double(x)), -21));
      const float big_f = from_bits(big);
      const double unscaled = double(big_f) + double(tf32(x - big_f));
      worst_unscaled = std::max(worst_unscaled, std::fabs(unscaled - x) / std::fabs(double(x)));
    }
    // Without the 2^11 scale the small part of a value near FLT_MIN is a
    // TF32 subnormal and loses its bits (Ootomo and Yokota, section 4).
    if (expect_unscaled_loss) CHECK(worst_unscaled > std::ldexp(1.0, -21));
  };
  check_at(0, false);
  check_at(-20, false);
  check_at(40, false);
  check_at(-126, true);  // [FLT_MIN, 2 FLT_MIN)
  check_at(-120, true);
  check_at(127, false);  // up to FLT_MAX
  std::uint32_t big, small;
  mmapp::detail::tf32_split(FLT_MAX, big, small);  // tf32_rna(FLT_MAX) would be Inf
  CHECK(std::isfinite(from_bits(big)));
  CHECK(std::fabs(double(from_bits(big)) + double(from_bits(small)) / 2048.0 - double(FLT_MAX)) <=
        std::ldexp(double(FLT_MAX), -21));
}

TEST_CASE("3xTF32 dot products stay within FP32's error bound, 1xTF32 does not", "[mma]") {
  std::mt19937 gen(5);
  std::uniform_real_distribution<float> d(-1, 1);
  const int k = 16;  // a tight bound: 2 (k + 2) u per |a||b|
  long bad3 = 0, bad1 = 0;
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<float> a(k), b(k);
    for (int p = 0; p < k; ++p) a[p] = d(gen), b[p] = d(gen);
    float acc = 0, dc = 0, acc1 = 0;
    double ref = 0, mag = 0;
    for (int p = 0; p < k; ++p) {
      std::uint32_t ab, as, bb, bs;
      mmapp::detail::tf32_split(a[p], ab, as);
      mmapp::detail::tf32_split(b[p], bb, bs);
      dc += from_bits(as) * from_bits(bb) + from_bits(ab) * from_bits(bs);
      acc += from_bits(ab) * from_bits(bb);
      acc1 += tf32(a[p]) * tf32(b[p]);
      ref += double(a[p]) * double(b[p]);
      mag += std::fabs(double(a[p]) * double(b[p]));
    }
    const float c = acc + dc / 2048.0f;
    const double u = std::numeric_limits<float>::epsilon() / 2, bound = 2 * (k + 2) * u * mag;
    bad3 += !(std::fabs(c - ref) <= bound);
    bad1 += !(std::fabs(acc1 - ref) <= bound);
  }
  CHECK(bad3 == 0);
  CHECK(bad1 > 0);
}

namespace {

struct Case {
  long m, n, k;
  double beta;
  long pad;
  bool tiny = false;  // A times 2^-120 (float) or 2^-1000 (double), B times 2^100: A near FLT_MIN / DBL_MIN
};
// Not multiples of the tiles, K tails, one element, K = 0, misaligned rows,
// several split-K slices; odd K and N with even row strides (16-byte
// chunks that lie partly outside the matrix: cp.async's partial copies).
const std::vector<Case> mma_cases{{70, 130, 37, 0, 0}, {64, 64, 64, 0.5, 0}, {1, 1, 1, 0, 0},    {33, 17, 9, 1, 0},
                                  {3, 200, 0, 0.25, 0}, {131, 67, 50, -0.75, 1}, {40, 96, 72, 0, 2}, {17, 33, 5, 0, 0},
                                  {45, 50, 60, 0, 0, true}, {33, 17, 9, 0.5, 1},  {50, 45, 27, 0, 3}};

/// v with its row padding (the pad columns past v's n) set to NaN: a
/// kernel whose loads keep elements past K (A) or N (B) of a row in a
/// product instead of zeros turns C into NaN there.
template <class T>
mmapp::Matrix<T, Host> nan_padded(const mmapp::Matrix<T, Host>& v, const long pad) {
  if (pad == 0) return v;
  mmapp::Matrix<T, Host> full("nan_padded", v.extent(0), v.extent(1) + pad);
  Kokkos::deep_copy(full, std::numeric_limits<T>::quiet_NaN());
  mmapp::Matrix<T, Host> sub = Kokkos::subview(full, Kokkos::ALL, std::make_pair(0L, long(v.extent(1))));
  Kokkos::deep_copy(sub, v);
  return sub;
}

// Long K for the split tiles of 1024 (rule choice dmma_mid_splitk_deep):
// 3 and 2 slices with a short last one, K not a multiple of BK (2500 = 312
// x 8 + 4), M and N past a tile by 1-4 rows and columns, whole 96x96
// tiles, misaligned rows (pad 1 and 2 with odd widths: the element path).
const std::vector<Case> long_k_cases{{100, 97, 2500, 0, 0}, {96, 96, 3000, 0.5, 0},  {100, 97, 2500, -0.75, 1},
                                     {193, 65, 2049, 0, 2}, {97, 100, 1025, 1, 0}};

// The tail split (TailSplit) on 3 fixed slots with 16x32 tiles: 7 x 4 = 28 tiles (9 whole waves and
// 1 tile, cut into 3 slices: K 2500 in 3 of 848 with a short last one of 804, K 1025 in 3 of 352
// and 321), also with beta, misaligned rows and NaN padding; 4 x 7 = 28 tiles at K 700 (3 of
// 240, 220) and 300 (2 of 160, 140: K / kTailMinSliceK); 18 tiles (whole waves: no split), 2
// tiles (less than a wave: no split), K 200 (too short: no split). In 32x16 tiles: 28 tiles at K
// 2500 and 1025 and at K 300 (64 x 224) split, 26 at K 700 not (2 in the last wave: one slice).
const std::vector<Case> tail_cases{{100, 97, 2500, 0, 0},   {97, 100, 1025, 1, 0},  {100, 97, 2500, -0.75, 1},
                                   {50, 200, 700, 0.5, 0},  {64, 224, 300, 0, 2},   {96, 96, 3000, 0.5, 0},
                                   {20, 30, 500, 0, 0},     {100, 97, 200, 0, 0}};

// Stream-K (StreamK) on 5 fixed slots: 16x32 tiles (2 stages) and 32x16 (4 stages, swizzle 2). 16x32:
// 28 tiles (25 whole, 3 streamed in runs of 96 and 40 K tiles, teams crossing a tile boundary: K
// 2500 and 1025, with beta and misaligned rows), a lone wave of 2 tiles over 5 teams (K 2000), 8
// tiles (3 streamed, K 777, NaN padding), 18 tiles (3 streamed, K 3000); 28 tiles at K 700 and 300
// and K 200: not streamed (the overhead). 32x16: the same shapes, 26 tiles at K 700 streamed by 4
// teams, 7 tiles at K 777 (2 streamed).
const std::vector<Case> stream_k_cases{{100, 97, 2500, 0, 0}, {97, 100, 1025, 1, 0},   {100, 97, 2500, -0.75, 1},
                                       {20, 30, 2000, 0, 0},  {30, 97, 777, 0.5, 2},   {96, 96, 3000, 0, 0},
                                       {50, 200, 700, 0, 0},  {64, 224, 300, 0, 2},    {100, 97, 200, 0, 0}};

template <class Cfg, class T>
void check_mma_kernel(const std::vector<Case>& cases = mma_cases) {
  std::uint64_t seed = 21;
  for (const auto& c : cases) {
    const std::string tag = mmapp::gpu_mma_tag<Cfg, T>();
    INFO((sizeof(T) == 4 ? "float " : "double ") << tag << " block " << Cfg::BM << "x"
                                                 << Cfg::BN << "x" << Cfg::BK << ": " << c.m << "x" << c.n << "x"
                                                 << c.k << " beta " << c.beta << " pad " << c.pad << " tiny " << c.tiny);
    const T sa = T(std::ldexp(1.0, c.tiny ? (sizeof(T) == 4 ? -120 : -1000) : 0)), sb = T(c.tiny ? 0x1p100 : 1.0);
    const auto A = nan_padded<T>(mmapp_test::padded<Host, T>(c.m, c.k, c.pad, 0, seed, sa), c.pad);
    const auto B = nan_padded<T>(mmapp_test::padded<Host, T>(c.k, c.n, c.pad, 1, seed, sb), c.pad);
    const auto C0 = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
    auto C = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
    if (c.beta == 0) Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
    // The catalog's sizing: for the cp.async forms, room for aligned copies of a contiguous operand
    // with odd K or N (their 16-byte path); a padded (strided) operand, or a register-path form,
    // reads in place, element by element.
    mmapp::Workspace<Host> work("work", mmapp::mma_workspace_bytes<Cfg, T>(c.m, c.n, c.k));
    mmapp::gemm_tiled_mma<Cfg>(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(c.beta), work});
    Kokkos::fence();
    CHECK(mmapp_test::count_bad<T>(A, B, C0, C, T(c.beta)) == 0);
    ++seed;
  }
}

}  // namespace

TEST_CASE("the tensor-core team-tiled GEMM on the host backend (emulated mma)", "[.warp-host][mma]") {
  REQUIRE(Host().concurrency() >= 64);  // run by unit_warp_host with 64 OpenMP threads
  using mmapp::GpuMmaTile;
  // double, m8n8k4: 1x2 and 2x1 warps of 16x16 (2x2 MMA tiles), swizzle, split-K by 24.
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 0, 0>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 8, 16, 16, 0, 0, 2>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 24, 0>, double>();
  // double, m16n8k4 (sm_90): 1x2 warps of 16x16 (1x2 MMA tiles), one warp of 32x32, split-K by 16.
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 0, 0, 1>, double>();
  check_mma_kernel<GpuMmaTile<32, 32, 8, 32, 32, 0, 0, 2, 1>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 8, 16, 16, 0, 16, 0, 1>, double>();
  // double, m16n8k8 and m16n8k16 (sm_90): 1x2 warps of 16x16, BK 8 and 16; one
  // scratch stage with 2x1 warps; split-K by 32.
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 0, 0, 2>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 2, 1>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 3>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 3, 1>, double>();
  check_mma_kernel<GpuMmaTile<32, 32, 16, 32, 16, 0, 32, 0, 3>, double>();
  // double, the cp.async pipeline (copies and zero fill done at once on the
  // host; stage rotation, tails, the register fallback of misaligned rows):
  // 3 and 4 stages on m16n8k4 / m8n8k4 (1x2 and 2x1 warps), 2 stages on
  // m16n8k16, split-K by 16 (2 K tiles per slice: fewer than the pipeline's
  // depth) and by 24, one warp of 32x32.
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 0, 0, 1, 3, true>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 8, 16, 16, 0, 0, 2, 0, 4, true>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 3, 2, true>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 8, 16, 16, 0, 16, 0, 2, 4, true>, double>();
  check_mma_kernel<GpuMmaTile<32, 32, 8, 32, 32, 0, 24, 2, 0, 3, true>, double>();
  // The shape rule's deep forms at BK = 16 (their K tiles past 48 KiB on the
  // GPU): m16n8k4 with 3 stages; m16n8k8 with 4 stages split by 32 (two K
  // tiles per slice). Interior K tiles take the loader's unmasked path, the
  // edges its masked one.
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 1, 3, true>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0, 2, 4, true>, double>();
  // The deep m16n8k4 form split (the rule's dmma_deep_splitk until the twelfth round): by 32, 3 stages.
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 32, 0, 1, 3, true>, double>();
  // The rule's split 64x64 deep tile since the twelfth round: m16n8k8, 3 stages, split by 32.
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0, 2, 3, true>, double>();
  // ElemChunks (forty-sixth round): misaligned operands (pad 1 and 3, odd K or N in place) through
  // the interior and edge paths element by element, on that tile and on the 96x96 split tile's form.
  using ElTile = mmapp::ElemChunks<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0, 2, 3, true>>;
  CHECK(mmapp::gpu_mma_tag<ElTile, double>() == "dmma16k8 w16x16 cp3 splitk32 el");
  check_mma_kernel<ElTile, double>();
  check_mma_kernel<mmapp::ElemChunks<GpuMmaTile<96, 32, 8, 48, 32, 0, 1024, 0, 2, 4, true>>, double>(long_k_cases);
  // ElemChunks without copies (forty-seventh round): contiguous operands with odd K or N, which the
  // form above copies to aligned rows, go through the element-wise paths too. Its workspace holds
  // the split's partials alone (1001^3: both operands copied by the form above; 1000^3: none).
  using ElInPlace = mmapp::ElemChunks<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0, 2, 3, true>, false>;
  CHECK(mmapp::gpu_mma_tag<ElInPlace, double>() == "dmma16k8 w16x16 cp3 splitk32 el inplace");
  CHECK(mmapp::mma_workspace_bytes<ElInPlace, double>(1001, 1001, 1001) ==
        mmapp::splitk_workspace_bytes<double, 32>(1001, 1001, 1001));
  CHECK(mmapp::mma_workspace_bytes<ElTile, double>(1001, 1001, 1001) >=
        mmapp::mma_workspace_bytes<ElInPlace, double>(1001, 1001, 1001) + 2 * 1001 * 1002 * sizeof(double));
  CHECK(mmapp::mma_workspace_bytes<ElTile, double>(1000, 1000, 1000) ==
        mmapp::mma_workspace_bytes<ElInPlace, double>(1000, 1000, 1000));
  check_mma_kernel<ElInPlace, double>();
  // The rule's 96x96x8 split tile (m16n8k8, six warps of 48x32, 4 stages,
  // split by 1024; 192 threads, past the host's 64-member teams) by its
  // warp tile in teams of two warps: 96x32 (the full 96 rows: 2x1 warps)
  // and 48x64 (1x2), on long K; and on the short cases unsplit.
  check_mma_kernel<GpuMmaTile<96, 32, 8, 48, 32, 0, 1024, 0, 2, 4, true>, double>(long_k_cases);
  check_mma_kernel<GpuMmaTile<48, 64, 8, 48, 32, 0, 1024, 0, 2, 4, true>, double>(long_k_cases);
  check_mma_kernel<GpuMmaTile<96, 32, 8, 48, 32, 0, 0, 2, 2, 4, true>, double>();
  // double, warp-specialized (warp/ws_pipeline.hpp): one warp that multiplies and one producer
  // warp that copies (on the host, async_mainloop's schedule with the same roles): m16n8k4 with 3
  // stages; m16n8k8 with 4 stages, swizzle, split by 32; m16n8k16 with 2 stages.
  check_mma_kernel<GpuMmaTile<16, 16, 8, 16, 16, 0, 0, 0, 1, 3, true, false, 1>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 32, 16, 0, 32, 2, 2, 4, true, false, 1>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 32, 0, 0, 0, 3, 2, true, false, 1>, double>();
  // The tail split of the last wave's tiles in K (TailSplit, on 3 slots: tail_cases), on that
  // warp-specialized tile (swizzle 0) and on a 32x16 cp.async tile with swizzle 2 (the reduce finds
  // the split tiles through the kernel's mapping), m16n8k8 with 4 stages.
  check_mma_kernel<mmapp::TailSplit<GpuMmaTile<16, 32, 16, 16, 32, 0, 0, 0, 3, 2, true, false, 1>, 3>, double>(
      tail_cases);
  check_mma_kernel<mmapp::TailSplit<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 2, 4, true>, 3>, double>(tail_cases);
  // Stream-K of the last wave (StreamK, on 5 slots: stream_k_cases) on the same two tiles: the
  // warp-specialized one's segments share one ring (on the host, one async_mainloop each).
  check_mma_kernel<mmapp::StreamK<GpuMmaTile<16, 32, 16, 16, 32, 0, 0, 0, 3, 2, true, false, 1>, 5>, double>(
      stream_k_cases);
  check_mma_kernel<mmapp::StreamK<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 2, 4, true>, 5>, double>(stream_k_cases);
  // float, 3xTF32 with one scratch stage (the parts split when stored).
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 0, 1>, float>();
  // float, 3xTF32 on m16n8k8: 1x2 warps of 16x16, one warp of 32x32, split-K by 32.
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0>, float>();
  check_mma_kernel<GpuMmaTile<32, 32, 16, 32, 32, 0, 0, 2>, float>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 32, 0>, float>();
}

namespace {

/// KPermK on tile Cfg (kperm on): pi a bijection of [0, BK) onto the (step,
/// instruction column) slots; each lane's A columns of every row, over all
/// KS steps in step order, the contiguous run [t BK/4, (t + 1) BK/4); B's
/// rows through the same pi; and the lane's run reads (frag_a, the data
/// path of the kernel) equal to its scalar reads (raw_a) for every lane,
/// MMA row and step on a scratch of distinct values.
template <class Cfg, class T>
void check_kperm() {
  using Warp = mmapp::detail::MmaWarpTile<Cfg, T>;
  using Shape = typename Warp::Shape;
  using Scratch = typename Warp::Scratch;
  using Perm = typename Scratch::Perm;
  static_assert(Cfg::kperm, "a kperm tile");
  INFO((mmapp::gpu_mma_tag<Cfg, T>()) << " BK " << Cfg::BK);
  constexpr int BK = Cfg::BK, KS = BK / Shape::K, run = BK / 4;
  std::vector<int> hits(BK, 0);
  for (int ks = 0; ks < KS; ++ks)
    for (int kin = 0; kin < Shape::K; ++kin) {
      const int c = Warp::kcol(ks, kin);
      REQUIRE(c >= 0);
      REQUIRE(c < BK);
      ++hits[c];
    }
  for (int c = 0; c < BK; ++c) CHECK(hits[c] == 1);
  for (int l = 0; l < 32; ++l) {
    const int t = l % 4;
    // The lane's A columns row by row (a_row of lane 0's registers), in (step, register) order.
    for (int r0 = 0; r0 < Shape::a_regs; ++r0) {
      if (Shape::a_col(0, r0) != 0) continue;
      std::vector<int> cols;
      for (int ks = 0; ks < KS; ++ks)
        for (int j = 0; j < Shape::K / 4; ++j)
          for (int r = 0; r < Shape::a_regs; ++r)
            if (Shape::a_row(l, r) == Shape::a_row(l, r0) && Shape::a_col(l, r) == t + 4 * j)
              cols.push_back(Warp::kcol(ks, Shape::a_col(l, r)));
      REQUIRE(int(cols.size()) == run);
      for (int e = 0; e < run; ++e) CHECK(cols[e] == t * run + e);
    }
    for (int ks = 0; ks < KS; ++ks)
      for (int r = 0; r < Shape::b_regs; ++r)
        CHECK(Warp::kcol(ks, Shape::b_row(l, r)) == Perm::col(ks, Shape::b_row(l, r)));
  }
  // The run reads against the scalar reads, every lane of every warp.
  std::vector<T> as(std::size_t(Cfg::BM) * Scratch::lda_s);
  for (std::size_t i = 0; i < as.size(); ++i) as[i] = T(i + 1);
  constexpr int G = Warp::G;
  for (int w = 0; w < Cfg::warps; ++w) {
    const Warp warp(32 * w);
    for (int l = 0; l < 32; ++l)
      for (int mi = 0; mi < Warp::MI; ++mi)
        for (int kg = 0; kg < KS / G; ++kg) {
          T runs[G][Warp::AR];
          warp.frag_a(as.data(), l, mi, kg, runs);
          for (int s = 0; s < G; ++s) {
            T scalar[Warp::AR];
            warp.raw_a(as.data(), l, mi, kg * G + s, scalar);
            for (int r = 0; r < Warp::AR; ++r) CHECK(runs[s][r] == scalar[r]);
          }
        }
  }
  CHECK(Scratch::kperm_a_ways() == 1);
  CHECK(Scratch::kperm_b_ways() == 2);
  CHECK((Scratch::lda_s * sizeof(T)) % 16 == 0);
  CHECK((Scratch::ldb_s * sizeof(T)) % 16 == 0);
}

}  // namespace

TEST_CASE("the cp.async tensor-core forms on operands copied to aligned rows", "[.warp-host][mma]") {
  // Odd K and N with M and N at least kOperandCopyMinReuse: AlignedOperands
  // copies A and B to aligned rows in the workspace (the catalog's sizing);
  // K short so that the emulation stays quick. The copies' contents are
  // checked by "[aligned]"; here the kernel reads them (pitch, K tail, the
  // padding's zeros).
  REQUIRE(Host().concurrency() >= 64);
  using mmapp::GpuMmaTile;
  static_assert(mmapp::kOperandCopyMinReuse <= 1025, "the cases reach the copies");
  const std::vector<Case> copied{{1025, 1027, 9, 0, 0}, {1030, 1025, 21, 0.5, 0}};
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 1, 3, true>, double>(copied);
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 16, 0, 2, 4, true>, double>(copied);
}

namespace {

/// C's elements bit for bit (padding columns of a strided view excluded).
template <class T>
bool same_bits(const mmapp::Matrix<T, Host>& x, const mmapp::Matrix<T, Host>& y) {
  for (std::size_t i = 0; i < x.extent(0); ++i)
    for (std::size_t j = 0; j < x.extent(1); ++j)
      if (std::memcmp(&x(i, j), &y(i, j), sizeof(T)) != 0) return false;
  return true;
}

/// The in-launch sum (LastTeamSum<Cfg>) against the independent reference
/// (check_mma_kernel) and bit for bit against Cfg's separate sum
/// (splitk_reduce) on the same inputs, twice in a row (the second launch
/// finds the tickets the first left); afterwards every ticket is zero.
template <class Cfg, class T>
void check_last_team_sum(const std::vector<Case>& cases) {
  using Sum = mmapp::LastTeamSum<Cfg>;
  check_mma_kernel<Sum, T>(cases);
  std::uint64_t seed = 77;
  for (const auto& c : cases) {
    INFO((mmapp::gpu_mma_tag<Sum, T>()) << ": " << c.m << "x" << c.n << "x" << c.k << " beta " << c.beta);
    const auto A = mmapp_test::padded<Host, T>(c.m, c.k, c.pad, 0, seed);
    const auto B = mmapp_test::padded<Host, T>(c.k, c.n, c.pad, 1, seed);
    mmapp::Workspace<Host> work("work", mmapp::mma_workspace_bytes<Cfg, T>(c.m, c.n, c.k));
    auto separate = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
    mmapp::gemm_tiled_mma<Cfg>(Host{}, mmapp::GemmArgs<Host, T>{A, B, separate, T(c.beta), work});
    for (int rep = 0; rep < 2; ++rep) {
      auto fused = mmapp_test::padded<Host, T>(c.m, c.n, c.pad, 2, seed);
      mmapp::gemm_tiled_mma<Sum>(Host{}, mmapp::GemmArgs<Host, T>{A, B, fused, T(c.beta), work});
      Kokkos::fence();
      CHECK(same_bits<T>(separate, fused));
    }
    ++seed;
  }
  const unsigned* tickets = mmapp::splitk_tickets<Host>();
  long taken = 0;
  for (int t = 0; t < mmapp::kSplitKTickets; ++t) taken += tickets[t] != 0;
  CHECK(taken == 0);
}

}  // namespace

TEST_CASE("the in-launch sum of split-K slices: the separate sum's bits", "[.warp-host][mma]") {
  // Split by 32: K 2500 in 79 slices (splitk_ordered_sum's groups of 8, then the 10 group sums),
  // 3000 in 94 (whole 96x96 tiles), 2049 and 1025 in 65 and 33, with beta, misaligned rows and
  // swizzle 2; 64 x 64 x 64 in 2 slices with beta, 131 x 67 x 50 in 2 with padded rows, 70 x 130 x
  // 37 in 2, 33 x 17 x 9 in one (no tickets taken: C written directly).
  REQUIRE(Host().concurrency() >= 64);
  using mmapp::GpuMmaTile;
  std::vector<Case> cases = long_k_cases;
  for (const int i : {0, 1, 3, 5}) cases.push_back(mma_cases[std::size_t(i)]);
  check_last_team_sum<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0>, float>(cases);
  check_last_team_sum<GpuMmaTile<32, 16, 16, 16, 16, 0, 32, 2, 2, 3, true>, double>(cases);
  CHECK(mmapp::gpu_mma_tag<mmapp::LastTeamSum<mmapp::WaveSplit<GpuMmaTile<64, 64, 16, 32, 32, 3, 128, 8>>>, float>() ==
        "3xtf32 w32x32 lb3 sw8 wsplit128 lsum");
}

TEST_CASE("kperm: the K permutation of a K tile and its scratch pitches", "[mma]") {
  using mmapp::GpuMmaTile;
  // The host kernel tests' tiles, and the catalog's float kperm form (3xTF32 128x64x16, one stage).
  using F16 = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 0, 1, false, true>;
  check_kperm<F16, float>();
  check_kperm<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 1, 3, true, true>, double>();
  check_kperm<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 2, 3, true, true>, double>();
  check_kperm<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 0, 1, false, true>, float>();
  check_kperm<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 1, 3, true, true>, double>();
  check_kperm<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 0, 1, false, true>, float>();
  // The worked examples on the small tiles (the permutation depends on the
  // instruction and BK only): m16n8k4, pi(ks, t) = 4 t + ks; m16n8k8 (f64
  // and tf32): columns t, t + 4 of step ks at 4 t + 2 ks and 4 t + 2 ks + 1.
  using S16 = mmapp::detail::MmaWarpTile<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 1, 3, true, true>, double>;
  using S16k8 = mmapp::detail::MmaWarpTile<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 2, 3, true, true>, double>;
  using WF = mmapp::detail::MmaWarpTile<F16, float>;
  for (int ks = 0; ks < 4; ++ks)
    for (int t = 0; t < 4; ++t) CHECK(S16::kcol(ks, t) == 4 * t + ks);
  for (int ks = 0; ks < 2; ++ks)
    for (int t = 0; t < 4; ++t) {
      CHECK(S16k8::kcol(ks, t) == 4 * t + 2 * ks);
      CHECK(S16k8::kcol(ks, t + 4) == 4 * t + 2 * ks + 1);
      CHECK(WF::kcol(ks, t + 4) == 4 * t + 2 * ks + 1);
    }
  // The order of loads and MMAs (MmaWarpTile::a_late): rows on the float
  // 128x64 form (G = 2), steps on float warps of 32x64 (fewer live
  // fragments each); the kernel test below runs both.
  CHECK(WF::G == 2);
  CHECK(WF::a_late);
  CHECK(!mmapp::detail::MmaWarpTile<GpuMmaTile<64, 128, 16, 32, 64, 2, 0, 8, 0, 1, false, true>, float>::a_late);
  CHECK(!S16::a_late);
  CHECK(mmapp::detail::MmaWarpTile<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 1, 3, true, true>, double>::a_late);
  CHECK(!mmapp::detail::MmaWarpTile<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 0, 1, false, true>, float>::a_late);
  CHECK(mmapp::detail::MmaWarpTile<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 0, 1, false, true>, float>::a_late);
  // The pitches: A 18 doubles (not 20: rows g and g + 1 of a phase 4 bank pairs
  // apart, overlapping) and 16 floats; B BN + 2 doubles, BN + 4 floats.
  CHECK(S16::Scratch::lda_s == 18);
  CHECK(S16k8::Scratch::lda_s == 18);
  CHECK(WF::Scratch::lda_s == 16);
  CHECK(WF::Scratch::ldb_s == 68);
  CHECK(S16::Scratch::Perm::a_ways(20) == 2);  // the default pitch would conflict
  CHECK(WF::Scratch::Perm::a_ways(20) == 2);
  // The bank model itself: a warp's 8-byte reads of consecutive doubles are
  // conflict-free; 16 lanes of a phase on one bank pair, 16 words a bank.
  int addr[32] = {};
  for (int l = 0; l < 32; ++l) addr[l] = 8 * l;
  CHECK(mmapp::detail::smem_load_ways(addr, 8) == 1);
  for (int l = 0; l < 32; ++l) addr[l] = 128 * l;
  CHECK(mmapp::detail::smem_load_ways(addr, 8) == 16);
#if MMAPP_KOKKOS_OPTIN_SCRATCH
  // The catalog's double kperm forms (m16n8k4 and m16n8k8 cp3 128x64x16):
  // past 48 KiB of scratch, so only where this build's Kokkos allows it (the
  // in-tree Kokkos with its opt-in patch; an installed Kokkos keeps 48 KiB).
  using D16 = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 1, 3, true, true>;
  using D16k8 = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 2, 3, true, true>;
  check_kperm<D16, double>();
  check_kperm<D16k8, double>();
  using W16 = mmapp::detail::MmaWarpTile<D16, double>;
  using W16k8 = mmapp::detail::MmaWarpTile<D16k8, double>;
  CHECK(W16::G == 2);
  CHECK(W16::a_late);
  CHECK(W16k8::G == 1);
  CHECK(!W16k8::a_late);
  CHECK(W16::Scratch::lda_s == 18);
  CHECK(W16k8::Scratch::lda_s == 18);
  CHECK(W16::Scratch::ldb_s == 66);
  CHECK(W16::Scratch::Perm::b_ways(68) == 4);  // the default B pitch would be 4-way
  // Without kperm: the default pitches and permutation.
  using D16off = GpuMmaTile<128, 64, 16, 64, 32, 2, 0, 8, 1, 3, true>;
  using Woff = mmapp::detail::MmaWarpTile<D16off, double>;
  CHECK(Woff::Scratch::lda_s == 20);
  CHECK(Woff::Scratch::ldb_s == 68);
  CHECK(Woff::G == 1);
  for (int ks = 0; ks < 4; ++ks)
    for (int t = 0; t < 4; ++t) CHECK(Woff::kcol(ks, t) == 4 * ks + t);
  CHECK(mmapp::gpu_mma_tag<D16, double>() == "dmma16 w64x32 cp3 kp lb2 sw8");
  CHECK(mmapp::gpu_mma_tag<D16off, double>() == "dmma16 w64x32 cp3 lb2 sw8");
#endif
}

TEST_CASE("kperm: the tensor-core GEMM with the K permutation on the host backend", "[.warp-host][mma]") {
  REQUIRE(Host().concurrency() >= 64);  // run by unit_warp_host with 64 OpenMP threads
  using mmapp::GpuMmaTile;
  // The kperm forms at BK = 16 as the rule's deep tiles are tested above:
  // m16n8k4 with 3 cp.async stages (2x1 warps of 16x16: steps order; 1x2
  // warps of 32x8: rows order), m16n8k8 with 3 stages (1x2 warps), whole
  // and split by 32; float 3xTF32 with one scratch stage (2x1 warps: steps;
  // 1x2 of 32x8: rows) and two (1x2). The cases' K (37, 9, 50, 27, ...)
  // leave partial K tiles, their M and N partial block tiles.
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 1, 3, true, true>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 1, 3, true, true>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 2, 3, true, true>, double>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 32, 0, 2, 3, true, true>, double>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 16, 16, 0, 0, 2, 0, 1, false, true>, float>();
  check_mma_kernel<GpuMmaTile<32, 16, 16, 32, 8, 0, 0, 2, 0, 1, false, true>, float>();
  check_mma_kernel<GpuMmaTile<16, 32, 16, 16, 16, 0, 0, 0, 0, 2, false, true>, float>();
}

namespace {

/// One K tile of a gemm_tiled_wgmma team on the host, every thread of the
/// team in turn: WgmmaLoader's fetch (from an m x k A and k x n B, block
/// tile at (0, 0), K range [0, kt)) and split store to a stage poisoned with
/// NaN, then per warpgroup, warp and lane the kernel's twelve wgmma through
/// L's descriptors, emulated from the stage (wgmma_tf32_emulate: the
/// descriptor's fields, the 128-byte swizzle) into the lane's accumulators
/// at wgmma_d_row / wgmma_d_col, C = acc + dc 2^-11 against the double
/// product of A and B. A misplaced store, a wrong descriptor or fragment
/// map gives a wrong element or a NaN (a byte never stored). Bound: each
/// operand held to ~22 bits (tf32_split), 2^-20 sum |a||b| with margin.
/// Returns the elements outside it.
template <class Cfg>
long wgmma_tile_bad(const long m, const long n, const long k, const int kt, const long lda, const long ldb,
                    std::mt19937_64& rng) {
  using L = mmapp::detail::WgmmaLoader<Cfg>;
  std::uniform_real_distribution<float> dist(-1.0f, 1.0f);
  std::vector<float> a(std::size_t(m * lda + 4)), b(std::size_t(k * ldb + 4));
  for (auto& x : a) x = dist(rng);
  for (auto& x : b) x = dist(rng);
  mmapp::detail::WarpGemmParams<float> p{};
  p.A = a.data();
  p.B = b.data();
  p.lda = lda;
  p.ldb = ldb;
  p.M = int(m);
  p.N = int(n);
  p.vec_a = lda % 4 == 0;
  p.vec_b = ldb % 4 == 0;
  // A 1024-byte aligned stage, as the kernel's.
  std::vector<unsigned char> buf(std::size_t(Cfg::stage_bytes) + 1024);
  unsigned char* const stage = buf.data() + (1024 - reinterpret_cast<std::uintptr_t>(buf.data()) % 1024) % 1024;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  for (int i = 0; i < Cfg::stage_bytes / 4; ++i) std::memcpy(stage + 4 * i, &nan, 4);
  std::vector<unsigned char> raw(std::size_t(Cfg::raw_bytes) + 16);
  unsigned char* const slot = raw.data() + (16 - reinterpret_cast<std::uintptr_t>(raw.data()) % 16) % 16;
  for (int tid = 0; tid < Cfg::loader_threads; ++tid) {
    if constexpr (Cfg::async || Cfg::ws) {  // cp.async to the raw slot (at once on the host), split from there
      L::copy_raw(p, 0, 0, 0, kt, tid, slot);
      L::split_raw(stage, slot, tid);
    } else {
      typename L::FragmentA ra;
      typename L::FragmentB rb;
      L::fetch(p, 0, 0, 0, kt, tid, ra, rb);
      L::store(stage, tid, ra, rb);
    }
  }
  long bad = 0;
  for (int wg = 0; wg < Cfg::warpgroups; ++wg)
    for (int w = 0; w < 4; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        float acc[Cfg::regs] = {}, dc[Cfg::regs] = {}, tp[Cfg::regs] = {};
        for (int j = 0; j < Cfg::BK / mmapp::detail::kWgmmaK; ++j) {
          mmapp::detail::wgmma_product<Cfg>(tp, 0, 0, 0, wg, j, j > 0, stage, w, lane);
          mmapp::detail::wgmma_product<Cfg>(dc, 0, 1, 0, wg, j, true, stage, w, lane);
          mmapp::detail::wgmma_product<Cfg>(dc, 0, 0, 1, wg, j, true, stage, w, lane);
        }
        for (int i = 0; i < Cfg::regs; ++i) {
          acc[i] += tp[i];
          const int r = mmapp::detail::wgmma_c_row<Cfg>(wg, w, lane, i);
          const int c = mmapp::detail::wgmma_c_col<Cfg>(wg, w, lane, i);
          double ref = 0, mag = 0;
          for (int q = 0; q < kt && r < m && c < n; ++q) {
            ref += double(a[std::size_t(r * lda + q)]) * double(b[std::size_t(q * ldb + c)]);
            mag += std::fabs(double(a[std::size_t(r * lda + q)]) * double(b[std::size_t(q * ldb + c)]));
          }
          const double got = double(acc[i]) + double(dc[i]) / double(mmapp::detail::kTf32SmallScale);
          bad += !(std::fabs(got - ref) <= std::ldexp(mag, -20) + 1e-30);
        }
      }
  return bad;
}

}  // namespace

TEST_CASE("wgmma: the 3xTF32 K tile's loads, swizzled split stores, descriptors and fragments", "[mma]") {
  using mmapp::GpuWgmmaTile;
  std::mt19937_64 rng(2111);
  // Whole tiles (16-byte loads), then edges: rows, columns and K short of
  // the tile, odd strides (element loads); every layout of the catalog.
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 128, 1>>(128, 128, 32, 32, 32, 128, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 128, 1>>(100, 77, 19, 19, 21, 79, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<64, 128, 1>>(64, 128, 40, 32, 40, 132, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<64, 128, 1>>(64, 128, 40, 29, 41, 129, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 64, 1>>(128, 64, 32, 32, 36, 64, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 64, 1>>(65, 33, 7, 7, 7, 33, rng) == 0);
  // One block row short of the tile on a whole K tile: each chunk tested on its own, 16-byte loads
  // (aligned strides) or element loads without bounds (odd ones) inside, the masked path across
  // the row and column edges.
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 128, 1>>(100, 77, 40, 32, 40, 80, rng) == 0);
  CHECK(wgmma_tile_bad<GpuWgmmaTile<128, 128, 1>>(97, 126, 40, 32, 41, 129, rng) == 0);
  // C^T tiles (rows_n): B's columns through wgmma's A descriptor, A's rows as its N, every N the
  // catalog has (80, 96, 112, 128), whole and with rows, columns and K short, odd strides.
  using T80 = GpuWgmmaTile<80, 64, 2, 256, 8, false, 2, false, false, true>;
  using T96 = GpuWgmmaTile<96, 64, 2, 256, 8, false, 2, false, false, true>;
  using T112 = GpuWgmmaTile<112, 64, 2, 256, 8, false, 2, false, false, true>;
  using T128 = GpuWgmmaTile<128, 128, 1, 0, 8, false, 2, false, false, true>;  // two warpgroups
  CHECK(wgmma_tile_bad<T80>(80, 64, 32, 32, 32, 64, rng) == 0);
  CHECK(wgmma_tile_bad<T80>(65, 61, 29, 29, 29, 67, rng) == 0);
  CHECK(wgmma_tile_bad<T96>(96, 64, 40, 32, 40, 68, rng) == 0);
  CHECK(wgmma_tile_bad<T96>(81, 50, 13, 13, 13, 51, rng) == 0);
  CHECK(wgmma_tile_bad<T80>(65, 61, 32, 32, 36, 64, rng) == 0);
  CHECK(wgmma_tile_bad<T96>(85, 64, 33, 32, 33, 67, rng) == 0);
  CHECK(wgmma_tile_bad<T112>(112, 64, 32, 32, 36, 64, rng) == 0);
  CHECK(wgmma_tile_bad<T112>(100, 63, 31, 31, 33, 65, rng) == 0);
  CHECK(wgmma_tile_bad<T128>(128, 128, 32, 32, 32, 128, rng) == 0);
  CHECK(wgmma_tile_bad<T128>(113, 100, 17, 17, 19, 101, rng) == 0);
  CHECK(T80::regs == 40);
  CHECK(T112::warpgroups == 1);
  CHECK(T128::warpgroups == 2);
  CHECK(mmapp::gpu_wgmma_tag<mmapp::WaveSplit<T112>>() == "3xtf32 wgmma t112x64 lb2 sw8 wsplit256");
  // WgmmaInPlace: the same loads (an odd A stride above: element loads on whole K tiles), no copy of
  // an unaligned A. Its workspace holds the split's partials alone; the plain tile's also A's copy
  // where C reuses it (90 x 1025 floats along N = 6000), the same where A is aligned (K = 1024).
  using T96w = mmapp::WaveSplit<T96>;
  using T96in = mmapp::WgmmaInPlace<T96w>;
  CHECK(mmapp::gpu_wgmma_tag<T96in>() == "3xtf32 wgmma t96x64 lb2 sw8 wsplit256 inplace");
  CHECK(!T96in::copies);
  CHECK(T96w::copies);
  CHECK(mmapp::wgmma_workspace_bytes<T96in>(90, 6000, 1025) ==
        mmapp::splitk_workspace_bytes<float, 256>(90, 6000, 1025));
  CHECK(mmapp::wgmma_workspace_bytes<T96w>(90, 6000, 1025) >=
        mmapp::wgmma_workspace_bytes<T96in>(90, 6000, 1025) + 90 * 1028 * sizeof(float));
  CHECK(mmapp::wgmma_workspace_bytes<T96w>(90, 6000, 1024) == mmapp::wgmma_workspace_bytes<T96in>(90, 6000, 1024));
  // The cp.async form: chunks to the raw slot (zero-filled tails), split from there.
  using Cp = GpuWgmmaTile<128, 128, 1, 0, 8, true>;
  CHECK(wgmma_tile_bad<Cp>(128, 128, 32, 32, 32, 128, rng) == 0);
  CHECK(wgmma_tile_bad<Cp>(128, 128, 40, 30, 40, 132, rng) == 0);
  CHECK(wgmma_tile_bad<Cp>(90, 126, 19, 19, 21, 129, rng) == 0);
  // The warp-specialized team's producer warpgroup: the same chunks over its 128 threads
  // (8 of A and 2 blocks of B each, rolled loops), by cp.async to the raw slot.
  using Ws = GpuWgmmaTile<128, 128, 1, 0, 8, false, 2, false, true>;
  CHECK(wgmma_tile_bad<Ws>(128, 128, 32, 32, 32, 128, rng) == 0);
  CHECK(wgmma_tile_bad<Ws>(101, 97, 23, 23, 25, 101, rng) == 0);
  CHECK(Ws::team_size == 384);
  CHECK(Ws::scratch_bytes == 2 * Ws::stage_bytes + 2 * Ws::raw_bytes + 4 * 8 + 1024);
  CHECK(128 * Ws::producer_regs + 256 * Ws::consumer_regs <= 384 * 168);  // the launch bounds' share
  CHECK(mmapp::gpu_wgmma_tag<mmapp::WaveSplit<GpuWgmmaTile<128, 128, 1, 256, 8, false, 2, false, true>>>() ==
        "3xtf32 wgmma w64x128 ws lb1 sw8 wsplit256");
  // The map: warp w's rows 16w + g (+8), columns 8j + 2t (+1), each (row, column) once.
  std::vector<int> seen(64 * 128, 0);
  for (int w = 0; w < 4; ++w)
    for (int lane = 0; lane < 32; ++lane)
      for (int i = 0; i < 64; ++i)
        ++seen[mmapp::detail::wgmma_d_row(w, lane, i) * 128 + mmapp::detail::wgmma_d_col(lane, i)];
  CHECK(std::count(seen.begin(), seen.end(), 1) == 64 * 128);
  // The descriptor: start >> 4, leading offset 1, stride offset 1024 >> 4, 128-byte swizzle.
  CHECK(mmapp::detail::wgmma_desc(0x12340) == (0x1234ull | (1ull << 16) | (64ull << 32) | (1ull << 62)));
  CHECK(mmapp::gpu_wgmma_tag<GpuWgmmaTile<128, 128, 1>>() == "3xtf32 wgmma w64x128 lb1 sw8");
  CHECK(mmapp::gpu_wgmma_tag<GpuWgmmaTile<128, 128, 1, 1024, 8, true>>() ==
        "3xtf32 wgmma w64x128 cp lb1 sw8 splitk1024");
  using Three = GpuWgmmaTile<128, 128, 1, 0, 8, false, 3>;
  CHECK(mmapp::gpu_wgmma_tag<Three>() == "3xtf32 wgmma w64x128 3st lb1 sw8");
  CHECK(Three::scratch_bytes == 3 * Three::stage_bytes + 1024);
}

namespace {

/// Stages a whole Cfg block tile with wgmma_stage_c, every thread of the
/// team in turn, register i of (wg, w, lane) holding acc = v and dc = 2048 u
/// (v, u from a counter), into a NaN-poisoned buffer of BM x Staged::ld
/// floats. Returns the elements of the BM x BN tile that are not v + u of
/// the register wgmma_d_row / wgmma_d_col place there, plus the padding
/// columns written: every tile element once, each its own value.
template <class Cfg>
long wgmma_staged_bad() {
  constexpr int R = Cfg::regs, ld = Cfg::Staged::ld;
  const float nan = std::numeric_limits<float>::quiet_NaN();
  std::vector<float> s(std::size_t(Cfg::BM) * ld, nan), want(s.size(), nan);
  float next = 1.0f;
  for (int wg = 0; wg < Cfg::warpgroups; ++wg)
    for (int w = 0; w < 4; ++w)
      for (int lane = 0; lane < 32; ++lane) {
        float acc[R], dc[R];
        for (int i = 0; i < R; ++i) {
          acc[i] = next;
          dc[i] = 2048.0f * 0.25f;  // + 0.25 in C
          next += 1.0f;
          want[std::size_t(mmapp::detail::wgmma_c_row<Cfg>(wg, w, lane, i) * ld +
                           mmapp::detail::wgmma_c_col<Cfg>(wg, w, lane, i))] = acc[i] + 0.25f;
        }
        mmapp::detail::wgmma_stage_c<Cfg>(s.data(), wg, w, lane, acc, dc);
      }
  long bad = 0;
  for (int r = 0; r < Cfg::BM; ++r)
    for (int c = 0; c < ld; ++c) {
      const float got = s[std::size_t(r * ld + c)];
      bad += c < Cfg::BN ? !(got == want[std::size_t(r * ld + c)]) : !std::isnan(got);
    }
  return bad;
}

}  // namespace

TEST_CASE("wgmma staged epilogue: each thread's pairs to their place in the scratch tile; one-tile scratch sizes",
          "[mma]") {
  using mmapp::GpuWgmmaTile;
  CHECK(wgmma_staged_bad<GpuWgmmaTile<128, 128, 1>>() == 0);
  CHECK(wgmma_staged_bad<GpuWgmmaTile<64, 128, 1>>() == 0);
  CHECK(wgmma_staged_bad<GpuWgmmaTile<128, 64, 1>>() == 0);
  // C^T tiles: register i's (row, column) transposed, two rows of a column per pair.
  CHECK(wgmma_staged_bad<GpuWgmmaTile<80, 64, 2, 256, 8, false, 2, false, false, true>>() == 0);
  CHECK(wgmma_staged_bad<GpuWgmmaTile<112, 128, 1, 0, 8, false, 2, false, false, true>>() == 0);
  // Pitch BN + 8 floats: 8-byte pairs aligned, a warp's 8 rows 8 banks apart.
  CHECK(GpuWgmmaTile<128, 128, 1>::Staged::ld == 136);
  // One K tile per team: one stage (or the staged C tile where larger) and 1 KiB to align it.
  using Pre64 = GpuWgmmaTile<64, 128, 1, 128, 8, false, 3, true>;
  CHECK(Pre64::one_tile_scratch);
  CHECK(Pre64::one_tile_scratch_bytes == std::size_t(Pre64::stage_bytes) + 1024);
  CHECK(2 * Pre64::one_tile_scratch_bytes <= 227 * 1024);  // two teams per SM (H100/H200 shared memory)
  using Big = GpuWgmmaTile<128, 128, 1>;
  CHECK(Big::one_tile_scratch_bytes == Big::Staged::bytes + 1024);          // 128 x 136 floats > one 64 KiB stage
  CHECK(!GpuWgmmaTile<128, 128, 1, 0, 8, true>::one_tile_scratch);          // raw slots past the stages
  CHECK(!GpuWgmmaTile<128, 128, 1, 0, 8, false, 2, false, true>::stage_c);  // ws: producers leave first
}

TEST_CASE("wgmma pre-split pass: every part element is the split of its A or B element, zeros past them",
          "[mma][presplit]") {
  // wgmma_presplit_pass on the host space: A's rows and B's columns (transposed, K-major) padded
  // to whole 128-wide tiles and 32-wide K tiles, big and small TF32 parts (tf32_split). Shapes: A's
  // rows read in 16-byte loads (K = 100, aligned) and element by element (K = 31: odd lda; pad 1:
  // rows 4 bytes off), N not a multiple of the 8 columns a warp's items take, K tails.
  // bm: the block tile's rows, to which A's rows are padded (the last case: the 64-row tile's, 40 -> 64).
  struct Case {
    long m, n, k, pad, bm;
  };
  for (const Case c : {Case{129, 257, 31, 0, 128}, Case{200, 130, 100, 0, 128}, Case{77, 9, 45, 1, 128},
                       Case{512, 128, 64, 0, 128}, Case{40, 130, 45, 0, 64}}) {
    INFO("m=" << c.m << " n=" << c.n << " k=" << c.k << " pad=" << c.pad << " bm=" << c.bm);
    const auto A = mmapp_test::padded<Host, float>(c.m, c.k, c.pad, 0, 77, 1.0f, mmapp::Init::wide);
    const auto B = mmapp_test::padded<Host, float>(c.k, c.n, c.pad, 1, 77, 1.0f, mmapp::Init::wide);
    const mmapp::Matrix<float, Host> C("C", c.m, c.n);
    const mmapp::detail::WgmmaPresplit ps(c.m, c.n, c.k, int(c.bm), 128, 0);
    REQUIRE(ps.mp == (c.m + c.bm - 1) / c.bm * c.bm);
    mmapp::Workspace<Host> work("work", ps.bytes());
    Kokkos::deep_copy(work, char(0x7f));  // every part byte the pass must overwrite
    mmapp::detail::wgmma_presplit_pass(Host(), mmapp::GemmArgs<Host, float>{A, B, C, 0.0f, work}, ps);
    Kokkos::fence();
    const auto* const parts = reinterpret_cast<const std::uint32_t*>(work.data() + ps.at);
    const long mp = ps.mp, np = ps.np, kp = ps.kp;
    long wrong = 0;
    const auto check = [&](const std::uint32_t* big, const std::uint32_t* small, long rows, long extent,
                           const auto& element) {
      for (long r = 0; r < rows; ++r)
        for (long q = 0; q < kp; ++q) {
          std::uint32_t b = 0, s = 0;
          mmapp::detail::tf32_split(r < extent && q < c.k ? element(r, q) : 0.0f, b, s);
          wrong += big[r * kp + q] != b || small[r * kp + q] != s;
        }
    };
    check(parts, parts + mp * kp, mp, c.m, [&](long r, long q) { return A(r, q); });
    check(parts + 2 * mp * kp, parts + 2 * mp * kp + np * kp, np, c.n, [&](long col, long q) { return B(q, col); });
    CHECK(wrong == 0);
  }
}
