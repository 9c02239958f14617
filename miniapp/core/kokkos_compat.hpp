// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// kokkos_compat.hpp — the few names that differ between the Kokkos versions
// mmapp supports (3.4.01 from Debian's trilinos source, and 4.x installed
// through Kokkos_ROOT). Everything else in mmapp uses API common to both.
//
//   3.x                                4.x
//   Kokkos::Experimental::isfinite     Kokkos::isfinite   (moved in 4.0; old name removed later)
//   Kokkos::Experimental::fabs         Kokkos::fabs
//   --kokkos-threads=N                 --kokkos-num-threads=N (the old flag is deprecated)
//
// Host team scratch: the OpenMP backend caps level-0 scratch per team (in 4.x
// at 128 KiB by default); host kernels that stage hundreds of KiB of packed
// panels ask for level 1 (host memory, no cap), which both versions serve.
#pragma once

#include <Kokkos_Core.hpp>

namespace mmapp::compat {

#if KOKKOS_VERSION >= 40000
KOKKOS_INLINE_FUNCTION bool isfinite(double x) { return Kokkos::isfinite(x); }
KOKKOS_INLINE_FUNCTION bool isfinite(float x) { return Kokkos::isfinite(x); }
KOKKOS_INLINE_FUNCTION double fabs(double x) { return Kokkos::fabs(x); }
KOKKOS_INLINE_FUNCTION float fabs(float x) { return Kokkos::fabs(x); }
KOKKOS_INLINE_FUNCTION double sqrt(double x) { return Kokkos::sqrt(x); }
#else
KOKKOS_INLINE_FUNCTION bool isfinite(double x) { return Kokkos::Experimental::isfinite(x); }
KOKKOS_INLINE_FUNCTION bool isfinite(float x) { return Kokkos::Experimental::isfinite(x); }
KOKKOS_INLINE_FUNCTION double fabs(double x) { return Kokkos::Experimental::fabs(x); }
KOKKOS_INLINE_FUNCTION float fabs(float x) { return Kokkos::Experimental::fabs(x); }
KOKKOS_INLINE_FUNCTION double sqrt(double x) { return Kokkos::Experimental::sqrt(x); }
#endif

/// The command-line flag that sets the number of host threads.
inline const char* num_threads_flag() {
#if KOKKOS_VERSION >= 40000
  return "--kokkos-num-threads";
#else
  return "--kokkos-threads";
#endif
}

/// Scratch level for host kernels that stage large packed panels (see the
/// file comment): 1, whose size Kokkos does not cap on host backends.
inline constexpr int kHostPanelScratchLevel = 1;

}  // namespace mmapp::compat
