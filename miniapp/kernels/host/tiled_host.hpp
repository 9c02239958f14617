// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// tiled_host.hpp — the host GEMM kernels of the `tiled` family, C = A*B + beta*C,
// done the way GotoBLAS and BLIS do it (K. Goto, R. A. van de Geijn, "Anatomy
// of high-performance matrix multiplication", ACM TOMS 34(3), 2008; F. G. Van
// Zee, R. A. van de Geijn, "BLIS: A Framework for Rapidly Instantiating BLAS
// Functionality", ACM TOMS 41(3), 2015), in portable C++ and Kokkos:
//
// gemm_goto ("goto"; gemm_tiled_host): the five loops around a micro-kernel.
//   for jc in N step NC            (one KC x NC panel of B in the L3)
//     for pc in K step KC
//       pack B(pc:pc+KC, jc:jc+NC) into NC/NR micro-panels [KC][NR], ONCE,
//         by all the threads of a team, into the driver's workspace (`work`)
//       team barrier
//       for ic in M step MC        (work items: MC-row blocks x column ranges)
//         pack A(ic:ic+MC, pc:pc+KC) into MC/MR micro-panels [KC][MR] in the
//           thread's scratch (L2)
//         for jr in NC step NR     (a KC x NR micro-panel of B stays in L1)
//           for ir in MC step MR   (MR x KC micro-panels of A stream from L2)
//             micro-kernel: the MR x NR block of C in registers, NR/W vectors
//             of B and one broadcast of A per row and k (MR*NV FMAs per k)
//       team barrier
//   MC, NC, KC: host_blocking.hpp, from this machine's caches (Low et al. 2016).
//   Parallel mapping: TeamPolicy with one team of all the host threads (up to
//   the backend's team size limit, 64 on OpenMP; more threads form further
//   teams that split the columns, each its fixed slots of the packed B panel:
//   team_panels); each member takes a contiguous share (as TeamThreadRange
//   would) of the B micro-panels (packing) and of the work items (compute).
//   Scratch: PerThread level 1, MC*KC*sizeof(T) (the packed A block);
//   workspace KC*NC*sizeof(T) (the packed B panel; goto_workspace_bytes).
//
// gemm_rows ("rows"), for few rows of C (the registry's default when M
//   is below the packed kernel's MR, e.g. the 3-row slab): B is read once,
//   unpacked and in row order (each k-row of B is contiguous in the columns
//   the vectors cover); the R x NR accumulators of C stay in registers for
//   rows_kb values of k at a time.
//   The M=3 slab is bound by streaming B (2*M flops per element of B), not by
//   arithmetic; packing B would triple that stream. Parallel mapping:
//   RangePolicy (dynamic) over (R-row groups x column chunks). No scratch,
//   no workspace.
//
// The hot loops (packing, the micro-kernel, the R-row block) are compiled
// once per ISA level (micro_kernels.hpp, isa_kernels.cpp) and reached
// through the chosen level's table row (HostMicroKernel, host_isa.hpp: the
// run-time dispatch); what is here is compiled once, for the build's target.
//
// Both: any M, N, K >= 1; row-major (LayoutRight) views with any leading
// stride (stride(0)); beta == 0 never reads C. FLOPs: 2*M*N*K.
// Asynchronous like every kernel; the OpenMP backend completes before return.
#pragma once

#include "kernels/host/host_blocking.hpp"
#include "kernels/host/host_isa.hpp"
#include "core/types.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <utility>

namespace mmapp {
namespace host {

/// Calls f(i) for this team member's share of [lo, hi), a contiguous chunk,
/// as Kokkos' TeamThreadRange splits a range on the host backends. Called
/// directly: a nested Kokkos::parallel_for is a host-device function, and in
/// CUDA builds nvcc warns (#20013) at every host-only lambda it calls.
template <class Member, class F>
inline void team_for(const Member& tm, long lo, long hi, F&& f) {
  const long n = hi - lo, r = tm.team_rank(), nt = tm.team_size();
  for (long i = lo + n * r / nt, end = lo + n * (r + 1) / nt; i < end; ++i) f(i);
}

/// This member's contiguous share [first, last) of [lo, hi) (as team_for).
template <class Member>
inline std::pair<long, long> team_share(const Member& tm, long lo, long hi) {
  const long n = hi - lo, r = tm.team_rank(), nt = tm.team_size();
  return {lo + n * r / nt, lo + n * (r + 1) / nt};
}

/// The B micro-panels [first, last) of one NC block of `panels` panels that
/// team t of `teams` packs and computes in gemm_goto: the team's fixed share
/// of the workspace's `slots` = NC / NR panel slots, clipped to the block
/// (panels <= slots). Fixed, not a share of `panels`: teams do not wait for
/// each other between NC blocks, so a team that moves on to a narrower last
/// block must never pack into a slot another team still reads; with shares of
/// `panels` the slots move between teams when the panel count changes (N = 17,
/// NR = 4, NC = 12: 3 panels, then 2), a data race.
inline std::pair<long, long> team_panels(long panels, long slots, long t, long teams) {
  return {std::min(panels, slots * t / teams), std::min(panels, slots * (t + 1) / teams)};
}

/// Threads per team for the host GEMM on `space`: all of its threads, or,
/// above the largest team the backend allows (64 on OpenMP), an even split of
/// them into the fewest teams.
template <class Space>
int host_team_size(const Space& space) {
  const int threads = std::max(1, space.concurrency());
  const int teams = (threads + 63) / 64;
  return (threads + teams - 1) / teams;
}

/// Bytes of workspace gemm_goto needs for an m x n x k problem with caches `c`
/// and an mr x nr micro-tile of `elem`-byte values: the packed KC x NC panel of B.
inline std::size_t goto_workspace_bytes(long m, long n, long k, int mr, int nr, int elem, const HostCaches& c) {
  const auto blk = host_blocking(c, m, n, k, mr, nr, elem, 1);
  return std::size_t(blk.kc) * std::size_t(blk.nc) * std::size_t(elem);
}

/// C = beta * C (the k == 0 case: no product to add; beta == 0 writes zeros).
template <class Space, class T>
void scale_c(const Space& space, const Matrix<T, Space>& C, T beta) {
  Kokkos::parallel_for(
      "mmapp::gemm_tiled_host::scale_c", Kokkos::RangePolicy<Space>(space, 0, long(C.extent(0))), [=](long i) {
        for (long j = 0; j < long(C.extent(1)); ++j) C(i, j) = beta == T(0) ? T(0) : beta * C(i, j);
      });
}

/// The GotoBLAS/BLIS GEMM (see the file comment) with the micro-kernel `uk`
/// (a "goto" row of an ISA's table) and block sizes from the caches
/// `caches`: C = A * B + beta * C. A: M x K, B: K x N, C: M x N, all
/// row-major (LayoutRight, any stride(0)), in host-accessible memory;
/// args.work: at least goto_workspace_bytes(M, N, K, uk.mr, uk.nr,
/// sizeof(T), caches) bytes. team_size: threads per team (0:
/// host_team_size(space), one team of every thread up to 64); the space's
/// threads form ceil(threads / team_size) teams, which split the columns.
/// Throws std::invalid_argument when the workspace is smaller or `uk` is
/// not a packed kernel.
template <class Space, class T>
void gemm_goto(const Space& space, const GemmArgs<Space, T>& args, const HostCaches& caches,
               const HostMicroKernel<T>& uk, int team_size = 0) {
  if (!uk.pack_a || !uk.pack_b || !uk.compute)
    throw std::invalid_argument("gemm_tiled_host: the micro-kernel given is not a packed (goto) one");
  const int MR = uk.mr, NR = uk.nr;
  const auto& A = args.A;
  const auto& B = args.B;
  const auto& C = args.C;
  const long M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  if (K == 0) return scale_c(space, C, args.beta);
  const int team = team_size > 0 ? std::min(team_size, std::max(1, space.concurrency())) : host_team_size(space);
  const int teams = (std::max(1, space.concurrency()) + team - 1) / team;
  const HostBlocking blk = host_blocking(caches, M, N, K, MR, NR, int(sizeof(T)), team);
  const std::size_t need = std::size_t(blk.kc) * std::size_t(blk.nc) * sizeof(T);
  if (args.work.size() < need)
    throw std::invalid_argument("gemm_tiled_host: workspace of " + std::to_string(args.work.size()) +
                                " bytes, needs " + std::to_string(need));
  T* const Bp = reinterpret_cast<T*>(args.work.data());
  const T* const a = A.data();
  const T* const b = B.data();
  T* const c = C.data();
  const long lda = A.stride(0), ldb = B.stride(0), ldc = C.stride(0);
  const T beta = args.beta;
  const std::size_t a_bytes = std::size_t(blk.mc) * blk.kc * sizeof(T);
  const auto pack_b = uk.pack_b;
  const auto pack_a = uk.pack_a;
  const auto compute = uk.compute;

  using policy_t = Kokkos::TeamPolicy<Space>;
  policy_t policy(space, teams, team);
  policy.set_scratch_size(1, Kokkos::PerThread(a_bytes));
  Kokkos::parallel_for("mmapp::gemm_tiled_host", policy, [=](const typename policy_t::member_type& tm) {
    T* const Ap = static_cast<T*>(tm.thread_scratch(1).get_shmem(a_bytes));
    const long t = tm.league_rank(), nteams = tm.league_size();
    const long panel_stride = long(blk.kc) * NR;
    for (long jc = 0; jc < N; jc += blk.nc) {
      const long nc = std::min<long>(blk.nc, N - jc);
      const long panels = (nc + NR - 1) / NR;
      const auto mine = team_panels(panels, blk.nc / NR, t, nteams);  // this team's columns
      const long p_lo = mine.first, p_hi = mine.second;
      if (p_lo == p_hi) continue;  // (uniform over the team)
      const long tp = p_hi - p_lo;
      const long ns = std::min<long>(tp, blk.n_splits);
      const long items = long(blk.m_blocks) * ns;
      for (long pc = 0; pc < K; pc += blk.kc) {
        const int kc = int(std::min<long>(blk.kc, K - pc));
        const auto share = team_share(tm, p_lo, p_hi);
        pack_b(b, ldb, pc, kc, jc, nc, share.first, share.second, panel_stride, Bp);
        tm.team_barrier();
        const bool load_c = !(pc == 0 && beta == T(0));
        const T beta_k = pc == 0 ? beta : T(1);
        long packed = -1;  // the A block this thread has in Ap
        // Items ordered column range fastest: a thread's consecutive items share its A block.
        team_for(tm, 0, items, [&](long it) {
          const long ib = it / ns, s = it % ns;
          const RowRange rows = block_rows(blk, M, MR, ib);
          const long i0 = rows.first;
          const int mc = int(rows.last - rows.first);
          if (packed != ib) {
            pack_a(a, lda, i0, mc, pc, kc, Ap);
            packed = ib;
          }
          const long q_lo = p_lo + tp * s / ns, q_hi = p_lo + tp * (s + 1) / ns;
          compute(Ap, mc, kc, Bp, panel_stride, q_lo, q_hi, nc, c + i0 * ldc + jc, ldc, beta_k, load_c);
        });
        tm.team_barrier();
      }
    }
  });
}

/// The few-rows GEMM (see the file comment) with the row block `uk` (a
/// "rows" row of an ISA's table: R = uk.mr rows, uk.nr columns per strip):
/// C = A * B + beta * C with R-row groups and NR-column strips, B unpacked.
/// Shapes and layouts as gemm_goto; needs no workspace. Right for small M (a
/// few R), where B is streamed once per R rows. Throws
/// std::invalid_argument when `uk` is not a rows kernel.
template <class Space, class T>
void gemm_rows(const Space& space, const GemmArgs<Space, T>& args, const HostMicroKernel<T>& uk) {
  if (!uk.rows) throw std::invalid_argument("gemm_tiled_host_rows: the micro-kernel given is not a rows one");
  const int R = uk.mr, NR = uk.nr;
  const auto& A = args.A;
  const auto& B = args.B;
  const auto& C = args.C;
  const long M = C.extent(0), N = C.extent(1), K = A.extent(1);
  if (M == 0 || N == 0) return;
  if (K == 0) return scale_c(space, C, args.beta);
  const T* const a = A.data();
  const T* const b = B.data();
  T* const c = C.data();
  const long lda = A.stride(0), ldb = B.stride(0), ldc = C.stride(0);
  const T beta = args.beta;
  const long groups = (M + R - 1) / R;
  const long strips = (N + NR - 1) / NR;
  const long threads = space.concurrency();
  // Enough column chunks for every thread (x2, for the dynamic schedule to balance).
  const long chunks = std::min(strips, std::max(1L, (2 * threads + groups - 1) / groups));
  const long items = groups * chunks;
  const auto rows = uk.rows;
  Kokkos::parallel_for(
      "mmapp::gemm_tiled_host_rows", Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, items),
      [=](long it) {
        const long g = it / chunks, ch = it % chunks;
        const long i0 = g * R;
        const int r = int(std::min<long>(R, M - i0));
        const long s_lo = strips * ch / chunks, s_hi = strips * (ch + 1) / chunks;
        rows(r, K, N, a + i0 * lda, lda, b, ldb, c + i0 * ldc, ldc, s_lo, s_hi, beta);
      });
}

/// The micro-kernel in row `Slot` of the selected ISA's table for T
/// (host_isa.hpp: chosen once, at first use, from the CPU or MMAPP_HOST_ISA).
template <class T, int Slot>
const HostMicroKernel<T>& selected_kernel() {
  const HostIsaKernels& isa = selected_host_isa();
  if constexpr (sizeof(T) == 4)
    return isa.f32[Slot];
  else
    return isa.f64[Slot];
}

}  // namespace host

/// Host `tiled`, row `Slot` of the selected ISA's table (host_isa.hpp): the
/// GotoBLAS/BLIS kernel ("goto", see host::gemm_goto, with this machine's
/// cache blocking) or the few-rows kernel ("rows", host::gemm_rows):
/// C = A * B + beta * C, row-major, any M, N, K >= 1. A goto row needs
/// tiled_host_workspace<T, Slot>(M, N, K) bytes in args.work
/// (std::invalid_argument otherwise).
template <int Slot, class Space, class T>
void gemm_tiled_host(const Space& space, const GemmArgs<Space, T>& args) {
  const auto& uk = host::selected_kernel<T, Slot>();
  if (uk.rows)
    host::gemm_rows(space, args, uk);
  else
    host::gemm_goto(space, args, host::host_caches(), uk);
}

/// Workspace of gemm_tiled_host<Slot> for an m x n x k problem (bytes; 0 for a rows kernel).
template <class T, int Slot>
std::size_t tiled_host_workspace(long m, long n, long k) {
  const auto& uk = host::selected_kernel<T, Slot>();
  return uk.rows ? 0 : host::goto_workspace_bytes(m, n, k, uk.mr, uk.nr, int(sizeof(T)), host::host_caches());
}

}  // namespace mmapp
