// host_blas.cpp — implementation of host_blas.hpp (see there for the contracts).
#include "host_blas.hpp"

#include <sched.h>
#include <unistd.h>
#ifdef _OPENMP
#include <omp.h>
#endif

#include <cstdlib>
#include <fstream>
#include <sstream>
#include <vector>

#ifdef MMAPP_HOST_BLAS_OPENBLAS
extern "C" char* openblas_get_corename(void);
#endif

namespace mmapp {

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
#ifdef _OPENMP
  // With OMP_PROC_BIND set, libgomp has already bound this (initial) thread to
  // the first OpenMP place, and the mask would survive execv: give back the
  // union of all places, which libgomp derived from the original mask.
  if (const int places = omp_get_num_places(); places > 0) {
    cpu_set_t mask;
    CPU_ZERO(&mask);
    for (int p = 0; p < places; ++p) {
      std::vector<int> ids(omp_get_place_num_procs(p));
      omp_get_place_proc_ids(p, ids.data());
      for (int id : ids) CPU_SET(id, &mask);
    }
    sched_setaffinity(0, sizeof mask, &mask);
  }
#endif
  execv("/proc/self/exe", argv);  // returns only on failure: go on as we are
#else
  (void)argv;
#endif
}

}  // namespace mmapp
