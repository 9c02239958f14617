// tiled_host.hpp — the host GEMM kernels of the `tiled` family, C = A*B + beta*C,
// done the way GotoBLAS and BLIS do it (K. Goto, R. A. van de Geijn, "Anatomy
// of high-performance matrix multiplication", ACM TOMS 34(3), 2008; F. G. Van
// Zee, R. A. van de Geijn, "BLIS: A Framework for Rapidly Instantiating BLAS
// Functionality", ACM TOMS 41(3), 2015), in portable C++ and Kokkos:
//
// gemm_goto<MR, NV> ("goto"; gemm_tiled_host): the five loops around a micro-kernel.
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
//   teams that split the columns); each member takes a contiguous share (as
//   TeamThreadRange would) of the B micro-panels (packing) and of the work
//   items (compute).
//   Scratch: PerThread level 1, MC*KC*sizeof(T) (the packed A block);
//   workspace KC*NC*sizeof(T) (the packed B panel; goto_workspace_bytes).
//
// gemm_rows<R, NV> ("rows"), for few rows of C (the registry's default when M
//   is below the packed kernel's MR, e.g. the 3-row slab): B is read once,
//   unpacked and in row order (each k-row of B is contiguous in the columns
//   the vectors cover); the R x NR accumulators of C stay in registers for
//   rows_kb values of k at a time.
//   The M=3 slab is bound by streaming B (2*M flops per element of B), not by
//   arithmetic; packing B would triple that stream. Parallel mapping:
//   RangePolicy (dynamic) over (R-row groups x column chunks). No scratch,
//   no workspace.
//
// Both: any M, N, K >= 1; row-major (LayoutRight) views with any leading
// stride (stride(0)); beta == 0 never reads C. FLOPs: 2*M*N*K.
// Asynchronous like every kernel; the OpenMP backend completes before return.
#pragma once

#include "kernels/host/host_blocking.hpp"
#include "kernels/host/host_simd.hpp"
#include "core/types.hpp"

#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstddef>
#include <cstring>
#include <stdexcept>
#include <string>

namespace mmapp {
namespace host {

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

/// Calls f(i) for this team member's share of [lo, hi), a contiguous chunk,
/// as Kokkos' TeamThreadRange splits a range on the host backends. Called
/// directly: a nested Kokkos::parallel_for is a host-device function, and in
/// CUDA builds nvcc warns (#20013) at every host-only lambda it calls.
template <class Member, class F>
MMAPP_HOST_INLINE void team_for(const Member& tm, long lo, long hi, F&& f) {
  const long n = hi - lo, r = tm.team_rank(), nt = tm.team_size();
  for (long i = lo + n * r / nt, end = lo + n * (r + 1) / nt; i < end; ++i) f(i);
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

/// Bytes of workspace gemm_goto needs for an m x n x k problem with caches `c`:
/// the packed KC x NC panel of B.
template <class T, int MR, int NV>
std::size_t goto_workspace_bytes(long m, long n, long k, const HostCaches& c) {
  const auto blk = host_blocking(c, m, n, k, MR, NV * lanes<T>, int(sizeof(T)), 1);
  return std::size_t(blk.kc) * std::size_t(blk.nc) * sizeof(T);
}

/// C = beta * C (the k == 0 case: no product to add; beta == 0 writes zeros).
template <class Space, class T>
void scale_c(const Space& space, const Matrix<T, Space>& C, T beta) {
  Kokkos::parallel_for(
      "mmapp::gemm_tiled_host::scale_c", Kokkos::RangePolicy<Space>(space, 0, long(C.extent(0))), [=](long i) {
        for (long j = 0; j < long(C.extent(1)); ++j) C(i, j) = beta == T(0) ? T(0) : beta * C(i, j);
      });
}

/// The GotoBLAS/BLIS GEMM (see the file comment) with block sizes from the
/// caches `caches`: C = A * B + beta * C. A: M x K, B: K x N, C: M x N, all
/// row-major (LayoutRight, any stride(0)), in host-accessible memory;
/// args.work: at least goto_workspace_bytes<T, MR, NV>(M, N, K, caches) bytes.
/// team_size: threads per team (0: host_team_size(space), one team of every
/// thread up to 64); the space's threads form ceil(threads / team_size)
/// teams, which split the columns. Throws std::invalid_argument when the
/// workspace is smaller.
template <int MR, int NV, class Space, class T>
void gemm_goto(const Space& space, const GemmArgs<Space, T>& args, const HostCaches& caches, int team_size = 0) {
  constexpr int W = lanes<T>, NR = NV * W;
  static_assert(MR * NV + NV + 1 <= simd_registers, "micro-kernel does not fit the vector registers");
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

  using policy_t = Kokkos::TeamPolicy<Space>;
  policy_t policy(space, teams, team);
  policy.set_scratch_size(1, Kokkos::PerThread(a_bytes));
  Kokkos::parallel_for("mmapp::gemm_tiled_host", policy, [=](const typename policy_t::member_type& tm) {
    T* const Ap = static_cast<T*>(tm.thread_scratch(1).get_shmem(a_bytes));
    const long t = tm.league_rank(), nteams = tm.league_size();
    for (long jc = 0; jc < N; jc += blk.nc) {
      const long nc = std::min<long>(blk.nc, N - jc);
      const long panels = (nc + NR - 1) / NR;
      const long p_lo = panels * t / nteams, p_hi = panels * (t + 1) / nteams;  // this team's columns
      if (p_lo == p_hi) continue;                                                // (uniform over the team)
      const long tp = p_hi - p_lo;
      const long ns = std::min<long>(tp, blk.n_splits);
      const long items = long(blk.m_blocks) * ns;
      for (long pc = 0; pc < K; pc += blk.kc) {
        const int kc = int(std::min<long>(blk.kc, K - pc));
        team_for(tm, p_lo, p_hi, [&](long p) {
          pack_b_panel<T, NV>(b, ldb, pc, kc, jc + p * NR, int(std::min<long>(NR, nc - p * NR)),
                              Bp + p * long(blk.kc) * NR);
        });
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
            for (int ir = 0; ir < mc; ir += MR)
              pack_a_panel<T, MR>(a, lda, i0 + ir, std::min(MR, mc - ir), pc, kc, Ap + long(ir) * kc);
            packed = ib;
          }
          const long q_lo = p_lo + tp * s / ns, q_hi = p_lo + tp * (s + 1) / ns;
          for (long q = q_lo; q < q_hi; ++q) {
            const T* bq = Bp + q * long(blk.kc) * NR;
            const int n = int(std::min<long>(NR, nc - q * NR));
            T* cq = c + i0 * ldc + jc + q * NR;
            for (int ir = 0; ir < mc; ir += MR)
              micro_kernel<T, MR, NV>(kc, Ap + long(ir) * kc, bq, cq + ir * ldc, ldc, std::min(MR, mc - ir), n,
                                      beta_k, load_c);
          }
        });
        tm.team_barrier();
      }
    }
  });
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

/// Dispatches rows_block on the run-time row count r (1 .. R).
template <class T, int R, int NV>
MMAPP_HOST_INLINE void rows_block_any(int r, long kc, const T* a, long lda, const T* b, long ldb, T* c, long ldc,
                                      int n, T beta, bool load_c) {
  static_for<R>([&](auto i) {
    constexpr int rows = decltype(i)::value + 1;
    if (r == rows) rows_block<T, rows, NV>(kc, a, lda, b, ldb, c, ldc, n, beta, load_c);
  });
}

/// Values of k per pass over a column chunk in gemm_rows: the R x chunk block
/// of C is read and written once per KB rows of B (KB concurrent row streams).
inline constexpr long rows_kb = 32;

/// The few-rows GEMM (see the file comment): C = A * B + beta * C with R-row
/// groups and NV-vector column strips, B unpacked. Shapes and layouts as
/// gemm_goto; needs no workspace. Right for small M (a few R), where B is
/// streamed once per R rows.
template <int R, int NV, class Space, class T>
void gemm_rows(const Space& space, const GemmArgs<Space, T>& args) {
  constexpr int W = lanes<T>, NR = NV * W;
  static_assert(R * NV + NV + 1 <= simd_registers, "row block does not fit the vector registers");
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
  Kokkos::parallel_for(
      "mmapp::gemm_tiled_host_rows", Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Dynamic>>(space, 0, items),
      [=](long it) {
        const long g = it / chunks, ch = it % chunks;
        const long i0 = g * R;
        const int r = int(std::min<long>(R, M - i0));
        const long s_lo = strips * ch / chunks, s_hi = strips * (ch + 1) / chunks;
        for (long k0 = 0; k0 < K; k0 += rows_kb) {
          const long kb = std::min(rows_kb, K - k0);
          const bool load_c = !(k0 == 0 && beta == T(0));
          const T beta_k = k0 == 0 ? beta : T(1);
          for (long s = s_lo; s < s_hi; ++s) {
            const long j0 = s * NR;
            rows_block_any<T, R, NV>(r, kb, a + i0 * lda + k0, lda, b + k0 * ldb + j0, ldb, c + i0 * ldc + j0, ldc,
                                     int(std::min<long>(NR, N - j0)), beta_k, load_c);
          }
        }
      });
}

}  // namespace host

/// Host `tiled`, the GotoBLAS/BLIS kernel with an MR x (NV vectors) micro-tile
/// and this machine's cache blocking (see the file comment and
/// host::gemm_goto): C = A * B + beta * C, row-major, any M, N, K >= 1.
/// Needs tiled_host_workspace<T, MR, NV>(M, N, K) bytes in args.work
/// (std::invalid_argument otherwise).
template <int MR, int NV, class Space, class T>
void gemm_tiled_host(const Space& space, const GemmArgs<Space, T>& args) {
  host::gemm_goto<MR, NV>(space, args, host::host_caches());
}

/// Workspace of gemm_tiled_host<MR, NV> for an m x n x k problem (bytes).
template <class T, int MR, int NV>
std::size_t tiled_host_workspace(long m, long n, long k) {
  return host::goto_workspace_bytes<T, MR, NV>(m, n, k, host::host_caches());
}

/// Host `tiled` for few rows (the 3-row slab): host::gemm_rows with R-row
/// groups and NV-vector strips; no workspace. Same contract as gemm_tiled_host.
template <int R, int NV, class Space, class T>
void gemm_tiled_host_rows(const Space& space, const GemmArgs<Space, T>& args) {
  host::gemm_rows<R, NV>(space, args);
}

}  // namespace mmapp
