// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// transports.hpp — the table of panel transports (panel_transport.hpp):
// which PanelPath (transport_select.hpp) runs which transport, how many
// buffer bytes it needs and how it is made. One line per transport, so the
// next one is its own file and one line here (SUMMA over NCCL: transport_nccl.hpp).
#pragma once

#include "summa/buffer_bytes.hpp"
#include "summa/panel_transport.hpp"
#include "summa/transport_mpi.hpp"
#include "summa/transport_nccl.hpp"
#include "summa/transport_select.hpp"
#include "summa/transport_shared.hpp"
#include "summa/transport_staged.hpp"

#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

namespace mmapp {

/// One transport of the table: the path it serves, its buffer bytes for an
/// |I| x |J| block and panels at most `nb` wide (before anything is
/// allocated), and its construction (collective where the transport says).
template <class Space, class T>
struct TransportEntry {
  PanelPath path;
  BufferBytes (*bytes)(long mloc, long nloc, long nb, bool overlap);
  std::unique_ptr<PanelTransport<Space, T>> (*make)(const PanelGeometry<Space, T>& geo, bool overlap);
};

/// The entry of transport class X<Space, T> for `path`: X has a static
/// bytes(mloc, nloc, nb, overlap) and a constructor (geometry, overlap).
template <class Space, class T, template <class, class> class X>
TransportEntry<Space, T> transport_entry(PanelPath path) {
  return {path, &X<Space, T>::bytes, [](const PanelGeometry<Space, T>& geo, bool overlap) {
            return std::unique_ptr<PanelTransport<Space, T>>(std::make_unique<X<Space, T>>(geo, overlap));
          }};
}

/// Every transport.
template <class Space, class T>
const std::vector<TransportEntry<Space, T>>& panel_transports() {
  static const std::vector<TransportEntry<Space, T>> table{
      transport_entry<Space, T, MpiTransport>(PanelPath::host),
      transport_entry<Space, T, MpiTransport>(PanelPath::cuda_aware),
      transport_entry<Space, T, StagedTransport>(PanelPath::staged),
      transport_entry<Space, T, SharedTransport>(PanelPath::shared),
      transport_entry<Space, T, NcclTransport>(PanelPath::nccl),
  };
  return table;
}

/// The entry for `path`. Throws std::invalid_argument when no transport serves it.
template <class Space, class T>
const TransportEntry<Space, T>& transport_for(PanelPath path) {
  for (const auto& e : panel_transports<Space, T>())
    if (e.path == path) return e;
  throw std::invalid_argument(std::string("SUMMA: no panel transport for \"") + describe(path) + "\"");
}

}  // namespace mmapp
