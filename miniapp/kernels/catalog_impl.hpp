// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// catalog_impl.hpp — the definition of kernel_variants (catalog.hpp): the
// portable kernels, the space's `tiled` table, the vendor GEMM. Included only
// by kernels/instantiate_<space>.cpp, each with its table
// (kernels/host/catalog_host.hpp or kernels/gpu/catalog_gpu.hpp), so every
// kernel is compiled in exactly one translation unit per space.
#pragma once

#include "kernels/catalog.hpp"
#include "kernels/portable/naive.hpp"
#include "kernels/portable/shared.hpp"
#include "kernels/vendor/vendor.hpp"

#include <vector>

namespace mmapp {

/// Appends the host `tiled` variants for (Space, T), default first
/// (defined in kernels/host/catalog_host.hpp).
template <class Space, class T>
void host_variants(std::vector<KernelVariant<Space, T>>& v);

/// Appends the GPU `tiled` variants for (Space, T), in catalog order
/// (defined in kernels/gpu/catalog_gpu.hpp).
template <class Space, class T>
void gpu_variants(std::vector<KernelVariant<Space, T>>& v);

template <class Space, class T>
std::vector<KernelVariant<Space, T>> kernel_variants() {
  std::vector<KernelVariant<Space, T>> v{
      {"naive", {}, {}, &gemm_naive<Space, T>, -1, nullptr, ""},
      {"shared", {16}, {}, &gemm_shared<16, Space, T>, -1, nullptr, ""},
      {"shared", {32}, {}, &gemm_shared<32, Space, T>, -1, nullptr, ""},
  };
  if constexpr (is_host_space_v<Space>)
    host_variants<Space, T>(v);
  else
    gpu_variants<Space, T>(v);
  v.push_back({"vendor", {}, {}, &gemm_vendor<Space, T>, -1, nullptr, "", GpuRuleChoice::none, MathPath::vendor});
  return v;
}

}  // namespace mmapp
