// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// listing.cpp — implementation of listing.hpp.
#include "driver/listing.hpp"

#include "core/exec_spaces.hpp"
#include "core/kokkos_args.hpp"
#include "core/version.hpp"
#include "deck/config.hpp"
#include "kernels/catalog.hpp"
#include "kernels/kernel_names.hpp"
#include "summa/scalapack.hpp"
#include "summa/transports.hpp"

#include <set>

namespace mmapp {

namespace {

template <class Space, class T>
void add_variants(const std::string& backend, const char* dtype, std::vector<ListedVariant>& out) {
  for (const auto& v : kernel_variants<Space, T>()) out.push_back({backend, dtype, v.name, tile_label(v.shape())});
}

/// The first word of describe(path): "host", "cuda-aware", "staged", "shared".
std::string transport_name(PanelPath p) {
  const std::string d = describe(p);
  return d.substr(0, d.find_first_of(" :"));
}

}  // namespace

std::vector<ListedVariant> listed_variants() {
  std::vector<ListedVariant> out;
  for (const auto& backend : enabled_backends())
    with_backend(backend, [&](auto space) {
      using Space = decltype(space);
      add_variants<Space, float>(backend, "float", out);
      add_variants<Space, double>(backend, "double", out);
    });
  return out;
}

void print_version(std::ostream& os) {
  os << "mmapp " << MMAPP_VERSION << " (git " << MMAPP_GIT_HASH << ")\n";
  os << "Kokkos " << kokkos_version_string(kokkos_version()) << "\n";
  os << "backends:";
  for (const auto& b : enabled_backends()) os << " " << b;
  os << "\n";
}

void print_list(std::ostream& os) {
  os << "version " << MMAPP_VERSION << "\n";
  os << "git " << MMAPP_GIT_HASH << "\n";
  os << "kokkos " << kokkos_version_string(kokkos_version()) << "\n";
  for (const auto& b : enabled_backends()) os << "backend " << b << "\n";
  std::set<std::string> seen;
  for (const auto& e : panel_transports<Kokkos::DefaultExecutionSpace, double>())
    if (seen.insert(transport_name(e.path)).second) os << "transport " << transport_name(e.path) << "\n";
  for (const auto& k : kernel_names()) os << "kernel " << k << "\n";
  if (scalapack_compiled()) os << "kernel scalapack\n";
  for (const auto& v : listed_variants())
    os << "variant " << v.backend << " " << v.dtype << " " << v.kernel << " " << v.label << "\n";
}

}  // namespace mmapp
