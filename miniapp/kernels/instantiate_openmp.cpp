// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// instantiate_openmp.cpp — the kernel catalog of the OpenMP backend, float and
// double, compiled here and nowhere else: kernel_variants<Kokkos::OpenMP, T>
// (catalog.hpp declares it extern) with every kernel it lists, the portable
// ones, the host `tiled` table (kernels/host/catalog_host.hpp) and the vendor GEMM.
// Compiled only when Kokkos has the OpenMP backend (miniapp/CMakeLists.txt).
#include "kernels/catalog_impl.hpp"
#include "kernels/host/catalog_host.hpp"

#ifdef KOKKOS_ENABLE_OPENMP
namespace mmapp {
template std::vector<KernelVariant<Kokkos::OpenMP, float>> kernel_variants<Kokkos::OpenMP, float>();
template std::vector<KernelVariant<Kokkos::OpenMP, double>> kernel_variants<Kokkos::OpenMP, double>();
}  // namespace mmapp
#endif
