// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// instantiate_serial.cpp — the kernel catalog of the Serial backend, float and
// double, compiled here and nowhere else: kernel_variants<Kokkos::Serial, T>
// (catalog.hpp declares it extern) with every kernel it lists, the portable
// ones, the host `tiled` table (kernels/host/catalog_host.hpp) and the vendor GEMM.
// Compiled only when Kokkos has the Serial backend (miniapp/CMakeLists.txt).
#include "kernels/catalog_impl.hpp"
#include "kernels/host/catalog_host.hpp"

#ifdef KOKKOS_ENABLE_SERIAL
namespace mmapp {
template std::vector<KernelVariant<Kokkos::Serial, float>> kernel_variants<Kokkos::Serial, float>();
template std::vector<KernelVariant<Kokkos::Serial, double>> kernel_variants<Kokkos::Serial, double>();
}  // namespace mmapp
#endif
