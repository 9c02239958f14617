// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// plan.hpp — a case's kernels, resolved from the deck before anything is
// allocated: for each `kernels:` entry the variant to run and why (the deck
// resolution, resolve_kernel), or, for a distributed GEMM (ScaLAPACK's
// p?gemm), the decomposition's word that it can run it. Internal to the
// driver.
#pragma once

#include "deck/config.hpp"
#include "driver/driver.hpp"
#include "driver/resolve_kernel.hpp"
#include "core/signals.hpp"

#include <mpi.h>

#include <algorithm>
#include <cstddef>
#include <string>
#include <vector>

namespace mmapp::detail {

/// Names of the distributed GEMMs a deck may list: they multiply the whole
/// distributed problem themselves (no local kernel), so only a decomposition
/// that can run them (the process grid) accepts them.
inline bool is_distributed_kernel(const std::string& name) { return name == "scalapack"; }

/// One deck entry planned for a case: the variant to run, why, and for
/// tile: auto the candidates to time first. A distributed GEMM has no
/// variant (its name says which).
template <class Space, class T>
struct PlannedKernel {
  std::string name;                 ///< the deck's kernel name
  KernelVariant<Space, T> variant;  ///< the local GEMM (distributed: empty)
  std::string selection;            ///< why this variant ("deck", "shape rule: ...", ...)
  std::vector<KernelVariant<Space, T>> candidates;  ///< tile: auto only
  bool distributed = false;         ///< a distributed GEMM, run whole by the decomposition
};

/// Collective: runs `f`; if it throws on any rank, every rank throws
/// RunError(code) with the lowest failing rank's message, prefixed. A
/// Stopped (which `f` throws on every rank alike, after agree_stop) passes
/// through unchanged.
template <class F>
void agree_on(F&& f, const std::string& prefix, int code, MPI_Comm comm) {
  std::string err;
  try {
    f();
  } catch (const Stopped&) {  // thrown on every rank alike (an agreed stop): not an error
    throw;
  } catch (const std::exception& e) {
    err = prefix + e.what();
  }
  if (std::string first = first_error(err, comm); !first.empty()) throw RunError(code, first);
}

/// Resolves every deck entry for an m x n x k local problem (the shape the
/// decomposition gives each rank's kernel). A distributed kernel goes to
/// `accept_distributed(spec, index)`, which throws DeckError when the
/// decomposition cannot run it. Collective: a bad entry on any rank is
/// RunError(2) on all; with `errors` given, each entry is agreed on alone
/// instead, a bad one left out of the plan and its message appended to
/// `errors` (the same on every rank), so the rest can still be checked.
template <class Space, class T, class AcceptDistributed>
std::vector<PlannedKernel<Space, T>> plan_kernels(const Config& cfg, long m, long n, long k,
                                                  AcceptDistributed&& accept_distributed, MPI_Comm comm,
                                                  std::vector<std::string>* errors = nullptr) {
  std::vector<PlannedKernel<Space, T>> plan;
  const auto plan_one = [&](size_t i) {
    const KernelSpec& spec = cfg.kernels[i];
    PlannedKernel<Space, T> p;
    p.name = spec.name;
    if (is_distributed_kernel(spec.name)) {
      accept_distributed(spec, int(i));
      p.distributed = true;
    } else {
      const bool simt_only = cfg.math == MathMode::simt;
      const auto r = resolve_kernel<Space, T>(spec, cfg.deck_path, int(i), m, n, k, simt_only, cfg.where("run.math"));
      p.variant = r.variant;
      p.selection = r.selection;
      if (spec.tile_auto)
        for (auto& v : variants_named<Space, T>(spec.name))
          if (!(simt_only && uses_tensor_cores(v.math))) p.candidates.push_back(std::move(v));
    }
    plan.push_back(std::move(p));
  };
  if (!errors) {
    agree_on([&] { for (size_t i = 0; i < cfg.kernels.size(); ++i) plan_one(i); }, "", 2, comm);
    return plan;
  }
  for (size_t i = 0; i < cfg.kernels.size(); ++i) {
    const std::size_t before = plan.size();
    try {
      agree_on([&] { plan_one(i); }, "", 2, comm);
    } catch (const RunError& e) {  // agreed: on every rank alike
      plan.erase(plan.begin() + long(before), plan.end());  // a rank that planned it drops it again
      errors->push_back(e.what());
    }
  }
  return plan;
}

/// Largest workspace any planned local variant or candidate needs for an m x
/// n x k local problem, in bytes.
template <class Space, class T>
std::size_t workspace_bytes(const std::vector<PlannedKernel<Space, T>>& plan, long m, long n, long k) {
  std::size_t b = 0;
  for (const auto& p : plan) {
    if (p.distributed) continue;
    b = std::max(b, p.variant.workspace(m, n, k));
    for (const auto& c : p.candidates) b = std::max(b, c.workspace(m, n, k));
  }
  return b;
}

}  // namespace mmapp::detail
