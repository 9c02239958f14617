// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// unroll.hpp — MMAPP_UNROLL: full unrolling of a loop with a compile-time
// trip count, for the register tiles of the tiled kernels (host GCC and the
// CUDA device compiler; other compilers decide alone). Keeps register tiles
// in registers and lets GCC vectorise the host micro-tile.
#pragma once

/// Full unrolling of a loop with a compile-time trip count (host GCC and the
/// CUDA device compiler; other compilers decide alone). Keeps register tiles
/// in registers and lets GCC vectorise the host micro-tile.
#if defined(__CUDA_ARCH__)
#define MMAPP_UNROLL _Pragma("unroll")
#elif defined(__GNUC__) && !defined(__clang__) && !defined(__NVCC__) && !defined(__INTEL_COMPILER)
#define MMAPP_UNROLL _Pragma("GCC unroll 64")
#else
#define MMAPP_UNROLL
#endif

/// A loop kept rolled by the CUDA device compiler (code size and registers
/// over speed: e.g. a producer warp's copies with few registers).
#if defined(__CUDA_ARCH__)
#define MMAPP_NO_UNROLL _Pragma("unroll 1")
#else
#define MMAPP_NO_UNROLL
#endif
