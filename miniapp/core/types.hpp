// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// types.hpp — the matrix types and the GEMM call that every kernel, the
// driver and the verifier share. All matrices are row-major
// (Kokkos::LayoutRight): A is M x K, B is K x N, C is M x N, element (i, j)
// at offset i * ncols + j. Every extent fits an `int` (the deck parser
// refuses larger ones: cuBLAS, the BLAS and MPI counts take `int`).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <string>
#include <type_traits>

namespace mmapp {

/// A row-major matrix in the memory space of execution space `Space`.
template <class T, class Space>
using Matrix = Kokkos::View<T**, Kokkos::LayoutRight, typename Space::memory_space>;

/// Read-only view of a row-major matrix in the memory space of `Space`.
template <class T, class Space>
using ConstMatrix = Kokkos::View<const T**, Kokkos::LayoutRight, typename Space::memory_space>;

/// A row-major matrix in host memory (for fill, verification and MPI).
template <class T>
using HostMatrix = Kokkos::View<T**, Kokkos::LayoutRight, Kokkos::HostSpace>;

/// Device scratch that a kernel variant may need beyond A, B and C (split-K
/// partial sums, for instance), in bytes. The driver allocates it before the
/// timed runs, at least KernelVariant::workspace_bytes(M, N, K), so no kernel
/// allocates inside a timed region.
template <class Space>
using Workspace = Kokkos::View<char*, typename Space::memory_space>;

/// Allocation properties for a view Kokkos leaves uninitialised (no launch
/// over its span; see core/long_range.hpp for why that matters past 2^32
/// elements): `Matrix<T, Space> C(uninit("C"), m, n)`.
inline auto uninit(const std::string& label) { return Kokkos::view_alloc(Kokkos::WithoutInitializing, label); }

/// One GEMM call, C = A * B + beta * C, with BLAS semantics for beta: when
/// beta == 0, C is write-only (it may hold NaN on entry and must not be read).
/// Shapes: A M x K, B K x N, C M x N, row-major, all in Space's memory.
template <class Space, class T>
struct GemmArgs {
  ConstMatrix<T, Space> A;  ///< M x K
  ConstMatrix<T, Space> B;  ///< K x N
  Matrix<T, Space> C;       ///< M x N; read only when beta != 0
  T beta = T(0);            ///< scale of C's previous contents
  Workspace<Space> work;    ///< at least the variant's workspace_bytes(M, N, K) bytes
};

/// Signature shared by all kernels: the GEMM of `args` on `space`,
/// asynchronous (the caller fences). Kernels do no I/O, timing or MPI.
template <class Space, class T>
using GemmFn = void (*)(const Space& space, const GemmArgs<Space, T>& args);

/// True when `Space` executes on the host (Serial, OpenMP): it can reach
/// HostSpace memory. Kernels then use team size 1 and host-shaped tiles.
/// (Kokkos' own is_host-style traits changed meaning across versions; this
/// asks the question mmapp needs through SpaceAccessibility, common to 3.x and 4.x.)
template <class Space>
inline constexpr bool is_host_space_v = Kokkos::SpaceAccessibility<Space, Kokkos::HostSpace>::accessible;

}  // namespace mmapp
