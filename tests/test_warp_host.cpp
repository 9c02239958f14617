// The GPU's warp-tiled GEMM (kernels/tiled_gpu_warp.hpp) run on the host
// backend: the same portable sources, in teams of 64 threads (the shapes are
// the GPU tiles scaled down: a 32x64 block of 4x8 register tiles in 32x32
// warp tiles, two warps per team). Every switch combination the GPU
// registry uses, on the host, for every load path: lean (whole tiles
// inside), edge with origins and bit masks (the fragment-pipelined forms),
// per-chunk masked (the others, and team shapes whose rounds are not whole
// tile rows), misaligned rows (element-wise loads), K tails, split-K.
// Checks: (1) against an independent reference (a triple loop in double,
// the bound of test_kernels.cpp); (2) every form of one tile and thread
// tile without split-K returns the same bits as its plain form (Vec off, no
// pipeline: the FMAs and their order are the same in every form, file
// comment of tiled_gpu_warp.hpp); split-K forms within rounding.
// Needs 64 host threads: the hidden tag [warp-host] runs in its own CTest
// entry (unit_warp_host, OMP_NUM_THREADS=64), which requires them.
#include "kernels/tiled_gpu_warp.hpp"
#include "init.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>
#include <utility>
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
                              {128, 128, 200, 0, 4}};

/// C = A B + beta C0 by Cfg on the host space, with `pad` extra elements per
/// row (subviews of wider allocations), C0's entries where beta != 0 and
/// NaN where beta == 0 (C must not be read then).
template <class Cfg, class T>
std::vector<T> run(const Case& c, const std::vector<T>& a, const std::vector<T>& b, const std::vector<T>& c0) {
  mmapp::Matrix<T, Host> Aw("A", c.m, c.k + c.pad), Bw("B", c.k, c.n + c.pad), Cw("C", c.m, c.n + c.pad);
  const auto A = Kokkos::subview(Aw, Kokkos::ALL, std::make_pair(0L, c.k));
  const auto B = Kokkos::subview(Bw, Kokkos::ALL, std::make_pair(0L, c.n));
  const auto C = Kokkos::subview(Cw, Kokkos::ALL, std::make_pair(0L, c.n));
  for (long i = 0; i < c.m; ++i)
    for (long p = 0; p < c.k; ++p) A(i, p) = a[i * c.k + p];
  for (long p = 0; p < c.k; ++p)
    for (long j = 0; j < c.n; ++j) B(p, j) = b[p * c.n + j];
  for (long i = 0; i < c.m; ++i)
    for (long j = 0; j < c.n; ++j) C(i, j) = c.beta == 0 ? std::numeric_limits<T>::quiet_NaN() : c0[i * c.n + j];
  mmapp::Workspace<Host> work("work", mmapp::splitk_workspace_bytes<T, Cfg::split_kc>(c.m, c.n, c.k));
  mmapp::gemm_tiled_warp<Cfg>(Host{}, mmapp::GemmArgs<Host, T>{A, B, C, T(c.beta), work});
  Kokkos::fence();
  std::vector<T> out(c.m * c.n);
  for (long i = 0; i < c.m; ++i)
    for (long j = 0; j < c.n; ++j) out[i * c.n + j] = C(i, j);
  return out;
}

/// Runs the plain form Ref and every form Cfgs of one tile on every case.
template <class T, class Ref, class... Cfgs>
void check_family() {
  std::uint64_t seed = 11;
  for (const auto& c : cases) {
    auto random = [&](long rows, long cols, int which) {
      mmapp::HostMatrix<T> X("X", rows, cols);
      mmapp::fill_matrix<T>(X, which, 0, mmapp::Init::random, seed);
      return std::vector<T>(X.data(), X.data() + rows * cols);
    };
    const auto a = random(c.m, c.k, 0), b = random(c.k, c.n, 1), c0 = random(c.m, c.n, 2);
    ++seed;
    INFO((sizeof(T) == 4 ? "float " : "double ") << c.m << "x" << c.n << "x" << c.k << " beta " << c.beta << " pad "
                                                 << c.pad);
    const auto ref = run<Ref, T>(c, a, b, c0);
    const double u = std::numeric_limits<T>::epsilon() / 2, gamma = (c.k + 2) * u / (1 - (c.k + 2) * u);
    long bad = 0;
    for (long i = 0; i < c.m; ++i)
      for (long j = 0; j < c.n; ++j) {
        double r = c.beta * c0[i * c.n + j], mag = std::fabs(r);
        for (long p = 0; p < c.k; ++p) {
          r += double(a[i * c.k + p]) * double(b[p * c.n + j]);
          mag += std::fabs(double(a[i * c.k + p]) * double(b[p * c.n + j]));
        }
        if (!(std::fabs(double(ref[i * c.n + j]) - r) <= 2 * gamma * mag + std::numeric_limits<double>::min())) ++bad;
      }
    CHECK(bad == 0);
    auto same = [&](auto cfg) {
      using Cfg = decltype(cfg);
      INFO("stages " << Cfg::stages << " vec " << Cfg::vec << " fragdb " << Cfg::frag_pipe << " lds"
                     << Cfg::frag_bytes << " splitk " << Cfg::split_kc << " warp tile " << Cfg::WM << "x" << Cfg::WN);
      const auto out = run<Cfg, T>(c, a, b, c0);
      long differ = 0;
      for (std::size_t e = 0; e < out.size(); ++e) {
        if (Cfg::split_kc == 0)
          differ += !(out[e] == ref[e]);  // same FMAs, same order: the same bits
        else
          differ += !(std::fabs(double(out[e]) - double(ref[e])) <=
                      4 * gamma * (1 + std::fabs(double(ref[e]))));  // another summation order
      }
      CHECK(differ == 0);
    };
    (same(Cfgs{}), ...);
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
}
