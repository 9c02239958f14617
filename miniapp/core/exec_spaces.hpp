// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// exec_spaces.hpp — the Kokkos execution spaces compiled into this binary,
// by their run-time names ("serial", "openmp", "cuda"), and a dispatcher that
// calls a generic lambda with a default-constructed instance of the space
// named at run time. This is how one binary built with the `cuda` preset runs
// either backend; and how many SMs a GPU space has, as the kernels count
// them (gpu_sm_estimate), and its memory bandwidth (gpu_memory_bandwidth).
#pragma once

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <stdexcept>
#include <string>
#include <tuple>
#include <type_traits>
#include <utility>
#include <vector>

namespace mmapp {

/// The multiprocessors of a GPU space as the shape rule and the
/// wave-balanced split count them: Space::concurrency() / 2048 (resident
/// threads per SM on sm_70 to sm_90), at least 1.
template <class Space>
long gpu_sm_estimate(const Space& space) {
  return std::max<long>(1, long(space.concurrency()) / 2048);
}

/// The peak memory bandwidth of a GPU space's device in bytes per second:
/// 2 x its memory clock x its bus width (double data rate, as NVIDIA's
/// bandwidthTest and the CUDA samples compute it; an H100 80GB HBM3,
/// 2619 MHz x 5120 bits: 3.35e12), from cudaDevAttrMemoryClockRate and
/// cudaDevAttrGlobalMemoryBusWidth. 0 on host spaces and where CUDA does not
/// report them (the shape rule then assumes an H100's bandwidth per SM).
template <class Space>
double gpu_memory_bandwidth(const Space& space) {
#ifdef KOKKOS_ENABLE_CUDA
  if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
    int clock_khz = 0, bus_bits = 0;
    if (cudaDeviceGetAttribute(&clock_khz, cudaDevAttrMemoryClockRate, space.cuda_device()) == cudaSuccess &&
        cudaDeviceGetAttribute(&bus_bits, cudaDevAttrGlobalMemoryBusWidth, space.cuda_device()) == cudaSuccess)
      return 2.0 * double(clock_khz) * 1e3 * double(bus_bits) / 8.0;
  }
#endif
  (void)space;
  return 0.0;
}

namespace detail {
#ifdef KOKKOS_ENABLE_SERIAL
using SerialList = std::tuple<Kokkos::Serial>;
#else
using SerialList = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_OPENMP
using OpenMPList = std::tuple<Kokkos::OpenMP>;
#else
using OpenMPList = std::tuple<>;
#endif
#ifdef KOKKOS_ENABLE_CUDA
using CudaList = std::tuple<Kokkos::Cuda>;
#else
using CudaList = std::tuple<>;
#endif
}  // namespace detail

/// The execution spaces compiled into this binary, as a std::tuple type list
/// for templated tests (Catch2 TEMPLATE_LIST_TEST_CASE).
using EnabledSpaces = decltype(std::tuple_cat(std::declval<detail::SerialList>(),
                                              std::declval<detail::OpenMPList>(),
                                              std::declval<detail::CudaList>()));

/// Names of the execution spaces enabled in this build, host first
/// ("serial", "openmp", "cuda"), in the order Kokkos lists them.
inline std::vector<std::string> enabled_backends() {
  std::vector<std::string> names;
#ifdef KOKKOS_ENABLE_SERIAL
  names.emplace_back("serial");
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  names.emplace_back("openmp");
#endif
#ifdef KOKKOS_ENABLE_CUDA
  names.emplace_back("cuda");
#endif
  return names;
}

/// Run-time name of the default execution space: "cuda" in a CUDA build,
/// else "openmp", else "serial".
inline std::string default_backend() { return enabled_backends().back(); }

/// Calls `f(Space{})` for the execution space named `backend`.
/// Throws std::invalid_argument naming the compiled-in backends when
/// `backend` was not compiled into this binary.
template <class F>
decltype(auto) with_backend(const std::string& backend, F&& f) {
#ifdef KOKKOS_ENABLE_SERIAL
  if (backend == "serial") return f(Kokkos::Serial{});
#endif
#ifdef KOKKOS_ENABLE_OPENMP
  if (backend == "openmp") return f(Kokkos::OpenMP{});
#endif
#ifdef KOKKOS_ENABLE_CUDA
  if (backend == "cuda") return f(Kokkos::Cuda{});
#endif
  std::string known;
  for (const auto& n : enabled_backends()) known += (known.empty() ? "" : ", ") + n;
  throw std::invalid_argument("backend '" + backend + "' is not compiled into this binary (available: " +
                              known + ")");
}

}  // namespace mmapp
