// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/wgmma.hpp — Hopper's warpgroup MMA (`wgmma.mma_async`, sm_90a; PTX
// ISA 8.0, "Asynchronous Warpgroup Level Matrix Multiply-Accumulate") for
// the 3xTF32 kernel (tiled_gpu_wgmma.hpp): the scratch layout its operands
// take, their matrix descriptors, the instruction on TF32 operands with FP32
// accumulators (m64nNk8, N 64, 80, 96, 112, 128, 256), its fences, and the accumulator
// fragment's coordinates. A host emulation of the instruction reads the
// operands through the descriptor's fields, as the hardware does, so the
// host tests check the loader's stores, the descriptors and the fragment map
// together (tests/test_mma_host.cpp, "wgmma").
//
// Layout (PTX ISA, "Shared Memory Matrix Layout", K-major with the 128-byte
// swizzle; NVIDIA CUTLASS's Swizzle<3,4,3>): an operand tile is R rows of
// 32 TF32 values along K (128 bytes a row), rows contiguous, the tile
// 1024-byte aligned; the 16-byte chunk q of row r lies at chunk position
// q ^ (r % 8): element (r, k) at byte r*128 + ((k/4) ^ (r%8))*16 + (k%4)*4.
// The descriptor (PTX ISA, "Matrix Descriptor Format") holds the start
// address >> 4 (bits 0-13), the leading-dimension byte offset >> 4 (bits
// 16-29; unused by a swizzled K-major operand, 1 by convention), the
// stride-dimension byte offset >> 4 (bits 32-45: 1024, between groups of 8
// rows) and the swizzle mode (bits 62-63: 1 = 128 bytes). The hardware
// reads element (r, k) of an m64/n-row, k8 operand at the start address
// plus (r/8)*1024 + (r%8)*128 + 4k, then swizzles the address (bits 4-6
// ^= bits 7-9); K step s of a 32-wide tile starts 32*s bytes in. Stores
// of 16-byte chunks by 8 consecutive lanes of one row (A) or of 8 rows
// with chunk indices 0..7 (B, transposed) are conflict-free.
// Accumulators (PTX ISA, "Register Fragments", wgmma .m64nNk8, D): warp w
// of the warpgroup holds rows 16w..16w+15; lane (g = lane/4, t = lane%4)
// holds d[4j + 2h + e] = D(16w + g + 8h, 8j + 2t + e).
// Ordering: scratch written by ordinary stores and read by wgmma needs
// `fence.proxy.async.shared::cta` in each writing thread before the
// barrier; registers written by ordinary instructions and then used by
// wgmma need `wgmma.fence` (wgmma_fence); wgmma_commit closes a group and
// wgmma_wait<0> waits for all of the warpgroup's groups.
#pragma once

#include "kernels/unroll.hpp"

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <cstring>

// The instruction in this compilation pass: a device pass for sm_90a (the
// in-tree Kokkos builds Hopper as sm_90a: cmake/patches-kokkos-3.4.01.patch).
#if defined(__CUDA_ARCH__) && defined(__CUDA_ARCH_FEAT_SM90_ALL)
#define MMAPP_WGMMA_DEVICE 1
#else
#define MMAPP_WGMMA_DEVICE 0
#endif

namespace mmapp {
namespace detail {

/// Bytes of one operand row in scratch: 32 TF32 values along K (the 128-byte swizzle's row).
inline constexpr int kWgmmaRowBytes = 128;
/// Bytes of 8 rows, the swizzle's repeat and the descriptor's stride-dimension offset.
inline constexpr int kWgmmaAtomBytes = 8 * kWgmmaRowBytes;
/// K values per wgmma instruction on TF32 (k8) and per scratch row.
inline constexpr int kWgmmaK = 8, kWgmmaRowK = 32;

/// Byte offset of the 16-byte chunk q (K values 4q..4q+3) of row r in a
/// swizzled operand tile (the file comment's layout).
KOKKOS_INLINE_FUNCTION constexpr int wgmma_chunk_offset(const int r, const int q) {
  return r * kWgmmaRowBytes + ((q ^ (r & 7)) << 4);
}

/// The descriptor of an operand tile whose row 0, K value 0 lies at scratch
/// address `addr` (1024-byte aligned for the tile, plus 32 bytes per K step).
KOKKOS_INLINE_FUNCTION constexpr std::uint64_t wgmma_desc(const std::uint32_t addr) {
  return std::uint64_t((addr & 0x3FFFFu) >> 4) | (std::uint64_t(1) << 16) |
         (std::uint64_t(kWgmmaAtomBytes >> 4) << 32) | (std::uint64_t(1) << 62);
}

/// Row and column of accumulator i of lane `lane` of warp w (0..3) of a warpgroup (the file comment).
KOKKOS_INLINE_FUNCTION constexpr int wgmma_d_row(const int w, const int lane, const int i) {
  return 16 * w + lane / 4 + 8 * ((i / 2) % 2);
}
KOKKOS_INLINE_FUNCTION constexpr int wgmma_d_col(const int lane, const int i) {
  return 8 * (i / 4) + 2 * (lane % 4) + i % 2;
}

/// Host emulation of wgmma on TF32 operands for one thread: d[i] = sum_k
/// A(r, k) B(c, k) (+ d[i] when accumulate), (r, c) = (wgmma_d_row,
/// wgmma_d_col) of warp w, lane `lane`; each operand element read at the
/// address the descriptor gives (start + (row/8) * stride offset + (row%8)
/// * 128 + 4k, swizzled when the mode is 128 bytes) from `scratch` (the
/// addresses are offsets into it). Values as stored (already TF32); the
/// sum in double, rounded once (the hardware's order and truncation are
/// not modelled: the tests compare with a tolerance).
template <int R>
void wgmma_tf32_emulate(float (&d)[R], const std::uint64_t da, const std::uint64_t db, const bool accumulate,
                        const unsigned char* scratch, const int w, const int lane) {
  auto element = [&](const std::uint64_t desc, const int row, const int k) {
    const std::uint32_t start = std::uint32_t(desc & 0x3FFFu) << 4;
    const std::uint32_t stride = std::uint32_t((desc >> 32) & 0x3FFFu) << 4;
    const int mode = int(desc >> 62);
    std::uint32_t a = start + std::uint32_t(row / 8) * stride + std::uint32_t(row % 8) * kWgmmaRowBytes + 4u * k;
    if (mode == 1) a ^= ((a >> 7) & 7u) << 4;
    float v;
    std::memcpy(&v, scratch + a, sizeof v);
    return double(v);
  };
  for (int i = 0; i < R; ++i) {
    double s = accumulate ? double(d[i]) : 0.0;
    const int r = wgmma_d_row(w, lane, i), c = wgmma_d_col(lane, i);
    for (int k = 0; k < kWgmmaK; ++k) s += element(da, r, k) * element(db, c, k);
    d[i] = float(s);
  }
}

/// A device pass without wgmma reached a wgmma variant: the catalog lists
/// them only for sm_90a builds (catalog_gpu.hpp, kGpuWgmma), so this is a bug.
KOKKOS_INLINE_FUNCTION void wgmma_unavailable() {
  Kokkos::abort("mmapp: a wgmma variant ran without sm_90a code (catalog_gpu.hpp lists them only for sm_90a builds)");
}

/// The scratch address of p for a descriptor (device: the shared window's
/// 32-bit address; host: the offset from `base`, the emulation's addresses).
KOKKOS_INLINE_FUNCTION std::uint32_t wgmma_smem_addr(const void* p, const void* base) {
#if defined(__CUDA_ARCH__)
  (void)base;
  return std::uint32_t(__cvta_generic_to_shared(p));
#else
  return std::uint32_t(static_cast<const unsigned char*>(p) - static_cast<const unsigned char*>(base));
#endif
}

/// Makes this thread's ordinary scratch stores visible to wgmma (the async
/// proxy); then a barrier (PTX ISA, "Memory Consistency Model", proxies).
KOKKOS_INLINE_FUNCTION void wgmma_fence_proxy() {
#if MMAPP_WGMMA_DEVICE
  asm volatile("fence.proxy.async.shared::cta;\n" ::: "memory");
#endif
}
/// wgmma.fence: orders earlier register and scratch accesses before the next wgmma.
KOKKOS_INLINE_FUNCTION void wgmma_fence() {
#if MMAPP_WGMMA_DEVICE
  asm volatile("wgmma.fence.sync.aligned;\n" ::: "memory");
#endif
}
/// wgmma.commit_group: the wgmma issued since the last commit form a group.
KOKKOS_INLINE_FUNCTION void wgmma_commit() {
#if MMAPP_WGMMA_DEVICE
  asm volatile("wgmma.commit_group.sync.aligned;\n" ::: "memory");
#endif
}
/// wgmma.wait_group N: at most N groups of this warpgroup still pending.
template <int N>
KOKKOS_INLINE_FUNCTION void wgmma_wait() {
#if MMAPP_WGMMA_DEVICE
  asm volatile("wgmma.wait_group.sync.aligned %0;\n" ::"n"(N) : "memory");
#endif
}
/// Keeps the compiler from moving accesses of the accumulators across an
/// asynchronous wgmma's issue or wait (as CUTLASS's warpgroup_fence_operand).
template <int R>
KOKKOS_INLINE_FUNCTION void wgmma_fence_operands(float (&d)[R]) {
#if MMAPP_WGMMA_DEVICE
  MMAPP_UNROLL
  for (int i = 0; i < R; ++i) asm volatile("" : "+f"(d[i])::"memory");
#else
  (void)d;
#endif
}

/// wgmma.mma_async m64n64k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 32 accumulators (wgmma_d_row / wgmma_d_col).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[32], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %34, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n64k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31"
      "}, %32, %33, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

/// wgmma.mma_async m64n80k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 40 accumulators (wgmma_d_row / wgmma_d_col). The C^T tiles' N: a team's
/// 65-80 rows of C (GpuWgmmaTile's RowsN).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[40], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %42, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n80k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39"
      "}, %40, %41, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

/// wgmma.mma_async m64n96k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 48 accumulators (wgmma_d_row / wgmma_d_col). The C^T tiles' N: a team's
/// 81-96 rows of C (GpuWgmmaTile's RowsN).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[48], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %50, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n96k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47"
      "}, %48, %49, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

/// wgmma.mma_async m64n112k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 56 accumulators (wgmma_d_row / wgmma_d_col). The C^T tiles' N: a team's
/// 97-112 rows of C (GpuWgmmaTile's RowsN).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[56], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %58, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n112k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55"
      "}, %56, %57, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

/// wgmma.mma_async m64n128k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 64 accumulators (wgmma_d_row / wgmma_d_col).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[64], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %66, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n128k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63"
      "}, %64, %65, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

/// wgmma.mma_async m64n256k8 .f32.tf32.tf32 (operands in scratch through the
/// descriptors da, db): d = A B + (accumulate ? d : 0) for this thread's
/// 128 accumulators (wgmma_d_row / wgmma_d_col).
KOKKOS_INLINE_FUNCTION void wgmma_tf32(float (&d)[128], const std::uint64_t da, const std::uint64_t db,
                                       const bool accumulate) {
#if MMAPP_WGMMA_DEVICE
  asm volatile(
      "{\n.reg .pred p;\nsetp.ne.b32 p, %130, 0;\n"
      "wgmma.mma_async.sync.aligned.m64n256k8.f32.tf32.tf32 {"
      "%0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, "
      "%16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, "
      "%32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44, %45, %46, %47, "
      "%48, %49, %50, %51, %52, %53, %54, %55, %56, %57, %58, %59, %60, %61, %62, %63, "
      "%64, %65, %66, %67, %68, %69, %70, %71, %72, %73, %74, %75, %76, %77, %78, %79, "
      "%80, %81, %82, %83, %84, %85, %86, %87, %88, %89, %90, %91, %92, %93, %94, %95, "
      "%96, %97, %98, %99, %100, %101, %102, %103, %104, %105, %106, %107, %108, %109, %110, %111, "
      "%112, %113, %114, %115, %116, %117, %118, %119, %120, %121, %122, %123, %124, %125, %126, %127"
      "}, %128, %129, p, 1, 1;\n}\n"
      : "+f"(d[0]), "+f"(d[1]), "+f"(d[2]), "+f"(d[3]), "+f"(d[4]), "+f"(d[5]), "+f"(d[6]), "+f"(d[7]), "+f"(d[8]),
        "+f"(d[9]), "+f"(d[10]), "+f"(d[11]), "+f"(d[12]), "+f"(d[13]), "+f"(d[14]), "+f"(d[15]), "+f"(d[16]),
        "+f"(d[17]), "+f"(d[18]), "+f"(d[19]), "+f"(d[20]), "+f"(d[21]), "+f"(d[22]), "+f"(d[23]), "+f"(d[24]),
        "+f"(d[25]), "+f"(d[26]), "+f"(d[27]), "+f"(d[28]), "+f"(d[29]), "+f"(d[30]), "+f"(d[31]), "+f"(d[32]),
        "+f"(d[33]), "+f"(d[34]), "+f"(d[35]), "+f"(d[36]), "+f"(d[37]), "+f"(d[38]), "+f"(d[39]), "+f"(d[40]),
        "+f"(d[41]), "+f"(d[42]), "+f"(d[43]), "+f"(d[44]), "+f"(d[45]), "+f"(d[46]), "+f"(d[47]), "+f"(d[48]),
        "+f"(d[49]), "+f"(d[50]), "+f"(d[51]), "+f"(d[52]), "+f"(d[53]), "+f"(d[54]), "+f"(d[55]), "+f"(d[56]),
        "+f"(d[57]), "+f"(d[58]), "+f"(d[59]), "+f"(d[60]), "+f"(d[61]), "+f"(d[62]), "+f"(d[63]), "+f"(d[64]),
        "+f"(d[65]), "+f"(d[66]), "+f"(d[67]), "+f"(d[68]), "+f"(d[69]), "+f"(d[70]), "+f"(d[71]), "+f"(d[72]),
        "+f"(d[73]), "+f"(d[74]), "+f"(d[75]), "+f"(d[76]), "+f"(d[77]), "+f"(d[78]), "+f"(d[79]), "+f"(d[80]),
        "+f"(d[81]), "+f"(d[82]), "+f"(d[83]), "+f"(d[84]), "+f"(d[85]), "+f"(d[86]), "+f"(d[87]), "+f"(d[88]),
        "+f"(d[89]), "+f"(d[90]), "+f"(d[91]), "+f"(d[92]), "+f"(d[93]), "+f"(d[94]), "+f"(d[95]), "+f"(d[96]),
        "+f"(d[97]), "+f"(d[98]), "+f"(d[99]), "+f"(d[100]), "+f"(d[101]), "+f"(d[102]), "+f"(d[103]), "+f"(d[104]),
        "+f"(d[105]), "+f"(d[106]), "+f"(d[107]), "+f"(d[108]), "+f"(d[109]), "+f"(d[110]), "+f"(d[111]),
        "+f"(d[112]), "+f"(d[113]), "+f"(d[114]), "+f"(d[115]), "+f"(d[116]), "+f"(d[117]), "+f"(d[118]),
        "+f"(d[119]), "+f"(d[120]), "+f"(d[121]), "+f"(d[122]), "+f"(d[123]), "+f"(d[124]), "+f"(d[125]),
        "+f"(d[126]), "+f"(d[127])
      : "l"(da), "l"(db), "r"(int(accumulate)));
#else
  (void)d, (void)da, (void)db, (void)accumulate;
  wgmma_unavailable();
#endif
}

}  // namespace detail
}  // namespace mmapp
