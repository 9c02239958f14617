// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_select.hpp — which panel transport (panel_transport.hpp) SUMMA
// runs on each rank, chosen in one place from the deck's
// parallel.decomposition.transfer and overlap, the MPI library's CUDA
// support and where the ranks are:
//   1. grid_is_node_local (collective): does every process row and column
//      of every rank lie within one node?
//   2. choose_panel_path (local, may throw): this rank's path; the caller
//      makes every rank agree on success (driver/plan.hpp, agree_on).
//   3. agree_panel_transport (collective): "shared" is a protocol of its own
//      (barriers, not broadcasts), so all ranks or none; the overlap every
//      rank uses; and the report's description of the paths in use.
// A new transport adds one PanelPath, its describe() text and its rule here,
// and one line in transports.hpp.
#pragma once

#include "deck/config.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/nccl_comm.hpp"

#include <mpi.h>

#include <string>

namespace mmapp {

/// How one rank's panels reach the others (transports.hpp maps each to its
/// transport): MPI broadcasts of buffers in Space's memory (`host` on host
/// backends, `cuda_aware` on a GPU: transport_mpi.hpp), of pinned host
/// copies of device buffers (`staged`: transport_staged.hpp), or an MPI-3
/// shared-memory window on one node (`shared`: transport_shared.hpp), or
/// NCCL broadcasts from device to device (`nccl`: transport_nccl.hpp).
enum class PanelPath { host, cuda_aware, staged, shared, nccl };
inline constexpr int kPanelPaths = 5;  ///< PanelPath's values are 0 .. kPanelPaths - 1

/// "host", "cuda-aware", "staged through pinned host memory", "shared: an
/// MPI shared-memory window (one node)", "nccl: device to device (NCCL)".
const char* describe(PanelPath p);

/// Open MPI's run-time answer to "may device (CUDA) buffers be given to
/// MPI?": 1 yes, 0 no, -1 unknown (not Open MPI, or built without its cuda
/// extension: OMPI_HAVE_MPI_EXT_CUDA). Call after MPI_Init.
int mpi_cuda_support();

/// 1 when every rank of `comm` shares this rank's node (MPI_Comm_split_type
/// MPI_COMM_TYPE_SHARED spans all of it), else 0. Collective over `comm`.
int comm_is_node_local(MPI_Comm comm);

/// True on every rank when every process row and every process column of
/// the grid lies within one node (comm_is_node_local of each, reduced over
/// the world). Collective over grid.world().
bool grid_is_node_local(const GridComm& grid);

/// This rank's panel path for the deck's `transfer`, on a GPU rank (`gpu`)
/// or a host rank, `node_local` from grid_is_node_local, `rank` its world
/// rank (for the message), `nccl` the job's NCCL facts (nccl_facts; the
/// same on every rank):
///   nccl: nccl on every rank when nccl.possible();
///   shared: shared (every rank); cuda_aware / staged: so on a GPU, host on
///   a host rank; automatic: nccl when nccl.usable() (built, every rank a
///   GPU rank with a GPU of its own, not MMAPP_NCCL=off); else host on a
///   host rank; on a GPU cuda_aware when mpi_cuda_support() is 1, else
///   shared when node_local, else staged.
/// Throws std::runtime_error "parallel.decomposition.transfer: nccl, but
/// <NcclFacts::why_not()>", "parallel.decomposition.transfer: shared, but
/// a process row or column spans more than one node ..." or
/// "parallel.decomposition.transfer: cuda-aware, but this MPI reports no CUDA
/// support (MPIX_Query_cuda_support() = 0 on rank R); ...".
PanelPath choose_panel_path(Transfer transfer, bool gpu, bool node_local, int rank, const NcclFacts& nccl = {});

/// The transport every rank runs, agreed from each rank's choose_panel_path.
struct PanelTransportChoice {
  PanelPath path = PanelPath::host;  ///< this rank's path: its choice, but staged where some rank cannot share
  bool overlap = false;              ///< the same on every rank
  std::string transfer;              ///< the paths in use, "; "-separated in PanelPath order (grid.transfer)
};

/// Agrees on the transport over `world` from this rank's choice `mine`:
///   - nccl on all ranks or none (choose_panel_path gives every rank the
///     same answer; a rank that differs is an internal error, thrown as
///     std::logic_error on every rank);
///   - shared on all ranks or none: where only some ranks chose shared
///     (automatic picks it on GPU ranks only), those stage through MPI;
///   - overlap: ibcast, or automatic when no rank gives device buffers to
///     MPI (Open MPI supports MPI_Ibcast on device memory only through UCX);
///   - the report's text of every rank's path.
/// Collective over `world`.
PanelTransportChoice agree_panel_transport(PanelPath mine, Overlap overlap, MPI_Comm world);

}  // namespace mmapp
