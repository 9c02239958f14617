// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// nccl_comm.cpp — implementation of nccl_comm.hpp.
#include "parallel/nccl_comm.hpp"

#include <Kokkos_Macros.hpp>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <functional>
#include <set>
#include <string>
#include <thread>
#include <vector>

namespace mmapp {

std::string NcclFacts::why_not() const {
  if (!built)
    return "this mmapp was built without NCCL (configure with -DMMAPP_ENABLE_NCCL=ON and the CUDA backend)";
  if (!all_gpu) return "not every rank runs on a GPU (NCCL carries device buffers only)";
  if (!distinct)
    return "two ranks share one GPU (NCCL refuses duplicate GPUs: one rank per GPU, e.g. mpirun -np <GPUs>)";
  return "";
}

std::string NcclFacts::auto_declined() const {
  if (!built || !all_gpu || usable()) return "";
  if (!possible()) return why_not();
  return "MMAPP_NCCL=off in the environment";
}

bool gpu_ids_distinct(const std::vector<std::string>& ids) {
  std::set<std::string> seen;
  for (const auto& id : ids)
    if (!id.empty() && !seen.insert(id).second) return false;
  return true;
}

std::string this_gpu_id(bool gpu) {
#ifdef KOKKOS_ENABLE_CUDA
  if (!gpu) return "";
  int dev = 0;
  cudaDeviceProp prop{};
  if (cudaGetDevice(&dev) != cudaSuccess || cudaGetDeviceProperties(&prop, dev) != cudaSuccess) return "";
  std::string hex;
  char two[3];
  for (int i = 0; i < 16; ++i) {
    std::snprintf(two, sizeof two, "%02x", static_cast<unsigned char>(prop.uuid.bytes[i]));
    hex += two;
  }
  return hex;
#else
  (void)gpu;
  return "";
#endif
}

NcclFacts nccl_facts(MPI_Comm world, bool gpu) {
  NcclFacts f;
#ifdef MMAPP_HAVE_NCCL
  f.built = true;
#endif
  int all_gpu = gpu ? 1 : 0;
  MPI_Allreduce(MPI_IN_PLACE, &all_gpu, 1, MPI_INT, MPI_MIN, world);
  f.all_gpu = all_gpu != 0;
  constexpr int kLen = 40;
  char mine[kLen] = {0};
  const std::string id = this_gpu_id(gpu);
  std::strncpy(mine, id.c_str(), kLen - 1);
  int size = 1;
  MPI_Comm_size(world, &size);
  std::vector<char> all(size_t(size) * kLen);
  MPI_Allgather(mine, kLen, MPI_CHAR, all.data(), kLen, MPI_CHAR, world);
  std::vector<std::string> ids;
  bool unknown = false;
  for (int r = 0; r < size; ++r) {
    ids.emplace_back(all.data() + size_t(r) * kLen);
    unknown = unknown || ids.back().empty();
  }
  f.distinct = !unknown && gpu_ids_distinct(ids);
  const char* env = std::getenv("MMAPP_NCCL");
  int off = env && (std::string(env) == "off" || std::string(env) == "0") ? 1 : 0;
  MPI_Bcast(&off, 1, MPI_INT, 0, world);
  f.disabled = off != 0;
  return f;
}

bool nccl_fault(const char* phase) {
  const char* env = std::getenv("MMAPP_TEST_NCCL_FAULT");
  if (env == nullptr) return false;
  const std::string s(env);
  const auto colon = s.find(':');
  if (colon == std::string::npos) return false;
  int rank = 0, init = 0;
  MPI_Initialized(&init);
  if (init) MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return std::atoi(s.substr(0, colon).c_str()) == rank && s.substr(colon + 1) == phase;
}

double nccl_timeout_s() {
  const char* env = std::getenv("MMAPP_NCCL_TIMEOUT");
  const double t = env ? std::atof(env) : 0.0;
  return t > 0 ? t : 300.0;
}

#ifdef MMAPP_HAVE_NCCL

namespace {

/// The tag of the abort notice a failing rank sends every other rank (MPI_COMM_WORLD).
constexpr int kAbortTag = 0x6e63;

/// Every live communicator (NcclComm registers its own): the ones nccl_fail aborts.
std::vector<ncclComm_t>& live_comms() {
  static std::vector<ncclComm_t> comms;
  return comms;
}

int world_rank() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  return rank;
}

/// An abort notice from another rank, if one has arrived: its text, else "".
std::string abort_notice() {
  int flag = 0;
  MPI_Status st;
  MPI_Iprobe(MPI_ANY_SOURCE, kAbortTag, MPI_COMM_WORLD, &flag, &st);
  if (!flag) return "";
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  std::string text(size_t(std::max(n, 0)), '\0');
  MPI_Recv(text.data(), n, MPI_CHAR, st.MPI_SOURCE, kAbortTag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return "rank " + std::to_string(st.MPI_SOURCE) + " failed: " + text.c_str();
}

/// The first asynchronous error of a live communicator ("" when none).
std::string async_errors() {
  for (ncclComm_t c : live_comms()) {
    ncclResult_t state = ncclSuccess;
    const ncclResult_t r = ncclCommGetAsyncError(c, &state);
    if (r != ncclSuccess) state = r;
    if (state != ncclSuccess && state != ncclInProgress)
      return std::string("asynchronous error: ") + ncclGetErrorString(state) + " (" + ncclGetLastError(c) + ")";
  }
  return "";
}

/// Polls `done` until it is true; between polls (every millisecond) the
/// communicators' errors, the other ranks' abort notices and the deadline.
void poll_until(const std::function<bool()>& done, const std::string& what) {
  using clock = std::chrono::steady_clock;
  const double limit = nccl_timeout_s();
  const auto t0 = clock::now();
  auto next = t0;
  while (!done()) {
    const auto now = clock::now();
    if (now < next) {
      std::this_thread::yield();
      continue;
    }
    next = now + std::chrono::milliseconds(1);
    if (std::string e = async_errors(); !e.empty()) nccl_fail("NCCL " + e + " while waiting for " + what);
    if (std::string n = abort_notice(); !n.empty()) nccl_fail("NCCL: stopping: " + n);
    if (std::chrono::duration<double>(now - t0).count() > limit)
      nccl_fail("NCCL: timed out after " + std::to_string(int(limit)) + " s waiting for " + what +
                " (a rank died or hangs; MMAPP_NCCL_TIMEOUT sets the limit)");
  }
}

}  // namespace

void nccl_fail(const std::string& msg) {
  static bool failing = false;
  const int rank = world_rank();
  if (!failing) {
    failing = true;
    std::fprintf(stderr, "mmapp: rank %d: ERROR: %s\n", rank, msg.c_str());
    std::fflush(stderr);
    int size = 1;
    MPI_Comm_size(MPI_COMM_WORLD, &size);
    for (int r = 0; r < size; ++r) {
      if (r == rank) continue;
      MPI_Request req;
      MPI_Isend(msg.c_str(), int(msg.size()) + 1, MPI_CHAR, r, kAbortTag, MPI_COMM_WORLD, &req);
      MPI_Request_free(&req);
    }
    for (ncclComm_t c : live_comms()) ncclCommAbort(c);
    live_comms().clear();
    // The others poll for the notice every millisecond: let them print their line.
    std::this_thread::sleep_for(std::chrono::seconds(2));
  }
  MPI_Abort(MPI_COMM_WORLD, 3);
  std::abort();  // MPI_Abort does not return
}

void nccl_check(ncclResult_t r, ncclComm_t comm, const std::string& what) {
  if (r == ncclInProgress && comm != nullptr) {
    ncclResult_t state = ncclInProgress;
    poll_until(
        [&] {
          const ncclResult_t q = ncclCommGetAsyncError(comm, &state);
          if (q != ncclSuccess) state = q;
          return state != ncclInProgress;
        },
        what);
    r = state;
  }
  if (r == ncclSuccess) return;
  std::string msg = "NCCL " + what + ": " + ncclGetErrorString(r);
  if (comm != nullptr)
    if (const char* last = ncclGetLastError(comm); last != nullptr && *last) msg += std::string(" (") + last + ")";
  nccl_fail(msg);
}

void nccl_wait_event(cudaEvent_t event, const std::string& what) {
  poll_until(
      [&] {
        const cudaError_t e = cudaEventQuery(event);
        if (e == cudaErrorNotReady) return false;
        if (e != cudaSuccess) nccl_fail(std::string("CUDA error while waiting for ") + what + ": " + cudaGetErrorString(e));
        return true;
      },
      what);
}

void nccl_stall(const std::string& what) {
  poll_until([] { return false; }, what);
  nccl_fail("NCCL: " + what);  // poll_until never returns here
}

NcclComm::NcclComm(MPI_Comm comm, const std::string& what) : what_(what) {
  MPI_Comm_size(comm, &size_);
  MPI_Comm_rank(comm, &rank_);
  ncclUniqueId id{};
  if (rank_ == 0) nccl_check(ncclGetUniqueId(&id), nullptr, "ncclGetUniqueId (" + what_ + ")");
  MPI_Bcast(&id, int(sizeof id), MPI_BYTE, 0, comm);
  if (nccl_fault("init")) nccl_fail("NCCL ncclCommInitRankConfig (" + what_ + "): injected by MMAPP_TEST_NCCL_FAULT");
  ncclConfig_t config = NCCL_CONFIG_INITIALIZER;
  config.blocking = 0;
  const ncclResult_t r = ncclCommInitRankConfig(&comm_, size_, id, rank_, &config);
  if (comm_ != nullptr) live_comms().push_back(comm_);
  nccl_check(r, comm_, "ncclCommInitRankConfig (" + what_ + ", " + std::to_string(size_) + " ranks)");
}

NcclComm::~NcclComm() {
  if (comm_ == nullptr) return;
  auto& live = live_comms();
  if (std::find(live.begin(), live.end(), comm_) == live.end()) return;  // aborted by nccl_fail
  nccl_check(ncclCommFinalize(comm_), comm_, "ncclCommFinalize (" + what_ + ")");
  live.erase(std::remove(live.begin(), live.end(), comm_), live.end());
  ncclCommDestroy(comm_);
}

#endif

}  // namespace mmapp
