// kernel_registry.hpp — the table the driver loops over: every kernel by
// its deck name, with the tile shapes it was compiled for on each kind of
// backend (the first listed is the backend's default). A new kernel is one
// header plus one entry here.
#pragma once

#include "config.hpp"
#include "kernels/naive.hpp"
#include "kernels/shared.hpp"
#include "kernels/tiled_gpu.hpp"
#include "kernels/tiled_host.hpp"
#include "kernels/vendor.hpp"

#include <cstddef>
#include <string>
#include <vector>

namespace mmapp {

/// Bytes of device workspace a variant needs for an M x N x K problem
/// (see Workspace in types.hpp).
using WorkspaceFn = std::size_t (*)(long m, long n, long k);

/// One runnable kernel variant: its deck name, its shape and the function.
template <class Space, class T>
struct KernelVariant {
  std::string name;
  std::vector<int> tile;         ///< as written in a deck's `tile:`
  std::vector<int> thread_tile;  ///< as written in a deck's `thread_tile:`
  GemmFn<Space, T> run;
  int prefetch = -1;             ///< tiled on GPUs: 1 with register prefetch, 0 without; -1 n/a
  WorkspaceFn workspace_bytes = nullptr;  ///< nullptr: needs none
  std::string tag;               ///< further distinguishing words of the shape ("" for none)
  /// The shape as text, e.g. "128x128x8/8x8", "128x128x8/8x8 nopf"; "" when it has none.
  std::string shape() const {
    std::string s;
    for (size_t i = 0; i < tile.size(); ++i) s += (i ? "x" : "") + std::to_string(tile[i]);
    for (size_t i = 0; i < thread_tile.size(); ++i) s += (i ? "x" : "/") + std::to_string(thread_tile[i]);
    if (prefetch == 0) s += " nopf";
    if (!tag.empty()) s += (s.empty() ? "" : " ") + tag;
    return s;
  }
  /// Workspace for an M x N x K problem, in bytes.
  std::size_t workspace(long m, long n, long k) const { return workspace_bytes ? workspace_bytes(m, n, k) : 0; }
};

/// The names `kernels:` accepts, in ladder order.
inline const std::vector<std::string>& kernel_names() {
  static const std::vector<std::string> names{"naive", "shared", "tiled", "kokkoskernels"};
  return names;
}

namespace detail {
template <int BM, int BN, int BK, int TM, int TN, bool P, class Space, class T>
KernelVariant<Space, T> tiled_variant() {
  return {"tiled", {BM, BN, BK}, {TM, TN}, &gemm_tiled<BM, BN, BK, TM, TN, P, Space, T>, P ? 1 : 0, nullptr, ""};
}
/// Host `tiled`, GotoBLAS/BLIS loops: thread_tile = the MR x NR register
/// micro-tile (NR = NV vectors of the ISA compiled for), no fixed block tile
/// (MC, NC, KC come from the caches at run time), tag "goto"; printed
/// "/8x48 goto". A deck picks it with {name: tiled, thread_tile: [8, 48]}.
template <int MR, int NV, class Space, class T>
KernelVariant<Space, T> tiled_host_variant() {
  return {"tiled", {}, {MR, NV * host::lanes<T>}, &gemm_tiled_host<MR, NV, Space, T>, -1,
          &tiled_host_workspace<T, MR, NV>, "goto"};
}
/// Host `tiled` for few rows: thread_tile = R x NR (R rows of C per group,
/// NR = NV vectors of columns), tag "rows"; no workspace.
template <int R, int NV, class Space, class T>
KernelVariant<Space, T> tiled_host_rows_variant() {
  return {"tiled", {}, {R, NV * host::lanes<T>}, &gemm_tiled_host_rows<R, NV, Space, T>, -1, nullptr, "rows"};
}
}  // namespace detail

/// Every variant compiled for (Space, T), defaults first for each name.
/// GPU tile shapes (gemm_tiled): 256 threads with 8x8 register tiles and
/// register prefetch by default (float and double), 4x4 and no-prefetch
/// variants for the ladder. Host shapes (tiled_host.hpp), sized to the vector
/// registers of the ISA compiled for (host_simd.hpp): with 32 registers
/// (AVX-512) the GotoBLAS/BLIS kernel with an 8 x 3-vector micro-tile (24
/// accumulators; 8x48 float, 8x24 double) by default and 14 x 2 vectors, and
/// the few-rows kernel with 6 rows x 4 vectors; with 16 registers (AVX2, SSE)
/// 6 x 2 and 4 x 3 vectors, and 4 rows x 2 vectors (docs/performance.md).
template <class Space, class T>
std::vector<KernelVariant<Space, T>> kernel_variants() {
  std::vector<KernelVariant<Space, T>> v{
      {"naive", {}, {}, &gemm_naive<Space, T>, -1, nullptr, ""},
      {"shared", {16}, {}, &gemm_shared<16, Space, T>, -1, nullptr, ""},
      {"shared", {32}, {}, &gemm_shared<32, Space, T>, -1, nullptr, ""},
  };
  if constexpr (is_host_space_v<Space>) {
    if constexpr (host::simd_registers >= 32) {
      v.push_back(detail::tiled_host_variant<8, 3, Space, T>());
      v.push_back(detail::tiled_host_variant<14, 2, Space, T>());
      v.push_back(detail::tiled_host_rows_variant<6, 4, Space, T>());
    } else {
      v.push_back(detail::tiled_host_variant<6, 2, Space, T>());
      v.push_back(detail::tiled_host_variant<4, 3, Space, T>());
      v.push_back(detail::tiled_host_rows_variant<4, 2, Space, T>());
    }
  } else if constexpr (std::is_same_v<T, float>) {
    v.push_back(detail::tiled_variant<128, 128, 8, 8, 8, true, Space, T>());
    v.push_back(detail::tiled_variant<128, 128, 8, 8, 8, false, Space, T>());  // the ladder without prefetch
    v.push_back(detail::tiled_variant<128, 128, 16, 8, 8, true, Space, T>());
    v.push_back(detail::tiled_variant<64, 64, 8, 4, 4, true, Space, T>());
    v.push_back(detail::tiled_variant<64, 64, 8, 4, 4, false, Space, T>());
  } else {
    // double: 8x8 also wins from N = 2048 up on an H200 (docs/performance.md).
    v.push_back(detail::tiled_variant<128, 128, 8, 8, 8, true, Space, T>());
    v.push_back(detail::tiled_variant<64, 64, 8, 4, 4, true, Space, T>());
    v.push_back(detail::tiled_variant<64, 64, 16, 4, 4, true, Space, T>());
  }
  v.push_back({"kokkoskernels", {}, {}, &gemm_vendor<Space, T>, -1, nullptr, ""});
  return v;
}

/// Every compiled variant named `name` for (Space, T), in registry order.
template <class Space, class T>
std::vector<KernelVariant<Space, T>> variants_named(const std::string& name) {
  std::vector<KernelVariant<Space, T>> out;
  for (auto& v : kernel_variants<Space, T>())
    if (v.name == name) out.push_back(v);
  return out;
}

/// The default variant of a kernel for an m x n x k problem, chosen from the
/// problem's shape, and the rule that chose it (for the report). `same_name`
/// holds every compiled variant of that kernel, in registry order (not empty).
/// The rule: the first listed variant of the name (the backend's default),
/// except on host spaces: a problem with fewer rows than the default
/// variant's micro-tile (m < its thread_tile[0], MR: 8 with AVX-512, 6 with
/// AVX2/SSE) takes the few-rows variant (tag "rows") when the name has one.
/// The packed kernel would pad those rows to MR and pack all of B for them
/// (read, write, reread), while the rows kernel streams B once; measured on the
/// development machine, N = K = 4096: rows 1.4-1.7x faster at m = 6; from
/// m = 8 the packed kernel ties or wins (docs/performance.md, host rule).
template <class Space, class T>
std::size_t default_variant(const std::vector<KernelVariant<Space, T>>& same_name, long m, long n, long k,
                            std::string& why) {
  (void)n, (void)k;
  if constexpr (is_host_space_v<Space>) {
    const long mr = same_name.front().thread_tile.empty() ? 0 : same_name.front().thread_tile[0];
    for (std::size_t i = 0; i < same_name.size(); ++i)
      if (same_name[i].tag == "rows" && m < mr) {
        why = "host rule: m < " + std::to_string(mr) + " rows (the packed kernel's micro-tile)";
        return i;
      }
  }
  why = same_name.size() > 1 ? "default for the backend" : "";
  return 0;
}

/// A deck entry resolved to a variant, with why that variant ("deck: tile
/// as given", "default for the backend", ...).
template <class Space, class T>
struct ResolvedKernel {
  KernelVariant<Space, T> variant;
  std::string selection;
};

/// The variant a deck entry asks for, for an m x n x k problem: the first
/// variant of that name matching every key the entry gives (tile,
/// thread_tile, prefetch; prefetch is ignored where a variant has no such
/// switch), or, when it gives none, default_variant() for the shape. A
/// `tile: auto` entry resolves to the shape default here; the driver then
/// times every variant of the name. Throws DeckError
/// ("FILE:LINE: kernels[i].tile: ...") naming the shapes compiled for this
/// backend when the shape is not one of them, or when the name is unknown.
template <class Space, class T>
ResolvedKernel<Space, T> resolve_kernel(const KernelSpec& spec, const std::string& deck, int index, long m, long n,
                                        long k) {
  const auto same = variants_named<Space, T>(spec.name);
  const std::string where = deck + (spec.line > 0 ? ":" + std::to_string(spec.line) : std::string()) +
                            ": kernels[" + std::to_string(index) + "]";
  if (same.empty()) throw DeckError(where + ".name: unknown kernel '" + spec.name + "'");
  if (spec.tile.empty() && spec.thread_tile.empty() && spec.prefetch < 0) {
    std::string why;
    const std::size_t i = default_variant<Space, T>(same, m, n, k, why);
    return {same[i], why};
  }
  std::string shapes;
  for (const auto& v : same) {
    const bool tile_ok = spec.tile.empty() || spec.tile == v.tile;
    const bool thread_ok = spec.thread_tile.empty() || spec.thread_tile == v.thread_tile;
    const bool prefetch_ok = spec.prefetch < 0 || v.prefetch < 0 || spec.prefetch == v.prefetch;
    if (tile_ok && thread_ok && prefetch_ok) return {v, "deck"};
    shapes += (shapes.empty() ? "" : ", ") + v.shape();
  }
  throw DeckError(where + ".tile: shape not compiled for backend " + std::string(Space::name()) +
                  " and this dtype; available: " + shapes);
}

}  // namespace mmapp
