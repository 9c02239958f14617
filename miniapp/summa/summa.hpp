// summa.hpp — C = A B on a p x q process grid by SUMMA (R. van de Geijn and
// J. Watts, "SUMMA: Scalable Universal Matrix Multiplication Algorithm",
// Concurrency: Practice and Experience 9(4), 1997; the ParRes Kernels' MPI1
// DGEMM), with any kernel of the registry as the local GEMM.
//
// Data: rank (prow, pcol) holds its blocks of A, B and C (grid.hpp) in
// Space's memory, row-major, for the whole multiply. For each panel [k0, k1)
// (grid.hpp, summa_panels):
//   - the owning process column packs A(I, k0:k1) into a contiguous panel
//     buffer and broadcasts it along the process row (MPI_Bcast/MPI_Ibcast,
//     one MPI row type of k1 - k0 elements, |I| of them);
//   - the owning process row broadcasts B(k0:k1, J) (contiguous rows of its
//     block: sent in place) along the process column;
//   - every rank runs C_block (+)= A_panel * B_panel with the local kernel:
//     beta = 0 for the first panel (C is write-only, may hold NaN), 1 after.
// Panel buffers live in Space's memory. MPI sees them directly on host
// backends ("host") and on GPUs when Open MPI is CUDA-aware ("cuda-aware");
// otherwise they are staged through pinned host buffers ("staged through
// pinned host memory": device -> pinned on the root, pinned -> device on
// the others). When every process row and column lies within one node
// ("shared"), the panels skip MPI's data path: each rank's panel slots live
// in an MPI-3 shared-memory window (MPI_Win_allocate_shared) over its
// process row (A) and column (B), page-locked for the GPU; the root writes
// its panel into its own slot (device -> window on a GPU), an MPI_Ibarrier
// says it is there, the others read the root's slot (window -> device on a
// GPU; on a host backend the GEMM reads it in place), and a second
// MPI_Ibarrier says every rank is done with it before the root writes that
// slot again. On a GPU, with three sets of panel buffers, panel t + 2 is
// packed and copied up to the window on one CUDA stream and panel t + 1
// copied down on another while panel t's local GEMM runs.
// Overlap ("ibcast"): two sets of panel buffers; the next panel's broadcasts
// are posted (MPI_Ibcast) before the current panel's local GEMM, and on a GPU
// the host polls MPI_Testall while the GEMM runs (Open MPI progresses
// non-blocking collectives only inside MPI calls). "none": blocking
// broadcasts, then the GEMM, one buffer set.
// A local GEMM that throws (a vendor refusal) does not stop the rank's part
// in the broadcasts: the rank finishes every panel's communication, skips its
// remaining GEMMs and throws at the end, so no other rank is left waiting.
// FLOPs: 2 |I| |J| K per rank.
#pragma once

#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/mpi_util.hpp"
#include "core/types.hpp"
#include "summa/transport_select.hpp"

#include <Kokkos_Core.hpp>
#include <mpi.h>
#ifdef KOKKOS_ENABLE_CUDA
#include <cuda_runtime_api.h>
#endif

#include <algorithm>
#include <memory>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <type_traits>
#include <vector>

namespace mmapp {

/// One rank's time in one multiply, in seconds: blocked in MPI (broadcasts,
/// waits, posting), in local GEMMs (launch to completion, including MPI
/// progress polls while a GPU computes), and in packing and staging copies.
struct SummaTimes {
  double comm = 0, gemm = 0, copy = 0;
};


/// The SUMMA multiply of one rank, over buffers allocated once (construction)
/// and reused by every multiply(). Views must stay alive.
template <class Space, class T>
class Summa {
 public:
  using mem_space = typename Space::memory_space;
#ifdef KOKKOS_ENABLE_CUDA
  using pinned_space = Kokkos::CudaHostPinnedSpace;
#else
  using pinned_space = Kokkos::HostSpace;
#endif
  using DevBuf = Kokkos::View<T*, mem_space>;
  using PinBuf = Kokkos::View<T*, pinned_space>;

  /// A: |I| x |Ka|, B: |Kb| x |J|, C: |I| x |J| (grid_blocks of this rank),
  /// in Space's memory. `panels` from summa_panels(). `path`: host or shared
  /// on host backends; cuda_aware, staged or shared on a GPU (shared: every
  /// process row and column within one node, comm_is_node_local; collective
  /// over the grid then, as is destruction). `overlap`: double-buffered
  /// panels, the next one's broadcast (MPI_Ibcast) or staging posted before
  /// the current GEMM (must be the same on every rank). Allocates the panel
  /// buffers: see panel_bytes().
  Summa(const Space& space, const GridComm& grid, const GridBlocks& blocks, std::vector<Panel> panels,
        const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B, const Matrix<T, Space>& C, PanelPath path,
        bool overlap)
      : space_(space), grid_(grid), blocks_(blocks), panels_(std::move(panels)), A_(A), B_(B), C_(C), path_(path),
        overlap_(overlap), mloc_(blocks.rows.size()), nloc_(blocks.cols.size()), nb_(widest_panel(panels_)) {
    if (long(A.extent(0)) != mloc_ || long(A.extent(1)) != blocks.a_k.size() || long(B.extent(0)) != blocks.b_k.size() ||
        long(B.extent(1)) != nloc_ || long(C.extent(0)) != mloc_ || long(C.extent(1)) != nloc_)
      throw std::invalid_argument("Summa: the blocks' extents do not match the grid blocks");
    const int sets = panel_sets(overlap, path);
    for (int s = 0; s < sets; ++s) {
      if (!(is_host_space_v<Space> && path == PanelPath::shared)) {  // host + shared: the GEMM reads the window
        dA_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_a"), mloc_ * nb_);
        dB_[s] = DevBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_panel_b"), nb_ * nloc_);
      }
      if (path == PanelPath::staged) {
        hA_[s] = PinBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_pinned_a"), mloc_ * nb_);
        hB_[s] = PinBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_pinned_b"), nb_ * nloc_);
      }
    }
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) cudaEventCreateWithFlags(&event_, cudaEventDisableTiming);
#endif
    if (path == PanelPath::shared) {
      win_a_.open(grid.row(), long(sets) * mloc_ * nb_, !is_host_space_v<Space>);
      win_b_.open(grid.col(), long(sets) * nb_ * nloc_, !is_host_space_v<Space>);
#ifdef KOKKOS_ENABLE_CUDA
      if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
        cudaStreamCreateWithFlags(&copy_stream_[0], cudaStreamNonBlocking);
        cudaStreamCreateWithFlags(&copy_stream_[1], cudaStreamNonBlocking);
        d2h_space_ = Space(copy_stream_[0]);
        h2d_space_ = Space(copy_stream_[1]);
      }
#endif
    }
  }

  ~Summa() {
    win_a_.close();
    win_b_.close();
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      cudaEventDestroy(event_);
      if (copy_stream_[0]) {
        d2h_space_ = h2d_space_ = space_;  // the instances must not outlive their streams
        cudaStreamDestroy(copy_stream_[0]);
        cudaStreamDestroy(copy_stream_[1]);
      }
    }
#endif
  }
  Summa(const Summa&) = delete;
  Summa& operator=(const Summa&) = delete;

  /// Bytes of panel buffers in Space's memory (`device`) and pinned host
  /// memory (`pinned`: the staged path's buffers, the shared window's
  /// segment) for an |I| x |J| block and panels at most `nb` wide.
  static void panel_bytes(long mloc, long nloc, long nb, bool overlap, PanelPath path, double& device,
                          double& pinned) {
    const double one = double(mloc * nb + nb * nloc) * sizeof(T) * panel_sets(overlap, path);
    device = is_host_space_v<Space> && path == PanelPath::shared ? 0.0 : one;
    pinned = path == PanelPath::staged || path == PanelPath::shared ? one : 0.0;
  }

  /// C = A B with `gemm` as the local kernel and `work` its workspace (for an
  /// |I| x |J| x nb problem). Collective over the grid; returns when this
  /// rank's C block is complete (fenced). Throws std::runtime_error with the
  /// first local GEMM's error after the communication has finished.
  void multiply(GemmFn<Space, T> gemm, const Workspace<Space>& work) {
    times_ = {};
    error_.clear();
    const int P = int(panels_.size());
    if (path_ == PanelPath::shared) {
      multiply_shared(gemm, work);
    } else if (!overlap_) {
      MPI_Request req[2];
      for (int t = 0; t < P; ++t) {
        timed(times_.copy, [&] { prepare(t, 0); });
        timed(times_.comm, [&] { post(t, 0, req, false); });
        timed(times_.copy, [&] { receive(t, 0); });
        timed(times_.gemm, [&] {
          local_gemm(gemm, work, t, 0);
          Kokkos::fence();
        });
      }
    } else {
      MPI_Request req[2][2];
      timed(times_.copy, [&] { prepare(0, 0); });
      timed(times_.comm, [&] { post(0, 0, req[0], true); });
      for (int t = 0; t < P; ++t) {
        const int s = t & 1;
        const bool next = t + 1 < P;
        if (next) {
          // Slot 1 - s was last read by panel t - 1's GEMM (fenced) and broadcast (waited).
          timed(times_.copy, [&] { prepare(t + 1, 1 - s); });
          timed(times_.comm, [&] { post(t + 1, 1 - s, req[1 - s], true); });
        }
        timed(times_.comm, [&] { MPI_Waitall(2, req[s], MPI_STATUSES_IGNORE); });
        timed(times_.copy, [&] { receive(t, s); });
        timed(times_.gemm, [&] {
          local_gemm(gemm, work, t, s);
          if (next) progress_while_computing(req[1 - s]);
          Kokkos::fence();
        });
      }
    }
    if (!error_.empty()) throw std::runtime_error(error_);
  }

  /// This rank's times of the last multiply().
  const SummaTimes& times() const { return times_; }
  const std::vector<Panel>& panels() const { return panels_; }
  PanelPath path() const { return path_; }
  bool overlap() const { return overlap_; }

  // The steps of a panel; public only because CUDA's extended lambdas cannot
  // live in private member functions.

  /// Root of A's panel t: packs A(:, panel) into slot s (and stages it to
  /// pinned memory); root of B's panel on the staged path: copies B's rows
  /// to pinned memory. Fenced.
  void prepare(int t, int s) {
    const Panel& pn = panels_[t];
    const long w = pn.width();
    if (mloc_ > 0 && a_root(pn)) {
      pack_a(space_, pn, dA_[s].data());
      if (path_ == PanelPath::staged) {
        Kokkos::fence();  // the pack, before its copy
        to_pinned(space_, hA_[s].data(), dA_[s].data(), mloc_ * w);
      }
    }
    if (nloc_ > 0 && b_root(pn) && path_ == PanelPath::staged)
      to_pinned(space_, hB_[s].data(), B_.data() + (pn.k0 - blocks_.b_k.begin) * nloc_, w * nloc_);
    Kokkos::fence();
  }

  /// Posts (or, blocking, runs) panel t's two broadcasts from slot s.
  void post(int t, int s, MPI_Request* req, bool nonblocking) {
    const Panel& pn = panels_[t];
    const long w = pn.width();
    req[0] = req[1] = MPI_REQUEST_NULL;
    const bool staged = path_ == PanelPath::staged;
    if (mloc_ > 0) {  // every rank of a process row has the same |I|
      T* buf = staged ? hA_[s].data() : dA_[s].data();
      bcast(buf, mloc_, w, pn.a_owner_col, grid_.row(), nonblocking, &req[0]);
    }
    if (nloc_ > 0) {  // every rank of a process column has the same |J|
      T* buf = staged ? hB_[s].data()
               : b_root(pn) ? const_cast<T*>(B_.data() + (pn.k0 - blocks_.b_k.begin) * nloc_)
                            : dB_[s].data();
      bcast(buf, w, nloc_, pn.b_owner_row, grid_.col(), nonblocking, &req[1]);
    }
  }

  /// A(:, panel pn) of this rank's block, packed row-major (|I| x width) at
  /// dst in Space's memory, on `exec` (asynchronous).
  void pack_a(const Space& exec, const Panel& pn, T* dst) const {
    const long m = mloc_, w = pn.width(), c0 = pn.k0 - blocks_.a_k.begin;
    const ConstMatrix<T, Space> A = A_;
    Kokkos::parallel_for(
        "mmapp::summa_pack_a", Kokkos::RangePolicy<Space, Kokkos::IndexType<long>>(exec, 0, m * w),
        KOKKOS_LAMBDA(const long e) { dst[e] = A(e / w, c0 + e % w); });
  }

  /// Sets of panel buffers: 1 without overlap; with overlap 2 (one in use,
  /// one in flight), and 3 on a GPU's shared path (panel t in the GEMM,
  /// t + 1 coming down to the device, t + 2 going up to the window).
  static int panel_sets(bool overlap, PanelPath path) {
    if (!overlap) return 1;
    return path == PanelPath::shared && !is_host_space_v<Space> ? 3 : 2;
  }

  /// Shared path, the roots of panel t: A's panel into this rank's window
  /// slot s (packed on the device and copied down on a GPU, packed in place
  /// on a host backend), B's rows likewise; issued on the device-to-host
  /// stream, completed by stage_complete().
  void stage_issue(int t, int s) {
    const Panel& pn = panels_[t];
    const long w = pn.width();
    if (mloc_ > 0 && a_root(pn)) {
      T* slot = a_slot(grid_.coords().pcol, s);
      if constexpr (is_host_space_v<Space>) {
        pack_a(space_, pn, slot);
      } else {
        pack_a(d2h_space_, pn, dA_[s].data());  // the copy after it is ordered on the same stream
        to_pinned(d2h_space_, slot, dA_[s].data(), mloc_ * w);
      }
    }
    if (nloc_ > 0 && b_root(pn)) {
      T* slot = b_slot(grid_.coords().prow, s);
      const T* rows = B_.data() + (pn.k0 - blocks_.b_k.begin) * nloc_;
      if constexpr (is_host_space_v<Space>)
        Kokkos::deep_copy(space_, Kokkos::View<T*, Kokkos::HostSpace, Kokkos::MemoryUnmanaged>(slot, w * nloc_),
                          Kokkos::View<const T*, mem_space, Kokkos::MemoryUnmanaged>(rows, w * nloc_));
      else
        to_pinned(d2h_space_, slot, rows, w * nloc_);
    }
  }
  /// The staging issued so far is in the window (fenced, window synced).
  void stage_complete() {
    d2h_space_.fence();
    win_a_.sync();
    win_b_.sync();
  }

  /// Shared path, after panel t's "staged" barrier: on a GPU the others copy
  /// the roots' slots s into their device panels, issued on the
  /// host-to-device stream and completed by fetch_complete(); on a host
  /// backend the GEMM reads the roots' slots in place.
  void fetch_issue(int t, int s) {
    win_a_.sync();
    win_b_.sync();
    if constexpr (!is_host_space_v<Space>) {
      const Panel& pn = panels_[t];
      const long w = pn.width();
      if (mloc_ > 0 && !a_root(pn)) to_device(h2d_space_, dA_[s].data(), a_slot(pn.a_owner_col, s), mloc_ * w);
      if (nloc_ > 0 && !b_root(pn)) to_device(h2d_space_, dB_[s].data(), b_slot(pn.b_owner_row, s), w * nloc_);
    }
  }
  void fetch_complete() { h2d_space_.fence(); }

  /// After panel t's broadcasts: on the staged path, the received panels go
  /// from pinned to device memory. Fenced.
  void receive(int t, int s) {
    const Panel& pn = panels_[t];
    const long w = pn.width();
    if (path_ == PanelPath::staged) {
      if (mloc_ > 0 && !a_root(pn)) to_device(space_, dA_[s].data(), hA_[s].data(), mloc_ * w);
      if (nloc_ > 0 && !b_root(pn)) to_device(space_, dB_[s].data(), hB_[s].data(), w * nloc_);
    }
    Kokkos::fence();
  }

 private:
  bool a_root(const Panel& pn) const { return grid_.coords().pcol == pn.a_owner_col; }
  bool b_root(const Panel& pn) const { return grid_.coords().prow == pn.b_owner_row; }

  /// Slot s of the shared window's segment of process column `pcol` (A) /
  /// process row `prow` (B).
  T* a_slot(int pcol, int s) const { return win_a_.base[pcol] + s * mloc_ * nb_; }
  T* b_slot(int prow, int s) const { return win_b_.base[prow] + s * nb_ * nloc_; }

  /// Posts an MPI_Ibarrier on the process row (when this rank has rows of A)
  /// and on the process column (when it has columns of B).
  void post_barriers(MPI_Request* req) {
    req[0] = req[1] = MPI_REQUEST_NULL;
    timed(times_.comm, [&] {
      if (mloc_ > 0) MPI_Ibarrier(grid_.row(), &req[0]);
      if (nloc_ > 0) MPI_Ibarrier(grid_.col(), &req[1]);
    });
  }

  /// The shared path's multiply. Panel t goes through slot t % sets of the
  /// roots' windows (and of the device panels): the roots stage it, barrier
  /// "staged", the others fetch it (GPU), barrier "done" once this rank no
  /// longer reads the slot (after its fetch on a GPU, after its GEMM on a
  /// host backend); a root waits for "done" of the slot's last panel before
  /// staging into it again. On a GPU with overlap (3 sets), while panel t's
  /// GEMM runs, panel t + 2 goes up to the window (pack and device-to-host on
  /// one stream) and panel t + 1 comes down (host-to-device on another), so
  /// both directions of the bus and the GEMM work at once. The barriers are
  /// posted in the same order (staged 0, staged 1, done 0, then staged t + 2,
  /// done t + 1 for each t; or staged t, done t) on every rank of a process
  /// row or column.
  void multiply_shared(GemmFn<Space, T> gemm, const Workspace<Space>& work) {
    const int P = int(panels_.size());
    MPI_Request staged[3][2], done[3][2];
    bool pending[3] = {false, false, false};
    const auto release = [&](int s) {  // every rank is done with slot s's last panel
      if (pending[s]) timed(times_.comm, [&] { MPI_Waitall(2, done[s], MPI_STATUSES_IGNORE); });
      pending[s] = false;
    };
    const auto wait_staged = [&](int s) {
      timed(times_.comm, [&] { MPI_Waitall(2, staged[s], MPI_STATUSES_IGNORE); });
    };
    const auto finished_with = [&](int s) {
      post_barriers(done[s]);
      pending[s] = true;
    };
    const auto stage = [&](int t, int s) {  // issue, complete, signal
      timed(times_.copy, [&] {
        stage_issue(t, s);
        stage_complete();
      });
      post_barriers(staged[s]);
    };
    constexpr bool gpu = !is_host_space_v<Space>;
    if (gpu && overlap_) {
      stage(0, 0);
      if (P > 1) stage(1, 1);
      wait_staged(0);
      timed(times_.copy, [&] {
        fetch_issue(0, 0);
        fetch_complete();
      });
      finished_with(0);
      for (int t = 0; t < P; ++t) {
        const int s = t % 3, s1 = (t + 1) % 3, s2 = (t + 2) % 3;
        timed(times_.gemm, [&] { local_gemm(gemm, work, t, s); });  // asynchronous on space_
        // Slot s2 was last read by panel t - 1 (its GEMM fenced, its fetch done everywhere after release).
        if (t + 2 < P) {
          release(s2);
          timed(times_.copy, [&] { stage_issue(t + 2, s2); });
        }
        if (t + 1 < P) {
          wait_staged(s1);
          timed(times_.copy, [&] { fetch_issue(t + 1, s1); });
        }
        if (t + 2 < P) {
          timed(times_.copy, [&] { stage_complete(); });
          post_barriers(staged[s2]);
        }
        if (t + 1 < P) {
          timed(times_.copy, [&] { fetch_complete(); });
          finished_with(s1);
        }
        timed(times_.gemm, [&] { space_.fence(); });
      }
    } else {
      const int sets = panel_sets(overlap_, path_);
      for (int t = 0; t < P; ++t) {
        const int s = t % sets;
        release(s);
        stage(t, s);
        wait_staged(s);
        timed(times_.copy, [&] {
          fetch_issue(t, s);
          fetch_complete();
        });
        if (gpu) finished_with(s);
        timed(times_.gemm, [&] {
          local_gemm(gemm, work, t, s);
          space_.fence();
        });
        if (!gpu) finished_with(s);
      }
    }
    for (int s = 0; s < 3; ++s) release(s);
  }

  /// One rank's segment of an MPI-3 shared-memory window over a communicator
  /// within one node, every rank's segment address, and (on a GPU) the
  /// window page-locked with cudaHostRegister. A passive-target epoch
  /// (MPI_Win_lock_all) is open for its life, so sync() (MPI_Win_sync) may
  /// order this rank's accesses against the barriers.
  struct SharedWindow {
    MPI_Win win = MPI_WIN_NULL;
    std::vector<T*> base;  ///< by rank in the communicator
    void* pinned = nullptr;

    /// Collective over comm: `elems` elements of T on this rank.
    void open(MPI_Comm comm, long elems, bool pin) {
      int n = 0;
      MPI_Comm_size(comm, &n);
      T* mine = nullptr;
      MPI_Win_allocate_shared(MPI_Aint(elems) * MPI_Aint(sizeof(T)), int(sizeof(T)), MPI_INFO_NULL, comm, &mine, &win);
      MPI_Win_lock_all(MPI_MODE_NOCHECK, win);
      base.assign(size_t(n), nullptr);
      char *lo = nullptr, *hi = nullptr;
      for (int r = 0; r < n; ++r) {
        MPI_Aint bytes = 0;
        int disp = 0;
        void* p = nullptr;
        MPI_Win_shared_query(win, r, &bytes, &disp, &p);
        base[size_t(r)] = static_cast<T*>(p);
        if (bytes > 0) {
          lo = (lo == nullptr || static_cast<char*>(p) < lo) ? static_cast<char*>(p) : lo;
          hi = std::max(hi, static_cast<char*>(p) + bytes);
        }
      }
#ifdef KOKKOS_ENABLE_CUDA
      // The whole window (one mapping on this node) at once, so copies to and
      // from any rank's segment are asynchronous DMA. If the driver refuses,
      // the copies still work (through the driver's own staging), slower.
      if (pin && lo != nullptr) {
        if (cudaHostRegister(lo, size_t(hi - lo), cudaHostRegisterDefault) == cudaSuccess)
          pinned = lo;
        else
          std::fprintf(stderr, "mmapp: warning: cudaHostRegister of the SUMMA window failed (%s); copies unpinned\n",
                       cudaGetErrorString(cudaGetLastError()));
      }
#else
      (void)pin;
#endif
    }
    void sync() const {
      if (win != MPI_WIN_NULL) MPI_Win_sync(win);
    }
    /// Collective over the communicator of open().
    void close() {
#ifdef KOKKOS_ENABLE_CUDA
      if (pinned) cudaHostUnregister(pinned);
#endif
      pinned = nullptr;
      if (win != MPI_WIN_NULL) {
        MPI_Win_unlock_all(win);
        MPI_Win_free(&win);
      }
    }
  };

  template <class F>
  static void timed(double& acc, F&& f) {
    const double t0 = wall_now();
    f();
    acc += wall_now() - t0;
  }

  /// n elements from Space's memory to pinned host memory (asynchronous on exec).
  static void to_pinned(const Space& exec, T* dst, const T* src, long n) {
    if (n == 0) return;
    Kokkos::deep_copy(exec, Kokkos::View<T*, pinned_space, Kokkos::MemoryUnmanaged>(dst, n),
                      Kokkos::View<const T*, mem_space, Kokkos::MemoryUnmanaged>(src, n));
  }
  /// n elements from pinned host memory to Space's memory (asynchronous on exec).
  static void to_device(const Space& exec, T* dst, const T* src, long n) {
    if (n == 0) return;
    Kokkos::deep_copy(exec, Kokkos::View<T*, mem_space, Kokkos::MemoryUnmanaged>(dst, n),
                      Kokkos::View<const T*, pinned_space, Kokkos::MemoryUnmanaged>(src, n));
  }

  /// rows x cols elements at buf, as `rows` MPI rows of `cols` elements.
  static void bcast(T* buf, long rows, long cols, int root, MPI_Comm comm, bool nonblocking, MPI_Request* req) {
    MPI_Datatype row;
    MPI_Type_contiguous(int(cols), mpi_type<T>(), &row);
    MPI_Type_commit(&row);
    if (nonblocking)
      MPI_Ibcast(buf, int(rows), row, root, comm, req);
    else
      MPI_Bcast(buf, int(rows), row, root, comm);
    MPI_Type_free(&row);  // a pending operation keeps it alive (MPI 4.0, 5.1.7 / 3.1, 4.1.9)
  }

  void local_gemm(GemmFn<Space, T> gemm, const Workspace<Space>& work, int t, int s) {
    if (mloc_ == 0 || nloc_ == 0 || !error_.empty()) return;
    const Panel& pn = panels_[t];
    const long w = pn.width();
    const T* a = dA_[s].data();
    const T* b = b_root(pn) ? B_.data() + (pn.k0 - blocks_.b_k.begin) * nloc_ : dB_[s].data();
    if (is_host_space_v<Space> && path_ == PanelPath::shared) {  // the roots' window slots, in place
      a = a_slot(pn.a_owner_col, s);
      if (!b_root(pn)) b = b_slot(pn.b_owner_row, s);
    }
    const ConstMatrix<T, Space> Ap(a, mloc_, w);
    const ConstMatrix<T, Space> Bp(b, w, nloc_);
    try {
      gemm(space_, GemmArgs<Space, T>{Ap, Bp, C_, t == 0 ? T(0) : T(1), work});
    } catch (const std::exception& e) {
      error_ = e.what();
    }
  }

  /// On a GPU: while the local GEMM runs, drive the pending broadcasts.
  void progress_while_computing(MPI_Request* req) {
#ifdef KOKKOS_ENABLE_CUDA
    if constexpr (std::is_same_v<Space, Kokkos::Cuda>) {
      cudaEventRecord(event_, space_.cuda_stream());
      int done = 0;
      while (!done && cudaEventQuery(event_) == cudaErrorNotReady) MPI_Testall(2, req, &done, MPI_STATUSES_IGNORE);
      return;
    }
#endif
    (void)req;  // host backends: the GEMM has already returned
  }

  Space space_;
  const GridComm& grid_;
  GridBlocks blocks_;
  std::vector<Panel> panels_;
  ConstMatrix<T, Space> A_, B_;
  Matrix<T, Space> C_;
  PanelPath path_;
  bool overlap_;
  long mloc_, nloc_, nb_;
  DevBuf dA_[3], dB_[3];
  PinBuf hA_[2], hB_[2];
  SharedWindow win_a_, win_b_;  // shared path: the A slots over the process row, the B slots over the column
  Space d2h_space_ = space_;    // shared path on a GPU: packing and device -> window, on a stream of its own
  Space h2d_space_ = space_;    // and window -> device, on another (both non-blocking)
  SummaTimes times_;
  std::string error_;
#ifdef KOKKOS_ENABLE_CUDA
  cudaEvent_t event_{};
  cudaStream_t copy_stream_[2] = {nullptr, nullptr};
#endif
};

}  // namespace mmapp
