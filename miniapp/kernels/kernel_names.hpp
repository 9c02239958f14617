// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// kernel_names.hpp — the deck names of the single-device kernels, in one
// place: the deck parser accepts these (and `scalapack`, grid decks only:
// deck/config.cpp), and the catalog (kernels/catalog.hpp) holds at least one
// variant of each on every execution space. No Kokkos: the deck layer
// includes it.
#pragma once

#include <string>
#include <vector>

namespace mmapp {

/// The names `kernels:` accepts for one device's GEMM, in ladder order:
/// naive, shared, tiled, vendor (the vendor GEMM: cuBLAS on CUDA, Kokkos
/// Kernels -> OpenBLAS on the host).
inline const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names{"naive", "shared", "tiled", "vendor"};
  return names;
}

/// The vendor GEMM's former deck name, still accepted as an alias of
/// `vendor` with a deprecation note (deck/config.cpp).
inline constexpr const char* kDeprecatedVendorName = "kokkoskernels";

}  // namespace mmapp
