// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// run_grid.cpp — the case runner instantiated with the 2-D process grid, for
// every compiled backend and both dtypes.
#include "driver/grid2d.hpp"

namespace mmapp::detail {

void run_grid_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                   const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  with_backend_and_dtype(backends[place.rank], dt, [&](auto space, auto value) {
    Grid2D<decltype(space), decltype(value)> d(cfg, size, place, backends);
    run_case(d, cfg, size, backends, out, hooks);
  });
}

std::vector<std::string> check_grid_case(const Config& cfg, const ProblemSize& size, DType dt,
                                         const RankPlacement& place, const std::vector<std::string>& backends) {
  std::vector<std::string> err;
  with_backend_and_dtype(backends[place.rank], dt, [&](auto space, auto value) {
    try {
      Grid2D<decltype(space), decltype(value)> d(cfg, size, place, backends);  // RunError(2) on every rank for a bad grid
      err = check_case(d, cfg);
    } catch (const RunError& e) {
      err = {e.what()};
    }
  });
  return err;
}

}  // namespace mmapp::detail
