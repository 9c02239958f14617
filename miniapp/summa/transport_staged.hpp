// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transport_staged.hpp — SUMMA's panels by MPI broadcast through pinned host
// memory (PanelPath::staged): for a GPU whose MPI is not given device
// buffers. The broadcasts, slots and overlap are MpiTransport's
// (transport_mpi.hpp); each slot has a pinned host twin that MPI sees:
//   roots: pack A's panel on the device, fence, copy it device -> pinned;
//          copy B's panel rows device -> pinned; fence; broadcast;
//   others: receive into the pinned twin, copy pinned -> device, fence.
// The roots' GEMMs read their device slot (A) and their block (B) directly.
#pragma once

#include "summa/transport_mpi.hpp"

namespace mmapp {

template <class Space, class T>
class StagedTransport : public MpiTransport<Space, T> {
  using Base = MpiTransport<Space, T>;

 public:
  using PinBuf = Kokkos::View<T*, PinnedSpace>;

  /// Allocates the slots in Space's memory and their pinned twins (bytes()).
  StagedTransport(const PanelGeometry<Space, T>& geo, bool overlap) : Base(geo, overlap) {
    for (int s = 0; s < this->slots(); ++s) {
      hA_[s] = PinBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_pinned_a"), geo.mloc * geo.nb);
      hB_[s] = PinBuf(Kokkos::view_alloc(Kokkos::WithoutInitializing, "mmapp::summa_pinned_b"), geo.nb * geo.nloc);
    }
  }

  /// The slots in Space's memory and as many bytes pinned.
  static BufferBytes bytes(long mloc, long nloc, long nb, bool overlap) {
    const BufferBytes slots = Base::bytes(mloc, nloc, nb, overlap);
    return {slots.device, slots.device};
  }

 protected:
  void stage_out(int t, int s) override {
    const auto& g = this->g_;
    const long w = g.width(t);
    if (g.mloc > 0 && g.a_root(t)) {
      Kokkos::fence();  // the pack, before its copy
      copy_to_pinned(g.space, hA_[s].data(), this->dA_[s].data(), g.mloc * w);
    }
    if (g.nloc > 0 && g.b_root(t)) copy_to_pinned(g.space, hB_[s].data(), g.b_rows(t), w * g.nloc);
  }
  void stage_in(int t, int s) override {
    const auto& g = this->g_;
    const long w = g.width(t);
    if (g.mloc > 0 && !g.a_root(t)) copy_to_space(g.space, this->dA_[s].data(), hA_[s].data(), g.mloc * w);
    if (g.nloc > 0 && !g.b_root(t)) copy_to_space(g.space, this->dB_[s].data(), hB_[s].data(), w * g.nloc);
  }
  T* mpi_a(int, int s) override { return hA_[s].data(); }
  T* mpi_b(int, int s) override { return hB_[s].data(); }

 private:
  PinBuf hA_[2], hB_[2];
};

}  // namespace mmapp
