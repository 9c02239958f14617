#include "parallel_env.hpp"

#include <Kokkos_Core.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <thread>

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
  if (count > 0) p.device_id = p.local_rank % count;
#endif
  return p;
}

std::string check_placement(const RankPlacement& p, bool uses_gpu, bool share_devices) {
  // Launcher mismatch: srun/sbatch asked for N tasks but this MPI world is smaller.
  if (const char* nt = std::getenv("SLURM_NTASKS")) {
    const int ntasks = std::atoi(nt);
    if (ntasks > 0 && ntasks != p.size)
      return "MPI world has " + std::to_string(p.size) + " rank(s) but SLURM_NTASKS is " + std::to_string(ntasks) +
             ": the launcher does not match the MPI library (each task would run as a separate rank 0); "
             "launch with srun --mpi=pmix (or the site's MPI plugin) or mpirun inside the allocation";
  }
  // Ranks per node vs GPUs: the worst node decides, identically on every rank.
  int over = (uses_gpu && p.visible_gpus > 0 && p.local_size > p.visible_gpus && !share_devices) ? 1 : 0;
  int no_gpu = (uses_gpu && p.visible_gpus == 0) ? 1 : 0;
  int flags[2] = {over, no_gpu};
  MPI_Allreduce(MPI_IN_PLACE, flags, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
  if (flags[1]) return "backend cuda was asked for but a rank sees no CUDA device";
  if (flags[0]) {
    int worst[2] = {over ? p.local_size : 0, over ? p.visible_gpus : 0};
    MPI_Allreduce(MPI_IN_PLACE, worst, 2, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return "a node runs " + std::to_string(worst[0]) + " ranks but has " + std::to_string(worst[1]) +
           " GPU(s); use one rank per GPU, or set parallel.share_devices: true to share GPUs";
  }
  return "";
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
