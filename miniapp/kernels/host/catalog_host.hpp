// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// catalog_host.hpp — the host spaces' (Serial, OpenMP) `tiled` table: the
// rows of the micro-kernel table of the ISA level chosen at run time
// (host_isa.hpp: the CPU's highest compiled level, or MMAPP_HOST_ISA), each
// wrapped as the GotoBLAS/BLIS kernel or the few-rows kernel of
// tiled_host.hpp. The first is the default; the host rule (shape_rule.hpp)
// sends problems with fewer rows than its MR to "rows". The micro-tiles, and
// so the deck's thread_tile values, are those of the level chosen (8x48 and
// 14x32 float with AVX-512, 6x16 and 4x24 with AVX2, ...).
// Included only by kernels/instantiate_{serial,openmp}.cpp (through
// catalog_impl.hpp's declaration of host_variants).
#pragma once

#include "kernels/catalog.hpp"
#include "kernels/host/host_isa.hpp"
#include "kernels/host/tiled_host.hpp"

#include <stdexcept>
#include <utility>
#include <vector>

namespace mmapp {

namespace detail {
/// Host `tiled` for row Slot of the chosen ISA's table: thread_tile = the
/// MR x NR micro-tile, no fixed block tile (MC, NC, KC come from the caches
/// at run time), tag "goto" (printed "/8x48 goto"; a deck picks it with
/// {name: tiled, thread_tile: [8, 48]}) or "rows" (R x NR rows kernel, no
/// workspace).
template <int Slot, class Space, class T>
KernelVariant<Space, T> tiled_host_variant(const host::HostMicroKernel<T>& uk) {
  return {"tiled", {}, {uk.mr, uk.nr}, &gemm_tiled_host<Slot, Space, T>, -1,
          uk.rows ? nullptr : &tiled_host_workspace<T, Slot>, uk.tag};
}
template <class Space, class T, int... Slot>
void push_host_variants(std::vector<KernelVariant<Space, T>>& v, const std::vector<host::HostMicroKernel<T>>& uks,
                        std::integer_sequence<int, Slot...>) {
  ((Slot < int(uks.size()) ? v.push_back(tiled_host_variant<Slot, Space, T>(uks[Slot])) : void()), ...);
}
}  // namespace detail

/// The host `tiled` table, default first: every micro-kernel of the chosen
/// ISA level (isa_kernels.cpp lists them: with AVX-512 8 x 3 and 14 x 2
/// vectors and rows 6 x 4; with 16 registers 6 x 2, 4 x 3 and rows 4 x 2).
/// Throws host::HostIsaError for a bad MMAPP_HOST_ISA (mmapp checks it at
/// start and exits 2 first).
template <class Space, class T>
void host_variants(std::vector<KernelVariant<Space, T>>& v) {
  const auto uks = host::isa_kernels<T>(host::selected_host_isa());
  detail::push_host_variants<Space, T>(v, uks, std::make_integer_sequence<int, host::host_isa_max_kernels>{});
}

}  // namespace mmapp
