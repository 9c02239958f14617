// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// micro_kernels.hpp — the hot loops of the host `tiled` kernels for the ISA
// this translation unit is compiled for: the MR x NR register micro-kernel
// and the packing of A and B of the GotoBLAS/BLIS kernel, and the R-row
// block of the few-rows kernel (the loops around them, the blocking and the
// Kokkos parallel mapping: tiled_host.hpp). No Kokkos and no standard-library
// function is called here, only memcpy/memset: everything this code
// instantiates lives in mmapp::host::MMAPP_HOST_ISA_NS, so the builds of it
// for several ISAs in one binary (kernels/host/isa_kernels.cpp) share no
// symbol. Each MR x NR micro-tile does MR*NR FMAs (2*MR*NR flops) per k.
#pragma once

#include "kernels/host/host_isa_table.hpp"
#include "kernels/host/host_simd.hpp"

#include <cstring>

namespace mmapp::host::MMAPP_HOST_ISA_NS {

/// min of two values (std::min is a template shared with the ISA-independent code).
template <class I>
MMAPP_HOST_INLINE I lesser(I a, I b) {
  return a < b ? a : b;
}

/// The MR x NR micro-kernel (NR = NV vectors): acc = sum over k < kc of
/// a[k*MR + i] * b[k*NR + j] (packed micro-panels of A and B), then
/// C(i, j) = acc + beta * C(i, j) for i < m, j < n if load_c, else C = acc
/// (C is then not read). c points at C(0, 0) of the block, ldc its row stride.
template <class T, int MR, int NV>
MMAPP_HOST_INLINE void micro_kernel(int kc, const T* __restrict a, const T* __restrict b, T* c, long ldc, int m,
                                    int n, T beta, bool load_c) {
  constexpr int W = lanes<T>, NR = NV * W;
  using V = vec_t<T>;
  V acc[MR][NV];
  static_for<MR>([&](auto i) { static_for<NV>([&](auto j) { acc[i][j] = zero<T>(); }); });
  for (int k = 0; k < kc; ++k) {
    V bv[NV];
    static_for<NV>([&](auto j) { bv[j] = load(b + j * W); });
    static_for<MR>([&](auto i) {
      const T ai = a[i];
      static_for<NV>([&](auto j) { acc[i][j] += ai * bv[j]; });
    });
    a += MR;
    b += NR;
  }
  if (m == MR && n == NR) {
    static_for<MR>([&](auto i) {
      static_for<NV>([&](auto j) {
        T* p = c + i * ldc + j * W;
        V r = acc[i][j];
        if (load_c) r += beta * load(p);
        store(p, r);
      });
    });
  } else {
    T tile[MR][NR];
    static_for<MR>([&](auto i) { static_for<NV>([&](auto j) { store(&tile[i][j * W], acc[i][j]); }); });
    for (int i = 0; i < m; ++i)
      for (int j = 0; j < n; ++j) c[i * ldc + j] = load_c ? tile[i][j] + beta * c[i * ldc + j] : tile[i][j];
  }
}

/// Packs B(k0 .. k0+kc, j0 .. j0+n) (row stride ldb) into one micro-panel
/// dst[kc][NR], columns n .. NR zero.
template <class T, int NV>
MMAPP_HOST_INLINE void pack_b_panel(const T* b, long ldb, long k0, int kc, long j0, int n, T* __restrict dst) {
  constexpr int W = lanes<T>, NR = NV * W;
  const T* src = b + k0 * ldb + j0;
  if (n == NR) {
    for (int k = 0; k < kc; ++k, src += ldb, dst += NR)
      static_for<NV>([&](auto j) { store(dst + j * W, load(src + j * W)); });
  } else {
    for (int k = 0; k < kc; ++k, src += ldb, dst += NR)
      for (int j = 0; j < NR; ++j) dst[j] = j < n ? src[j] : T(0);
  }
}

/// Packs A(i0 .. i0+m, k0 .. k0+kc) (row stride lda) into one micro-panel
/// dst[kc][MR], rows m .. MR zero.
template <class T, int MR>
MMAPP_HOST_INLINE void pack_a_panel(const T* a, long lda, long i0, int m, long k0, int kc, T* __restrict dst) {
  const T* src = a + i0 * lda + k0;
  if (m == MR) {
    for (int k = 0; k < kc; ++k, dst += MR) static_for<MR>([&](auto i) { dst[i] = src[i * lda + k]; });
  } else {
    for (int k = 0; k < kc; ++k, dst += MR)
      for (int i = 0; i < MR; ++i) dst[i] = i < m ? src[i * lda + k] : T(0);
  }
}

/// HostMicroKernel::pack_b for an MR x (NV vectors) micro-tile.
template <class T, int NV>
void goto_pack_b(const T* b, long ldb, long k0, int kc, long jc, long nc, long p_first, long p_last,
                 long panel_stride, T* dst) {
  constexpr int NR = NV * lanes<T>;
  for (long p = p_first; p < p_last; ++p)
    pack_b_panel<T, NV>(b, ldb, k0, kc, jc + p * NR, int(lesser<long>(NR, nc - p * NR)), dst + p * panel_stride);
}

/// HostMicroKernel::pack_a for an MR-row micro-tile.
template <class T, int MR>
void goto_pack_a(const T* a, long lda, long i0, int mc, long k0, int kc, T* dst) {
  for (int ir = 0; ir < mc; ir += MR) pack_a_panel<T, MR>(a, lda, i0 + ir, lesser(MR, mc - ir), k0, kc, dst + long(ir) * kc);
}

/// HostMicroKernel::compute: the jr and ir loops of GotoBLAS around the micro-kernel.
template <class T, int MR, int NV>
void goto_compute(const T* ap, int mc, int kc, const T* bp, long panel_stride, long q_first, long q_last, long nc,
                  T* c, long ldc, T beta, bool load_c) {
  constexpr int NR = NV * lanes<T>;
  static_assert(MR * NV + NV + 1 <= simd_registers, "micro-kernel does not fit the vector registers");
  for (long q = q_first; q < q_last; ++q) {
    const T* bq = bp + q * panel_stride;
    const int n = int(lesser<long>(NR, nc - q * NR));
    T* cq = c + q * NR;
    for (int ir = 0; ir < mc; ir += MR)
      micro_kernel<T, MR, NV>(kc, ap + long(ir) * kc, bq, cq + ir * ldc, ldc, lesser(MR, mc - ir), n, beta, load_c);
  }
}

/// One R x (NV vectors) block of C over kc values of k, B and A unpacked:
/// acc(i, j) = sum_k a[i*lda + k] * b[k*ldb + j]; C = acc + beta*C if load_c,
/// else C = acc. A last strip of n < NR columns reads each row of B through a
/// zero-padded copy and stores through a tile.
template <class T, int R, int NV>
MMAPP_HOST_INLINE void rows_block(long kc, const T* a, long lda, const T* b, long ldb, T* c, long ldc, int n,
                                  T beta, bool load_c) {
  constexpr int W = lanes<T>, NR = NV * W;
  using V = vec_t<T>;
  V acc[R][NV];
  static_for<R>([&](auto i) { static_for<NV>([&](auto j) { acc[i][j] = zero<T>(); }); });
  if (n < NR) {
    T row[NR] = {};
    for (long k = 0; k < kc; ++k) {
      std::memcpy(row, b + k * ldb, sizeof(T) * n);
      V bv[NV];
      static_for<NV>([&](auto j) { bv[j] = load(row + j * W); });
      static_for<R>([&](auto i) {
        const T ai = a[i * lda + k];
        static_for<NV>([&](auto j) { acc[i][j] += ai * bv[j]; });
      });
    }
    T tile[R][NR];
    static_for<R>([&](auto i) { static_for<NV>([&](auto j) { store(&tile[i][j * W], acc[i][j]); }); });
    for (int i = 0; i < R; ++i)
      for (int j = 0; j < n; ++j) c[i * ldc + j] = load_c ? tile[i][j] + beta * c[i * ldc + j] : tile[i][j];
    return;
  }
  for (long k = 0; k < kc; ++k) {
    V bv[NV];
    static_for<NV>([&](auto j) { bv[j] = load(b + k * ldb + j * W); });
    static_for<R>([&](auto i) {
      const T ai = a[i * lda + k];
      static_for<NV>([&](auto j) { acc[i][j] += ai * bv[j]; });
    });
  }
  static_for<R>([&](auto i) {
    static_for<NV>([&](auto j) {
      T* p = c + i * ldc + j * W;
      V r = acc[i][j];
      if (load_c) r += beta * load(p);
      store(p, r);
    });
  });
}

/// Values of k per pass over a column chunk in the few-rows kernel: the
/// R x chunk block of C is read and written once per KB rows of B (KB
/// concurrent row streams).
inline constexpr long rows_kb = 32;

/// HostMicroKernel::rows: rows 0 .. r of C over the strips [s_lo, s_hi),
/// K in passes of rows_kb (rows_block on the run-time row count r).
template <class T, int R, int NV>
void rows_item(int r, long k, long n, const T* a, long lda, const T* b, long ldb, T* c, long ldc, long s_lo,
               long s_hi, T beta) {
  constexpr int NR = NV * lanes<T>;
  static_assert(R * NV + NV + 1 <= simd_registers, "row block does not fit the vector registers");
  for (long k0 = 0; k0 < k; k0 += rows_kb) {
    const long kb = lesser(rows_kb, k - k0);
    const bool load_c = !(k0 == 0 && beta == T(0));
    const T beta_k = k0 == 0 ? beta : T(1);
    for (long s = s_lo; s < s_hi; ++s) {
      const long j0 = s * NR;
      const int nn = int(lesser<long>(NR, n - j0));
      static_for<R>([&](auto i) {
        constexpr int rows = decltype(i)::value + 1;
        if (r == rows) rows_block<T, rows, NV>(kb, a + k0, lda, b + k0 * ldb + j0, ldb, c + j0, ldc, nn, beta_k, load_c);
      });
    }
  }
}

/// The table row of the packed kernel with an MR x (NV vectors) micro-tile.
template <class T, int MR, int NV>
constexpr HostMicroKernel<T> goto_kernel() {
  return {"goto", MR, NV * lanes<T>, &goto_pack_b<T, NV>, &goto_pack_a<T, MR>, &goto_compute<T, MR, NV>, nullptr};
}

/// The table row of the few-rows kernel with R rows x (NV vectors).
template <class T, int R, int NV>
constexpr HostMicroKernel<T> rows_kernel() {
  return {"rows", R, NV * lanes<T>, nullptr, nullptr, nullptr, &rows_item<T, R, NV>};
}

}  // namespace mmapp::host::MMAPP_HOST_ISA_NS
