// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// The host GEMM's parts on their own (miniapp/kernels/host_blocking.hpp,
// tiled_host.hpp), on every host execution space of the build:
//  - the blocking is a pure function: its invariants for many shapes and
//    thread counts, KC from Low et al.'s model with its floor, caches read;
//  - gemm_goto with tiny caches, so that every loop (NC, KC and MC blocks,
//    column splits, several teams) runs more than once and ends on a partial
//    block, against an independent double triple loop, beta = 0 (C = NaN on
//    entry) and beta != 0, with padded leading dimensions (stride(0) > extent(1));
//  - gemm_rows for 1 .. 2R+1 rows and a partial column strip;
//  - both for every micro-kernel of every ISA level compiled that this CPU
//    runs (host_isa.hpp), not only the level the dispatcher picks;
//  - a too small workspace is refused;
//  - the registry's host rule picks the few-rows variant below the packed
//    kernel's MR rows, the packed one from MR rows up.
#include "core/exec_spaces.hpp"
#include "gemm_check.hpp"
#include "deck/init.hpp"
#include "kernels/catalog.hpp"
#include "kernels/host/host_isa.hpp"
#include "kernels/host/tiled_host.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <cmath>
#include <limits>
#include <string>
#include <tuple>
#include <vector>

namespace {

using mmapp::host::CacheLevel;
using mmapp::host::HostBlocking;
using mmapp::host::HostCaches;

/// Caches so small that every block dimension is minimal: KC at its floor,
/// MC = MR, NC = NR.
HostCaches tiny_caches() {
  HostCaches c;
  c.l1d = CacheLevel{4096, 4, 64};
  c.l2 = CacheLevel{16384, 4, 64};
  c.l3 = CacheLevel{65536, 8, 64};
  return c;
}

/// The host execution spaces of this build (Serial, OpenMP), for templated tests.
using HostSpaces = decltype(std::tuple_cat(std::declval<mmapp::detail::SerialList>(),
                                           std::declval<mmapp::detail::OpenMPList>()));

using mmapp_test::count_bad;
using mmapp_test::padded;

/// The ISA levels of this build that this CPU runs: every one is tested, not
/// only the one the dispatcher picks.
std::vector<const mmapp::host::HostIsaKernels*> runnable_isas() {
  std::vector<const mmapp::host::HostIsaKernels*> v;
  for (const auto* isa : mmapp::host::compiled_host_isas())
    if (mmapp::host::cpu_supports_level(isa->level)) v.push_back(isa);
  return v;
}

template <class Space, class T>
void check_goto_tiny_caches(const mmapp::host::HostMicroKernel<T>& uk) {
  const int MR = uk.mr, NR = uk.nr;
  const HostCaches caches = tiny_caches();
  struct Case {
    long m, n, k;
  };
  // K above two KC floors (512 float, 256 double), M and N no multiple of MR, NR.
  for (const Case s : {Case{2 * MR + 3, 3 * NR + 5, 1100}, Case{1, NR + 1, 700}, Case{MR + 1, 2, 3}}) {
    const auto A = padded<Space, T>(s.m, s.k, 3, 0, 11), B = padded<Space, T>(s.k, s.n, 5, 1, 11);
    const auto C0 = padded<Space, T>(s.m, s.n, 7, 2, 11);
    REQUIRE(A.stride(0) == s.k + 3);
    REQUIRE(C0.stride(0) == s.n + 7);
    const auto blk = mmapp::host::host_blocking(caches, s.m, s.n, s.k, MR, NR, int(sizeof(T)), 1);
    // Several blocks in every dimension that has room for them.
    if (s.m > 2 * MR) CHECK(blk.m_blocks > 1);
    if (s.n > 2 * NR) CHECK(blk.nc < s.n);
    if (s.k > 512) CHECK(blk.kc < s.k);
    mmapp::Workspace<Space> work("work",
                                 mmapp::host::goto_workspace_bytes(s.m, s.n, s.k, MR, NR, int(sizeof(T)), caches));
    for (const int team : {0, 1}) {  // one team of every thread; teams of one thread each
      for (const T beta : {T(0), T(0.5)}) {
        INFO(Space::name() << " " << (sizeof(T) == 4 ? "float" : "double") << " " << MR << "x" << NR
                           << " m=" << s.m << " n=" << s.n << " k=" << s.k << " team_size=" << team
                           << " beta=" << beta);
        auto C = padded<Space, T>(s.m, s.n, 7, 2, 11);
        if (beta == T(0)) Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
        mmapp::host::gemm_goto(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, beta, work}, caches, uk, team);
        Kokkos::fence();
        CHECK(count_bad<T>(A, B, C0, C, beta) == 0);
      }
    }
  }
}

template <class Space, class T>
void check_rows_every_row_count(const mmapp::host::HostMicroKernel<T>& uk) {
  const int R = uk.mr, NR = uk.nr;
  const long n = 2 * NR + 3, k = 3 * 32 + 5;  // K: several passes of the kernel's 32 values of k, and a partial one
  for (long m = 1; m <= 2 * R + 1; ++m)
    for (const T beta : {T(0), T(-1)}) {
      INFO(Space::name() << " " << (sizeof(T) == 4 ? "float" : "double") << " " << R << "x" << NR << " m=" << m
                         << " beta=" << beta);
      const auto A = padded<Space, T>(m, k, 1, 0, 5), B = padded<Space, T>(k, n, 2, 1, 5);
      const auto C0 = padded<Space, T>(m, n, 3, 2, 5);
      auto C = padded<Space, T>(m, n, 3, 2, 5);
      if (beta == T(0)) Kokkos::deep_copy(C, std::numeric_limits<T>::quiet_NaN());
      mmapp::host::gemm_rows(Space{}, mmapp::GemmArgs<Space, T>{A, B, C, beta, {}}, uk);
      Kokkos::fence();
      CHECK(count_bad<T>(A, B, C0, C, beta) == 0);
    }
}

/// Every goto (or rows) micro-kernel of every ISA level this CPU runs.
template <class Space, class T>
void check_every_isa(const char* tag) {
  const auto isas = runnable_isas();
  REQUIRE(!isas.empty());
  for (const auto* isa : isas) {
    INFO("host ISA " << isa->name);
    int tested = 0;
    for (const auto& uk : mmapp::host::isa_kernels<T>(*isa)) {
      if (std::string(uk.tag) != tag) continue;
      ++tested;
      if (uk.rows)
        check_rows_every_row_count<Space, T>(uk);
      else
        check_goto_tiny_caches<Space, T>(uk);
    }
    CHECK(tested >= 1);
  }
}

}  // namespace

TEST_CASE("host blocking: invariants for any shape and thread count", "[host]") {
  const HostCaches zen4{{32 << 10, 8, 64}, {1 << 20, 8, 64}, {32 << 20, 16, 64}, "sysfs"};
  for (const HostCaches& c : {zen4, tiny_caches(), HostCaches{}})
    for (const int elem : {4, 8})
      for (const auto& [mr, nr] : {std::pair{8, 48 * 4 / elem}, std::pair{14, 32 * 4 / elem}, std::pair{6, 16}})
        for (const long m : {1L, 7L, 100L, 1000L, 4096L})
          for (const long n : {1L, 33L, 4096L, 100000L})
            for (const long k : {1L, 300L, 5000L})
              for (const int threads : {1, 2, 16, 64}) {
                INFO("elem=" << elem << " mr=" << mr << " nr=" << nr << " m=" << m << " n=" << n << " k=" << k
                             << " threads=" << threads << " l1=" << c.l1d.size);
                const HostBlocking b = mmapp::host::host_blocking(c, m, n, k, mr, nr, elem, threads);
                const HostBlocking b1 = mmapp::host::host_blocking(c, m, n, k, mr, nr, elem, 1);
                CHECK(b.kc >= 1);
                CHECK(b.kc <= std::max<long>(k, 1));
                CHECK((b.kc == k || b.kc % 8 == 0));
                CHECK(b.mc % mr == 0);
                CHECK(b.nc % nr == 0);
                // M blocks: cover the rows in order, none empty or above mc, at most one MR panel apart.
                long next = 0, smallest = m, largest = 0;
                for (long ib = 0; ib < b.m_blocks; ++ib) {
                  const auto r = mmapp::host::block_rows(b, m, mr, ib);
                  CHECK(r.first == next);
                  CHECK(r.last > r.first);
                  CHECK(r.last - r.first <= b.mc);
                  if (r.last < m) smallest = std::min(smallest, r.last - r.first);
                  largest = std::max(largest, r.last - r.first);
                  next = r.last;
                }
                CHECK(next == m);
                if (b.m_blocks > 1) CHECK(largest - smallest <= mr);
                CHECK(b.n_splits >= 1);
                CHECK(b.kc == b1.kc);  // the packed-B workspace does not depend on the threads
                CHECK(b.nc == b1.nc);
                // K is cut into as few blocks as KC allows, all of (nearly) one size.
                const long kc_max = mmapp::host::kc_for_caches(c, mr, nr, elem);
                CHECK((k + b.kc - 1) / b.kc == (k + kc_max - 1) / kc_max);
                CHECK(b.kc <= kc_max);
                // Work for every thread: as many M blocks each (unless M has too few
                // MR panels for that), or enough column splits.
                const long pm = (m + mr - 1) / mr;
                if (b.m_blocks >= threads && pm >= mmapp::host::round_up(b.m_blocks, threads))
                  CHECK(b.m_blocks % threads == 0);
                const long panels = std::min<long>(b.nc, (n + nr - 1) / nr * nr) / nr;
                if (b.m_blocks < threads && panels >= threads) CHECK(long(b.m_blocks) * b.n_splits >= threads);
              }
}

TEST_CASE("host blocking: KC from Low et al.'s L1 model, at least 2 KiB per row", "[host]") {
  // Zen 4 L1d (32 KiB, 8-way): the model gives 2 ways for an 8 x 48 float
  // micro-panel of A... = 4096 * 1 / 32 = 128 -> the floor, 2048 / 4 = 512.
  const HostCaches zen4{{32 << 10, 8, 64}, {1 << 20, 8, 64}, {32 << 20, 16, 64}, "sysfs"};
  CHECK(mmapp::host::kc_for_caches(zen4, 8, 48, 4) == 512);
  CHECK(mmapp::host::kc_for_caches(zen4, 8, 24, 8) == 256);
  // A large L1 where the model gives more than the floor: 256 KiB, 16-way,
  // 8 x 48 float: floor(15 / 7) = 2 ways of 16 KiB -> 2 * 16384 / 32 = 1024.
  const HostCaches big{{256 << 10, 16, 64}, {4 << 20, 16, 64}, {64 << 20, 16, 64}, "table"};
  CHECK(mmapp::host::kc_for_caches(big, 8, 48, 4) == 1024);
  // MC: A's block in half the L2; NC: B's panel in half the L3.
  const auto b = mmapp::host::host_blocking(zen4, 100000, 100000, 100000, 8, 48, 4, 1);
  CHECK(b.kc == 512);
  CHECK(b.mc == (512 << 10) / (512 * 4) / 8 * 8);
  const long nc_max = (16 << 20) / (512 * 4) / 48 * 48;
  CHECK(b.nc <= nc_max);
  CHECK((100000 + b.nc - 1) / b.nc == (100000 + nc_max - 1) / nc_max);  // as few N blocks as NC allows
}

TEST_CASE("host caches are read from the machine", "[host]") {
  const HostCaches c = mmapp::host::detect_host_caches();
  INFO("source " << c.source << " L1d " << c.l1d.size << " L2 " << c.l2.size << " L3 " << c.l3.size);
  CHECK(c.l1d.size >= 4096);
  CHECK(c.l2.size >= c.l1d.size);
  CHECK(c.l1d.ways >= 1);
  CHECK(c.l1d.line >= 16);
#if defined(__linux__)
  // sysfs where the kernel lists CPU 0's caches; some containers and VMs do not (a fresh CI machine,
  // 2026-12-01), and then glibc's sysconf.
  const bool listed = !mmapp::host::detail::read_line("/sys/devices/system/cpu/cpu0/cache/index0/type").empty();
  INFO("sysfs lists CPU 0's caches: " << listed);
  CHECK(c.source == (listed ? "sysfs" : "sysconf"));
#endif
  CHECK(mmapp::host::detail::parse_size("32K") == 32768);
  CHECK(mmapp::host::detail::parse_size("1024K") == (1 << 20));
  CHECK(mmapp::host::detail::parse_size("32M") == (32 << 20));
  CHECK(mmapp::host::detail::parse_size("") == 0);
}

TEMPLATE_LIST_TEST_CASE("gemm_goto: every block loop more than once, padded rows, both betas, every ISA",
                        "[host][kernels][host_isa]", HostSpaces) {
  check_every_isa<TestType, float>("goto");
  check_every_isa<TestType, double>("goto");
}

TEST_CASE("gemm_goto: a team's B panel slots are its own in every NC block, the block's panels all covered",
          "[host]") {
  // Teams do not wait for each other between NC blocks: a slot that two teams use in two blocks (the last
  // block narrower) is a data race, which the multi-team gemm_goto checks above catch only by chance.
  for (long slots = 1; slots <= 24; ++slots)
    for (long teams = 1; teams <= 9; ++teams)
      for (long panels = 1; panels <= slots; ++panels) {
        INFO("slots " << slots << " teams " << teams << " panels " << panels);
        long next = 0;
        for (long t = 0; t < teams; ++t) {
          const auto [lo, hi] = mmapp::host::team_panels(panels, slots, t, teams);
          const auto [own_lo, own_hi] = mmapp::host::team_panels(slots, slots, t, teams);
          CHECK(lo == next);  // contiguous, in team order: the panels of the block covered once
          CHECK(lo <= hi);
          if (lo < hi) CHECK((own_lo <= lo && hi <= own_hi));  // inside the team's slots of a full block
          next = hi;
        }
        CHECK(next == panels);
      }
}

TEMPLATE_LIST_TEST_CASE("gemm_rows: every row count up to 2R + 1, partial strip, every ISA",
                        "[host][kernels][host_isa]", HostSpaces) {
  check_every_isa<TestType, float>("rows");
  check_every_isa<TestType, double>("rows");
}

TEMPLATE_LIST_TEST_CASE("gemm_goto refuses a workspace that is too small", "[host]", HostSpaces) {
  using Space = TestType;
  const long m = 20, n = 30, k = 40;
  mmapp::Matrix<float, Space> A("A", m, k), B("B", k, n), C("C", m, n);
  const auto uk = mmapp::host::isa_kernels<float>(mmapp::host::selected_host_isa()).front();
  REQUIRE(std::string(uk.tag) == "goto");
  const auto need = mmapp::host::goto_workspace_bytes(m, n, k, uk.mr, uk.nr, 4, tiny_caches());
  const auto run = [&](std::size_t bytes) {
    mmapp::Workspace<Space> work("work", bytes);
    mmapp::host::gemm_goto(Space{}, mmapp::GemmArgs<Space, float>{A, B, C, 0.0f, work}, tiny_caches(), uk);
    Kokkos::fence();
  };
  CHECK_THROWS_AS(run(need - 1), std::invalid_argument);
  CHECK_NOTHROW(run(need));
}

TEMPLATE_LIST_TEST_CASE("host rule: fewer rows than the micro-tile take the rows kernel", "[host]", HostSpaces) {
  using Space = TestType;
  const auto tiled = mmapp::variants_named<Space, float>("tiled");
  REQUIRE(tiled.front().tag == "goto");
  const long mr = tiled.front().thread_tile.at(0);
  std::string why;
  for (long m : {1L, 3L, mr - 1}) {
    INFO("m = " << m);
    CHECK(tiled[mmapp::default_variant<Space, float>(tiled, m, 8192, 8192, why)].tag == "rows");
    CHECK(why.find("host rule") != std::string::npos);
  }
  for (long m : {mr, 100L, 4096L}) {
    INFO("m = " << m);
    CHECK(mmapp::default_variant<Space, float>(tiled, m, 8192, 8192, why) == 0);
    CHECK(why == "default for the backend");
  }
  // Other kernel names have no rows variant: the first is the default whatever m.
  const auto shared = mmapp::variants_named<Space, float>("shared");
  CHECK(mmapp::default_variant<Space, float>(shared, 1, 8192, 8192, why) == 0);
}

TEMPLATE_LIST_TEST_CASE("host kernels: an empty M, N or K (a process grid's empty block)", "[host][kernels]",
                        HostSpaces) {
  // SUMMA hands a rank with no columns (or rows) of C an empty local GEMM;
  // K = 0 leaves C = beta * C. Found on a 16-core node: the blocking divided
  // by the empty dimension (SIGFPE) when asked for the workspace size.
  using Space = TestType;
  for (const auto& [m, n, k] : {std::tuple{5L, 0L, 2L}, {0L, 5L, 2L}, {0L, 0L, 0L}, {4L, 3L, 0L}}) {
    CAPTURE(m, n, k);
    for (const auto& v : mmapp::variants_named<Space, float>("tiled")) {
      CAPTURE(v.tag);
      const std::size_t bytes = v.workspace(m, n, k);
      mmapp::Workspace<Space> work("work", bytes);
      mmapp::Matrix<float, Space> A("A", m, k), B("B", k, n), C("C", m, n);
      Kokkos::deep_copy(C, 3.0f);
      v.run(Space{}, mmapp::GemmArgs<Space, float>{A, B, C, 0.5f, work});
      Kokkos::fence();
      auto h = Kokkos::create_mirror_view_and_copy(Kokkos::HostSpace{}, C);
      for (long i = 0; i < m; ++i)
        for (long j = 0; j < n; ++j) CHECK(h(i, j) == 1.5f);
    }
  }
}
