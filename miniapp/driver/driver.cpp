// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// driver.cpp — run_deck, which runs every (size, dtype) case of a deck on
// this rank's backend through the case runner (case_runner.hpp) with the
// deck's decomposition (the row split or the process grid), and the
// per-record pieces every case shares (finish_record, percent_of_vendor).
#include "driver/driver.hpp"

#include "driver/case_runner.hpp"

#include <algorithm>
#include <utility>

namespace mmapp {
namespace detail {

void finish_record(RunRecord& rec, const PhaseClock& ph, const std::vector<double>& mine, const RankShare& share,
                   MPI_Comm comm) {
  int rank = 0, nranks = 1;
  MPI_Comm_rank(comm, &rank);
  MPI_Comm_size(comm, &nranks);
  std::vector<std::string> names;
  std::vector<double> values;
  for (const auto& [name, s] : ph.seconds) names.push_back(name), values.push_back(s);
  std::vector<double> worst_phase(values.size());
  MPI_Allreduce(values.data(), worst_phase.data(), int(values.size()), MPI_DOUBLE, MPI_MAX, comm);
  for (size_t i = 0; i < names.size(); ++i) rec.phases_s[names[i]] = worst_phase[i];
  if (rec.status == RunStatus::ok) rec.phases_s["kernel"] = rec.time.median;
  else rec.phases_s.erase("kernel");  // an abandoned or failed run has no kernel time
  rec.verify.seconds = rec.phases_s["verify"];

  const TimeStats my_stats = mine.empty() ? TimeStats{} : summarize(mine);
  const double gf = my_stats.median > 0 ? share.flops / my_stats.median * 1e-9 : 0.0;
  constexpr int kVals = 9;
  const double my_vals[kVals] = {double(share.rows), double(share.row0), my_stats.min,       my_stats.median,
                                 my_stats.max,       gf,                  share.predicted_s, share.device_bytes,
                                 share.host_bytes};
  std::vector<double> all_vals(rank == 0 ? kVals * nranks : 0);
  MPI_Gather(my_vals, kVals, MPI_DOUBLE, all_vals.data(), kVals, MPI_DOUBLE, 0, comm);
  std::vector<double> all_phases(rank == 0 ? values.size() * nranks : 0);
  MPI_Gather(values.data(), int(values.size()), MPI_DOUBLE, all_phases.data(), int(values.size()), MPI_DOUBLE, 0,
             comm);
  if (rank != 0) return;
  double sum = 0, mx = 0;
  int active = 0;
  for (int r = 0; r < nranks; ++r) {
    RankRecord rr;
    rr.rank = r;
    const double* v = all_vals.data() + kVals * r;
    rr.rows = long(v[0]);
    rr.row0 = long(v[1]);
    rr.kernel = {v[2], v[3], v[4]};
    rr.gflops = v[5];
    rr.predicted_s = v[6];
    rr.device_bytes = v[7];
    rr.host_bytes = v[8];
    for (size_t i = 0; i < names.size(); ++i)
      if (rec.status == RunStatus::ok || names[i] != "kernel") rr.phases_s[names[i]] = all_phases[values.size() * r + i];
    if (rr.rows > 0) sum += rr.kernel.median, mx = std::max(mx, rr.kernel.median), ++active;
    rec.ranks.push_back(rr);
  }
  rec.imbalance = (active > 0 && sum > 0) ? mx / (sum / active) : 1.0;
}

void percent_of_vendor(std::vector<RunRecord>& out, std::size_t first, const std::string& vendor) {
  for (size_t i = first; i < out.size(); ++i)
    if (out[i].kernel == vendor && out[i].status == RunStatus::ok)
      for (size_t j = first; j < out.size(); ++j) {
        const bool has = out[i].gflops > 0 && out[j].status == RunStatus::ok;
        out[j].pct_of_vendor = has ? 100.0 * out[j].gflops / out[i].gflops : -1;
        out[j].vendor_noisy = has && out[i].noisy;
      }
}

}  // namespace detail


int input_sets(double ab_bytes, double l2_bytes, bool rotate) {
  if (!rotate || !(ab_bytes > 0) || ab_bytes >= 2 * l2_bytes) return 1;
  return int(std::min<double>(kMaxInputSets, std::ceil(2 * l2_bytes / ab_bytes) + 1));
}

std::vector<std::string> backends_per_rank(const Config& cfg, int nranks) {
  std::vector<std::string> b;
  if (cfg.backend.empty())
    b.assign(nranks, default_backend());
  else if (cfg.backend.size() == 1)
    b.assign(nranks, cfg.backend.front());
  else if (int(cfg.backend.size()) == nranks)
    b = cfg.backend;
  else
    throw RunError(2, cfg.where("run.backend") + ": lists " + std::to_string(cfg.backend.size()) +
                          " backends but the job has " + std::to_string(nranks) + " ranks");
  const auto enabled = enabled_backends();
  for (const auto& name : b)
    if (std::find(enabled.begin(), enabled.end(), name) == enabled.end()) {
      std::string known;
      for (const auto& n : enabled) known += (known.empty() ? "" : ", ") + n;
      throw RunError(2, cfg.where("run.backend") + ": '" + name + "' is not compiled into this binary (available: " +
                            known + ")");
    }
  return b;
}

void check_deck(const Config& cfg, const RankPlacement& place, const std::vector<std::string>& backends) {
  // Each distinct message once, with the cases it holds for, in deck order.
  std::vector<std::pair<std::string, std::vector<std::string>>> errors;
  for (const auto& size : cfg.sizes) {
    for (const DType dt : cfg.dtypes) {
      const std::vector<std::string> errs = cfg.decomposition.kind == SplitKind::grid
                                                ? detail::check_grid_case(cfg, size, dt, place, backends)
                                                : detail::check_row_split_case(cfg, size, dt, place, backends);
      const std::string where = std::to_string(size.m) + "x" + std::to_string(size.n) + "x" + std::to_string(size.k) +
                                " " + (dt == DType::f32 ? "float" : "double");
      for (const std::string& err : errs) {
        auto it = std::find_if(errors.begin(), errors.end(), [&](const auto& e) { return e.first == err; });
        if (it == errors.end()) errors.push_back({err, {where}});
        else if (std::find(it->second.begin(), it->second.end(), where) == it->second.end()) it->second.push_back(where);
      }
    }
  }
  stop_point(MPI_COMM_WORLD);
  if (errors.empty()) return;
  std::vector<std::string> every;  // the distinct cases, for "holds for all"
  for (const auto& size : cfg.sizes)
    for (const DType dt : cfg.dtypes) {
      const std::string w = std::to_string(size.m) + "x" + std::to_string(size.n) + "x" + std::to_string(size.k) +
                            " " + (dt == DType::f32 ? "float" : "double");
      if (std::find(every.begin(), every.end(), w) == every.end()) every.push_back(w);
    }
  std::string all;
  for (const auto& [msg, where] : errors) {
    if (!all.empty()) all += "\nmmapp: error: ";  // one line each (main prints the first prefix)
    all += msg;
    if (where.size() < every.size()) {  // name the cases unless it is every one
      std::string list;
      for (const auto& w : where) list += (list.empty() ? "" : ", ") + w;
      all += " (case" + std::string(where.size() > 1 ? "s " : " ") + list + ")";
    }
  }
  throw RunError(2, all);
}

std::vector<RunRecord> run_deck(const Config& cfg, const RankPlacement& place,
                                const std::vector<std::string>& backends, const DriverHooks& hooks) {
  std::vector<RunRecord> records;
  const int total = int(cfg.sizes.size() * cfg.dtypes.size() * cfg.kernels.size());
  const double t0 = wall_now();
  DriverHooks inner = hooks;
  size_t reported = 0;
  inner.records_so_far = [&](const std::vector<RunRecord>& so_far) {
    if (hooks.progress)
      for (; reported < so_far.size(); ++reported)
        hooks.progress(so_far[reported], int(reported + 1), total, wall_now() - t0);
    if (hooks.records_so_far) hooks.records_so_far(so_far);
  };
  stop_point(MPI_COMM_WORLD);
  check_deck(cfg, place, backends);
  for (const auto& size : cfg.sizes) {
    for (const DType dt : cfg.dtypes) {
      stop_point(MPI_COMM_WORLD);
      if (cfg.decomposition.kind == SplitKind::grid)
        detail::run_grid_case(cfg, size, dt, place, backends, records, inner);
      else
        detail::run_row_split_case(cfg, size, dt, place, backends, records, inner);
    }
  }
  return records;
}

}  // namespace mmapp
