// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// grid_io.hpp — moving the 2-D distribution's blocks (grid.hpp) in and out:
// fill each rank's block from the global generator, scatter rank 0's whole
// matrix as blocks, stream the blocks of C back to rank 0 in global row
// order, and hash C that way. Blocks are row-major in an execution space's
// memory; everything travels through host memory in chunks of chunk_rows()
// rows (mpi_util.hpp), so no rank but rank 0 in scatter mode holds a whole
// matrix, and rank 0 holds only a chunk of C's rows.
#pragma once

#include "core/types.hpp"
#include "deck/init.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/mpi_util.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace mmapp {

/// A row-major view of `rows` x `cols` elements at `p` in Space's memory (unmanaged).
template <class T, class Space>
Matrix<T, Space> rows_at(T* p, long rows, long cols) {
  return Matrix<T, Space>(p, rows, cols);
}

/// Fills X, this rank's block of matrix `which` (0 = A, 1 = B) whose first
/// element is global (row0, col0), with fill_matrix (init.hpp): the values
/// of the whole matrix, whatever the grid. Blocks in device memory go
/// through a host chunk of chunk_rows() rows, so no host copy of the block
/// is made.
template <class Space, class T>
void fill_block(const Matrix<T, Space>& X, int which, long row0, long col0, Init init, std::uint64_t seed) {
  const long rows = X.extent(0), cols = X.extent(1);
  if (rows == 0 || cols == 0) return;
  if constexpr (is_host_space_v<Space>) {
    fill_matrix<T>(HostMatrix<T>(X.data(), rows, cols), which, row0, init, seed, col0);
  } else {
    const long ch = std::min(rows, chunk_rows<T>(cols));
    HostMatrix<T> chunk(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::fill_chunk"), ch, cols);
    for (long r0 = 0; r0 < rows; r0 += ch) {
      const long n = std::min(ch, rows - r0);
      const HostMatrix<T> part(chunk.data(), n, cols);
      fill_matrix<T>(part, which, row0 + r0, init, seed, col0);
      Kokkos::deep_copy(rows_at<T, Space>(X.data() + r0 * cols, n, cols), part);
    }
  }
}

/// Scatter mode: rank 0 sends every rank its block of `full` (rank 0's whole
/// rows x cols matrix in host memory, row-major; unused elsewhere) in chunks
/// of chunk_rows() rows, and each rank stores its block into `mine` (in
/// Space's memory). The block of rank (prow, pcol) is the rows of part prow
/// of `rows` over the grid's p process rows and the columns of part pcol of
/// `cols` over its q process columns (block_range): A (M x K) and B (K x N)
/// alike. Collective over the grid.
template <class Space, class T>
void scatter_block(const HostMatrix<T>& full, const Matrix<T, Space>& mine, const GridComm& grid) {
  const MPI_Comm world = grid.world();
  const GridShape& g = grid.shape();
  const auto store = [&](const T* src, long r0, long n, long cols) {
    Kokkos::deep_copy(rows_at<T, Space>(mine.data() + r0 * cols, n, cols),
                      Kokkos::View<const T**, Kokkos::LayoutRight, Kokkos::HostSpace>(src, n, cols));
  };
  if (grid.rank() == 0) {
    const long rows = full.extent(0), cols_all = full.extent(1);
    for (int r = 0; r < g.size(); ++r) {
      const Range rr = block_range(rows, g.p, grid_coords(g, r).prow);
      const Range cr = block_range(cols_all, g.q, grid_coords(g, r).pcol);
      const long cols = cr.size();
      if (rr.size() == 0 || cols == 0) continue;
      const long ch = chunk_rows<T>(cols);
      std::vector<T> buf(size_t(std::min(ch, rr.size()) * cols));
      for (long r0 = 0; r0 < rr.size(); r0 += ch) {
        const long n = std::min(ch, rr.size() - r0);
        for (long i = 0; i < n; ++i) std::copy_n(&full(rr.begin + r0 + i, cr.begin), cols, buf.data() + i * cols);
        if (r == 0)
          store(buf.data(), r0, n, cols);
        else
          MPI_Send(buf.data(), int(n * cols), mpi_type<T>(), r, 11, world);
      }
    }
    return;
  }
  const long rows = mine.extent(0), cols = mine.extent(1);
  if (rows == 0 || cols == 0) return;
  const long ch = chunk_rows<T>(cols);
  std::vector<T> buf(size_t(std::min(ch, rows) * cols));
  for (long r0 = 0; r0 < rows; r0 += ch) {
    const long n = std::min(ch, rows - r0);
    MPI_Recv(buf.data(), int(n * cols), mpi_type<T>(), 0, 11, world, MPI_STATUS_IGNORE);
    store(buf.data(), r0, n, cols);
  }
}

/// Streams every rank's block C (|I| x |J| of an M x N matrix distributed
/// as grid.hpp says, in Space's memory) to rank 0 in global row order: for
/// each process row and each chunk of its rows, rank 0 assembles whole rows
/// of N elements from the q process columns' blocks and calls
/// row_fn(global row, pointer to its N elements), row after row. Rank 0 holds
/// chunk_rows(N) rows of N elements, the others a chunk of their block's rows;
/// no rank holds the whole C. `budget`: the chunk's bytes (tests make it
/// small). Collective over the grid.
template <class Space, class T, class RowFn>
void stream_rows_to_root(const Matrix<T, Space>& C, const GridComm& grid, long M, long N, RowFn&& row_fn,
                         long budget = kChunkBytes) {
  const GridShape& g = grid.shape();
  const int rank = grid.rank();
  const long ch = chunk_rows<T>(N, budget);
  const Range mine_r = block_range(M, g.p, grid.coords().prow), mine_c = block_range(N, g.q, grid.coords().pcol);
  const MPI_Datatype type = mpi_type<T>();
  // This rank's rows [r0, r0 + n) of its block, in host memory.
  std::vector<T> host_chunk;
  const auto local_rows = [&](long r0, long n) -> const T* {
    const long cols = mine_c.size();
    if constexpr (is_host_space_v<Space>) {
      return C.data() + r0 * cols;
    } else {
      host_chunk.resize(size_t(n * cols));
      Kokkos::deep_copy(HostMatrix<T>(host_chunk.data(), n, cols), rows_at<T, Space>(C.data() + r0 * cols, n, cols));
      return host_chunk.data();
    }
  };
  if (rank != 0) {
    if (mine_r.size() == 0 || mine_c.size() == 0) return;
    for (long r0 = 0; r0 < mine_r.size(); r0 += ch) {
      const long n = std::min(ch, mine_r.size() - r0);
      MPI_Send(local_rows(r0, n), int(n * mine_c.size()), type, 0, 12, grid.world());
    }
    return;
  }
  std::vector<T> rows(size_t(std::min(ch, M) * N));
  for (int pr = 0; pr < g.p; ++pr) {
    const Range rr = block_range(M, g.p, pr);
    for (long r0 = 0; r0 < rr.size(); r0 += ch) {
      const long n = std::min(ch, rr.size() - r0);
      for (int pc = 0; pc < g.q; ++pc) {
        const Range cr = block_range(N, g.q, pc);
        if (cr.size() == 0) continue;
        const int src = grid_rank(g, pr, pc);
        if (src == 0) {
          const T* p = local_rows(r0, n);
          for (long i = 0; i < n; ++i) std::copy_n(p + i * cr.size(), cr.size(), rows.data() + i * N + cr.begin);
        } else {
          MPI_Datatype seg;  // n rows of |J| elements, N apart: straight into the assembled rows
          MPI_Type_vector(int(n), int(cr.size()), int(N), type, &seg);
          MPI_Type_commit(&seg);
          MPI_Recv(rows.data() + cr.begin, 1, seg, src, 12, grid.world(), MPI_STATUS_IGNORE);
          MPI_Type_free(&seg);
        }
      }
      for (long i = 0; i < n; ++i) row_fn(rr.begin + r0 + i, rows.data() + i * N);
    }
  }
}

/// XXH3-64 of C in global row-major order, "0x%016x" (see
/// stream_rows_to_root); "" on ranks other than 0. The same as the hash of
/// the whole C's bytes held on one rank (driver/row_split.hpp, ordered_checksum).
template <class Space, class T>
std::string grid_checksum(const Matrix<T, Space>& C, const GridComm& grid, long M, long N, long budget = kChunkBytes) {
  std::unique_ptr<Xxh3Digest> digest;
  if (grid.rank() == 0) digest = std::make_unique<Xxh3Digest>();
  stream_rows_to_root<Space, T>(
      C, grid, M, N, [&](long, const T* row) { digest->update(row, size_t(N) * sizeof(T)); }, budget);
  return digest ? digest->hex() : "";
}

}  // namespace mmapp
