// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// warp/ws_pipeline.hpp — the warp-specialized main loop of a gemm_tiled_mma
// team (tiled_gpu_mma.hpp, GpuMmaTile with Producers > 0; issue 21): the
// team's first `consumer_threads` threads are the warps that multiply (their
// MMA tiles as in every other form), the last Producers warps only copy K
// tiles from global memory to scratch (cp.async, warp/async_copy.hpp) into a
// ring of S stages. No team barrier in the K loop: each stage has two
// mbarriers in scratch (PTX ISA, "Parallel Synchronization and Communication
// Instructions: mbarrier"; the producer/consumer pipeline of NVIDIA CUTLASS,
// include/cutlass/pipeline/sm90_pipeline.hpp, PipelineAsync):
//   full[s]  (count: the producer threads): each producer thread arrives once
//            per fill, after its copies of the tile land (`cp.async.mbarrier.
//            arrive`, which holds the phase open until then) and after any
//            chunk it stored through registers (a plain arrive, release);
//   empty[s] (count: the consumer threads): each consumer thread arrives once
//            it has read the stage (its fragment loads precede the arrive,
//            release).
// K tile kt uses stage s = kt mod S in phase (kt / S) mod 2: the producers
// wait for empty[s] to finish the phase before it (so the first S fills pass
// at once: a new mbarrier counts its phase before phase 0 as done), fill,
// arrive on full[s]; the consumers wait for full[s]'s phase, multiply, arrive
// on empty[s]. A warp of the consumers waits only for its own tiles: the
// other warps, and the other team on the SM, are not held by a team barrier
// (the rule's two-team tile spends its barrier stalls there; docs/performance.md,
// "Tensor cores, eighteenth round").
// Registers: where the producers are one warpgroup and the consumers whole
// warpgroups (GpuMmaTile::producer_regs), `setmaxnreg` (sm_90a) lowers the
// producers to 24 registers and raises the consumers to the rest of the
// team's share (consumer_regs: 240 at one team per SM of 384 threads, whose
// launch bounds give 168). ptxas allocates by region, so everything the
// consumers keep (accumulators, K loop, epilogue) lives in their branch:
// ws_mainloop hands them a `run` for the K loop instead of running it for them.
// Where mbarrier waits do not exist (the host backends, where the kernel's
// mma is emulated, and device builds before sm_90, which list no such
// variant) the same roles run async_mainloop's schedule: the producers
// issue, every thread passes one team barrier per K tile, the consumers
// multiply. C's bits are the same either way (the same K tiles, MMAs and
// order per warp).
#pragma once

#include <Kokkos_Core.hpp>

#include <cstdint>
#include <type_traits>

#include "kernels/gpu/warp/async_copy.hpp"
#include "kernels/gpu/warp/async_pipeline.hpp"

#if defined(__CUDA_ARCH__) && __CUDA_ARCH__ >= 900
#define MMAPP_WS_MBARRIER 1  // try_wait.parity: sm_90
#else
#define MMAPP_WS_MBARRIER 0
#endif

namespace mmapp {
namespace detail {

#if MMAPP_WS_MBARRIER
/// The 32-bit shared-memory address of an mbarrier in scratch.
KOKKOS_FORCEINLINE_FUNCTION unsigned smem_addr(const std::uint64_t* bar) {
  return static_cast<unsigned>(__cvta_generic_to_shared(bar));
}
/// mbarrier.init: a barrier of `count` expected arrivals per phase.
KOKKOS_FORCEINLINE_FUNCTION void mbar_init(std::uint64_t* bar, const unsigned count) {
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;\n" ::"r"(smem_addr(bar)), "r"(count) : "memory");
}
/// mbarrier.inval: the barrier's word may be reused (before a new init).
KOKKOS_FORCEINLINE_FUNCTION void mbar_inval(std::uint64_t* bar) {
  asm volatile("mbarrier.inval.shared::cta.b64 [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
/// mbarrier.arrive (release, CTA scope): one arrival of this thread; returns the phase's state token.
KOKKOS_FORCEINLINE_FUNCTION std::uint64_t mbar_arrive(std::uint64_t* bar) {
  std::uint64_t state;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];\n" : "=l"(state) : "r"(smem_addr(bar)) : "memory");
  return state;
}
/// cp.async.mbarrier.arrive: the barrier's phase cannot complete before this
/// thread's cp.async copies issued so far have landed (the pending count is
/// raised by one now and lowered when they land: no arrival of its own).
KOKKOS_FORCEINLINE_FUNCTION void mbar_cp_async_arrive(std::uint64_t* bar) {
  asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];\n" ::"r"(smem_addr(bar)) : "memory");
}
/// setmaxnreg (sm_90a; PTX ISA, "Miscellaneous Instructions: setmaxnreg"): this warpgroup's
/// registers per thread lowered (Inc false) or raised to R; every warp of the warpgroup executes it.
template <bool Inc, int R>
KOKKOS_FORCEINLINE_FUNCTION void set_max_regs() {
  static_assert(R >= 24 && R <= 256 && R % 8 == 0, "setmaxnreg: 24-256, a multiple of 8");
#if defined(__CUDA_ARCH_FEAT_SM90_ALL)
  if constexpr (Inc)
    asm volatile("setmaxnreg.inc.sync.aligned.u32 %0;\n" ::"n"(R));
  else
    asm volatile("setmaxnreg.dec.sync.aligned.u32 %0;\n" ::"n"(R));
#endif
}
/// Waits (acquire, CTA scope) until the phase of parity `parity` of the barrier has completed.
KOKKOS_FORCEINLINE_FUNCTION void mbar_wait(std::uint64_t* bar, const unsigned parity) {
  unsigned done = 0;
  do {
    asm volatile(
        "{\n .reg .pred p;\n mbarrier.try_wait.parity.shared::cta.b64 p, [%1], %2;\n selp.u32 %0, 1, 0, p;\n}\n"
        : "=r"(done)
        : "r"(smem_addr(bar)), "r"(parity)
        : "memory");
  } while (!done);
}

/// Initializes a ring of S stages' mbarriers, full[0..S) then empty[0..S) (each stage's `full`
/// counting `producers` arrivals a phase, its `empty` `consumers`), by thread 0, then a team
/// barrier so every thread sees them.
template <int S, class Member>
KOKKOS_INLINE_FUNCTION void mbar_init_ring(const Member& team, std::uint64_t* full, const unsigned producers,
                                           const unsigned consumers) {
  if (team.team_rank() == 0)
    for (int s = 0; s < S; ++s) {
      mbar_init(full + s, producers);
      mbar_init(full + S + s, consumers);
    }
  team.team_barrier();
}
/// Invalidates the ring's 2 S mbarriers (the words may be reused: a block that runs another team
/// initializes them again); one thread, after every wait on them.
template <int S>
KOKKOS_INLINE_FUNCTION void mbar_inval_ring(std::uint64_t* full) {
  for (int s = 0; s < 2 * S; ++s) mbar_inval(full + s);
}
#endif

/// A barrier of the whole CTA that threads may reach from different branches (`bar.sync 0`:
/// on sm_70 and later it counts threads, not warps at one place; PTX ISA, "bar, barrier").
KOKKOS_FORCEINLINE_FUNCTION void cta_barrier() {
#if defined(__CUDA_ARCH__)
  asm volatile("bar.sync 0;\n" ::: "memory");
#endif
}

/// The warp-specialized main loop (file comment) over the segments `segs`
/// (TeamSegments, warp/segment.hpp) of one team of Cfg (GpuMmaTile with
/// producers > 0): for each segment in order, threads tid <
/// Cfg::consumer_threads call consumer(segment, run), which holds their
/// accumulators and calls run(compute) for the segment's K loop
/// (compute(std::integral_constant<int, s>): the warp's MMAs on stage s of
/// st); the others copy the segment's K tiles with an AsyncTileLoader of
/// Cfg::producer_threads threads (p: the kernel's parameters). One ring for
/// all segments: K tile kt of the team (counted over its segments) uses
/// stage kt mod S, so the producers copy the next segment's first tiles
/// while the consumers store the last one's result; every segment but the
/// last is a multiple of S K tiles (Stream-K pads them: stream_k.hpp), so
/// each starts on stage 0, the compile-time stage of the consumers' loop.
/// The consumers' whole work (accumulators, loop, epilogue) sits in their
/// branch so that the registers setmaxnreg gives them are theirs alone.
/// Scratch: MmaScratch, whose bars() hold 2 S mbarriers. Every thread of
/// the team calls it (team barriers).
template <class Cfg, class T, class Member, class Scratch, class Params, class Segments, class Consumer>
KOKKOS_INLINE_FUNCTION void ws_mainloop(const Member& team, const Scratch& st, const Params& p, const int tid,
                                        const Segments& segs, const Consumer& consumer) {
  constexpr int S = Cfg::stages, BK = Cfg::BK;  // 2-4 stages: stage_loop's and async_mainloop's checks
  const bool producer = tid >= Cfg::consumer_threads;
  const int ptid = producer ? tid - Cfg::consumer_threads : 0;
  using Loader = AsyncTileLoader<Cfg, T, Scratch, Cfg::producer_threads, true>;  // the producers', rolled
#if MMAPP_WS_MBARRIER
  std::uint64_t* const full = st.bars();
  std::uint64_t* const empty = full + S;
  mbar_init_ring<S>(team, full, Cfg::producer_threads, Cfg::consumer_threads);
  if (producer) {
    if constexpr (Cfg::producer_regs > 0) set_max_regs<false, Cfg::producer_regs>();  // to the consumers
    int base = 0;  // the team's K tiles before this segment
    segs.for_each([&](const auto& sg) {
      const Loader al{p, sg.bm, sg.bn, ptid, sg.k_end};
      for (int kt = 0; kt < sg.ktiles; ++kt) {
        const int g = base + kt, s = g % S;
        mbar_wait(empty + s, ((g / S) & 1) ^ 1);  // the stage's previous tile read by every consumer
        al.issue(st, s, sg.k_begin + kt * BK);
        mbar_cp_async_arrive(full + s);
        mbar_arrive(full + s);
      }
      base += sg.ktiles;
    });
    cp_async_wait<0>();
    cta_barrier();  // with the consumers' below: every wait done
  } else {
    if constexpr (Cfg::producer_regs > 0) set_max_regs<true, Cfg::consumer_regs>();
    int base = 0;  // a multiple of S (the function comment)
    segs.for_each([&](const auto& sg) {
      consumer(sg, [&](const auto& compute) {
        stage_loop<S>(sg.ktiles, [&](const int kt, auto cur) {
          constexpr int Cur = decltype(cur)::value;
          mbar_wait(full + Cur, ((base + kt) / S) & 1);
          compute(cur);
          mbar_arrive(empty + Cur);
        });
      });
      base += sg.ktiles;
    });
    cta_barrier();
    if (tid == 0) mbar_inval_ring<S>(full);
  }
#else
  // The same roles on async_mainloop's schedule (file comment), a ring per segment over its K
  // range (no padding: the padded K tiles are zeros), a team barrier between segments: as many
  // team barriers in each branch.
  struct Issuer {
    const Loader al;
    bool producer;
    KOKKOS_INLINE_FUNCTION void issue(const Scratch& s_, const int s, const int k0) const {
      if (producer) al.issue(s_, s, k0);
    }
  };
  segs.for_each([&](const auto& sg) {
    if (&sg != &segs.seg[0]) team.team_barrier();  // the last segment's stages read by every warp
    const Issuer is{Loader{p, sg.bm, sg.bn, ptid, sg.k_end}, producer};
    if (producer)
      async_mainloop<S, BK>(team, st, is, sg.k_begin, sg.k_end, [](auto) {});
    else
      consumer(sg, [&](const auto& compute) { async_mainloop<S, BK>(team, st, is, sg.k_begin, sg.k_end, compute); });
  });
#endif
}

}  // namespace detail
}  // namespace mmapp
