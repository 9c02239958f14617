// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tf32_operands.hpp — A and B split once per GEMM into 3xTF32's two parts,
// for the cp.async 3xTF32 tiles of gemm_tiled_mma (tiled_gpu_mma.hpp, "The
// pre-split operands"). Each element x of A (M x K) and B (K x N) becomes a
// Tf32Pair {tf32(x), tf32((x - tf32(x)) * 2^11)} (tf32_split; Ootomo and
// Yokota, arXiv:2203.03341, section 4), stored row-major with the row pitch
// rounded up to a 16-byte chunk (2 pairs), zeros in the padding. The tiles
// then copy K tiles of pairs global -> scratch by cp.async, as the DMMA
// tiles copy doubles, and each fragment read brings both parts of an
// element in one 8-byte load: no split in the main loop and no prefetch
// registers (the register path splits each element when its team stores a
// K tile, once per team that reads it).
// Cost: one read of A and B and a write of twice their bytes, O(MK + KN)
// against the GEMM's O(MNK), inside the timed call. Parallel mapping: a
// team per 1024-element segment of a row (pack_rows, aligned_operands.hpp).
// Workspace (tf32_split_workspace_bytes): the split-K partials first
// (splitk.hpp, offset 0, as SplitKPlan expects), then from the next 256-byte
// boundary A's pairs, then B's, each on a 256-byte boundary.
#pragma once

#include "core/types.hpp"
#include "kernels/gpu/aligned_operands.hpp"
#include "kernels/gpu/splitk.hpp"
#include "kernels/gpu/warp/mma_shapes.hpp"

#include <Kokkos_Core.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>

namespace mmapp {
namespace detail {

/// Bytes of the pairs of a `rows` x `cols` operand: rows x round_up(cols,
/// 2) Tf32Pair of 8 bytes, rounded up to 256 bytes.
inline std::size_t tf32_pair_bytes(const long rows, const long cols) {
  constexpr long vw = Chunk16<Tf32Pair>::width;
  return std::size_t(round_up(rows * round_up(cols, vw) * long(sizeof(Tf32Pair)), 256));
}

/// The split of pack_rows: a float to its Tf32Pair (tf32_pair).
struct Tf32SplitValue {
  KOKKOS_INLINE_FUNCTION Tf32Pair operator()(const float x) const { return tf32_pair(x); }
};

}  // namespace detail

/// Workspace of a cp.async 3xTF32 variant with K chunk Kc (0: no split-K)
/// for an m x n x k float GEMM, in bytes: the split-K partials
/// (splitk_workspace_bytes<float, Kc>) rounded up to 256, then the pairs of
/// A (m x k) and of B (k x n) (file comment). 0 for an empty C.
template <int Kc>
std::size_t tf32_split_workspace_bytes(const long m, const long n, const long k) {
  if (m == 0 || n == 0) return 0;
  const std::size_t split = Kc > 0 ? splitk_workspace_bytes<float, Kc>(m, n, k) : 0;
  return std::size_t(detail::round_up(long(split), 256)) + detail::tf32_pair_bytes(m, k) +
         detail::tf32_pair_bytes(k, n);
}

/// A and B of a float GEMM split into Tf32Pair (file comment), in args.work
/// past `used` bytes (the split-K partials), each by one parallel_for on
/// `space` enqueued before the caller's kernel (the split is part of the
/// GEMM's time). Any row stride and alignment of A and B; the pairs are
/// contiguous with rows of whole 16-byte chunks (`vec` true). Throws
/// std::runtime_error when args.work holds fewer than `used` rounded up to
/// 256 plus both operands' pairs (tf32_split_workspace_bytes). Asynchronous.
template <class Space>
struct Tf32SplitOperands {
  OperandView<detail::Tf32Pair> a, b;

  Tf32SplitOperands(const Space& space, const GemmArgs<Space, float>& args, const std::size_t used) {
    using detail::Tf32Pair;
    constexpr long vw = detail::Chunk16<Tf32Pair>::width;
    const long M = args.A.extent(0), K = args.A.extent(1), N = args.B.extent(1);
    const std::size_t at_a = std::size_t(detail::round_up(long(used), 256));
    const std::size_t at_b = at_a + detail::tf32_pair_bytes(M, K);
    const std::size_t need = at_b + detail::tf32_pair_bytes(K, N);
    if (args.work.extent(0) < need)
      throw std::runtime_error("gemm_tiled_mma (3xTF32, split operands): workspace of " +
                               std::to_string(args.work.extent(0)) + " bytes, " + std::to_string(need) +
                               " needed for " + std::to_string(M) + "x" + std::to_string(N) + "x" +
                               std::to_string(K));
    char* const base = args.work.data();
    a = {reinterpret_cast<const Tf32Pair*>(base + at_a), detail::round_up(K, vw), true};
    b = {reinterpret_cast<const Tf32Pair*>(base + at_b), detail::round_up(N, vw), true};
    if (M > 0 && K > 0)
      detail::pack_rows(space, "mmapp::gemm_tf32_split_operand", args.A, M, K, a.ld,
                        reinterpret_cast<Tf32Pair*>(base + at_a), detail::Tf32SplitValue{});
    if (K > 0 && N > 0)
      detail::pack_rows(space, "mmapp::gemm_tf32_split_operand", args.B, K, N, b.ld,
                        reinterpret_cast<Tf32Pair*>(base + at_b), detail::Tf32SplitValue{});
  }
};

}  // namespace mmapp
