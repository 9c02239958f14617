// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// catalog.hpp — the kernel catalog: every runnable variant of every kernel,
// by its deck name and shape, one list per execution space
// (kernel_variants), and the default variant of a name for a problem's shape
// (default_variant: the pure rules of shape_rule.hpp applied to that list).
// The lists are plain tables, one per kind of space, as BLIS registers its
// micro-kernels with their block sizes in one table per configuration
// (config/haswell/bli_cntx_init_haswell.c): kernels/host/catalog_host.hpp and
// kernels/gpu/catalog_gpu.hpp, assembled by catalog_impl.hpp and compiled once
// per enabled space in instantiate_{serial,openmp,cuda}.cpp (extern template
// below). This header includes no kernel: the driver, SUMMA and the tests
// include it without compiling any. Matching a deck's `kernels:` entry to a
// variant is the driver's (driver/resolve_kernel.hpp).
#pragma once

#include "core/exec_spaces.hpp"
#include "core/types.hpp"
#include "kernels/kernel_names.hpp"
#include "kernels/math_path.hpp"
#include "kernels/shape_rule.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <vector>

namespace mmapp {

/// Bytes of device workspace a variant needs for an M x N x K problem
/// (see Workspace in types.hpp).
using WorkspaceFn = std::size_t (*)(long m, long n, long k);

/// One runnable kernel variant: its deck name, its shape and the function.
template <class Space, class T>
struct KernelVariant {
  std::string name;
  std::vector<int> tile;                     ///< as written in a deck's `tile:`
  std::vector<int> thread_tile;              ///< as written in a deck's `thread_tile:`
  GemmFn<Space, T> run;
  int prefetch = -1;                         ///< tiled on GPUs: 1 with register prefetch, 0 without; -1 n/a
  WorkspaceFn workspace_bytes = nullptr;     ///< nullptr: needs none
  std::string tag;                           ///< further distinguishing words of the shape ("" for none)
  GpuRuleChoice rule = GpuRuleChoice::none;  ///< GPU `tiled`: the shape rule's choice this variant runs
  MathPath math = MathPath::simt;            ///< its arithmetic (math_path.hpp): tensor cores, vendor or SIMT
  /// The shape as text, e.g. "128x128x8/8x8", "128x128x8/8x8 nopf"; "" when it has none.
  std::string shape() const {
    std::string s;
    for (size_t i = 0; i < tile.size(); ++i) s += (i ? "x" : "") + std::to_string(tile[i]);
    for (size_t i = 0; i < thread_tile.size(); ++i) s += (i ? "x" : "/") + std::to_string(thread_tile[i]);
    if (prefetch == 0) s += " nopf";
    if (!tag.empty()) s += (s.empty() ? "" : " ") + tag;
    return s;
  }
  /// Workspace for an M x N x K problem, in bytes.
  std::size_t workspace(long m, long n, long k) const { return workspace_bytes ? workspace_bytes(m, n, k) : 0; }
};

/// Every variant compiled for (Space, T), each name's default first: the
/// portable kernels (naive; shared with 16x16 and 32x32 tiles), the space's
/// `tiled` table (host spaces: kernels/host/catalog_host.hpp; GPU spaces:
/// kernels/gpu/catalog_gpu.hpp, whose ladder and tuning candidates the
/// shape rule never picks are compiled only with the CMake option
/// MMAPP_LADDER_VARIANTS), then vendor. Defined in catalog_impl.hpp;
/// instantiated once for every enabled space, float and double
/// (kernels/instantiate_<space>.cpp).
template <class Space, class T>
std::vector<KernelVariant<Space, T>> kernel_variants();

#ifdef KOKKOS_ENABLE_SERIAL
extern template std::vector<KernelVariant<Kokkos::Serial, float>> kernel_variants<Kokkos::Serial, float>();
extern template std::vector<KernelVariant<Kokkos::Serial, double>> kernel_variants<Kokkos::Serial, double>();
#endif
#ifdef KOKKOS_ENABLE_OPENMP
extern template std::vector<KernelVariant<Kokkos::OpenMP, float>> kernel_variants<Kokkos::OpenMP, float>();
extern template std::vector<KernelVariant<Kokkos::OpenMP, double>> kernel_variants<Kokkos::OpenMP, double>();
#endif
#ifdef KOKKOS_ENABLE_CUDA
extern template std::vector<KernelVariant<Kokkos::Cuda, float>> kernel_variants<Kokkos::Cuda, float>();
extern template std::vector<KernelVariant<Kokkos::Cuda, double>> kernel_variants<Kokkos::Cuda, double>();
#endif

/// Every compiled variant named `name` for (Space, T), in catalog order
/// (empty for a name the catalog does not hold).
template <class Space, class T>
std::vector<KernelVariant<Space, T>> variants_named(const std::string& name) {
  std::vector<KernelVariant<Space, T>> out;
  for (auto& v : kernel_variants<Space, T>())
    if (v.name == name) out.push_back(v);
  return out;
}

/// The default variant of a kernel for an m x n x k problem, chosen from the
/// problem's shape, and the rule that chose it in `why` (for the report).
/// `same_name` holds every compiled variant of that kernel, in catalog order
/// (not empty); returns an index into it. On GPU spaces `tiled` follows
/// gpu_shape_rule (shape_rule.hpp) with the space's gpu_sm_estimate and
/// gpu_memory_bandwidth, its
/// tensor-core choices enabled when the list has the DMMA (double) or wgmma
/// (float) variants: the variant tagged with the rule's choice (the first
/// one when none is). On
/// host spaces a problem with fewer rows than the first variant's micro-tile
/// (thread_tile[0], MR) takes the few-rows variant (tag "rows") when the name
/// has one (host_rule_takes_rows). Otherwise the first variant, why =
/// "default for the backend" ("" when the name has one variant). Without
/// `tensor_cores_allowed` (the deck's run.math: simt) the GPU rule takes its
/// SIMT choices (gpu_shape_rule with tensor_cores = false).
template <class Space, class T>
std::size_t default_variant(const std::vector<KernelVariant<Space, T>>& same_name, long m, long n, long k,
                            std::string& why, bool tensor_cores_allowed = true) {
  if constexpr (is_host_space_v<Space>) {
    (void)n, (void)k;
    const long mr = same_name.front().thread_tile.empty() ? 0 : same_name.front().thread_tile[0];
    for (std::size_t i = 0; i < same_name.size(); ++i)
      if (same_name[i].tag == "rows" && host_rule_takes_rows(m, mr, &why)) return i;
    (void)tensor_cores_allowed;  // host spaces have no tensor-core variants
  } else {
    if (!same_name.empty() && same_name.front().name == "tiled") {
      // The FP64 tensor-core choices only where the catalog compiled them (sm_80 and later).
      // The deep (cp.async, past 48 KiB) DMMA tiles where compiled (sm_90, the in-tree Kokkos).
      // The sm_90a tiles where compiled (the in-tree Kokkos): float's wgmma tiles, double's
      // warp-specialized DMMA tile.
      bool dmma = false, deep = false, sm90a = false;
      for (const auto& v : same_name) {
        dmma = dmma || (tensor_cores_allowed && v.rule == GpuRuleChoice::dmma_big);
        deep = deep || (tensor_cores_allowed && v.rule == GpuRuleChoice::dmma_deep);
        sm90a = sm90a || (tensor_cores_allowed &&
                          (v.rule == GpuRuleChoice::wgmma_big || v.rule == GpuRuleChoice::dmma_deep_ws));
      }
      const GpuRuleChoice c = gpu_shape_rule(std::is_same_v<T, double>, m, n, k, gpu_sm_estimate(Space()), &why, dmma,
                                             deep, sm90a, gpu_memory_bandwidth(Space()));
      for (std::size_t i = 0; i < same_name.size(); ++i)
        if (same_name[i].rule == c) return i;
      return 0;
    }
  }
  why = same_name.size() > 1 ? "default for the backend" : "";
  return 0;
}

}  // namespace mmapp
