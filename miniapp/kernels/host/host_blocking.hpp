// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// host_blocking.hpp — cache sizes of the CPU the program runs on, and the
// GotoBLAS/BLIS block sizes MC, NC, KC derived from them for a micro-kernel
// of MR x NR (rows of A x columns of B), following the analytical model of
// T. M. Low, F. D. Igual, T. M. Smith, E. S. Quintana-Ortí, "Analytical
// modeling is enough for high-performance BLIS", ACM TOMS 43(2), 2016:
//   KC: the KC x NR micro-panel of packed B stays in L1 while MR x KC
//       micro-panels of packed A stream through it; with W1 ways of
//       S1 = size/W1 bytes each and one way left for C,
//       C_A = floor((W1 - 1) / (1 + NR/MR)) ways hold A's micro-panel and
//       KC = C_A * S1 / (MR * sizeof(T)); raised to 2 KiB per row where that
//       is smaller (measured; see kc_for_caches);
//   MC: the MC x KC block of packed A (one per thread) fills at most half of
//       that thread's L2;
//   NC: the KC x NC panel of packed B (shared by all threads) fills at most
//       half of the L3 (or of the L2 where there is no L3).
// The cache sizes come from Linux sysfs (/sys/devices/system/cpu/cpu0/cache),
// else sysconf, else a table (32 KiB 8-way L1d, 1 MiB 16-way L2, 8 MiB L3).
// Pure functions apart from host_caches(), which reads the machine once.
#pragma once

#include <algorithm>
#include <cstdlib>
#include <fstream>
#include <string>

#if __has_include(<unistd.h>)
#include <unistd.h>
#endif

namespace mmapp::host {

/// One cache level: size in bytes, associativity (ways), line size in bytes.
struct CacheLevel {
  long size = 0;
  int ways = 0;
  int line = 64;
};

/// The data caches seen by one core. `source` says where they came from:
/// "sysfs", "sysconf" or "table" (defaults, nothing could be read).
struct HostCaches {
  CacheLevel l1d{32L << 10, 8, 64};
  CacheLevel l2{1L << 20, 16, 64};
  CacheLevel l3{8L << 20, 16, 64};
  std::string source = "table";
};

namespace detail {
inline std::string read_line(const std::string& path) {
  std::ifstream f(path);
  std::string s;
  std::getline(f, s);
  return s;
}
/// "32K" -> 32768, "1024K" -> 1048576, "32M" -> 33554432, "" -> 0.
inline long parse_size(const std::string& s) {
  if (s.empty()) return 0;
  char* end = nullptr;
  const long v = std::strtol(s.c_str(), &end, 10);
  if (end && (*end == 'K' || *end == 'k')) return v << 10;
  if (end && (*end == 'M' || *end == 'm')) return v << 20;
  if (end && (*end == 'G' || *end == 'g')) return v << 30;
  return v;
}
}  // namespace detail

/// Reads the data-cache hierarchy of CPU 0 (Linux sysfs, else glibc sysconf,
/// else the defaults documented in the file comment). Never throws.
inline HostCaches detect_host_caches() {
  HostCaches c;  // the table's defaults until something is read
  bool any = false;
  for (int i = 0; i < 8; ++i) {
    const std::string dir = "/sys/devices/system/cpu/cpu0/cache/index" + std::to_string(i) + "/";
    const std::string type = detail::read_line(dir + "type");
    if (type.empty()) break;
    if (type == "Instruction") continue;
    CacheLevel lv{detail::parse_size(detail::read_line(dir + "size")),
                  std::atoi(detail::read_line(dir + "ways_of_associativity").c_str()),
                  std::atoi(detail::read_line(dir + "coherency_line_size").c_str())};
    if (lv.size <= 0) continue;
    if (lv.line <= 0) lv.line = 64;
    const int level = std::atoi(detail::read_line(dir + "level").c_str());
    if (level == 1) c.l1d = lv, any = true;
    if (level == 2) c.l2 = lv, any = true;
    if (level == 3) c.l3 = lv, any = true;
  }
  if (any) {
    c.source = "sysfs";
    return c;
  }
#if defined(_SC_LEVEL1_DCACHE_SIZE) && defined(_SC_LEVEL2_CACHE_SIZE) && defined(_SC_LEVEL3_CACHE_SIZE)
  const long l1 = sysconf(_SC_LEVEL1_DCACHE_SIZE), l2 = sysconf(_SC_LEVEL2_CACHE_SIZE);
  if (l1 > 0 && l2 > 0) {
    c.l1d = {l1, int(std::max(1L, sysconf(_SC_LEVEL1_DCACHE_ASSOC))), 64};
    c.l2 = {l2, int(std::max(1L, sysconf(_SC_LEVEL2_CACHE_ASSOC))), 64};
    const long l3 = sysconf(_SC_LEVEL3_CACHE_SIZE);
    c.l3 = {l3 > 0 ? l3 : 0, int(std::max(1L, sysconf(_SC_LEVEL3_CACHE_ASSOC))), 64};
    c.source = "sysconf";
    return c;
  }
#endif
  return c;
}

/// The caches of this machine, read once (thread-safe static).
inline const HostCaches& host_caches() {
  static const HostCaches c = detect_host_caches();
  return c;
}

/// Block sizes of one GEMM: KC (depth of a packed block), NC (columns of the
/// shared packed B panel), MC (rows of the largest packed A block, which a
/// thread's scratch must hold) and the parallel split of the M x NC block into
/// m_blocks x n_splits work items (block_rows gives each M block's rows).
/// All in elements; mc % MR == 0, nc % NR == 0.
struct HostBlocking {
  int mc = 0, nc = 0, kc = 0;
  int m_blocks = 1, n_splits = 1;
};

/// Rows [first, last) of M block `ib` (0 <= ib < b.m_blocks) for an m-row
/// problem and micro-tile height mr: block ib holds the MR-row panels
/// floor(P ib / m_blocks) .. floor(P (ib+1) / m_blocks), P = ceil(m / mr).
struct RowRange {
  long first, last;
};
inline RowRange block_rows(const HostBlocking& b, long m, int mr, long ib) {
  const long pm = (m + mr - 1) / mr;
  return {mr * (pm * ib / b.m_blocks), std::min(m, mr * (pm * (ib + 1) / b.m_blocks))};
}

/// Rounds x up to a multiple of q (q > 0).
inline long round_up(long x, long q) { return (x + q - 1) / q * q; }

/// Smallest KC in bytes of one row of a packed micro-panel (KC * sizeof(T)).
inline constexpr long kc_min_bytes = 2048;

/// KC for a micro-kernel mr x nr of `elem` bytes per value: Low et al.'s L1
/// model (see the file comment), but at least kc_min_bytes / elem (512 float,
/// 256 double), a multiple of 8. Every x86 L1 with a 2- or 3-vector AVX-512
/// micro-tile gives less (Zen 4, 32 KiB 8-way, 8 x 48 float: 128); C is read
/// and written once per KC block, and at those KC that traffic, not L1 misses
/// of B (which L2 serves at a few bytes per cycle), cost 15-20% on the
/// development machine (docs/performance.md). Independent of the problem.
inline int kc_for_caches(const HostCaches& c, int mr, int nr, int elem) {
  const int ways = std::max(2, c.l1d.ways);
  const long way_bytes = c.l1d.size / ways;
  const int ways_a = std::max(1, int((ways - 1) / (1.0 + double(nr) / mr)));
  const long kc_l1 = ways_a * way_bytes / (long(mr) * elem);
  return int(std::max(kc_min_bytes / elem, kc_l1) / 8 * 8);
}

/// The blocking of an m x n x k GEMM for an mr x nr micro-kernel
/// of `elem`-byte values on `threads` threads (>= 1), from the caches `c`:
/// KC and NC depend on the problem and the caches only (so the packed-B
/// workspace is known before the thread count), and are balanced so that no
/// last block is much thinner than the others; MC and the split into
/// m_blocks x n_splits work items also balance the work over the threads.
/// An empty dimension (a rank's empty block of a process grid, K = 0) is
/// blocked as 1: the kernel returns before using it, and the workspace stays
/// a valid size.
inline HostBlocking host_blocking(const HostCaches& c, long m, long n, long k, int mr, int nr, int elem,
                                  int threads) {
  HostBlocking b;
  threads = std::max(1, threads);
  m = std::max(1L, m), n = std::max(1L, n), k = std::max(1L, k);
  // KC: from L1, then spread evenly over ceil(k / KC) blocks.
  const long kc_max = kc_for_caches(c, mr, nr, elem);
  const long k_blocks = (k + kc_max - 1) / kc_max;
  b.kc = int(std::min(kc_max, round_up((k + k_blocks - 1) / k_blocks, 8)));
  b.kc = int(std::min<long>(b.kc, k));
  // NC: the shared B panel in half the last-level cache.
  const long llc = c.l3.size > 0 ? c.l3.size : c.l2.size;
  const long nc_max = std::max<long>(nr, (llc / 2) / (long(b.kc) * elem) / nr * nr);
  const long n_blocks = (n + nc_max - 1) / nc_max;
  b.nc = int(round_up((n + n_blocks - 1) / n_blocks, nr));
  // MC: a thread's A block in half its L2, then enough blocks for the
  // threads: M's MR-row panels are dealt to m_blocks blocks as evenly as
  // possible (block_rows), so blocks differ by one panel at most.
  const long pm = (m + mr - 1) / mr;
  const long ppb_max = std::max<long>(1, (c.l2.size / 2) / (long(b.kc) * elem) / mr);
  long mb = (pm + ppb_max - 1) / ppb_max;
  if (mb >= threads)
    mb = round_up(mb, threads);  // every thread as many blocks
  else
    mb = std::max(mb, std::min<long>(threads, pm / 2));  // up to one block of >= 2 panels per thread
  mb = std::max(1L, std::min(mb, pm));
  b.m_blocks = int(mb);
  b.mc = int((pm + mb - 1) / mb * mr);  // the largest block
  const long panels = (std::min<long>(b.nc, round_up(n, nr))) / nr;
  long ns = 1;
  if (b.m_blocks < threads) ns = std::min<long>(panels, (threads + b.m_blocks - 1) / b.m_blocks);
  b.n_splits = int(std::max(1L, ns));
  return b;
}

}  // namespace mmapp::host
