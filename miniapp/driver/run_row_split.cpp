// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// run_row_split.cpp — the case runner instantiated with the row split, for
// every compiled backend and both dtypes (a translation unit of its own, so
// the two decompositions compile in parallel).
#include "driver/row_split.hpp"

namespace mmapp::detail {

void run_row_split_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                        const std::vector<std::string>& backends, std::vector<RunRecord>& out,
                        const DriverHooks& hooks) {
  with_backend_and_dtype(backends[place.rank], dt, [&](auto space, auto value) {
    RowSplit<decltype(space), decltype(value)> d(cfg, size, place);
    run_case(d, cfg, size, backends, out, hooks);
  });
}

std::vector<std::string> check_row_split_case(const Config& cfg, const ProblemSize& size, DType dt,
                                              const RankPlacement& place, const std::vector<std::string>& backends) {
  std::vector<std::string> err;
  with_backend_and_dtype(backends[place.rank], dt, [&](auto space, auto value) {
    RowSplit<decltype(space), decltype(value)> d(cfg, size, place);
    err = check_case(d, cfg);
  });
  return err;
}

}  // namespace mmapp::detail
