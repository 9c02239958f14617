// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// init.hpp — deterministic matrix initialisation, independent of the rank
// count: element (i, j) of matrix `which` (0 = A, 1 = B) is a pure function
// of (seed, which, i, j), a counter-based generator (SplitMix64 finaliser,
// S. Vigna; as in Salmon et al., "Parallel random numbers: as easy as 1, 2,
// 3", SC'11), so any rank can generate any rows and 1 or N ranks get the same
// matrices bit for bit.
#pragma once

#include "deck/config.hpp"
#include "core/types.hpp"

#include <cstdint>
#include <cstring>

namespace mmapp {

/// SplitMix64 finaliser: a bijective 64-bit mixer.
KOKKOS_INLINE_FUNCTION std::uint64_t mix64(std::uint64_t z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

/// The 64 random bits of element (i, j) of matrix `which` under `seed`.
KOKKOS_INLINE_FUNCTION std::uint64_t counter_bits(std::uint64_t seed, int which, long i, long j) {
  return mix64(mix64(mix64(seed + 0x9e3779b97f4a7c15ULL * (which + 1)) ^ std::uint64_t(i)) ^ std::uint64_t(j));
}

/// Uniform value in [-1, 1) for element (i, j) of matrix `which` under
/// `seed`: 53 (double) or 24 (float) random bits, exactly representable.
template <class T>
KOKKOS_INLINE_FUNCTION T counter_uniform(std::uint64_t seed, int which, long i, long j) {
  const std::uint64_t h = counter_bits(seed, which, i, j);
  constexpr int bits = sizeof(T) == 4 ? 24 : 53;
  const T unit = T(h >> (64 - bits)) / T(std::uint64_t(1) << bits);  // [0, 1)
  return T(2) * unit - T(1);
}

/// Binary exponents of init `wide` in T: values +-m 2^e, m in [1, 2), e in
/// [lo, hi] (so |x| in [2^lo, 2^(hi+1))). The choice, per type:
/// - both start at 2^-60 (the example): the smallest products
///   (2^-120) stay normal even in float (FLT_MIN = 2^-126), while in float
///   the 3xTF32 split's small part (x - tf32(x), at most 2^-11 |x|) times
///   the other operand falls to 2^-131 and below, subnormal, unless the
///   split scales it by 2^11 first (tf32_split): the case this init is for;
/// - double ends at 2^60 (|x| < 2^61): every product and every sum of K of
///   them (< K 2^122) is far inside double's range;
/// - float ends at 2^40 (|x| < 2^41): |a||b| < 2^82, so no sum of K products
///   in any order can overflow FLT_MAX (about 2^128) for any K below 2^46;
///   with 2^60 at the top, 64 products of the largest values would.
/// The verifier works in double on |A||B| (check/verify.hpp), where none of
/// this overflows or underflows either (its squares stay below K 2^244).
template <class T>
struct WideExponents;
template <>
struct WideExponents<float> {
  static constexpr int lo = -60, hi = 40;
};
template <>
struct WideExponents<double> {
  static constexpr int lo = -60, hi = 60;
};

/// Element (i, j) of matrix `which` under `seed` for init `wide`: a
/// uniform mantissa of T's 23 or 52 fraction bits (the top bits of
/// counter_bits), and from a second mix of those bits a random sign and a
/// binary exponent uniform in [WideExponents<T>::lo, hi] (32 bits scaled
/// to the span, D. Lemire's multiply-shift: bias below 2^-25); built from
/// its bit pattern, so exact and always a normal number. Host only.
template <class T>
inline T counter_wide(std::uint64_t seed, int which, long i, long j) {
  const std::uint64_t h = counter_bits(seed, which, i, j), g = mix64(h + 0x9e3779b97f4a7c15ULL);
  constexpr int lo = WideExponents<T>::lo, hi = WideExponents<T>::hi;
  const int e = lo + int(((g >> 32) * std::uint64_t(hi - lo + 1)) >> 32);
  const unsigned sign = unsigned(g & 1u);
  if constexpr (sizeof(T) == 4) {
    const std::uint32_t bits = std::uint32_t(sign) << 31 | std::uint32_t(e + 127) << 23 | std::uint32_t(h >> 41);
    float x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  } else {
    const std::uint64_t bits = std::uint64_t(sign) << 63 | std::uint64_t(e + 1023) << 52 | (h >> 12);
    double x;
    std::memcpy(&x, &bits, sizeof x);
    return x;
  }
}

/// The closed-form init (after the ParRes Kernels' dgemm, whose C is known in
/// closed form): with f(t) = (t mod 3) - 1, taking values -1, 0 and 1,
///     A(i, k) = f(i + k),   B(k, j) = f(k + j + 1),
/// so C(i, j) = sum_{k<K} f(i + k) f(k + j + 1). Over any three consecutive k,
/// i + k runs through every residue mod 3 and the sum is P(d) with
/// d = (j + 1 - i) mod 3: P(0) = 2, P(1) = P(2) = -1. Hence
///     C(i, j) = (K div 3) P(d) + the remaining (K mod 3) terms.
/// Exactness: every term is -1, 0 or 1, so every partial sum of any summation
/// order is an integer of magnitude <= K: exact in float for K <= 2^24 and in
/// double for K <= 2^53 (the deck parser refuses larger K for float).
KOKKOS_INLINE_FUNCTION long closed_form_f(long t) { return t % 3 - 1; }

/// Element (i, j) of C = A B under the closed-form init (see closed_form_f),
/// for inner dimension K; global indices.
KOKKOS_INLINE_FUNCTION long closed_form_c(long i, long j, long K) {
  const long q = K / 3;
  const long d = ((j + 1 - i) % 3 + 3) % 3;
  long c = q * (d == 0 ? 2 : -1);
  for (long k = 3 * q; k < K; ++k) c += closed_form_f(i + k) * closed_form_f(k + j + 1);
  return c;
}

/// Fills rows [row0, row0 + X.extent(0)) of the global matrix `which`
/// (0 = A, 1 = B) into host matrix X, in parallel on the default host space.
/// random: uniform [-1, 1); ones: 1; identity: A random, B(i, j) = (i == j);
/// closed_form: see closed_form_f; wide: counter_wide. `col0` is the global index of X's first
/// column (a block of a 2-D distribution; 0 for whole rows).
template <class T>
void fill_matrix(const HostMatrix<T>& X, int which, long row0, Init init, std::uint64_t seed, long col0 = 0) {
  using policy_t = Kokkos::MDRangePolicy<Kokkos::DefaultHostExecutionSpace, Kokkos::Rank<2>>;
  const long rows = X.extent(0), cols = X.extent(1);
  if (rows == 0 || cols == 0) return;
  Kokkos::parallel_for(
      "mmapp::fill", policy_t({0, 0}, {rows, cols}), [=](const long i, const long j) {
        const long gi = row0 + i, gj = col0 + j;
        if (init == Init::ones)
          X(i, j) = T(1);
        else if (init == Init::identity && which == 1)
          X(i, j) = gi == gj ? T(1) : T(0);
        else if (init == Init::closed_form)
          X(i, j) = T(closed_form_f(which == 0 ? gi + gj : gi + gj + 1));
        else if (init == Init::wide)
          X(i, j) = counter_wide<T>(seed, which, gi, gj);
        else
          X(i, j) = counter_uniform<T>(seed, which, gi, gj);
      });
  Kokkos::fence();
}

}  // namespace mmapp
