// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_isa_table.hpp — the plain table that one instruction-set build of the
// host micro-kernels (kernels/host/isa_kernels.cpp, compiled once per ISA
// level) hands to the dispatcher (kernels/host/host_isa.hpp), as BLIS
// registers each configuration's micro-kernels with their block sizes
// (config/haswell/bli_cntx_init_haswell.c): the level's name, its vector
// registers and, per element type, the `tiled` micro-kernels as function
// pointers with their micro-tile MR x NR. Types only, no code: the ISA
// translation units include it without emitting anything a linker could
// merge across ISAs.
#pragma once

namespace mmapp::host {

/// The hot loops of one micro-tile of one ISA, for element type T (float or
/// double). All matrices row-major with the given row strides (elements);
/// packed panels as in tiled_host.hpp. Entries of the other kind are null.
template <class T>
struct HostMicroKernel {
  const char* tag;  ///< "goto" (packed GotoBLAS/BLIS kernel) or "rows" (few-rows kernel)
  int mr;           ///< rows of C per micro-tile (MR; R for "rows")
  int nr;           ///< columns of C per micro-tile (NR = vectors x lanes)
  /// goto: packs B micro-panels p in [p_first, p_last) of
  /// B(k0 .. k0+kc, jc .. jc+nc) (row stride ldb) to dst + p * panel_stride,
  /// each [kc][NR], columns beyond nc zero.
  void (*pack_b)(const T* b, long ldb, long k0, int kc, long jc, long nc, long p_first, long p_last,
                 long panel_stride, T* dst);
  /// goto: packs A(i0 .. i0+mc, k0 .. k0+kc) (row stride lda) into
  /// ceil(mc / MR) micro-panels [kc][MR] at dst + ir * kc (ir = 0, MR, ...),
  /// rows beyond mc zero.
  void (*pack_a)(const T* a, long lda, long i0, int mc, long k0, int kc, T* dst);
  /// goto: for packed B panels q in [q_first, q_last) (at bp + q * panel_stride;
  /// the block has nc columns, the last panel may be partial) and the packed
  /// mc x kc block of A at ap: C(0 .. mc, q*NR ..) = A*B + beta*C, where c
  /// points at C(i0, jc) (row stride ldc); C is not read when !load_c.
  void (*compute)(const T* ap, int mc, int kc, const T* bp, long panel_stride, long q_first, long q_last, long nc,
                  T* c, long ldc, T beta, bool load_c);
  /// rows: rows 0 .. r (1 <= r <= MR) of C = A*B + beta*C over column strips
  /// [s_lo, s_hi) of NR columns (of n), all k < K; a, b, c point at A(i0, 0),
  /// B(0, 0), C(i0, 0). C is not read when beta == 0.
  void (*rows)(int r, long k, long n, const T* a, long lda, const T* b, long ldb, T* c, long ldc, long s_lo,
               long s_hi, T beta);
};

/// Most micro-kernels one ISA lists per element type.
inline constexpr int host_isa_max_kernels = 4;

/// One ISA level's build of the host micro-kernels (the dispatcher's table row).
struct HostIsaKernels {
  const char* name;    ///< "x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64" or "generic" (not x86)
  int level;           ///< 4, 3, 2, 1 on x86-64 (x86-64-vN; 1 the baseline), 0 elsewhere
  int simd_bytes;      ///< bytes of one vector register used (64, 32, 16)
  int simd_registers;  ///< architectural vector registers (32 or 16)
  int count;           ///< micro-kernels per element type, default first (<= host_isa_max_kernels)
  HostMicroKernel<float> f32[host_isa_max_kernels];
  HostMicroKernel<double> f64[host_isa_max_kernels];
};

}  // namespace mmapp::host
