// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// fma_peak.cpp — mmapp-fma-peak: the measured multiply-add ceiling of one
// device (or the host cores), float and double, to set GEMM figures against
// (docs/performance.md, The ceilings). One process, no MPI, no deck.
//
//   mmapp-fma-peak [--backend openmp|cuda|serial] [--dtype float|double|both]
//                  [--seconds S] [--repetitions R] [--items N] [--kokkos-...]
//
// Each launch runs kernels/fma_peak.hpp's chains for about S seconds (the
// iteration count is calibrated from a short launch first, untimed); R timed
// launches follow one untimed warm-up; the median gives TFLOP/s. Long
// launches (S = 2 by default) hold the device at its sustained clock, so a
// power-limited part reports the rate it can keep, not its boost rate.
// The result of every launch is checked bit for bit against the same
// recurrence run on the host in T, fused or unfused (fma_chains_reference;
// the first and last work item): a kernel that skipped work fails with exit
// code 1. Exit code 2 on bad arguments.
#include "core/exec_spaces.hpp"
#include "kernels/portable/fma_peak.hpp"
#include "core/stats.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

namespace {

struct Options {
  std::string backend = mmapp::default_backend();
  std::string dtype = "both";
  double seconds = 2.0;
  int repetitions = 5;
  long items = 0;  // 0: 4 x the space's concurrency
};

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
  // Calibrate: a short launch, then the count that takes opt.seconds.
  long iters = 256;
  double t = run(iters);
  while (t < 0.05 && iters < (1L << 40)) t = run(iters *= 4);
  iters = std::max(1L, long(double(iters) * opt.seconds / t));
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
  const auto st = mmapp::summarize(samples);
  const double flops = mmapp::fma_chains_flops(items, iters);
  fmt::print("fma-peak {} {}: {:.2f} TFLOP/s (median of {}; min-max {:.2f}-{:.2f}), {:.3f} s per launch, "
             "{} items x {} chains x {} steps, {}\n",
             Space::name(), sizeof(T) == 4 ? "float" : "double", flops / st.median * 1e-12, opt.repetitions,
             flops / st.max * 1e-12, flops / st.min * 1e-12, st.median, items, mmapp::kFmaChains, iters,
             ok ? "checked" : "WRONG RESULT");
  std::fflush(stdout);
  return ok;
}

}  // namespace

int main(int argc, char* argv[]) {
  CLI::App app{"mmapp-fma-peak: the sustained multiply-add rate (TFLOP/s) of one execution space, float and double",
               "mmapp-fma-peak"};
  Options opt;
  app.add_option("--backend", opt.backend,
                 "execution space: " + fmt::format("{}", fmt::join(mmapp::enabled_backends(), "|")));
  app.add_option("--dtype", opt.dtype, "float, double or both")->check(CLI::IsMember({"float", "double", "both"}));
  app.add_option("--seconds", opt.seconds, "length of one timed launch, in seconds")->check(CLI::Range(0.01, 60.0));
  app.add_option("--repetitions", opt.repetitions, "timed launches")->check(CLI::Range(1, 1000));
  app.add_option("--items", opt.items, "work items per launch (default: 4 x the space's concurrency)")
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
    if (opt.dtype != "double") ok &= measure<Space, float>(opt);
    if (opt.dtype != "float") ok &= measure<Space, double>(opt);
  });
  return ok ? 0 : 1;
}
