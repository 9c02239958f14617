// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid.cpp — implementation of grid.hpp (see there for the distribution and
// the panel rule).
#include "parallel/grid.hpp"

#include <algorithm>
#include <stdexcept>

namespace mmapp {

long block_size(long n, int parts) {
  if (parts < 1 || n < 0) throw std::invalid_argument("block_size: needs n >= 0 and parts >= 1");
  return std::max(1L, (n + parts - 1) / parts);
}

Range block_range(long n, int parts, int i) {
  if (i < 0 || i >= parts) throw std::invalid_argument("block_range: part out of range");
  const long b = block_size(n, parts);
  return {std::min(long(i) * b, n), std::min(long(i + 1) * b, n)};
}

std::vector<Range> block_ranges(long n, int parts) {
  std::vector<Range> r;
  for (int i = 0; i < parts; ++i) r.push_back(block_range(n, parts, i));
  return r;
}

int block_owner(long n, int parts, long g) {
  if (g < 0 || g >= n) throw std::invalid_argument("block_owner: index out of range");
  return int(g / block_size(n, parts));
}

GridShape auto_grid(int nranks) {
  if (nranks < 1) throw std::invalid_argument("auto_grid: needs at least one rank");
  int p = 1;
  for (int d = 1; long(d) * d <= nranks; ++d)
    if (nranks % d == 0) p = d;
  return {p, nranks / p};
}

GridShape resolve_grid(const Decomposition& d, int nranks) {
  if (d.kind != SplitKind::grid) throw std::invalid_argument("resolve_grid: not a grid decomposition");
  if (d.grid_p == 0 && d.grid_q == 0) return auto_grid(nranks);
  const long ranks = long(d.grid_p) * d.grid_q;
  if (d.grid_p < 1 || d.grid_q < 1 || ranks != nranks)
    throw std::invalid_argument(d.grid_where + "parallel.decomposition.grid: " + std::to_string(d.grid_p) + "x" +
                                std::to_string(d.grid_q) + " = " + std::to_string(ranks) +
                                " ranks but the job has " + std::to_string(nranks) +
                                " (give p x q equal to the rank count, or grid: auto)");
  return {d.grid_p, d.grid_q};
}

GridCoords grid_coords(const GridShape& g, int rank) {
  if (rank < 0 || rank >= g.size()) throw std::invalid_argument("grid_coords: rank outside the grid");
  return {rank / g.q, rank % g.q};
}

int grid_rank(const GridShape& g, int prow, int pcol) { return prow * g.q + pcol; }

GridBlocks grid_blocks(long m, long n, long k, const GridShape& g, const GridCoords& c) {
  return {block_range(m, g.p, c.prow), block_range(n, g.q, c.pcol), block_range(k, g.q, c.pcol),
          block_range(k, g.p, c.prow)};
}

std::vector<Panel> summa_panels(long k, const GridShape& g, long nb) {
  if (nb < 1) throw std::invalid_argument("summa_panels: the panel width must be >= 1");
  if (k < 1) throw std::invalid_argument("summa_panels: k must be >= 1");
  const long bq = block_size(k, g.q), bp = block_size(k, g.p);
  std::vector<Panel> out;
  for (long k0 = 0; k0 < k;) {
    const int ca = int(k0 / bq), rb = int(k0 / bp);
    const long k1 = std::min({k0 + nb, (ca + 1) * bq, (rb + 1) * bp, k});
    out.push_back({k0, k1, ca, rb});
    k0 = k1;
  }
  return out;
}

long widest_panel(const std::vector<Panel>& panels) {
  long w = 0;
  for (const auto& p : panels) w = std::max(w, p.width());
  return w;
}

}  // namespace mmapp
