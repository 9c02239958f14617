// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_select.cpp — implementation of transport_select.hpp.
#include "summa/transport_select.hpp"

#if defined(OPEN_MPI) && OPEN_MPI && __has_include(<mpi-ext.h>)
#include <mpi-ext.h>  // MPIX_Query_cuda_support (Open MPI's cuda extension)
#endif

#include <algorithm>
#include <cstddef>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmapp {

const char* describe(PanelPath p) {
  switch (p) {
    case PanelPath::host: return "host";
    case PanelPath::cuda_aware: return "cuda-aware";
    case PanelPath::staged: return "staged through pinned host memory";
    case PanelPath::shared: return "shared: an MPI shared-memory window (one node)";
    case PanelPath::nccl: return "nccl: device to device (NCCL)";
  }
  return "?";
}

int mpi_cuda_support() {
#if defined(OMPI_HAVE_MPI_EXT_CUDA) && OMPI_HAVE_MPI_EXT_CUDA
  return MPIX_Query_cuda_support() ? 1 : 0;
#else
  return -1;
#endif
}

int comm_is_node_local(MPI_Comm comm) {
  MPI_Comm node = MPI_COMM_NULL;
  MPI_Comm_split_type(comm, MPI_COMM_TYPE_SHARED, 0, MPI_INFO_NULL, &node);
  int n = 0, all = 0;
  MPI_Comm_size(node, &n);
  MPI_Comm_size(comm, &all);
  MPI_Comm_free(&node);
  return n == all ? 1 : 0;
}

bool grid_is_node_local(const GridComm& grid) {
  const int row_local = comm_is_node_local(grid.row());  // both on every rank: each is collective
  const int col_local = comm_is_node_local(grid.col());
  int node_local = row_local && col_local;
  MPI_Allreduce(MPI_IN_PLACE, &node_local, 1, MPI_INT, MPI_MIN, grid.world());
  return node_local != 0;
}

PanelPath choose_panel_path(Transfer transfer, bool gpu, bool node_local, int rank, const NcclFacts& nccl) {
  if (transfer == Transfer::nccl) {
    if (!nccl.possible()) throw std::runtime_error("parallel.decomposition.transfer: nccl, but " + nccl.why_not());
    return PanelPath::nccl;
  }
  if (transfer == Transfer::automatic && nccl.usable()) return PanelPath::nccl;
  if (transfer == Transfer::shared) {
    if (!node_local)
      throw std::runtime_error(
          "parallel.decomposition.transfer: shared, but a process row or column spans more than one node "
          "(MPI_COMM_TYPE_SHARED); use staged, cuda-aware or auto");
    return PanelPath::shared;
  }
  if (!gpu) return PanelPath::host;
  const int aware = mpi_cuda_support();
  if (transfer == Transfer::staged) return PanelPath::staged;
  if (transfer == Transfer::cuda_aware) {
    if (aware == 0)
      throw std::runtime_error(
          "parallel.decomposition.transfer: cuda-aware, but this MPI reports no CUDA support "
          "(MPIX_Query_cuda_support() = 0 on rank " + std::to_string(rank) + "); use staged or auto");
    return PanelPath::cuda_aware;
  }
  return aware == 1 ? PanelPath::cuda_aware : node_local ? PanelPath::shared : PanelPath::staged;
}

PanelTransportChoice agree_panel_transport(PanelPath mine, Overlap overlap, MPI_Comm world) {
  PanelTransportChoice c;
  c.path = mine;
  int nccl_any = mine == PanelPath::nccl, nccl_all = nccl_any;
  MPI_Allreduce(MPI_IN_PLACE, &nccl_any, 1, MPI_INT, MPI_MAX, world);
  MPI_Allreduce(MPI_IN_PLACE, &nccl_all, 1, MPI_INT, MPI_MIN, world);
  if (nccl_any != nccl_all) throw std::logic_error("SUMMA: some ranks chose the NCCL transport and some did not");
  int shared_any = mine == PanelPath::shared, shared_all = shared_any;
  MPI_Allreduce(MPI_IN_PLACE, &shared_any, 1, MPI_INT, MPI_MAX, world);
  MPI_Allreduce(MPI_IN_PLACE, &shared_all, 1, MPI_INT, MPI_MIN, world);
  if (shared_any && !shared_all && c.path == PanelPath::shared) c.path = PanelPath::staged;
  int device_mpi = c.path == PanelPath::cuda_aware ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &device_mpi, 1, MPI_INT, MPI_MAX, world);
  c.overlap = overlap == Overlap::ibcast || (overlap == Overlap::automatic && device_mpi == 0);

  int nranks = 1;
  MPI_Comm_size(world, &nranks);
  std::vector<int> paths(static_cast<std::size_t>(nranks));
  const int my_path = int(c.path);
  MPI_Allgather(&my_path, 1, MPI_INT, paths.data(), 1, MPI_INT, world);
  for (int p = 0; p < kPanelPaths; ++p)
    if (std::find(paths.begin(), paths.end(), p) != paths.end())
      c.transfer += (c.transfer.empty() ? "" : "; ") + std::string(describe(PanelPath(p)));
  return c;
}

}  // namespace mmapp
