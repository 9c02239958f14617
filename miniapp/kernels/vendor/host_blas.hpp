// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_blas.hpp — keeping the host vendor yardstick honest.
//
// 1. Kernels: OpenBLAS picks its kernels from the CPU model at load time; on
//    virtual machines that hide the model it falls back to "Prescott" (SSE3)
//    kernels, 2-5x slower than the AVX2/AVX-512 ones the CPU has (seen on the
//    development VM, 2026-11-22: 62 vs 268 GFLOP/s, N=2048 float).
//    OPENBLAS_CORETYPE fixes that, but must be set before the library loads.
// 2. Threads: the jobs run OpenMP with OMP_PROC_BIND=spread OMP_PLACES=threads,
//    so libgomp binds the main thread to the first place (one core) before
//    OpenBLAS initialises. OpenBLAS then counts one usable CPU and runs one
//    thread, on that core (measured 8x slower on a 16-core Xeon, 1.8x on this
//    2-core VM). The build links OpenBLAS' OpenMP flavour where it exists
//    (cmake/MmappDependencies.cmake): its threads are the OpenMP team, on the
//    same places as mmapp's kernels. With the pthreads flavour (the fallback),
//    its workers are re-pinned to all the places at start.
#pragma once

#include <string>

namespace mmapp {

/// OpenBLAS' core name ("Haswell", "SkylakeX", ...), or "" when the host
/// BLAS is not OpenBLAS.
std::string host_blas_core();

/// Call first thing in main(), before MPI_Init and before Kokkos starts (no
/// thread but OpenBLAS' own may exist yet). Two steps:
/// 1. When OpenBLAS runs a generic core although /proc/cpuinfo lists avx512f
///    (-> SkylakeX) or avx2 (-> Haswell), and OPENBLAS_CORETYPE is unset,
///    sets it and re-executes this program (same pid, same arguments, the CPU
///    affinity of the OpenMP places restored); if the re-exec fails the run
///    goes on with the generic core.
/// 2. Gives OpenBLAS the thread count of the kernels (OMP_NUM_THREADS, else
///    the CPUs of this process; OPENBLAS_NUM_THREADS, which the OpenMP
///    flavour applies to the whole OpenMP runtime at load, is undone) and,
///    for the pthreads flavour,
///    re-pins its worker threads (and creates the missing ones) on the union
///    of the OpenMP places (or this process' CPUs) instead of the one core
///    the main thread is bound to. The OpenMP flavour needs no pinning: its
///    threads are the OpenMP team on the OpenMP places.
/// Never throws.
void ensure_host_blas_core(char** argv);

/// Gives the host BLAS `threads` threads, the kernels' count, after Kokkos
/// started (call from the main thread, outside any parallel region, with
/// `threads` = the host execution space's concurrency() of this rank's
/// backend). However the count was given (OMP_NUM_THREADS, --kokkos-threads,
/// --kokkos-num-threads, KOKKOS_NUM_THREADS), the vendor then runs what the
/// kernels run, so "% of vendor" compares equal thread counts:
/// - OpenMP flavour: OpenBLAS re-reads omp_get_max_threads() at every call
///   (num_cpu_avail in OpenBLAS' common_thread.h) and would undo
///   openblas_set_num_threads alone: so omp_set_num_threads(threads) (this
///   thread's ICV; Kokkos' own regions give their pool size explicitly) and
///   openblas_set_num_threads(threads). Its team runs on the OpenMP places.
/// - pthreads flavour: openblas_set_num_threads(threads), with this thread's
///   affinity widened to the OpenMP places for the call, so that workers it
///   creates may run on every core the kernels use (those created at start
///   were placed by ensure_host_blas_core).
/// OPENBLAS_NUM_THREADS does not change this (the kernels' count wins).
/// No-op without OpenBLAS or for threads < 1. Returns host_blas_threads().
/// Never throws.
int set_host_blas_threads(int threads);

/// How OpenBLAS runs its threads, from openblas_get_parallel(): "openmp",
/// "pthreads", "sequential", or "" when the host BLAS is not OpenBLAS.
/// This is the library actually loaded, whatever the build meant to link.
std::string host_blas_threading();

/// The flavour the build linked (cmake/MmappDependencies.cmake's fallback
/// chain): "openmp" (an OpenMP build was found), "default" (the system's
/// libopenblas; its threading is what host_blas_threading() says), "given"
/// (MMAPP_HOST_BLAS_LIBRARY), or "" without a host BLAS.
std::string host_blas_linked_flavour();

/// The number of threads OpenBLAS uses for one call
/// (openblas_get_num_threads()), or 0 when the host BLAS is not OpenBLAS.
int host_blas_threads();

/// True when OpenBLAS' threads are bound to the OpenMP places, the same cores
/// as mmapp's kernels: the OpenMP flavour with OMP_PROC_BIND active. False
/// for the pthreads flavour (its threads float over host_blas_cpus() CPUs),
/// for unbound OpenMP, and without OpenBLAS.
bool host_blas_bound();

/// The number of CPUs OpenBLAS' threads may run on: the OpenMP places' CPUs
/// (OpenMP flavour), or the union of the threads' affinity masks (pthreads
/// flavour: measured by ensure_host_blas_core after the re-pinning, else
/// now). 1 with more than one thread means the threads share one core (the
/// problem described above). 0 without OpenBLAS.
int host_blas_cpus();

/// The file of the OpenBLAS library loaded in this process (dladdr, symlinks
/// resolved), e.g. /usr/lib/x86_64-linux-gnu/openblas-openmp/libopenblasp-r0.3.21.so;
/// "" without OpenBLAS.
std::string host_blas_library();

/// OpenBLAS' build configuration string (openblas_get_config()), e.g.
/// "OpenBLAS 0.3.21 NO_AFFINITY USE_OPENMP Cooperlake MAX_THREADS=64"; ""
/// without OpenBLAS.
std::string host_blas_config();

/// For the duration of one host BLAS call from this thread: with the
/// pthreads flavour of OpenBLAS and this thread bound to fewer CPUs than the
/// OpenMP places span (OMP_PROC_BIND: the initial thread sits on the first
/// place), widens this thread's affinity to the union of the places and
/// restores it on destruction, so that OpenBLAS' share of the work done by
/// the calling thread, and whatever OpenBLAS derives from the caller's mask,
/// see every core the kernels use. A no-op for the OpenMP flavour (its team
/// is on the places already), without OpenBLAS, or when nothing is bound.
/// Never throws.
class HostBlasCallScope {
 public:
  HostBlasCallScope();
  ~HostBlasCallScope();
  HostBlasCallScope(const HostBlasCallScope&) = delete;
  HostBlasCallScope& operator=(const HostBlasCallScope&) = delete;

 private:
  bool widened_ = false;
  unsigned char saved_[128] = {};  ///< the caller's cpu_set_t (1024 CPUs)
};

}  // namespace mmapp
