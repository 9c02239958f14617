// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_blas.cpp — implementation of host_blas.hpp (see there for the contracts).
#include "kernels/vendor/host_blas.hpp"

#include <cstring>

#include <dirent.h>
#include <dlfcn.h>
#include <sched.h>
#include <sys/syscall.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <algorithm>
#include <climits>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#ifdef MMAPP_HOST_BLAS_OPENBLAS
extern "C" {
char* openblas_get_corename(void);
char* openblas_get_config(void);
int openblas_get_num_threads(void);
int openblas_get_parallel(void);
void openblas_set_num_threads(int);
}
#endif

#ifndef MMAPP_HOST_BLAS_LINKED_FLAVOUR
#define MMAPP_HOST_BLAS_LINKED_FLAVOUR ""
#endif

namespace mmapp {
namespace {

/// CPUs of OpenBLAS' pthreads workers after ensure_host_blas_core (-1: not measured).
int g_pthreads_cpus = -1;

/// The union of the OpenMP places' CPUs; without places (no OpenMP, or
/// OMP_PLACES/OMP_PROC_BIND unset), this thread's affinity mask.
cpu_set_t places_union() {
  cpu_set_t mask;
  CPU_ZERO(&mask);
#ifdef _OPENMP
  if (const int places = omp_get_num_places(); places > 0) {
    for (int p = 0; p < places; ++p) {
      std::vector<int> ids(omp_get_place_num_procs(p));
      omp_get_place_proc_ids(p, ids.data());
      for (int id : ids) CPU_SET(id, &mask);
    }
    return mask;
  }
#endif
  sched_getaffinity(0, sizeof mask, &mask);
  return mask;
}

/// The thread ids of this process other than the calling thread.
std::vector<pid_t> other_threads() {
  std::vector<pid_t> tids;
  const pid_t self = static_cast<pid_t>(syscall(SYS_gettid));
  if (DIR* d = opendir("/proc/self/task")) {
    while (const dirent* e = readdir(d)) {
      const long tid = std::strtol(e->d_name, nullptr, 10);
      if (tid > 0 && tid != self) tids.push_back(static_cast<pid_t>(tid));
    }
    closedir(d);
  }
  return tids;
}

#ifdef MMAPP_HOST_BLAS_OPENBLAS
/// Step 1 of ensure_host_blas_core: the OPENBLAS_CORETYPE re-exec.
void fix_core(char** argv) {
  if (std::getenv("OPENBLAS_CORETYPE") != nullptr) return;
  const std::string core = host_blas_core();
  if (core != "Prescott" && core != "Core2" && core != "Nehalem" && core != "Sandybridge") return;
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line, flags;
  while (std::getline(cpuinfo, line))
    if (line.rfind("flags", 0) == 0) {
      flags = " " + line.substr(line.find(':') + 1) + " ";
      break;
    }
  const char* better = nullptr;
  if (flags.find(" avx512f ") != std::string::npos && flags.find(" avx512vl ") != std::string::npos)
    better = "SkylakeX";
  else if (flags.find(" avx2 ") != std::string::npos && flags.find(" fma ") != std::string::npos)
    better = "Haswell";
  if (better == nullptr) return;
  setenv("OPENBLAS_CORETYPE", better, 1);
  // With OMP_PROC_BIND set, libgomp has already bound this (initial) thread to
  // the first OpenMP place, and the mask would survive execv: give back the
  // union of all places, which libgomp derived from the original mask.
  const cpu_set_t all = places_union();
  sched_setaffinity(0, sizeof all, &all);
  execv("/proc/self/exe", argv);  // returns only on failure: go on as we are
}

/// Step 2 of ensure_host_blas_core: OpenBLAS' thread count and placement.
void place_threads() {
  // The kernels' count as OpenMP will start it: OMP_NUM_THREADS (its first
  // level), else libgomp's default, the CPUs this process may run on. Not
  // omp_get_max_threads(): the OpenMP flavour of OpenBLAS has already called
  // omp_set_num_threads(OPENBLAS_NUM_THREADS) at load when that is set, which
  // would shrink the kernels' pool too. OPENBLAS_NUM_THREADS does not count.
  int want = 0;
  if (const char* e = std::getenv("OMP_NUM_THREADS"); e && std::atoi(e) > 0) want = std::atoi(e);
  if (want == 0) {
    const cpu_set_t all = places_union();
    want = CPU_COUNT(&all);
  }
  if (want <= 0) return;
  const int parallel = openblas_get_parallel();
  if (parallel == 2) {  // OpenMP: the team runs on the OpenMP places
    if (openblas_get_num_threads() != want) openblas_set_num_threads(want);
    return;
  }
  if (parallel != 1) return;
  // pthreads: the workers that exist now (nothing else runs threads yet)
  // inherited the main thread's mask, one place when OMP_PROC_BIND is set;
  // re-pin them, and create the missing ones with the wide mask.
  const cpu_set_t all = places_union();
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return;
  for (pid_t tid : other_threads()) sched_setaffinity(tid, sizeof all, &all);
  sched_setaffinity(0, sizeof all, &all);
  if (openblas_get_num_threads() != want) openblas_set_num_threads(want);
  sched_setaffinity(0, sizeof mine, &mine);
  cpu_set_t used;
  CPU_ZERO(&used);
  for (pid_t tid : other_threads()) {
    cpu_set_t m;
    if (sched_getaffinity(tid, sizeof m, &m) == 0) CPU_OR(&used, &used, &m);
  }
  CPU_OR(&used, &used, &mine);  // the calling thread works too
  g_pthreads_cpus = CPU_COUNT(&used);
}
#endif

}  // namespace

std::string host_blas_core() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  const char* name = openblas_get_corename();
  return name ? name : "";
#else
  return "";
#endif
}

void ensure_host_blas_core(char** argv) {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  fix_core(argv);
  place_threads();
#else
  (void)argv;
#endif
}

int set_host_blas_threads(int threads) {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  if (threads < 1) return host_blas_threads();
  const int parallel = openblas_get_parallel();
  if (parallel == 2) {
#ifdef _OPENMP
    omp_set_num_threads(threads);
#endif
    openblas_set_num_threads(threads);
  } else if (parallel == 1) {
    const cpu_set_t all = places_union();
    cpu_set_t mine;
    const bool widen = sched_getaffinity(0, sizeof mine, &mine) == 0 && CPU_COUNT(&mine) < CPU_COUNT(&all);
    if (widen) sched_setaffinity(0, sizeof all, &all);
    const int before = openblas_get_num_threads();
    openblas_set_num_threads(threads);
    if (widen) sched_setaffinity(0, sizeof mine, &mine);
    if (threads > before && g_pthreads_cpus >= 0) g_pthreads_cpus = std::max(g_pthreads_cpus, CPU_COUNT(&all));
  }
  return host_blas_threads();
#else
  (void)threads;
  return 0;
#endif
}

std::string host_blas_threading() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  switch (openblas_get_parallel()) {
    case 0: return "sequential";
    case 1: return "pthreads";
    case 2: return "openmp";
  }
  return "unknown";
#else
  return "";
#endif
}

std::string host_blas_linked_flavour() { return MMAPP_HOST_BLAS_LINKED_FLAVOUR; }

int host_blas_threads() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  return openblas_get_num_threads();
#else
  return 0;
#endif
}

bool host_blas_bound() {
#if defined(MMAPP_HOST_BLAS_OPENBLAS) && defined(_OPENMP)
  return openblas_get_parallel() == 2 && omp_get_proc_bind() != omp_proc_bind_false;
#else
  return false;
#endif
}

int host_blas_cpus() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  if (openblas_get_parallel() == 1 && g_pthreads_cpus > 0) return g_pthreads_cpus;
  if (openblas_get_parallel() == 2) {
    const cpu_set_t all = places_union();
    return CPU_COUNT(&all);
  }
  // sequential, or pthreads not placed by ensure_host_blas_core: this
  // thread's mask (where the workers were created, when they were)
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return 0;
  return CPU_COUNT(&mine);
#else
  return 0;
#endif
}

std::string host_blas_library() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  Dl_info info{};
  if (dladdr(reinterpret_cast<void*>(&openblas_get_config), &info) == 0 || info.dli_fname == nullptr) return "";
  char resolved[PATH_MAX];
  return realpath(info.dli_fname, resolved) ? std::string(resolved) : std::string(info.dli_fname);
#else
  return "";
#endif
}

std::string host_blas_config() {
#ifdef MMAPP_HOST_BLAS_OPENBLAS
  const char* c = openblas_get_config();
  std::string s = c ? c : "";
  while (!s.empty() && (s.back() == ' ' || s.back() == '\n')) s.pop_back();
  return s;
#else
  return "";
#endif
}

HostBlasCallScope::HostBlasCallScope() {
#if defined(MMAPP_HOST_BLAS_OPENBLAS) && defined(__linux__)
  static_assert(sizeof(cpu_set_t) <= sizeof saved_, "cpu_set_t does not fit");
  if (openblas_get_parallel() != 1) return;
  cpu_set_t mine;
  if (sched_getaffinity(0, sizeof mine, &mine) != 0) return;
  const cpu_set_t all = places_union();
  if (CPU_COUNT(&mine) >= CPU_COUNT(&all)) return;
  std::memcpy(saved_, &mine, sizeof mine);
  widened_ = sched_setaffinity(0, sizeof all, &all) == 0;
#endif
}

HostBlasCallScope::~HostBlasCallScope() {
#if defined(MMAPP_HOST_BLAS_OPENBLAS) && defined(__linux__)
  if (!widened_) return;
  cpu_set_t mine;
  std::memcpy(&mine, saved_, sizeof mine);
  sched_setaffinity(0, sizeof mine, &mine);
#endif
}

}  // namespace mmapp
