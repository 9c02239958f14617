// host_blas.hpp — keeping the host vendor yardstick honest. OpenBLAS picks
// its kernels from the CPU model at load time; on virtual machines that hide
// the model it falls back to "Prescott" (SSE3) kernels, 2-5x slower than the
// AVX2/AVX-512 ones the CPU has (seen on the development VM, 2026-11-22:
// 62 vs 268 GFLOP/s, N=2048 float). OPENBLAS_CORETYPE fixes that, but must be
// set before the library loads.
#pragma once

#include <string>

namespace mmapp {

/// OpenBLAS' core name ("Haswell", "SkylakeX", ...), or "" when the host
/// BLAS is not OpenBLAS.
std::string host_blas_core();

/// Call first thing in main(), before MPI_Init. When OpenBLAS runs a generic
/// core although /proc/cpuinfo lists avx512f (-> SkylakeX) or avx2 (->
/// Haswell), and OPENBLAS_CORETYPE is unset, sets it and re-executes this
/// program (same pid, same arguments, the CPU affinity of the OpenMP places
/// restored). Otherwise returns. Never throws; if the
/// re-exec fails the run goes on with the generic core.
void ensure_host_blas_core(char** argv);

}  // namespace mmapp
