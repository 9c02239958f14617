// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// fma_peak.cpp — mmapp-fma-peak: the measured arithmetic ceilings of one
// device (or the host cores) to set GEMM figures against (docs/performance.md,
// The ceilings): the multiply-add rate, float and double, and on GPUs with
// tensor cores the `mma.sync` rates, FP64 (DMMA) and TF32. One process, no
// MPI, no deck.
//
//   mmapp-fma-peak [--backend openmp|cuda|serial] [--dtype float|double|both]
//                  [--what fma|mma|all] [--seconds S] [--repetitions R]
//                  [--items N] [--kokkos-...]
//
// Each launch runs kernels/fma_peak.hpp's chains (fma) or
// kernels/gpu/mma_peak.hpp's mma chains (mma: dmma m8n8k4 f64 from sm_80,
// dmma m16n8k4/k8/k16 f64 on sm_90, tf32 m16n8k8 from sm_80; on sm_90a
// builds also tf32 wgmma m64n128k8 from scratch, kernels/gpu/wgmma_peak.hpp;
// --dtype double selects the dmma lines, float the tf32 lines) for about S
// seconds (the iteration count is calibrated from a short launch first,
// untimed); R timed launches follow one untimed warm-up; the median gives
// TFLOP/s. Long
// launches (S = 2 by default) hold the device at its sustained clock, so a
// power-limited part reports the rate it can keep, not its boost rate.
// The result of every launch is checked bit for bit against the host: the
// fma chains against the same recurrence run on the host in T, fused or
// unfused (fma_chains_reference; the first and last work item), every mma
// accumulator against its closed form (mma_chains_reference): a kernel that
// skipped work fails with exit code 1. An mma line on a build without the
// instruction (host backends, GPUs before sm_80, sm_80 for the sm_90 shapes)
// says "not available on this build" and is no failure. Exit code 2 on bad
// arguments.
#include "core/exec_spaces.hpp"
#include "kernels/gpu/mma_peak.hpp"
#include "kernels/gpu/wgmma_peak.hpp"
#include "kernels/gpu/warp/mma_arch.hpp"
#include "kernels/portable/fma_peak.hpp"
#include "core/stats.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <type_traits>
#include <vector>

#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime.h>
#endif

namespace {

struct Options {
  std::string backend = mmapp::default_backend();
  std::string dtype = "both";
  std::string what = "all";
  double seconds = 2.0;
  int repetitions = 5;
  long items = 0;  // 0: 4 x the space's concurrency
};

/// The step count whose launch takes about `seconds`: `run(steps)` (seconds
/// of one fenced launch) first at 256 steps, then at 4 times as many until a
/// launch takes 50 ms (at most 2^40 steps), then scaled linearly.
template <class Run>
long calibrated_steps(Run&& run, double seconds) {
  long iters = 256;
  double t = run(iters);
  while (t < 0.05 && iters < (1L << 40)) t = run(iters *= 4);
  return std::max(1L, long(double(iters) * seconds / t));
}

/// One result line: "<tool> <space> <label>: R TFLOP/s (median of n; min-max
/// lo-hi), S s per launch, <work>, checked | WRONG RESULT", R from `flops`
/// per launch over the median of `samples` (seconds).
void print_rate(const char* tool, const char* space, const std::string& label, double flops,
                const std::vector<double>& samples, const std::string& work, bool ok) {
  const auto st = mmapp::summarize(samples);
  fmt::print("{} {} {}: {:.2f} TFLOP/s (median of {}; min-max {:.2f}-{:.2f}), {:.3f} s per launch, {}, {}\n", tool,
             space, label, flops / st.median * 1e-12, samples.size(), flops / st.max * 1e-12, flops / st.min * 1e-12,
             st.median, work, ok ? "checked" : "WRONG RESULT");
  std::fflush(stdout);
}

template <class Space, class T>
bool measure(const Options& opt) {
  const Space space;
  const long items = opt.items > 0 ? opt.items : 4L * long(space.concurrency());
  Kokkos::View<T*, typename Space::memory_space> out("fma_peak_out", items);
  // a just below 1 and a small b: every chain creeps towards b / (1 - a) and
  // stays finite and non-constant for any iteration count.
  const T a = T(1) - T(1.0 / (1 << 20)), b = T(1.0 / 1024), x0 = T(1), step = T(1.0 / 4096);
  auto run = [&](long iters) {
    Kokkos::fence();
    Kokkos::Timer timer;
    mmapp::fma_chains<Space, T>(space, out, iters, a, b, x0, step);
    space.fence();
    return timer.seconds();
  };
  const long iters = calibrated_steps(run, opt.seconds);
  run(iters);  // warm-up at the measured size
  const long check[2] = {0, items - 1};
  T ref[2][2];  // [item][fused]
  for (int c = 0; c < 2; ++c)
    for (int f = 0; f < 2; ++f) ref[c][f] = mmapp::fma_chains_reference<T>(check[c], iters, a, b, x0, step, f == 1);
  std::vector<double> samples;
  bool ok = true;
  for (int r = 0; r < opt.repetitions; ++r) {
    Kokkos::deep_copy(out, T(-1));
    samples.push_back(run(iters));
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (int c = 0; c < 2; ++c) ok &= h(check[c]) == ref[c][0] || h(check[c]) == ref[c][1];
  }
  print_rate("fma-peak", Space::name(), sizeof(T) == 4 ? "float" : "double", mmapp::fma_chains_flops(items, iters),
             samples, fmt::format("{} items x {} chains x {} steps", items, mmapp::kFmaChains, iters), ok);
  return ok;
}

/// SMs of the current CUDA device (0 where it cannot be read).
int cuda_sm_count() {
#ifdef KOKKOS_ENABLE_CUDA
  int dev = 0, sms = 0;
  if (cudaGetDevice(&dev) == cudaSuccess &&
      cudaDeviceGetAttribute(&sms, cudaDevAttrMultiProcessorCount, dev) == cudaSuccess)
    return sms;
#endif
  return 0;
}

/// One mma line: Shape's `mma.sync` chains (kernels/gpu/mma_peak.hpp) on
/// every SM (kMmaTeamsPerSm<Shape> teams of kMmaWarpsPerTeam warps each, all
/// resident at once under the kernel's launch bounds), calibrated, timed and
/// checked as measure() does; every element of every warp's accumulators is
/// compared bit for bit with mma_chains_reference.
template <class Space, class Shape>
bool measure_mma(const Options& opt, const char* label) {
  const Space space;
  const int sms = cuda_sm_count();
  if (sms <= 0) {
    fmt::print("mma-peak {} {}: WRONG RESULT (the device's SM count could not be read)\n", Space::name(), label);
    return false;
  }
  using E = typename Shape::Elem;
  const long warps = long(sms) * mmapp::kMmaTeamsPerSm<Shape> * mmapp::kMmaWarpsPerTeam;
  mmapp::MmaPeakOut<Shape, Space> out("mma_peak_out", warps, 32, Shape::c_regs);
  auto run = [&](long iters) {
    Kokkos::fence();
    Kokkos::Timer timer;
    mmapp::mma_chains<Shape, Space>(space, out, iters);
    space.fence();
    return timer.seconds();
  };
  long iters = calibrated_steps(run, opt.seconds);
  if (mmapp::mma_peak_steps_sign(iters) == 0) ++iters;  // a launch that did nothing would leave zeros
  run(iters);  // warm-up at the measured size
  E ref[32][Shape::c_regs];
  for (int l = 0; l < 32; ++l)
    for (int r = 0; r < Shape::c_regs; ++r) ref[l][r] = mmapp::mma_chains_reference<Shape>(l, r, iters);
  std::vector<double> samples;
  bool ok = true;
  for (int rep = 0; rep < opt.repetitions; ++rep) {
    Kokkos::deep_copy(out, std::numeric_limits<E>::quiet_NaN());  // poison: a warp that never stores fails
    samples.push_back(run(iters));
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (long w = 0; w < warps; ++w)
      for (int l = 0; l < 32; ++l)
        for (int r = 0; r < Shape::c_regs; ++r) ok &= h(w, l, r) == ref[l][r];
  }
  print_rate("mma-peak", Space::name(), label, mmapp::mma_chains_flops<Shape>(warps, iters), samples,
             fmt::format("{} warps x {} chains x {} steps", warps, mmapp::kMmaChains, iters), ok);
  return ok;
}

/// A wgmma line (kernels/gpu/wgmma_peak.hpp, Shape a WgmmaPeakShape): one
/// team of two warpgroups per SM, calibrated, timed and checked as
/// measure_mma() does, every accumulator of every warpgroup against
/// wgmma_chains_reference.
template <class Space, class Shape>
bool measure_wgmma(const Options& opt, const char* label) {
  const Space space;
  const int sms = cuda_sm_count();
  if (sms <= 0) {
    fmt::print("mma-peak {} {}: WRONG RESULT (the device's SM count could not be read)\n", Space::name(), label);
    return false;
  }
  const long groups = long(sms) * mmapp::kWgmmaPeakGroups;
  mmapp::WgmmaPeakOut<Space> out("wgmma_peak_out", groups, 128, Shape::regs);
  auto run = [&](long trips) {
    Kokkos::fence();
    Kokkos::Timer timer;
    mmapp::wgmma_chains<Shape, Space>(space, out, trips);
    space.fence();
    return timer.seconds();
  };
  long trips = calibrated_steps(run, opt.seconds);
  if (mmapp::mma_peak_steps_sign(mmapp::kWgmmaPeakSteps * trips) == 0) ++trips;
  run(trips);  // warm-up at the measured size
  std::vector<double> samples;
  bool ok = true;
  for (int rep = 0; rep < opt.repetitions; ++rep) {
    Kokkos::deep_copy(out, std::numeric_limits<float>::quiet_NaN());
    samples.push_back(run(trips));
    auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace(), out);
    for (long g = 0; g < groups; ++g)
      for (int t = 0; t < 128; ++t)
        for (int r = 0; r < Shape::regs; ++r) ok &= h(g, t, r) == mmapp::wgmma_chains_reference(t, r, trips);
  }
  print_rate("mma-peak", Space::name(), label, mmapp::wgmma_chains_flops<Shape>(groups, trips), samples,
             fmt::format("{} warpgroups x {} steps x {} trips", groups, mmapp::kWgmmaPeakSteps, trips), ok);
  return ok;
}

/// The mma lines of --dtype: dmma (double) and tf32 (float), each measured
/// where this build has the instruction on a CUDA space, else one line
/// saying so (not a failure).
template <class Space>
bool measure_mma_all(const Options& opt) {
  constexpr bool gpu = !std::is_same_v<typename Space::memory_space, Kokkos::HostSpace>;
  const auto line = [&](auto shape, const char* label, auto compiled) {
    using Shape = decltype(shape);
    if constexpr (gpu && decltype(compiled)::value) {
      return measure_mma<Space, Shape>(opt, label);
    } else {
      fmt::print("mma-peak {} {}: not available on this build ({})\n", Space::name(), label,
                 !gpu                     ? "tensor cores: CUDA backend only"
                 : Shape::min_arch >= 900 ? "needs a CUDA build for sm_90"
                                          : "needs a CUDA build for sm_80 or later");
      std::fflush(stdout);
      return true;
    }
  };
  bool ok = true;
  if (opt.dtype != "float") {
    ok &= line(mmapp::detail::MmaF64m8n8k4{}, "dmma m8n8k4 f64", std::bool_constant<mmapp::kGpuTensorCores>{});
    ok &= line(mmapp::detail::MmaF64m16n8k4{}, "dmma m16n8k4 f64", std::bool_constant<mmapp::kGpuMmaSm90>{});
    ok &= line(mmapp::detail::MmaF64m16n8k8{}, "dmma m16n8k8 f64", std::bool_constant<mmapp::kGpuMmaSm90>{});
    ok &= line(mmapp::detail::MmaF64m16n8k16{}, "dmma m16n8k16 f64", std::bool_constant<mmapp::kGpuMmaSm90>{});
  }
  if (opt.dtype != "double") {
    ok &= line(mmapp::detail::MmaTf32m16n8k8{}, "tf32 m16n8k8", std::bool_constant<mmapp::kGpuTensorCores>{});
    const auto wg = [&](auto shape, const char* label) {
      if constexpr (gpu && mmapp::kGpuWgmma) {
        return measure_wgmma<Space, decltype(shape)>(opt, label);
      } else {
        fmt::print("mma-peak {} {}: not available on this build (needs a CUDA build for sm_90a: the in-tree Kokkos)\n",
                   Space::name(), label);
        std::fflush(stdout);
        return true;
      }
    };
    ok &= wg(mmapp::WgmmaPeakShape<128>{}, "tf32 wgmma m64n128k8 SS");
    ok &= wg(mmapp::WgmmaPeakShape<256>{}, "tf32 wgmma m64n256k8 SS");
  }
  return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"mmapp-fma-peak: the sustained multiply-add rate (TFLOP/s) of one execution space, float and "
               "double, and its tensor-core mma.sync rates (DMMA, TF32) where the build has them",
               "mmapp-fma-peak"};
  Options opt;
  app.add_option("--backend", opt.backend,
                 "execution space: " + fmt::format("{}", fmt::join(mmapp::enabled_backends(), "|")));
  app.add_option("--dtype", opt.dtype, "float, double or both")->check(CLI::IsMember({"float", "double", "both"}));
  app.add_option("--what", opt.what,
                 "fma (multiply-add chains), mma (tensor-core mma.sync chains: dmma for double, tf32 for float) "
                 "or all")
      ->check(CLI::IsMember({"fma", "mma", "all"}));
  app.add_option("--seconds", opt.seconds, "length of one timed launch, in seconds")->check(CLI::Range(0.01, 60.0));
  app.add_option("--repetitions", opt.repetitions, "timed launches")->check(CLI::Range(1, 1000));
  app.add_option("--items", opt.items, "fma work items per launch (default: 4 x the space's concurrency)")
      ->check(CLI::Range(1L, 1L << 34));
  app.allow_extras();  // --kokkos-* options go to Kokkos::initialize
  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    return app.exit(e) == 0 ? 0 : 2;
  }
  for (const auto& extra : app.remaining())
    if (extra.rfind("--kokkos-", 0) != 0) {
      std::fprintf(stderr, "mmapp-fma-peak: error: unknown argument '%s' (see --help)\n", extra.c_str());
      return 2;
    }
  const auto known = mmapp::enabled_backends();
  if (std::find(known.begin(), known.end(), opt.backend) == known.end()) {
    std::fprintf(stderr, "mmapp-fma-peak: error: --backend %s is not compiled in\n", opt.backend.c_str());
    return 2;
  }
  Kokkos::ScopeGuard kokkos(argc, argv);
  bool ok = true;
  mmapp::with_backend(opt.backend, [&](auto space) {
    using Space = decltype(space);
    if (opt.what != "mma") {
      if (opt.dtype != "double") ok &= measure<Space, float>(opt);
      if (opt.dtype != "float") ok &= measure<Space, double>(opt);
    }
    if (opt.what != "fma") ok &= measure_mma_all<Space>(opt);
  });
  return ok ? 0 : 1;
}
