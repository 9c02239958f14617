// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/mma_arch.hpp — which tensor-core instructions (warp/mma_shapes.hpp)
// this build compiles, from the Kokkos architecture of the build
// (KokkosCore_config.h: AMPERE80/86, and HOPPER90 from
// cmake/patches-kokkos-3.4.01.patch): the f64 m8n8k4 and tf32 m16n8k8
// `mma.sync` from sm_80, the f64 m16n8k4/k8/k16 shapes on sm_90 only (PTX
// ISA 7.8). Other GPU builds and host-only builds have neither. Shared by
// the GEMM catalog (catalog_gpu.hpp) and mmapp-fma-peak's mma loops
// (kernels/gpu/mma_peak.hpp).
#pragma once

#include <Kokkos_Macros.hpp>

#if defined(KOKKOS_ARCH_AMPERE80) || defined(KOKKOS_ARCH_AMPERE86) || defined(KOKKOS_ARCH_HOPPER90)
#define MMAPP_GPU_TENSOR_CORES 1
#else
#define MMAPP_GPU_TENSOR_CORES 0
#endif
// sm_90's f64 shapes m16n8k4, m16n8k8, m16n8k16 (PTX ISA 7.8): Hopper builds only.
#if defined(KOKKOS_ARCH_HOPPER90)
#define MMAPP_GPU_MMA_SM90 1
#else
#define MMAPP_GPU_MMA_SM90 0
#endif

// Hopper's wgmma (sm_90a only): Hopper builds of the in-tree Kokkos, which
// compiles them for sm_90a (cmake/patches-kokkos-3.4.01.patch; CMake sets
// MMAPP_KOKKOS_SM90A). An installed Kokkos builds sm_90: no wgmma.
#if defined(KOKKOS_ARCH_HOPPER90) && defined(MMAPP_KOKKOS_SM90A) && MMAPP_KOKKOS_SM90A
#define MMAPP_GPU_WGMMA 1
#else
#define MMAPP_GPU_WGMMA 0
#endif

namespace mmapp {

/// True when this build compiles the tensor-core variants (sm_80 or later).
inline constexpr bool kGpuTensorCores = MMAPP_GPU_TENSOR_CORES != 0;

/// True when this build compiles the sm_90 tensor-core variants (m16n8k4/k8/k16 f64).
inline constexpr bool kGpuMmaSm90 = MMAPP_GPU_MMA_SM90 != 0;

/// True when this build compiles the wgmma variants (sm_90a: tiled_gpu_wgmma.hpp).
inline constexpr bool kGpuWgmma = MMAPP_GPU_WGMMA != 0;

}  // namespace mmapp
