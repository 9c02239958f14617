// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid.hpp — the 2-D process grid of the SUMMA decomposition, a small pure
// unit (no MPI, no Kokkos), tested alone.
//
// Distribution. The P ranks form a p x q grid, row-major: rank = prow * q +
// pcol. Each of the M, N, K extents is split into contiguous blocks with the
// block distribution that ScaLAPACK describes with block size ceil(n / parts)
// and source process 0: part i owns [min(i b, n), min((i + 1) b, n)), b =
// ceil(n / parts). So every part but the last non-empty one is full, and the
// trailing parts may be shorter or EMPTY (M = 2 over p = 3: 1, 1, 0; M = 9 over
// p = 4: 3, 3, 3, 0). A ScaLAPACK descriptor with MB = b, RSRC = 0 and
// numroc() gives the very same local extents, so p?gemm can work on mmapp's
// blocks in place (scalapack.hpp).
// Rank (prow, pcol) holds
//   A(rows of part prow of M over p, columns of part pcol of K over q),
//   B(rows of part prow of K over p, columns of part pcol of N over q),
//   C(rows of part prow of M over p, columns of part pcol of N over q).
//
// Panels. SUMMA (R. van de Geijn and J. Watts, "SUMMA: Scalable Universal
// Matrix Multiplication Algorithm", Concurrency: Practice and Experience
// 9(4), 1997) walks K in panels: panel [k0, k1) of A's columns is broadcast
// along each process row from the process column that owns it, the same rows
// of B along each process column from the process row that owns them, and
// every rank adds A_panel * B_panel to its C block. A panel must lie inside
// one block of A's K partition (over q) and one block of B's (over p), so
// the panels are at most NB wide and also split at every boundary of either
// partition.
#pragma once

#include "deck/config.hpp"

#include <string>
#include <vector>

namespace mmapp {

/// A half-open range [begin, end) of global indices.
struct Range {
  long begin = 0, end = 0;
  long size() const { return end - begin; }
  bool operator==(const Range& o) const { return begin == o.begin && end == o.end; }
};

/// Block size of `n` indices over `parts` parts: ceil(n / parts) (>= 1 for
/// n >= 1). Requires n >= 0, parts >= 1.
long block_size(long n, int parts);

/// The indices part `i` (0 <= i < parts) owns: [min(i b, n), min((i+1) b, n)),
/// b = block_size(n, parts); possibly empty. The same as ScaLAPACK's
/// numroc(n, b, i, 0, parts) local count, with these global indices.
Range block_range(long n, int parts, int i);

/// Every part's range, in part order.
std::vector<Range> block_ranges(long n, int parts);

/// The part that owns global index g (0 <= g < n).
int block_owner(long n, int parts, long g);

/// A process grid: p process rows x q process columns.
struct GridShape {
  int p = 1, q = 1;
  int size() const { return p * q; }
};

/// The most square p x q with p * q == nranks and p <= q (1 -> 1x1, 2 -> 1x2,
/// 3 -> 1x3, 4 -> 2x2, 6 -> 2x3, 8 -> 2x4, 12 -> 3x4). Requires nranks >= 1.
GridShape auto_grid(int nranks);

/// The grid of a decomposition for `nranks` ranks: `grid: auto` ->
/// auto_grid(nranks), else [grid_p, grid_q]. Throws std::invalid_argument
/// "<where>parallel.decomposition.grid: 2x3 = 6 ranks but the job has 4"
/// (<where> = d.grid_where) when p x q != nranks, or when d is not a grid.
GridShape resolve_grid(const Decomposition& d, int nranks);

/// Grid coordinates of a rank (row-major order).
struct GridCoords {
  int prow = 0, pcol = 0;
};
GridCoords grid_coords(const GridShape& g, int rank);
int grid_rank(const GridShape& g, int prow, int pcol);

/// The global index ranges of one rank's blocks of C = A B (A m x k, B k x n).
struct GridBlocks {
  Range rows;  ///< rows of A and C: part prow of m over p
  Range cols;  ///< columns of B and C: part pcol of n over q
  Range a_k;   ///< columns of A: part pcol of k over q
  Range b_k;   ///< rows of B: part prow of k over p
};
GridBlocks grid_blocks(long m, long n, long k, const GridShape& g, const GridCoords& c);

/// One SUMMA panel: global columns [k0, k1) of A and rows of B.
struct Panel {
  long k0 = 0, k1 = 0;
  int a_owner_col = 0;  ///< the process column whose A block holds the panel's columns
  int b_owner_row = 0;  ///< the process row whose B block holds the panel's rows
  long width() const { return k1 - k0; }
};

/// The panels of a K of `k` over grid g with width at most `nb` (>= 1): from
/// k0 = 0, each panel ends at the nearest of k0 + nb, the next boundary of
/// k's partition over q (A's columns) and the next boundary of k's partition
/// over p (B's rows). They cover [0, k) in order, each at least 1 wide.
/// Throws std::invalid_argument when nb < 1 or k < 1.
std::vector<Panel> summa_panels(long k, const GridShape& g, long nb);

/// Widest panel of summa_panels(k, g, nb) (0 for none).
long widest_panel(const std::vector<Panel>& panels);

}  // namespace mmapp
