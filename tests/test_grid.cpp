// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// test_grid.cpp — the pure process-grid unit (miniapp/grid.hpp): block
// ranges (ScaLAPACK's numroc layout, empty trailing blocks), owners, the
// auto grid, rank <-> coordinates, resolve_grid's message, and SUMMA's panel
// splitting (width <= NB, split at both K partitions, cover [0, K) in order,
// owners right). No MPI, no Kokkos.
#include "parallel/grid.hpp"

#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <string>
#include <vector>

using namespace mmapp;

namespace {

/// ScaLAPACK's NUMROC (TOOLS/numroc.f), written out: the number of rows or
/// columns of a block-cyclic distribution (block nb, source process 0) that
/// process iproc of nprocs owns.
long numroc(long n, long nb, int iproc, int nprocs) {
  const long nblocks = n / nb;
  long num = (nblocks / nprocs) * nb;
  const long extra = nblocks % nprocs;
  if (iproc < extra)
    num += nb;
  else if (iproc == extra)
    num += n % nb;
  return num;
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("grid: block ranges are ScaLAPACK's numroc layout with block ceil(n/parts)", "[grid]") {
  for (long n = 0; n <= 40; ++n)
    for (int parts = 1; parts <= 7; ++parts) {
      INFO("n=" << n << " parts=" << parts);
      const long b = block_size(n, parts);
      CHECK(b == std::max(1L, (n + parts - 1) / parts));
      long next = 0;
      for (int i = 0; i < parts; ++i) {
        const Range r = block_range(n, parts, i);
        CHECK(r.begin == next);  // contiguous, in order
        CHECK(r.size() >= 0);
        CHECK(r.size() <= b);
        CHECK(r.size() == numroc(n, b, i, parts));
        for (long g = r.begin; g < r.end; ++g) CHECK(block_owner(n, parts, g) == i);
        next = r.end;
      }
      CHECK(next == n);  // cover [0, n)
      CHECK(block_ranges(n, parts).size() == size_t(parts));
    }
}

TEST_CASE("grid: trailing blocks may be short or empty", "[grid]") {
  CHECK(block_ranges(2, 3) == std::vector<Range>{{0, 1}, {1, 2}, {2, 2}});    // M = 2 on 3 process rows
  CHECK(block_ranges(9, 4) == std::vector<Range>{{0, 3}, {3, 6}, {6, 9}, {9, 9}});
  CHECK(block_ranges(10, 4) == std::vector<Range>{{0, 3}, {3, 6}, {6, 9}, {9, 10}});
  CHECK(block_ranges(37, 2) == std::vector<Range>{{0, 19}, {19, 37}});
  CHECK(block_ranges(1, 4) == std::vector<Range>{{0, 1}, {1, 1}, {1, 1}, {1, 1}});
  CHECK_THROWS(block_range(10, 4, 4));
  CHECK_THROWS(block_owner(10, 4, 10));
}

TEST_CASE("grid: auto picks the most square p x q, p <= q", "[grid]") {
  const std::vector<std::pair<int, std::pair<int, int>>> cases{
      {1, {1, 1}}, {2, {1, 2}}, {3, {1, 3}}, {4, {2, 2}}, {5, {1, 5}},  {6, {2, 3}},
      {7, {1, 7}}, {8, {2, 4}}, {9, {3, 3}}, {12, {3, 4}}, {16, {4, 4}}, {18, {3, 6}}, {64, {8, 8}}};
  for (const auto& [n, pq] : cases) {
    INFO(n << " ranks");
    const GridShape g = auto_grid(n);
    CHECK(g.p == pq.first);
    CHECK(g.q == pq.second);
    CHECK(g.size() == n);
  }
  CHECK_THROWS(auto_grid(0));
}

TEST_CASE("grid: ranks are row-major in the grid", "[grid]") {
  const GridShape g{2, 3};
  for (int r = 0; r < 6; ++r) {
    const GridCoords c = grid_coords(g, r);
    CHECK(c.prow == r / 3);
    CHECK(c.pcol == r % 3);
    CHECK(grid_rank(g, c.prow, c.pcol) == r);
  }
  CHECK_THROWS(grid_coords(g, 6));
}

TEST_CASE("grid: resolve_grid checks p x q against the rank count and names the key", "[grid]") {
  Decomposition d;
  d.kind = SplitKind::grid;
  d.grid_p = 2, d.grid_q = 3;
  d.grid_where = "deck.yaml:7: ";
  CHECK(resolve_grid(d, 6).p == 2);
  try {
    resolve_grid(d, 4);
    FAIL("no error");
  } catch (const std::invalid_argument& e) {
    CHECK(std::string(e.what()).rfind("deck.yaml:7: parallel.decomposition.grid: 2x3 = 6 ranks but the job has 4", 0) ==
          0);
  }
  d.grid_p = d.grid_q = 0;  // auto
  CHECK(resolve_grid(d, 8).p == 2);
  CHECK(resolve_grid(d, 8).q == 4);
  d.kind = SplitKind::even;
  CHECK_THROWS(resolve_grid(d, 4));
}

TEST_CASE("grid: each rank's blocks of A, B and C", "[grid]") {
  const GridShape g{2, 2};
  const GridBlocks b = grid_blocks(37, 29, 53, g, {1, 0});
  CHECK(b.rows == Range{19, 37});  // M over p
  CHECK(b.cols == Range{0, 15});   // N over q
  CHECK(b.a_k == Range{0, 27});    // K over q: A's columns
  CHECK(b.b_k == Range{27, 53});   // K over p: B's rows
  const GridBlocks e = grid_blocks(2, 5, 4, GridShape{3, 1}, {2, 0});
  CHECK(e.rows.size() == 0);  // M = 2 on 3 process rows: the last is empty
  CHECK(e.cols == Range{0, 5});
}

TEST_CASE("grid: SUMMA panels are at most NB wide and split at both K partitions", "[grid]") {
  for (long k = 1; k <= 60; k += 7)
    for (const GridShape g : {GridShape{1, 1}, GridShape{1, 2}, GridShape{2, 1}, GridShape{2, 2}, GridShape{3, 1},
                              GridShape{1, 3}, GridShape{2, 3}, GridShape{4, 1}})
      for (long nb : {1L, 3L, 8L, 1000L}) {
        INFO("k=" << k << " grid " << g.p << "x" << g.q << " nb=" << nb);
        const auto panels = summa_panels(k, g, nb);
        long next = 0;
        for (const auto& pn : panels) {
          CHECK(pn.k0 == next);
          CHECK(pn.width() >= 1);
          CHECK(pn.width() <= nb);
          // inside one block of A's K partition (over q) and of B's (over p)
          CHECK(block_owner(k, g.q, pn.k0) == pn.a_owner_col);
          CHECK(block_owner(k, g.q, pn.k1 - 1) == pn.a_owner_col);
          CHECK(block_owner(k, g.p, pn.k0) == pn.b_owner_row);
          CHECK(block_owner(k, g.p, pn.k1 - 1) == pn.b_owner_row);
          next = pn.k1;
        }
        CHECK(next == k);
        // every boundary of either partition and every NB step is a panel boundary, and no other
        std::vector<long> expect;
        for (long k0 = 0; k0 < k;) {
          long k1 = std::min(k, k0 + nb);
          for (const auto& r : block_ranges(k, g.q))
            if (r.begin > k0 && r.begin < k1) k1 = r.begin;
          for (const auto& r : block_ranges(k, g.p))
            if (r.begin > k0 && r.begin < k1) k1 = r.begin;
          expect.push_back(k1);
          k0 = k1;
        }
        REQUIRE(panels.size() == expect.size());
        for (size_t i = 0; i < panels.size(); ++i) CHECK(panels[i].k1 == expect[i]);
        CHECK(widest_panel(panels) <= nb);
      }
}

TEST_CASE("grid: panels of the issue's example and the errors", "[grid]") {
  // K = 53, 2 x 2, NB = 8: A's and B's K partitions both split at 27.
  const auto p = summa_panels(53, GridShape{2, 2}, 8);
  std::vector<long> ends;
  for (const auto& x : p) ends.push_back(x.k1);
  CHECK(ends == std::vector<long>{8, 16, 24, 27, 35, 43, 51, 53});
  CHECK(p[3].a_owner_col == 0);
  CHECK(p[4].a_owner_col == 1);
  CHECK(p[4].b_owner_row == 1);
  // 3 x 1: B's rows split at 18 and 36, A is whole.
  const auto q = summa_panels(53, GridShape{3, 1}, 100);
  REQUIRE(q.size() == 3);
  CHECK(q[0].k1 == 18);
  CHECK(q[1].k1 == 36);
  CHECK(q[2].b_owner_row == 2);
  CHECK(q[2].a_owner_col == 0);
  CHECK_THROWS(summa_panels(53, GridShape{2, 2}, 0));
  CHECK_THROWS(summa_panels(0, GridShape{2, 2}, 8));
  try {
    summa_panels(10, GridShape{1, 1}, 0);
  } catch (const std::invalid_argument& e) {
    CHECK(contains(e.what(), "panel width"));
  }
}
