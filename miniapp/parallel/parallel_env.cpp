// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// parallel_env.cpp — implementation of parallel_env.hpp (see there for the contracts).
#include "parallel/parallel_env.hpp"

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <algorithm>
#include <climits>

namespace mmapp {

MpiSession::MpiSession(int& argc, char**& argv) { MPI_Init(&argc, &argv); }
MpiSession::~MpiSession() {
  int finalized = 0;
  MPI_Finalized(&finalized);
  if (!finalized) MPI_Finalize();
}

RankPlacement place_rank() {
  RankPlacement p;
  MPI_Comm_rank(MPI_COMM_WORLD, &p.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &p.size);
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, p.rank, MPI_INFO_NULL, &node);
  MPI_Comm_rank(node, &p.local_rank);
  MPI_Comm_size(node, &p.local_size);
  MPI_Comm_free(&node);
  char name[MPI_MAX_PROCESSOR_NAME];
  int len = 0;
  MPI_Get_processor_name(name, &len);
  p.host.assign(name, len);
#ifdef KOKKOS_ENABLE_CUDA
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) count = 0;
  p.visible_gpus = count;
  if (count > 0) {
    p.device_id = p.local_rank % count;
    char bus[32] = {0};
    if (cudaDeviceGetPCIBusId(bus, sizeof bus, p.device_id) == cudaSuccess) p.device_pci = bus;
  }
#endif
  return p;
}

std::string slurm_launcher_mismatch(int mpi_size, const char* step_num_tasks) {
  const int tasks = step_num_tasks ? std::atoi(step_num_tasks) : 0;
  if (mpi_size != 1 || tasks <= 1) return "";
  return "MPI world has 1 rank but this is one of " + std::to_string(tasks) +
         " tasks that srun started (SLURM_STEP_NUM_TASKS): the MPI library does not see srun's process manager, "
         "so each task would run alone as rank 0; launch with srun --mpi=pmix (or the site's MPI plugin), or with "
         "mpirun inside the allocation";
}

std::string check_placement(const RankPlacement& p, bool uses_gpu, bool share_devices) {
  // Launcher mismatch: srun started several tasks, each of them a one-rank world.
  if (std::string why = slurm_launcher_mismatch(p.size, std::getenv("SLURM_STEP_NUM_TASKS")); !why.empty())
    return why;
  // Ranks of a node that would drive the same physical GPU.
  MPI_Comm node;
  MPI_Comm_split_type(MPI_COMM_WORLD, MPI_COMM_TYPE_SHARED, p.rank, MPI_INFO_NULL, &node);
  const std::string mine = uses_gpu ? p.device_pci : std::string();
  char key[32] = {0};
  mine.copy(key, sizeof key - 1);
  std::vector<char> all(size_t(p.local_size) * sizeof key);
  MPI_Allgather(key, sizeof key, MPI_CHAR, all.data(), sizeof key, MPI_CHAR, node);
  MPI_Comm_free(&node);
  std::vector<std::string> used;
  for (int r = 0; r < p.local_size; ++r) {
    const std::string k(all.data() + size_t(r) * sizeof key);
    if (!k.empty()) used.push_back(k);
  }
  const size_t ranks_on_gpus = used.size();
  std::sort(used.begin(), used.end());
  const size_t distinct = size_t(std::unique(used.begin(), used.end()) - used.begin());
  int flags[2] = {(uses_gpu && ranks_on_gpus > distinct && !share_devices) ? 1 : 0,
                  (uses_gpu && p.visible_gpus == 0) ? 1 : 0};
  int counts[2] = {flags[0] ? int(ranks_on_gpus) : 0, flags[0] ? int(distinct) : 0};
  MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  MPI_Allreduce(MPI_IN_PLACE, counts, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (flags[1]) return "backend cuda was asked for but a rank sees no CUDA device";
  if (flags[0])
    return "a node runs " + std::to_string(counts[0]) + " GPU ranks but they reach only " +
           std::to_string(counts[1]) + " distinct GPU(s); use one rank per GPU, or set "
           "parallel.share_devices: true to share GPUs";
  return "";
}

std::string first_error(const std::string& mine, MPI_Comm comm) {
  int rank = 0;
  MPI_Comm_rank(comm, &rank);
  int first = mine.empty() ? INT_MAX : rank;
  MPI_Allreduce(MPI_IN_PLACE, &first, 1, MPI_INT, MPI_MIN, comm);
  if (first == INT_MAX) return "";
  std::string text = mine;
  int len = static_cast<int>(text.size());
  MPI_Bcast(&len, 1, MPI_INT, first, comm);
  text.resize(len);
  MPI_Bcast(text.data(), len, MPI_CHAR, first, comm);
  return text;
}

std::vector<std::string> gather_strings(const std::string& mine, MPI_Comm comm) {
  int rank = 0, size = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &size);
  int len = static_cast<int>(mine.size());
  std::vector<int> lens(size), displs(size, 0);
  MPI_Gather(&len, 1, MPI_INT, lens.data(), 1, MPI_INT, 0, comm);
  int total = 0;
  for (int r = 0; r < size; ++r) displs[r] = total, total += lens[r];
  std::string all(rank == 0 ? total : 0, '\0');
  MPI_Gatherv(mine.data(), len, MPI_CHAR, all.data(), lens.data(), displs.data(), MPI_CHAR, 0, comm);
  std::vector<std::string> out;
  if (rank == 0)
    for (int r = 0; r < size; ++r) out.push_back(all.substr(displs[r], lens[r]));
  return out;
}

std::string device_name(const std::string& backend, int device_id) {
#ifdef KOKKOS_ENABLE_CUDA
  if (backend == "cuda") {
    cudaDeviceProp prop{};
    if (cudaGetDeviceProperties(&prop, device_id) == cudaSuccess)
      return std::string(prop.name) + " (cuda:" + std::to_string(device_id) + ")";
    return "cuda:" + std::to_string(device_id);
  }
#else
  (void)device_id;
#endif
  std::string model = "unknown CPU";
  std::ifstream cpuinfo("/proc/cpuinfo");
  for (std::string line; std::getline(cpuinfo, line);) {
    if (line.rfind("model name", 0) == 0) {
      model = line.substr(line.find(':') + 2);
      break;
    }
  }
  int threads = 1;
#ifdef KOKKOS_ENABLE_OPENMP
  if (backend == "openmp") threads = Kokkos::OpenMP().concurrency();
#endif
  return model + " (" + backend + ", " + std::to_string(threads) + " thread" + (threads == 1 ? "" : "s") + ")";
}

}  // namespace mmapp
