// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/params.hpp — the parameters of one gemm_tiled_warp launch: the only
// value its kernel captures (CUDA: the kernel's parameter block, read from
// constant memory), built on the host by gemm_tiled_warp and read by the
// components (loader, epilogue) where they use them.
#pragma once

#include <cstddef>

#include "kernels/gpu/chunk.hpp"

namespace mmapp {
namespace detail {

/// Parameters of a gemm_tiled_warp launch for element type T. Every field
/// keeps the byte offset (right) it had as a capture of the kernel lambda
/// before the kernel was split into components; the reserved words fill the
/// places of the compile-time constants that lambda also captured. ptxas's
/// register allocation depends on these offsets: the same fields packed
/// without gaps changed the registers or spills of 7 of the 35 warp-tiled
/// variants, three of the shape rule's among them (docs/performance.md,
/// "History moved from code comments"). Pinned by the static_asserts below.
/// The tail split's and Stream-K's fields (gemm_tiled_mma with TailSplit,
/// StreamK) and the in-launch sum's (LastTeamSum) took reserved words, so
/// the other fields kept their offsets.
template <class T>
struct WarpGemmParams {
  int tiles;                  ///<   0: block tiles per slice, tiles_m * tiles_n
  int tiles_n;                ///<   4: block tiles along N
  int tiles_m;                ///<   8: block tiles along M
  int tail_head;              ///<  12: the first split (streamed) tile (TailSplitPlan::head, StreamKPlan::head)
  int tail_slices;            ///<  16: K slices per split tile (TailSplitPlan::slices)
  int kc;                     ///<  20: K elements per slice (K without split-K)
  int K;                      ///<  24
  int tail_kc;                ///<  28: K elements per slice of a split tile
  int sk_tile_iters;          ///<  32: Stream-K's K tiles per streamed tile (StreamKPlan::tile_iters)
  int sk_team_iters;          ///<  36: Stream-K's K tiles per stream team (StreamKPlan::team_iters)
  std::size_t scratch_bytes;  ///<  40: level-0 scratch per team (ScratchStages::bytes)
  int reserved2[4];           ///<  48
  long lda;                   ///<  64: A's row stride, elements
  long ldb;                   ///<  72: B's row stride, elements
  int reserved3;              ///<  80
  int M;                      ///<  84: rows of A and C
  int N;                      ///<  88: columns of B and C
  bool pair_o;                ///<  92: out may be written in pairs of T (2 sizeof(T) bytes) from even columns
  bool vec_a;                 ///<  93: A may be read in 16-byte chunks (base aligned, lda a multiple of a chunk)
  bool vec_b;                 ///<  94: B likewise
  const T* A;                 ///<  96: M x K, row-major
  const T* B;                 ///< 104: K x N, row-major
  T* tail_work;               ///< 112: the split tiles' partial tiles (tail_split_reduce's layout)
  unsigned* tickets;          ///< 120: the in-launch sum's tile counters (LastTeamSum; nullptr: none)
  T* c;                       ///< 128: C's data, for the in-launch sum
  long ldc;                   ///< 136: C's row stride, elements, for the in-launch sum
  int reserved5[2];           ///< 144
  T* out;                     ///< 152: the output: C, or the split-K workspace (SplitKPlan::out)
  int slices;                 ///< 160: split-K slices S (1: none)
  long slice_elems;           ///< 168: M * N, elements between slices of out
  T beta;                     ///< 176: C = A * B + beta * C (S == 1; the reduce applies it otherwise)
  long ldo;                   ///< 184: out's row stride, elements
  bool vec_o;                 ///< 192: out may be written in 16-byte chunks

  /// Where split-K slice `slice` (0 without split-K) of the output starts:
  /// C itself, or that slice's partial C in the workspace, slice_elems apart.
  KOKKOS_INLINE_FUNCTION T* slice_out(const int slice) const { return out + (slices > 1 ? slice * slice_elems : 0); }
  /// Whether an epilogue adds beta * C: to C itself (S == 1; the reduce
  /// applies beta otherwise), and only where beta != 0 (C is not read then).
  KOKKOS_INLINE_FUNCTION bool scales_c() const { return slices == 1 && beta != T(0); }
  /// Whether a tensor-core team that can stage its C tile in scratch
  /// (StagedC) stores it so, by whole rows, rather than in pairs from its
  /// fragments: out's rows take no pairs (pair_o false: N odd), or they are
  /// not in 16-byte chunks (ldo not a multiple of 16 / sizeof(T): float N
  /// = 2 mod 4), where a warp's pairs cut most 32-byte sectors in two. One
  /// H200, 2026-12-02 (docs/performance.md, "Tensor cores, forty-fourth
  /// round"), `tile: auto`, ms, N = 9110 in pairs against N = 9111 staged,
  /// float 3229 x N x 16: the pre-split 64x128 wgmma tile 0.117 / 0.081,
  /// the mma.sync 64x64 tile 0.116 / 0.093 (cuBLAS SGEMM 0.077-0.100).
  KOKKOS_INLINE_FUNCTION bool stages_rows() const { return !pair_o || ldo % Chunk16<T>::width != 0; }
};

static_assert(offsetof(WarpGemmParams<double>, kc) == 20 && offsetof(WarpGemmParams<double>, scratch_bytes) == 40 &&
                  offsetof(WarpGemmParams<double>, lda) == 64 && offsetof(WarpGemmParams<double>, M) == 84 &&
                  offsetof(WarpGemmParams<double>, pair_o) == 92 && offsetof(WarpGemmParams<double>, vec_a) == 93 &&
                  offsetof(WarpGemmParams<double>, A) == 96 && offsetof(WarpGemmParams<double>, out) == 152 &&
                  offsetof(WarpGemmParams<double>, beta) == 176 && offsetof(WarpGemmParams<double>, vec_o) == 192 &&
                  offsetof(WarpGemmParams<double>, tail_head) == 12 &&
                  offsetof(WarpGemmParams<double>, tail_kc) == 28 &&
                  offsetof(WarpGemmParams<double>, tail_work) == 112 &&
                  offsetof(WarpGemmParams<double>, tickets) == 120 && offsetof(WarpGemmParams<double>, ldc) == 136,
              "WarpGemmParams<double>: the offsets above");
static_assert(offsetof(WarpGemmParams<float>, vec_a) == 93 && offsetof(WarpGemmParams<float>, out) == 152 &&
                  offsetof(WarpGemmParams<float>, beta) == 176 && offsetof(WarpGemmParams<float>, ldo) == 184 &&
                  offsetof(WarpGemmParams<float>, vec_o) == 192,
              "WarpGemmParams<float>: the offsets above");

/// The fields every team-tiled launch (gemm_tiled_warp, gemm_tiled_mma,
/// gemm_tiled_wgmma) sets alike, for an M x N x K C in BM x BN block tiles:
/// the tile counts; from `plan` (a SplitKPlan<T>: splitk.hpp) the K chunk
/// kc, the output out/ldo and the slices; from `ops` (AlignedOperands:
/// aligned_operands.hpp) A, B, their strides and whether they may be read
/// in 16-byte chunks (and only if `vec`, the kernel's 16-byte loads); beta.
/// scratch_bytes and vec_o are the caller's (0 and false here); pair_o is
/// set where out, ldo and the slice distance allow pairs (pair_store).
template <class T, class Plan, class Ops>
WarpGemmParams<T> warp_gemm_params(const int M, const int N, const int K, const int BM, const int BN, const Plan& plan,
                                   const Ops& ops, const T beta, const bool vec = true) {
  WarpGemmParams<T> p{};
  p.tiles_m = (M + BM - 1) / BM;
  p.tiles_n = (N + BN - 1) / BN;
  p.tiles = p.tiles_m * p.tiles_n;
  p.kc = plan.kc;
  p.K = K;
  p.A = ops.a.data;
  p.B = ops.b.data;
  p.lda = ops.a.ld;
  p.ldb = ops.b.ld;
  p.M = M;
  p.N = N;
  p.vec_a = vec && ops.a.vec;
  p.vec_b = vec && ops.b.vec;
  p.out = plan.out;  // partial slices, or C itself
  p.ldo = plan.ldo;
  p.slices = plan.slices;
  p.slice_elems = plan.slice_elems;
  p.pair_o =
      aligned_to(plan.out, 2 * sizeof(T)) && plan.ldo % 2 == 0 && (plan.slices == 1 || plan.slice_elems % 2 == 0);
  p.beta = beta;
  return p;
}

}  // namespace detail
}  // namespace mmapp
