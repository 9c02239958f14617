// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/async_copy.hpp — asynchronous global -> scratch copies of 16 bytes
// (and of one 4- or 8-byte element: cp_async_elem)
// (the multistage pipeline of gemm_tiled_mma, tiled_gpu_mma.hpp; CUTLASS
// 2.x arch/memory_sm80.h, cp_async_zfill / cp_async_fence / cp_async_wait):
//   sm_80 and later: `cp.async.cg.shared.global [dst], [src], 16, src_bytes`
//     (PTX ISA, "Data Movement and Conversion Instructions: cp.async"):
//     src_bytes of src are copied, the rest of the 16 bytes are zero-filled
//     (src_bytes = 0: no global read, 16 zero bytes); `cp.async.commit_group`
//     closes the copies issued since the last one into a group and
//     `cp.async.wait_group N` waits until at most N of this thread's groups
//     are pending. The data are visible to the other threads of the team
//     after the wait and a team barrier.
//   elsewhere (host backends, where gemm_tiled_mma runs with its mma
//     emulated, and a device build before sm_80): a plain copy of the same
//     bytes and zeros, done at once; commit and wait do nothing.
#pragma once

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <cstring>

namespace mmapp {
namespace detail {

/// Copies src_bytes (0..16) bytes from global memory at src to scratch at
/// dst and zero-fills the rest of 16 bytes at dst. dst and src: 16-byte
/// aligned; src is not read when src_bytes is 0. Asynchronous on sm_80+
/// (complete after cp_async_wait); synchronous elsewhere.
KOKKOS_FORCEINLINE_FUNCTION void cp_async16(void* dst, const void* src, const int src_bytes) {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.cg.shared.global [%0], [%1], 16, %2;\n" ::"r"(s), "l"(src), "r"(src_bytes) : "memory");
#elif defined(__CUDA_ARCH__)
  char* const d = static_cast<char*>(dst);
  const char* const g = static_cast<const char*>(src);
  for (int i = 0; i < 16; ++i) d[i] = i < src_bytes ? g[i] : char(0);
#else
  if (src_bytes > 0) std::memcpy(dst, src, std::size_t(src_bytes));
  if (src_bytes < 16) std::memset(static_cast<char*>(dst) + src_bytes, 0, std::size_t(16 - src_bytes));
#endif
}

/// Copies one element of Bytes (4 or 8) bytes from global memory at src to
/// scratch at dst, or writes Bytes zero bytes when src_bytes is 0 (src then
/// not read): `cp.async.ca.shared.global [dst], [src], Bytes, src_bytes`
/// (cp.async's 4- and 8-byte forms go through L1, .ca; only the 16-byte form
/// may bypass it). dst and src: aligned to Bytes, so any element of a row of
/// float (4) or double (8), whatever the row's alignment. For the chunks of
/// an operand whose rows are not 16-byte aligned (odd K or N of double,
/// say). Asynchronous on sm_80+; synchronous elsewhere.
template <int Bytes>
KOKKOS_FORCEINLINE_FUNCTION void cp_async_elem(void* dst, const void* src, const int src_bytes) {
  static_assert(Bytes == 4 || Bytes == 8, "cp.async.ca: 4 or 8 bytes per element here");
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  const unsigned s = static_cast<unsigned>(__cvta_generic_to_shared(dst));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2, %3;\n" ::"r"(s), "l"(src), "n"(Bytes), "r"(src_bytes)
               : "memory");
#elif defined(__CUDA_ARCH__)
  char* const d = static_cast<char*>(dst);
  const char* const g = static_cast<const char*>(src);
  for (int i = 0; i < Bytes; ++i) d[i] = i < src_bytes ? g[i] : char(0);
#else
  if (src_bytes > 0) std::memcpy(dst, src, std::size_t(src_bytes));
  if (src_bytes < Bytes) std::memset(static_cast<char*>(dst) + src_bytes, 0, std::size_t(Bytes - src_bytes));
#endif
}

/// Closes this thread's copies issued since the last commit into one group.
KOKKOS_FORCEINLINE_FUNCTION void cp_async_commit() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

/// Waits until at most N of this thread's committed groups are pending.
template <int N>
KOKKOS_FORCEINLINE_FUNCTION void cp_async_wait() {
#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(N) : "memory");
#endif
}

}  // namespace detail
}  // namespace mmapp
