// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// nccl_comm.hpp — NCCL (NVIDIA's collective library) as mmapp's device-to-
// device transport, beside MPI: the facts that decide whether it may be used
// (built, every rank a GPU rank, each rank its own GPU), and, where it is
// built (MMAPP_HAVE_NCCL, CMake's MMAPP_ENABLE_NCCL), communicators made
// from MPI ones and the one way every NCCL wait and error is handled:
//   - communicators are non-blocking (ncclConfig_t.blocking = 0), bootstrapped
//     from MPI: ncclGetUniqueId on the communicator's rank 0, MPI_Bcast,
//     ncclCommInitRankConfig (NCCL's documented MPI example);
//   - a wait (nccl_wait_event) polls the CUDA event, ncclCommGetAsyncError of
//     every live communicator, an abort notice from another rank (MPI_Iprobe)
//     and a deadline (MMAPP_NCCL_TIMEOUT seconds, default 300), so a rank that
//     dies or hangs ends the run instead of leaving the others in a collective;
//   - an error (nccl_fail): "mmapp: rank R: ERROR: NCCL ..." with NCCL's own
//     message (ncclGetErrorString, ncclGetLastError) on stderr, an abort
//     notice to every other rank (which then print their own ERROR line), a
//     short grace, ncclCommAbort of every live communicator and
//     MPI_Abort(MPI_COMM_WORLD, 3): exit code 3, as for every internal error.
// Two ranks on one GPU: ncclCommInitRank refuses them ("Duplicate GPU
// detected", ncclInvalidUsage), so NCCL is used only where every rank has its
// own device (gpu_ids_distinct, by the devices' UUIDs).
// Test hook: MMAPP_TEST_NCCL_FAULT=RANK:PHASE makes world rank RANK fail at
// PHASE (nccl_fault): init (communicator creation), bcast (a SUMMA panel
// broadcast), hang (SUMMA: the rank stops before its first broadcast and
// waits, as a stuck rank would), rows (the row split's broadcast of B).
#pragma once

#include <mpi.h>

#include <string>
#include <vector>

#ifdef MMAPP_HAVE_NCCL
#include <cuda_runtime_api.h>
#include <nccl.h>
#if !defined(NCCL_VERSION_CODE) || NCCL_VERSION_CODE < NCCL_VERSION(2, 14, 0)
#error "mmapp needs NCCL 2.14 or later (non-blocking communicators, ncclCommFinalize); configure with -DMMAPP_ENABLE_NCCL=OFF"
#endif
#endif

namespace mmapp {

/// Whether NCCL may carry this job's device data; every field the same on
/// every rank (nccl_facts).
struct NcclFacts {
  bool built = false;     ///< this mmapp was built with NCCL (MMAPP_ENABLE_NCCL)
  bool all_gpu = false;   ///< every rank runs on a GPU
  bool distinct = false;  ///< no two ranks share a GPU (device UUIDs)
  bool disabled = false;  ///< MMAPP_NCCL=off in the environment of rank 0: never chosen automatically
  /// NCCL is built and every rank has a GPU of its own.
  bool possible() const { return built && all_gpu && distinct; }
  /// `possible()` and not turned off: what automatic choices use.
  bool usable() const { return possible() && !disabled; }
  /// Why NCCL cannot be used ("" when possible()): "this mmapp was built
  /// without NCCL (...)", "a rank runs on the host", "two ranks share one GPU ...".
  std::string why_not() const;
  /// Why `transfer: auto` (and the row split) leave NCCL out of a job where
  /// it is built and every rank runs on a GPU: why_not() ("two ranks share
  /// one GPU ...") or "MMAPP_NCCL=off ..."; "" when usable(), when not built
  /// or on host ranks (there NCCL was never a candidate, nothing to say).
  std::string auto_declined() const;
};

/// True when no two entries of `ids` are equal (device identities, one per
/// rank; an empty string is a rank without a GPU and compares unequal to all).
bool gpu_ids_distinct(const std::vector<std::string>& ids);

/// This rank's GPU identity: its current CUDA device's UUID as 32 hex digits
/// ("" on a host rank or without CUDA).
std::string this_gpu_id(bool gpu);

/// NcclFacts of the job (collective over `world`): `gpu` says whether this
/// rank runs on a GPU; the UUIDs of every rank's device are compared.
NcclFacts nccl_facts(MPI_Comm world, bool gpu);

/// True when MMAPP_TEST_NCCL_FAULT is "R:phase" with R this world rank (test hook; see the file comment).
bool nccl_fault(const char* phase);

/// Seconds a rank waits for NCCL before it declares the run hung: MMAPP_NCCL_TIMEOUT (default 300).
double nccl_timeout_s();

#ifdef MMAPP_HAVE_NCCL

/// An NCCL communicator over the ranks of an MPI communicator, same ranks
/// (RAII). Non-blocking (config.blocking = 0); registered so that nccl_fail
/// aborts it. Construction is collective over `comm`, and ends (or fails)
/// when the communicator is ready; destruction frees it (ncclCommDestroy).
class NcclComm {
 public:
  /// `what` names it in messages ("SUMMA process row"). On an error: nccl_fail.
  NcclComm(MPI_Comm comm, const std::string& what);
  ~NcclComm();
  NcclComm(const NcclComm&) = delete;
  NcclComm& operator=(const NcclComm&) = delete;
  ncclComm_t get() const { return comm_; }
  int size() const { return size_; }
  int rank() const { return rank_; }

 private:
  ncclComm_t comm_ = nullptr;
  int size_ = 1, rank_ = 0;
  std::string what_;
};

/// Checks the result `r` of an NCCL call on the non-blocking communicator
/// `comm` (nullptr: none): ncclInProgress is waited for (polling as
/// nccl_wait_event does); any other error is nccl_fail naming `what`.
void nccl_check(ncclResult_t r, ncclComm_t comm, const std::string& what);

/// Returns once `event` (recorded on a stream with NCCL work) has completed,
/// polling it, every live communicator's asynchronous error, the other
/// ranks' abort notices and the deadline; nccl_fail otherwise (`what` names
/// the wait).
void nccl_wait_event(cudaEvent_t event, const std::string& what);

/// Waits for nothing, as a stuck rank would, until another rank's abort
/// notice or the deadline ends the run (the MMAPP_TEST_NCCL_FAULT hang).
[[noreturn]] void nccl_stall(const std::string& what);

/// The error path (see the file comment): prints the ERROR line with `msg`,
/// tells the other ranks, aborts every live communicator, MPI_Abort(3).
[[noreturn]] void nccl_fail(const std::string& msg);

/// ncclDataType_t of float / double.
template <class T>
ncclDataType_t nccl_type() {
  return sizeof(T) == 4 ? ncclFloat32 : ncclFloat64;
}

#endif

}  // namespace mmapp
