// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// listing.hpp — what this binary holds, for `mmapp --version` and
// `mmapp --list`: its version, Kokkos', the backends, the SUMMA panel
// transports, the kernels and every kernel variant with the label the
// results table prints for it (which a deck's `tile:` accepts back).
#pragma once

#include <ostream>
#include <string>
#include <vector>

namespace mmapp {

/// One compiled kernel variant as --list prints it.
struct ListedVariant {
  std::string backend;  ///< "serial", "openmp", "cuda"
  std::string dtype;    ///< "float", "double"
  std::string kernel;   ///< deck name
  std::string label;    ///< tile_label(shape()): "-" for none, e.g. "/8x48 goto"
};

/// Every compiled variant of every kernel, for every backend and dtype, in
/// catalog order. Needs no Kokkos initialisation (the catalog is a table).
std::vector<ListedVariant> listed_variants();

/// `mmapp --version`: lines "mmapp VERSION (git HASH)", "Kokkos X.Y.Z",
/// "backends: serial openmp ...".
void print_version(std::ostream& os);

/// `mmapp --list`: one item per line, the first word its kind, fields
/// separated by one blank, the label last (it may hold blanks):
///   version VERSION
///   git HASH
///   kokkos X.Y.Z
///   backend NAME                       (one per compiled backend)
///   transport NAME                     (SUMMA panel transports compiled in)
///   kernel NAME                        (deck names; scalapack when compiled)
///   variant BACKEND DTYPE KERNEL LABEL (LABEL as the table prints it; a
///                                       deck's `tile: LABEL` selects it)
void print_list(std::ostream& os);

}  // namespace mmapp
