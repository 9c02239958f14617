// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// nccl_duplicate_gpu.cpp — checks, on the machine it runs on, the fact that
// mmapp's duplicate-GPU rule (parallel/nccl_comm.hpp: gpu_ids_distinct, which
// refuses `transfer: nccl` before NCCL is called) rests on: NCCL itself
// refuses one communicator with two ranks on one GPU. No mmapp code, no
// Kokkos: NCCL's documented MPI bootstrap, on CUDA device 0 on every rank:
//   ncclGetUniqueId on rank 0, MPI_Bcast, cudaSetDevice(0), ncclCommInitRank.
// NCCL 2.28 checks the ranks' PCI bus ids after its first all-gather and
// returns ncclInvalidUsage ("Duplicate GPU detected : rank 0 and rank 1 both
// on CUDA device ..."; src/init.cc); NCCL 2.30 and later do the same unless
// NCCL_MULTI_RANK_GPU_ENABLE=1, which the test's caller leaves unset.
// Every rank prints "rank R: ncclCommInitRank: <code> <ncclGetErrorString>
// (<ncclGetLastError>)" and exits:
//   0   NCCL returned an error (the expected refusal),
//   1   NCCL returned ncclSuccess (two ranks of one communicator on one GPU
//       accepted: mmapp's rule would then be stricter than NCCL's),
//   2   run at other than 2 ranks,
//   77  no CUDA device (skipped),
//   124 ncclCommInitRank had not returned after the time limit (argv[1]
//       seconds, default 60): a hang, reported by a watchdog thread.
// Built only with NCCL (tests/CMakeLists.txt); run by tests/e2e/test_nccl.py
// (ctest e2e_nccl_shared_gpu_np2) at 2 ranks on a node with one GPU or more.
#include <cuda_runtime_api.h>
#include <mpi.h>
#include <nccl.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <thread>

int main(int argc, char** argv) {
  MPI_Init(&argc, &argv);
  int rank = 0, size = 1;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  MPI_Comm_size(MPI_COMM_WORLD, &size);
  if (size != 2) {
    if (rank == 0) std::fprintf(stderr, "nccl_duplicate_gpu: run it at 2 ranks (mpiexec -n 2), not %d\n", size);
    MPI_Finalize();
    return 2;
  }
  int devices = 0;
  const bool cuda = cudaGetDeviceCount(&devices) == cudaSuccess && devices > 0;
  int all = cuda ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (!all) {
    if (rank == 0) std::printf("SKIP: no CUDA device on some rank\n");
    MPI_Finalize();
    return 77;
  }
  const double limit = argc > 1 ? std::atof(argv[1]) : 60.0;
  std::atomic<bool> returned{false};
  std::thread watchdog([&] {
    const auto t0 = std::chrono::steady_clock::now();
    while (!returned.load()) {
      std::this_thread::sleep_for(std::chrono::milliseconds(50));
      if (std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count() > limit) {
        std::fprintf(stderr, "rank %d: ncclCommInitRank: no answer after %.0f s (a hang)\n", rank, limit);
        std::fflush(stderr);
        std::_Exit(124);
      }
    }
  });

  cudaSetDevice(0);  // both ranks: the same GPU
  ncclUniqueId id{};
  ncclResult_t r = ncclSuccess;
  if (rank == 0) r = ncclGetUniqueId(&id);
  int ok = r == ncclSuccess ? 1 : 0;
  MPI_Bcast(&ok, 1, MPI_INT, 0, MPI_COMM_WORLD);
  if (!ok) {
    if (rank == 0) std::fprintf(stderr, "rank 0: ncclGetUniqueId: %s\n", ncclGetErrorString(r));
    returned = true;
    watchdog.join();
    MPI_Finalize();
    return 3;
  }
  MPI_Bcast(&id, int(sizeof id), MPI_BYTE, 0, MPI_COMM_WORLD);
  ncclComm_t comm = nullptr;
  r = ncclCommInitRank(&comm, 2, id, rank);
  returned = true;
  watchdog.join();
  const char* last = ncclGetLastError(comm);  // NCCL's last error message (comm may be null)
  std::printf("rank %d: ncclCommInitRank: %d %s (%s)\n", rank, int(r), ncclGetErrorString(r),
              last != nullptr ? last : "");
  std::fflush(stdout);
  if (comm != nullptr) {
    if (r == ncclSuccess)
      ncclCommDestroy(comm);
    else
      ncclCommAbort(comm);
  }
  MPI_Finalize();
  return r == ncclSuccess ? 1 : 0;
}
