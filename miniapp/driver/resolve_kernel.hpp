// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// resolve_kernel.hpp — a deck's `kernels:` entry resolved to a variant of the
// kernel catalog (kernels/catalog.hpp) for one execution space, dtype and
// problem shape: the variant that matches every key the entry gives, or the
// shape rules' default when it gives none. Used by the case runners
// (driver/plan.hpp's plan_kernels).
#pragma once

#include "core/printable.hpp"
#include "deck/config.hpp"
#include "kernels/catalog.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mmapp {

/// A deck entry resolved to a variant, with why that variant ("deck",
/// "default for the backend", "shape rule: ...", "host rule: ...").
template <class Space, class T>
struct ResolvedKernel {
  KernelVariant<Space, T> variant;
  std::string selection;
};

/// The variant a deck entry asks for, for an m x n x k problem: with a tile
/// label (`tile: "/8x48 goto"`), the variant whose tile_label(shape()) it
/// is; else the first variant of that name matching every key the entry gives (tile,
/// thread_tile, prefetch, variant = the tag; prefetch is ignored where a
/// variant has no such switch), or, when it gives none, default_variant() for the shape. A
/// `tile: auto` entry resolves to the shape default here; the driver then
/// times every variant of the name. `deck`: the deck's path and `index` the
/// entry's position, for messages when the entry does not say where it was
/// given (KernelSpec::where). Throws DeckError
/// ("FILE:LINE: kernels[i].tile: ..." or "--set kernels[i].tile: ...")
/// naming the labels compiled for this backend when the shape is not one of
/// them, or when the name is unknown. With `simt_only` (the deck's run.math:
/// simt, given at `math_where`, e.g. "FILE:LINE: run.math") the default is
/// the shape rule's SIMT choice, keys match SIMT variants only, and an entry
/// that names only tensor-core variants (its label, or keys that match no
/// SIMT variant but a tensor-core one) throws DeckError naming the entry's
/// key and run.math.
template <class Space, class T>
ResolvedKernel<Space, T> resolve_kernel(const KernelSpec& spec, const std::string& deck, int index, long m, long n,
                                        long k, bool simt_only = false, const std::string& math_where = "run.math") {
  const auto same = variants_named<Space, T>(spec.name);
  const std::string where = !spec.where.empty() ? spec.where
                            : deck + (spec.line > 0 ? ":" + std::to_string(spec.line) : std::string()) +
                                  ": kernels[" + std::to_string(index) + "]";
  if (same.empty()) throw DeckError(where + ".name: unknown kernel " + quoted(spec.name));
  const auto refuse_tensor_cores = [&](const KernelVariant<Space, T>& v, const std::string& key) {
    return DeckError(where + "." + key + ": " + spec.name + " variant " + mmapp::quoted(v.shape()) + " runs on tensor cores (" +
                     math_path_name(v.math) + ") but " + math_where +
                     " is simt; choose a SIMT variant or leave the tile to the shape rule");
  };
  if (!spec.label.empty()) {
    std::string labels;
    for (const auto& v : same) {
      if (tile_label(v.shape()) == spec.label) {
        if (simt_only && uses_tensor_cores(v.math)) throw refuse_tensor_cores(v, "tile");
        return {v, "deck"};
      }
      labels += (labels.empty() ? "'" : ", '") + tile_label(v.shape()) + "'";
    }
    throw DeckError(where + ".tile: no " + spec.name + " variant labelled " + quoted(spec.label) + " for backend " +
                    std::string(Space::name()) + " and this dtype; available: " + labels);
  }
  if (spec.tile.empty() && spec.thread_tile.empty() && spec.prefetch < 0 && spec.variant.empty()) {
    std::string why;
    const std::size_t i = default_variant<Space, T>(same, m, n, k, why, !simt_only);
    return {same[i], why};
  }
  std::string shapes;
  const KernelVariant<Space, T>* tensor_core_match = nullptr;  // matched, but run.math: simt forbids it
  for (const auto& v : same) {
    const bool tile_ok = spec.tile.empty() || spec.tile == v.tile;
    const bool thread_ok = spec.thread_tile.empty() || spec.thread_tile == v.thread_tile;
    const bool prefetch_ok = spec.prefetch < 0 || v.prefetch < 0 || spec.prefetch == v.prefetch;
    const bool variant_ok = spec.variant.empty() || spec.variant == v.tag;
    if (tile_ok && thread_ok && prefetch_ok && variant_ok) {
      if (!(simt_only && uses_tensor_cores(v.math))) return {v, "deck"};
      if (!tensor_core_match) tensor_core_match = &v;
    }
    shapes += (shapes.empty() ? "" : ", ") + v.shape();
  }
  if (tensor_core_match) throw refuse_tensor_cores(*tensor_core_match, spec.variant.empty() ? "tile" : "variant");
  throw DeckError(where + ".tile: shape not compiled for backend " + std::string(Space::name()) +
                  " and this dtype; available: " + shapes);
}

}  // namespace mmapp
