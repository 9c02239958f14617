// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_simd.hpp — the SIMD vocabulary of the host GEMM kernels, without
// intrinsics: a vector of `T` as wide as the widest vector register of the ISA
// this translation unit is compiled for (GCC/Clang vector extensions, which
// also pass through nvcc to its host compiler; a plain struct elsewhere), the
// number of such registers, and compile-time loop unrolling (static_for) that
// does not depend on a compiler's unrolling pragma.
// Nothing here runs on a GPU: the host kernels are instantiated for host
// execution spaces only (see kernels/host/catalog_host.hpp).
// Everything is declared in the namespace mmapp::host::MMAPP_HOST_ISA_NS,
// which the including translation unit names after the ISA it is compiled
// for (kernels/host/isa_kernels.cpp): the same inline function compiled for
// AVX-512 and for SSE2 must never be one symbol that the linker merges.
#pragma once

#ifndef MMAPP_HOST_ISA_NS
#error "host_simd.hpp: define MMAPP_HOST_ISA_NS (the per-ISA namespace; see kernels/host/isa_kernels.cpp)"
#endif

#include <cstddef>
#include <cstring>
#include <type_traits>
#include <utility>

namespace mmapp::host::MMAPP_HOST_ISA_NS {

/// Bytes of one SIMD register of the ISA compiled for: 64 with AVX-512F, 32
/// with AVX, 16 otherwise (SSE2 is the x86-64 baseline; NEON on AArch64).
#if defined(__AVX512F__)
inline constexpr int simd_bytes = 64;
#elif defined(__AVX__)
inline constexpr int simd_bytes = 32;
#else
inline constexpr int simd_bytes = 16;
#endif

/// Architectural vector registers of that ISA: 32 with AVX-512 and on
/// AArch64, 16 for SSE/AVX on x86-64. The micro-kernels keep their
/// accumulators, the B vectors and one broadcast within this budget.
#if defined(__AVX512F__) || defined(__aarch64__)
inline constexpr int simd_registers = 32;
#else
inline constexpr int simd_registers = 16;
#endif

#if defined(__GNUC__) || defined(__clang__)
#ifndef MMAPP_HOST_INLINE
#define MMAPP_HOST_INLINE inline __attribute__((always_inline))
#endif
/// A SIMD vector of `simd_bytes / sizeof(T)` lanes of T (GNU vector
/// extension: arithmetic is lane-wise, a scalar operand is broadcast).
template <class T>
struct simd_vec {
  typedef T type __attribute__((vector_size(simd_bytes)));
};
template <class T>
using vec_t = typename simd_vec<T>::type;
#else
#ifndef MMAPP_HOST_INLINE
#define MMAPP_HOST_INLINE inline
#endif
/// Portable stand-in for compilers without vector extensions: lane-wise loops
/// that the compiler may vectorise.
template <class T>
struct vec_t {
  T v[simd_bytes / sizeof(T)];
  vec_t& operator+=(const vec_t& o) {
    for (std::size_t i = 0; i < sizeof(v) / sizeof(T); ++i) v[i] += o.v[i];
    return *this;
  }
  friend vec_t operator*(T a, const vec_t& b) {
    vec_t r;
    for (std::size_t i = 0; i < sizeof(v) / sizeof(T); ++i) r.v[i] = a * b.v[i];
    return r;
  }
};
#endif

/// Lanes of T in one vector register.
template <class T>
inline constexpr int lanes = simd_bytes / int(sizeof(T));

/// Unaligned load of one vector from p[0 .. lanes<T>).
template <class T>
MMAPP_HOST_INLINE vec_t<T> load(const T* p) {
  vec_t<T> v;
  std::memcpy(&v, p, sizeof(v));
  return v;
}

/// Unaligned store of one vector to p[0 .. lanes<T>).
template <class T>
MMAPP_HOST_INLINE void store(T* p, const vec_t<T>& v) {
  std::memcpy(p, &v, sizeof(v));
}

/// All lanes zero.
template <class T>
MMAPP_HOST_INLINE vec_t<T> zero() {
  vec_t<T> v;
  std::memset(&v, 0, sizeof(v));
  return v;
}

namespace detail {
template <class F, int... I>
MMAPP_HOST_INLINE void static_for_impl(F&& f, std::integer_sequence<int, I...>) {
  (f(std::integral_constant<int, I>{}), ...);
}
}  // namespace detail

/// Calls f(std::integral_constant<int, i>{}) for i = 0 .. N-1, unrolled at
/// compile time (indices are constants, so arrays indexed by them stay in
/// registers).
template <int N, class F>
MMAPP_HOST_INLINE void static_for(F&& f) {
  detail::static_for_impl(f, std::make_integer_sequence<int, N>{});
}

}  // namespace mmapp::host::MMAPP_HOST_ISA_NS
