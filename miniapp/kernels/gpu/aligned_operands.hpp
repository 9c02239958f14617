// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// aligned_operands.hpp — copies of A and B whose rows start on 16-byte
// boundaries, for the team-tiled GPU kernels (gemm_tiled_warp,
// gemm_tiled_mma). Those kernels load their K tiles in 16-byte chunks
// (float4 / double2, or cp.async of 16 bytes) only where an operand's base
// is 16-byte aligned and its row stride a multiple of a chunk; a contiguous
// A with K not a multiple of 16 / sizeof(T), or B with such an N, fails that
// test and would be read element by element (H200, 2026-11-24: float
// 4097 x 4095 x 4093 at 78% of cuBLAS SGEMM against 92% at 4096^3; double
// 5000 x 3001 x 777 kept off the cp.async tiles, docs/performance.md). The
// cure is the one BLAS libraries apply when they pack (Goto and van de
// Geijn, "Anatomy of high-performance matrix multiplication", ACM TOMS
// 34(3), 2008, section 6): copy the operand once per GEMM into a buffer
// with a padded row pitch, O(MK + KN) work against the GEMM's O(MNK), done
// inside the timed call (so its cost is in the kernel's time).
// Workspace layout of a tiled variant (tiled_gpu_workspace_bytes): the
// split-K partials first (splitk.hpp, offset 0, as SplitKPlan expects),
// then, from the next 256-byte boundary, A's copy (M rows, pitch
// round_up(K, chunk)) and B's (K rows, pitch round_up(N, chunk)), each
// starting on a 256-byte boundary, each present only where the contiguous
// operand could not be read in chunks and C reuses it enough (operand_copied).
#pragma once

#include "core/types.hpp"
#include "kernels/gpu/chunk.hpp"
#include "kernels/gpu/splitk.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>

namespace mmapp {
namespace detail {

/// n rounded up to a multiple of m (m > 0).
constexpr long round_up(const long n, const long m) { return (n + m - 1) / m * m; }

}  // namespace detail

/// The least extent of C along which an operand copy is reused (N for A's
/// copy, M for B's) for the copy to be made. A copy reads and writes the
/// operand once; the GEMM reads it once per block row (column) of C, and
/// does 2 x extent flops per element: below 1024 the copy's time is a
/// sizeable part of the call's (H200, 2026-11-24: float and double
/// 33 x 8191 x 65537, B copied for 33 rows of C: 20% and 23% of cuBLAS,
/// against 67% and 68% reading B in place; docs/performance.md). The double
/// cp.async DMMA tiles copy along fewer (CopyRule::dmma).
inline constexpr long kOperandCopyMinReuse = 1024;

/// The cp.async DMMA tiles' bounds (CopyRule::dmma): an operand reused along
/// more than 192 rows or columns of C, in a GEMM of at least 5e8 M·N·K (1
/// GFLOP), is copied too. Those tiles read unaligned rows in place far slower
/// than the copy costs, and the copy lets the rule take them. One H200,
/// 2026-11-29 (docs/performance.md, "Tensor cores, thirty-fourth round"),
/// the rule's choice with the copy against in place, ms, same build: 6000 x
/// 777 x 3001 1.016 -> 0.791, 3000 x 777 x 4567 0.829 -> 0.613, 4096 x 900 x
/// 5001 1.352 -> 1.055, 300 x 8191 x 4096 0.745 -> 0.637, 3707 x 194 x 7611
/// 0.574 -> 0.490, 303 x 696 x 3939 0.089 -> 0.075. Along 144-192 rows or
/// columns the copy lost (8000 x 192 x 6001 0.670 -> 0.686, 192 x 6001 x
/// 4000 0.360 -> 0.377, 8000 x 128 x 6001 0.411 -> 0.547), and under about
/// 5e8 M·N·K its two launches cost more than they save (513^3 0.035 ->
/// 0.049, 250 x 250 x 3001 0.034 -> 0.044, 207 x 306 x 75 0.018 -> 0.025).
/// Where the shape rule would then take the 96x96 DMMA tile it reads such
/// operands in place instead (513 x 1025 x 2049 0.120 -> 0.134 with the copy
/// on that tile, 377 x 817 x 3382 0.098 -> 0.128, 555 x 555 x 5555 0.158 ->
/// 0.178). The SIMT double tiles ran slower with the copies (3000 x 500 x
/// 4567 0.762 -> 0.907): they keep kOperandCopyMinReuse.
inline constexpr long kDmmaCopyMinReuse = 193;
inline constexpr double kDmmaCopyMinWork = 5e8;

/// Which bounds decide an operand copy: the SIMT and wgmma tiles' (tiles:
/// kOperandCopyMinReuse) or the double cp.async DMMA tiles' (dmma: also
/// kDmmaCopyMinReuse with kDmmaCopyMinWork).
enum class CopyRule { tiles, dmma };

namespace detail {

/// Whether C's extent `reuse` along which a `rows` x `cols` operand is read
/// (rows x cols x reuse = M·N·K) reuses a copy of it enough, by rule R.
template <CopyRule R>
constexpr bool copy_pays(const long rows, const long cols, const long reuse) {
  if (reuse >= kOperandCopyMinReuse) return true;
  return R == CopyRule::dmma && reuse >= kDmmaCopyMinReuse &&
         double(rows) * double(cols) * double(reuse) >= kDmmaCopyMinWork;
}

}  // namespace detail

/// Whether a contiguous `rows` x `cols` operand is copied by the kernels of
/// rule R: its rows are not 16-byte aligned (cols not a multiple of
/// 16 / sizeof(T)) and C's extent `reuse` along which it is read reuses the
/// copy enough (detail::copy_pays). The shape rule asks
/// operand_aligned_or_copied (A: (m, k, n), B: (k, n, m)) before choosing a
/// tile that wants aligned rows.
template <class T, CopyRule R = CopyRule::tiles>
constexpr bool operand_copied(const long rows, const long cols, const long reuse) {
  return rows > 0 && cols > 0 && cols % detail::Chunk16<T>::width != 0 && detail::copy_pays<R>(rows, cols, reuse);
}

/// Whether the tiled kernels of rule R read a contiguous `rows` x `cols`
/// operand, read along C's extent `reuse`, in 16-byte chunks: its rows are
/// aligned (cols a multiple of 16 / sizeof(T)) or it is copied to aligned
/// ones (operand_copied).
template <class T, CopyRule R = CopyRule::tiles>
constexpr bool operand_aligned_or_copied(const long rows, const long cols, const long reuse) {
  return cols % detail::Chunk16<T>::width == 0 || operand_copied<T, R>(rows, cols, reuse);
}

namespace detail {

/// The bytes of a copy of a `rows` x `cols` operand at a pitch of
/// round_up(cols, chunk), rounded up to 256 bytes (the next copy's start).
template <class T>
std::size_t padded_copy_bytes(const long rows, const long cols) {
  return std::size_t(round_up(rows * round_up(cols, Chunk16<T>::width) * long(sizeof(T)), 256));
}

/// The bytes of an operand copy (operand_copied by rule R): padded_copy_bytes;
/// 0 when the operand is not copied.
template <class T, CopyRule R>
std::size_t operand_copy_bytes(const long rows, const long cols, const long reuse) {
  return operand_copied<T, R>(rows, cols, reuse) ? padded_copy_bytes<T>(rows, cols) : 0;
}

}  // namespace detail

/// Workspace of a team-tiled GPU variant with K chunk Kc (0: no split-K)
/// for an m x n x k GEMM, in bytes: the split-K partials
/// (splitk_workspace_bytes<T, Kc>), rounded up to 256, plus the aligned
/// copies of A (m x k) and B (k x n) that operand_copied<T, R> asks for (file
/// comment); without Copies (a kernel that reads such operands in place), the
/// partials alone. 0 when nothing is needed.
template <class T, int Kc, bool Copies = true, CopyRule R = CopyRule::tiles>
std::size_t tiled_gpu_workspace_bytes(const long m, const long n, const long k) {
  const std::size_t split = Kc > 0 ? splitk_workspace_bytes<T, Kc>(m, n, k) : 0;
  if constexpr (!Copies) return split;
  const std::size_t copies = detail::operand_copy_bytes<T, R>(m, k, n) + detail::operand_copy_bytes<T, R>(k, n, m);
  return copies == 0 ? split : std::size_t(detail::round_up(long(split), 256)) + copies;
}

/// An operand as a team-tiled kernel reads it: base, row stride (elements)
/// and whether it may be read in 16-byte chunks.
template <class T>
struct OperandView {
  const T* data;
  long ld;
  bool vec;
};

namespace detail {

/// AlignedOperands' copy of one operand: src (rows x cols) to base + at
/// with the pitch round_up(cols, chunk), zeros in the padding, by one
/// parallel_for on `space`, when the workspace (`have` bytes at base) has
/// room past `at`; `at` then advances past the copy (256-byte aligned) and
/// the copy is returned. Else `fallback`, and nothing is enqueued.
/// (A free function: nvcc allows no device lambda in a private member.)
template <class Space, class T>
OperandView<T> copy_operand(const Space& space, const ConstMatrix<T, Space>& src, const long rows, const long cols,
                            char* const base, const std::size_t have, std::size_t& at, const OperandView<T> fallback) {
  constexpr long vw = Chunk16<T>::width;
  const long pitch = round_up(cols, vw);
  const std::size_t bytes = padded_copy_bytes<T>(rows, cols);
  if (rows == 0 || cols == 0 || base == nullptr || at + bytes > have) return fallback;
  T* const dst = reinterpret_cast<T*>(base + at);
  at += bytes;
  // A team per segment of 1024 elements of a row, its threads along the segment: reads and writes
  // coalesced, one index division per team, and rows * segments teams (a few long rows, as a
  // 33 x 65537 A, still spread over the SMs).
  constexpr long seg = 1024;
  const long segs = (pitch + seg - 1) / seg;
  using policy_t = Kokkos::TeamPolicy<Space>;
  Kokkos::parallel_for(
      "mmapp::gemm_aligned_operand_copy", policy_t(space, rows * segs, Kokkos::AUTO),
      KOKKOS_LAMBDA(const typename policy_t::member_type& team) {
        const long i = team.league_rank() / segs, j0 = (team.league_rank() % segs) * seg;
        const long n = pitch - j0 < seg ? pitch - j0 : seg;
        T* const out = dst + i * pitch + j0;
        Kokkos::parallel_for(Kokkos::TeamThreadRange(team, n), [&](const long q) {
          const long j = j0 + q;
          out[q] = j < cols ? src(i, j) : T(0);
        });
      });
  return {dst, pitch, true};
}

}  // namespace detail

/// A and B of `args` as the kernel should read them. An operand that may be
/// read in 16-byte chunks (base aligned, row stride a multiple of a chunk),
/// or that C reuses too little for a copy (operand_copied by rule R), is
/// used in place. Otherwise, where args.work holds room for its copy past
/// `used` bytes (the split-K partials; layout: file comment), the operand is
/// copied there with a padded pitch (zeros in the padding) by one
/// parallel_for on `space`, enqueued before the caller's kernel (so the copy
/// is part of the GEMM's time), and the copy is returned; without room (a
/// workspace sized for another shape, or a strided view that
/// tiled_gpu_workspace_bytes cannot foresee) the operand is used in place,
/// element by element: correct, slower. Asynchronous.
template <class Space, class T, CopyRule R = CopyRule::tiles>
struct AlignedOperands {
  OperandView<T> a, b;

  AlignedOperands(const Space& space, const GemmArgs<Space, T>& args, const std::size_t used) {
    const long M = args.A.extent(0), K = args.A.extent(1), N = args.B.extent(1);
    a = {args.A.data(), long(args.A.stride(0)), detail::rows_in_chunks(args.A.data(), long(args.A.stride(0)))};
    b = {args.B.data(), long(args.B.stride(0)), detail::rows_in_chunks(args.B.data(), long(args.B.stride(0)))};
    if (a.vec && b.vec) return;
    char* const base = args.work.data();
    const std::size_t have = args.work.extent(0);
    std::size_t at = std::size_t(detail::round_up(long(used), 256));
    // Copied only where the copy is reused enough (copy_pays: along N for A, M for B).
    if (!a.vec && detail::copy_pays<R>(M, K, N)) a = detail::copy_operand(space, args.A, M, K, base, have, at, a);
    if (!b.vec && detail::copy_pays<R>(K, N, M)) b = detail::copy_operand(space, args.B, K, N, base, have, at, b);
  }
};

}  // namespace mmapp
