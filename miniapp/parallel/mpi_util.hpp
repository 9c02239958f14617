// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// mpi_util.hpp — small pieces every parallel part of mmapp shares: the MPI
// datatype of an element type, the wall clock the phases are timed with,
// the unit in which blocks travel through host memory (chunk_rows), and the
// XXH3-64 digest of C's bytes as the reports print it. One place, so the row
// split, the process grid and SUMMA agree on each.
#pragma once

#include <mpi.h>
#include <xxhash.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <cstdio>
#include <string>
#include <type_traits>

namespace mmapp {

/// MPI_FLOAT for float, MPI_DOUBLE for double (the element types of mmapp's GEMMs).
template <class T>
MPI_Datatype mpi_type() {
  static_assert(std::is_same_v<T, float> || std::is_same_v<T, double>, "mpi_type: float or double");
  return std::is_same_v<T, float> ? MPI_FLOAT : MPI_DOUBLE;
}

/// Seconds on a monotonic clock (std::chrono::steady_clock): the clock of
/// every phase and repetition mmapp times.
inline double wall_now() {
  return std::chrono::duration<double>(std::chrono::steady_clock::now().time_since_epoch()).count();
}

/// Bytes of host memory a block moves through at a time (fill, scatter,
/// gather, checksum): 64 MiB.
inline constexpr long kChunkBytes = 64L << 20;

/// Rows of a chunk of `cols` elements of T per row that fit in `budget`
/// bytes (at least 1): the unit in which blocks travel through host memory.
template <class T>
long chunk_rows(long cols, long budget = kChunkBytes) {
  return std::max(1L, budget / std::max(1L, long(cols * sizeof(T))));
}

/// An incremental XXH3-64 digest (xxHash, Y. Collet): update() with bytes in
/// order, hex() for "0x%016x", the form every report's checksum takes. The
/// same bytes in the same order give the same text, however they were cut.
class Xxh3Digest {
 public:
  Xxh3Digest() : state_(XXH3_createState()) { XXH3_64bits_reset(state_); }
  ~Xxh3Digest() { XXH3_freeState(state_); }
  Xxh3Digest(const Xxh3Digest&) = delete;
  Xxh3Digest& operator=(const Xxh3Digest&) = delete;
  /// Adds `bytes` bytes at `p` to the digest.
  void update(const void* p, std::size_t bytes) { XXH3_64bits_update(state_, p, bytes); }
  /// The digest so far as "0x" and 16 lower-case hex digits.
  std::string hex() const {
    char text[19];
    std::snprintf(text, sizeof text, "0x%016llx", static_cast<unsigned long long>(XXH3_64bits_digest(state_)));
    return text;
  }

 private:
  XXH3_state_t* state_;
};

}  // namespace mmapp
