// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// parallel_env.hpp — MPI lifetime (RAII) and where this rank runs: world
// rank/size, node-local rank (MPI_Comm_split_type with MPI_COMM_TYPE_SHARED),
// host name, and the GPU it drives.
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

namespace mmapp {

/// Owns MPI_Init/MPI_Finalize. Not copyable.
class MpiSession {
 public:
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;
  MpiSession& operator=(const MpiSession&) = delete;
};

/// Where this rank is: filled once after MPI_Init, before Kokkos starts.
struct RankPlacement {
  int rank = 0, size = 1;          ///< in MPI_COMM_WORLD
  int local_rank = 0, local_size = 1;  ///< on this node
  std::string host;
  int visible_gpus = 0;            ///< CUDA devices this process sees (0 without CUDA)
  int device_id = -1;              ///< local_rank % visible_gpus, or -1
  std::string device_pci;          ///< PCI bus id of that GPU ("" without one): identifies it across ranks
};

/// Computes the placement. Collective on MPI_COMM_WORLD.
RankPlacement place_rank();

/// Checks the placement before any GPU work (collective); returns "" when
/// fine, else the message (same on every rank). `uses_gpu`: this rank's
/// backend is cuda. Refused: two ranks of a node driving
/// the same physical GPU (same PCI bus id, so per-rank CUDA_VISIBLE_DEVICES
/// from Slurm's --gpus-per-task is fine) when `uses_gpu` and not
/// `share_devices`, naming the rank and GPU counts; a rank with no GPU; or a
/// launcher mismatch under Slurm (slurm_launcher_mismatch).
std::string check_placement(const RankPlacement& p, bool uses_gpu, bool share_devices);

/// The launcher-mismatch check under Slurm, pure. `mpi_size`: MPI_COMM_WORLD's
/// size; `step_num_tasks`: the value of SLURM_STEP_NUM_TASKS (nullptr when
/// unset), which srun sets in the tasks of a job step and which the batch
/// step, where mpirun runs, does not have. Returns the refusal message, or "".
/// Refused only when the world has 1 rank while srun started more than one
/// task: the MPI library did not see srun's process manager (no PMI), so every
/// task runs alone as rank 0 of 1. Accepted: a world smaller than the
/// allocation (`mpirun -np 2` in a 4-task job: SLURM_NTASKS is 4), mpirun's
/// ranks (no step variables), and srun with a working PMI (size == tasks).
std::string slurm_launcher_mismatch(int mpi_size, const char* step_num_tasks);

/// Collective error agreement: `mine` is this rank's error ("" when fine).
/// Returns "" on every rank when no rank failed, else the message of the
/// lowest failing rank, on every rank, so all ranks stop alike (no rank
/// left waiting in a collective).
std::string first_error(const std::string& mine, MPI_Comm comm);

/// Gathers one string from every rank of `comm` to rank 0, in rank order
/// (an empty vector on the other ranks). Collective.
std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm);

/// Name of the device a rank runs on for `backend`: the GPU's name for
/// "cuda", else the host CPU model (from /proc/cpuinfo) and thread count.
std::string device_name(const std::string& backend, int device_id);

}  // namespace mmapp
