// types.hpp — the matrix types every kernel and the driver share.
// All matrices are row-major (Kokkos::LayoutRight): A is M x K, B is K x N,
// C is M x N, element (i, j) at offset i * ncols + j.
#pragma once

#include <Kokkos_Core.hpp>

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

/// True when `Space` runs on the host (Serial, OpenMP): kernels then use
/// team size 1 and host-shaped tiles.
template <class Space>
inline constexpr bool is_host_space_v =
    Kokkos::SpaceAccessibility<Kokkos::HostSpace, typename Space::memory_space>::accessible;

}  // namespace mmapp
