// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// instantiate_cuda.cpp — the kernel catalog of the Cuda backend, float and
// double, compiled here and nowhere else: kernel_variants<Kokkos::Cuda, T>
// (catalog.hpp declares it extern) with every kernel it lists, the portable
// ones, the GPU `tiled` tables (kernels/gpu/catalog_gpu.hpp) and the vendor GEMM.
// Compiled only when Kokkos has the Cuda backend (miniapp/CMakeLists.txt).
#include "kernels/catalog_impl.hpp"
#include "kernels/gpu/catalog_gpu.hpp"

#ifdef KOKKOS_ENABLE_CUDA
namespace mmapp {
template std::vector<KernelVariant<Kokkos::Cuda, float>> kernel_variants<Kokkos::Cuda, float>();
template std::vector<KernelVariant<Kokkos::Cuda, double>> kernel_variants<Kokkos::Cuda, double>();
}  // namespace mmapp
#endif
