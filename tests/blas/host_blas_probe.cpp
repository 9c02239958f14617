// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_blas_probe.cpp — checks ensure_host_blas_core's thread placement of
// the host BLAS as mmapp's main() gets it (called first, before MPI and
// Kokkos), in the environment CTest gives (OMP_PROC_BIND=spread
// OMP_PLACES=threads OMP_NUM_THREADS=2, the jobs' settings), then runs one
// SGEMM so OpenBLAS' threads exist and work.
//
// Usage: host_blas_probe [--threading openmp|pthreads] [--threads N] [--min-cpus N] [--bound yes|no]
// Prints what host_blas.hpp reports; exit 0 when every expectation holds,
// 1 otherwise, 77 (skipped) on a machine with fewer CPUs than --min-cpus.
#include "kernels/vendor/host_blas.hpp"

#include <sched.h>
#include <unistd.h>

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

extern "C" void sgemm_(const char*, const char*, const int*, const int*, const int*, const float*, const float*,
                       const int*, const float*, const int*, const float*, float*, const int*);

int main(int argc, char** argv) {
  mmapp::ensure_host_blas_core(argv);
  std::string want_threading, want_bound;
  int want_threads = 0, min_cpus = 0;
  for (int i = 1; i + 1 < argc; i += 2) {
    if (!std::strcmp(argv[i], "--threading")) want_threading = argv[i + 1];
    else if (!std::strcmp(argv[i], "--threads")) want_threads = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--min-cpus")) min_cpus = std::atoi(argv[i + 1]);
    else if (!std::strcmp(argv[i], "--bound")) want_bound = argv[i + 1];
    else {
      std::fprintf(stderr, "host_blas_probe: unknown option %s\n", argv[i]);
      return 2;
    }
  }
  const long online = sysconf(_SC_NPROCESSORS_ONLN);
  if (min_cpus > online) {
    std::printf("SKIPPED: %ld CPU(s) here, the check needs %d\n", online, min_cpus);
    return 77;
  }
  const int n = 512;
  std::vector<float> a(n * n, 1.0f), b(n * n, 1.0f), c(n * n, 0.0f);
  const float one = 1.0f, zero = 0.0f;
  sgemm_("N", "N", &n, &n, &n, &one, a.data(), &n, b.data(), &n, &zero, c.data(), &n);
  const bool gemm_ok = c[0] == float(n) && c[n * n - 1] == float(n);

  const std::string threading = mmapp::host_blas_threading();
  const int threads = mmapp::host_blas_threads(), cpus = mmapp::host_blas_cpus();
  const bool bound = mmapp::host_blas_bound();
  std::printf("library   %s\nconfig    %s\nlinked    %s\nthreading %s\nthreads   %d\ncpus      %d\nbound     %s\n",
              mmapp::host_blas_library().c_str(), mmapp::host_blas_config().c_str(),
              mmapp::host_blas_linked_flavour().c_str(), threading.c_str(), threads, cpus, bound ? "yes" : "no");
  int bad = 0;
  const auto expect = [&bad](bool ok, const std::string& what) {
    if (!ok) std::printf("FAIL: %s\n", what.c_str()), ++bad;
  };
  expect(gemm_ok, "SGEMM of ones gives n");
  expect(!mmapp::host_blas_library().empty(), "the loaded OpenBLAS file is known");
  if (!want_threading.empty()) expect(threading == want_threading, "threading " + want_threading);
  if (want_threads) expect(threads == want_threads, "threads " + std::to_string(want_threads));
  if (min_cpus) expect(cpus >= min_cpus, "BLAS threads may use >= " + std::to_string(min_cpus) + " CPUs");
  if (!want_bound.empty()) expect(bound == (want_bound == "yes"), "bound " + want_bound);
  if (min_cpus && threading == "pthreads") {
    // The caller's share of a pthreads OpenBLAS call: measured 2x (2-core
    // VM) and 8x (16-core Xeon) slower while this thread sat on one place.
    cpu_set_t before, during, after;
    sched_getaffinity(0, sizeof before, &before);
    {
      const mmapp::HostBlasCallScope scope;
      sched_getaffinity(0, sizeof during, &during);
    }
    sched_getaffinity(0, sizeof after, &after);
    std::printf("caller    %d CPU(s), %d during a BLAS call\n", CPU_COUNT(&before), CPU_COUNT(&during));
    expect(CPU_COUNT(&during) >= min_cpus, "a BLAS call's caller may use >= " + std::to_string(min_cpus) + " CPUs");
    expect(CPU_EQUAL(&before, &after), "the caller's mask is restored after the call");
  }
  std::printf("%s\n", bad ? "FAILED" : "OK");
  return bad ? 1 : 0;
}
