// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// report.cpp — implementation of report.hpp (see there for the contracts).
#include "report/report.hpp"
#include "report/report_file.hpp"

#include "core/exec_spaces.hpp"
#include "kernels/host/host_isa.hpp"
#include "kernels/vendor/host_blas.hpp"
#include "core/version.hpp"
#include "check/accuracy.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <ctime>
#include <sstream>

namespace mmapp {

namespace {
/// Kokkos::print_configuration's "name: value" lines (trimmed; lines without
/// a value, the section headings, are left out) and the architectures they
/// name as enabled: KOKKOS_ARCH_* lines that say "yes" (Kokkos 3) and the
/// values of "... architecture: X" lines other than "none" (Kokkos 4).
void kokkos_configuration(Provenance& p) {
  std::ostringstream text;
  Kokkos::print_configuration(text, false);
  std::istringstream lines(text.str());
  const auto trim = [](std::string s) {
    const auto b = s.find_first_not_of(" \t"), e = s.find_last_not_of(" \t\r");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
  };
  for (std::string line; std::getline(lines, line);) {
    const auto colon = line.find(": ");
    if (colon == std::string::npos) continue;
    const std::string key = trim(line.substr(0, colon)), value = trim(line.substr(colon + 2));
    if (key.empty() || value.empty()) continue;
    p.kokkos_configuration.emplace_back(key, value);
    if (key.rfind("KOKKOS_ARCH_", 0) == 0 && value == "yes") p.kokkos_arch.push_back(key.substr(12));
    const std::string tail = " architecture";
    if (key.size() > tail.size() && key.compare(key.size() - tail.size(), tail.size(), tail) == 0 && value != "none")
      p.kokkos_arch.push_back(value);
  }
}
}  // namespace

Provenance collect_provenance(const RankPlacement& place, const std::vector<std::string>& backends,
                              const std::vector<std::string>& command_line) {
  Provenance p;
  p.mmapp_version = MMAPP_VERSION;
  p.git_hash = MMAPP_GIT_HASH;
  p.kokkos_version = fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100);
  p.compiler_id = MMAPP_CXX_COMPILER_ID;
  p.compiler_version = MMAPP_CXX_COMPILER_VERSION;
  p.compiler_path = MMAPP_CXX_COMPILER;
  p.cxx_flags = MMAPP_CXX_FLAGS;
  p.build_type = MMAPP_BUILD_TYPE;
  p.command_line = command_line;
  kokkos_configuration(p);
  char date[32];
  const std::time_t now = std::time(nullptr);
  std::strftime(date, sizeof date, "%Y-%m-%dT%H:%M:%SZ", std::gmtime(&now));
  p.date_utc = date;
  p.ranks = place.size;
  p.threads = Kokkos::DefaultHostExecutionSpace().concurrency();
  const auto all = gather_strings(place.host + "\n" + std::to_string(place.device_id) + "\n" +
                                       backends[place.rank] + "\n" + device_name(backends[place.rank], place.device_id),
                                   MPI_COMM_WORLD);
  for (const auto& entry : all) {  // rank 0 only
    std::istringstream lines(entry);
    std::string h, id, b, d;
    std::getline(lines, h), std::getline(lines, id), std::getline(lines, b), std::getline(lines, d);
    p.rank_hosts.push_back(h);
    p.rank_device_ids.push_back(std::stoi(id));
    p.rank_backends.push_back(b);
    p.rank_devices.push_back(d);
  }
  p.execution_spaces = enabled_backends();
  p.host_blas_core = host_blas_core();
  p.host_blas_threading = host_blas_threading();
  p.host_blas_library = host_blas_library();
  p.host_blas_threads = host_blas_threads();
  p.host_blas_cpus = host_blas_cpus();
  p.host_blas_bound = host_blas_bound();
  for (const auto* isa : host::compiled_host_isas()) p.host_isa_compiled.push_back(isa->name);
  try {
    p.host_isa = host::selected_host_isa().name;
    p.host_isa_chosen_by = host::selected_host_isa_chosen_by();
  } catch (const host::HostIsaError& e) {  // main refuses a bad MMAPP_HOST_ISA before this
    p.host_isa_chosen_by = e.what();
  }
  return p;
}

void print_placement(std::ostream& os, const Provenance& p) {
  os << fmt::format("mmapp {} ({}), Kokkos {}, execution spaces:", p.mmapp_version, p.git_hash, p.kokkos_version);
  for (const auto& s : p.execution_spaces) os << ' ' << s;
  os << fmt::format(", {} rank(s), {} host thread(s) per rank", p.ranks, p.threads);
  if (!p.host_isa.empty()) os << fmt::format(", host ISA {} ({})", p.host_isa, p.host_isa_chosen_by);
  if (!p.host_blas_core.empty())
    os << fmt::format(", OpenBLAS core {}, {} {} thread(s) on {} CPU(s){}", p.host_blas_core, p.host_blas_threads,
                      p.host_blas_threading, p.host_blas_cpus,
                      p.host_blas_bound ? " bound to the kernels' places" : "");
  os << "\n";
  os << fmt::format("{:>4}  {:<20} {:>6}  {:<8} {}\n", "rank", "host", "device", "backend", "device name");
  for (size_t r = 0; r < p.rank_hosts.size(); ++r)
    os << fmt::format("{:>4}  {:<20} {:>6}  {:<8} {}\n", r, p.rank_hosts[r],
                      p.rank_device_ids[r] < 0 ? std::string("-") : std::to_string(p.rank_device_ids[r]),
                      p.rank_backends[r], p.rank_devices[r]);
}

const char* to_string(RunStatus s) {
  switch (s) {
    case RunStatus::ok: return "ok";
    case RunStatus::error: return "error";
    case RunStatus::abandoned: return "abandoned";
  }
  return "?";
}

namespace {
std::string pct(double v) { return v < 0 ? "n/a" : fmt::format("{:.1f}%", v); }
std::string verdict(const RunRecord& r) {
  if (r.status == RunStatus::error) return "ERROR";
  if (r.status == RunStatus::abandoned) return "ABANDONED";
  if (!r.verify.enabled) return "skipped";
  return r.verify.passed ? "PASS" : "FAIL";
}
std::string ms(double s) { return fmt::format("{:.3f}", s * 1e3); }
/// Only a run whose repetitions all ran has times (an abandoned or failed
/// run's few samples are no measurement).
bool timed_run(const RunRecord& r) { return r.status == RunStatus::ok && r.time.count > 0; }
/// "1.2%", or "38.2% noisy" above the run's threshold.
std::string cv_text(const RunRecord& r) { return pct(100 * r.time.cv) + (r.noisy ? " noisy" : ""); }
/// The "err vs fp64" cell: "3.1e-08", "inf" (a non-finite C), "-" (not measured).
std::string accuracy_text(const RunRecord& r) {
  if (!r.accuracy.measured) return "-";
  return std::isfinite(r.accuracy.worst_error) ? fmt::format("{:.1e}", r.accuracy.worst_error) : "inf";
}

/// A text table whose columns are as wide as their widest cell.
struct TextTable {
  std::vector<std::string> head;
  std::vector<bool> left;  ///< left-aligned columns
  std::vector<std::vector<std::string>> rows;
  void print(std::ostream& os) const {
    std::vector<size_t> w(head.size());
    for (size_t c = 0; c < head.size(); ++c) w[c] = head[c].size();
    for (const auto& r : rows)
      for (size_t c = 0; c < r.size(); ++c) w[c] = std::max(w[c], r[c].size());
    const auto line = [&](const std::vector<std::string>& cells) {
      std::string s;
      for (size_t c = 0; c < cells.size(); ++c) {
        if (c) s += "  ";
        s += left[c] ? fmt::format("{:<{}}", cells[c], w[c]) : fmt::format("{:>{}}", cells[c], w[c]);
      }
      while (!s.empty() && s.back() == ' ') s.pop_back();
      os << s << "\n";
    };
    line(head);
    for (const auto& r : rows) line(r);
  }
};
}  // namespace

namespace {
std::string gib_text(double bytes) { return fmt::format("{:.3f}", bytes / double(1 << 30)); }
double phase_of(const std::map<std::string, double>& phases, const char* name) {
  const auto it = phases.find(name);
  return it == phases.end() ? 0.0 : it->second;
}

/// Process-grid runs: how each ran (SUMMA or ScaLAPACK, grid, panels,
/// overlap, panel path), then per rank its block, kernel time, SUMMA's
/// broadcast / local GEMM / copy time per multiply and its memory.
void print_grid_ranks(std::ostream& os, const std::vector<RunRecord>& runs) {
  os << "\nprocess grid runs (kernel = SUMMA's local GEMM; scalapack = ScaLAPACK p?gemm on the same blocks):\n";
  for (const auto& r : runs) {
    const auto& g = r.grid;
    if (g.algorithm == "summa")
      os << fmt::format("  {} {}: SUMMA on {}x{}, panel {} ({} panels), overlap {}, panels via {}\n", r.kernel,
                        r.dtype, g.p, g.q, g.panel, g.panels, g.overlap, g.transfer);
    else
      os << fmt::format("  {} {}: {} on {}x{}\n", r.kernel, r.dtype, g.algorithm, g.p, g.q);
  }
  os << fmt::format("\nper rank ({} data; bcast/gemm/copy: mean s per multiply; memory GiB):\n", runs.front().data_mode);
  TextTable pr{{"kernel", "dtype", "rank", "grid", "block", "median ms", "GFLOP/s", "bcast s", "gemm s", "copy s",
                "device GiB", "host GiB"},
               {true, true, false, false, false, false, false, false, false, false, false, false},
               {}};
  for (const auto& r : runs)
    for (const auto& rr : r.ranks) {
      const bool summa = r.grid.algorithm == "summa";
      pr.rows.push_back({r.kernel, r.dtype, std::to_string(rr.rank), fmt::format("({},{})", rr.prow, rr.pcol),
                         fmt::format("{}x{}", rr.rows, rr.cols), ms(rr.kernel.median), fmt::format("{:.1f}", rr.gflops),
                         summa ? fmt::format("{:.4f}", phase_of(rr.phases_s, "summa_comm")) : "-",
                         summa ? fmt::format("{:.4f}", phase_of(rr.phases_s, "summa_gemm")) : "-",
                         summa ? fmt::format("{:.4f}", phase_of(rr.phases_s, "summa_copy")) : "-",
                         gib_text(rr.device_bytes), gib_text(rr.host_bytes)});
    }
  pr.print(os);
  for (const auto& r : runs)
    os << fmt::format("{}{}{} {}: load imbalance (max/mean kernel time) {:.3f}\n", r.kernel, r.shape.empty() ? "" : " ",
                      r.shape, r.dtype, r.imbalance);
}
}  // namespace

void print_table(std::ostream& os, const std::vector<RunRecord>& runs) {
  TextTable t{{"kernel", "tile", "dtype", "m x n x k", "min ms", "median ms", "max ms", "CV", "GFLOP/s", "% vendor",
               "verify ms", "resid/bound", "check"},
              {true, true, true, false, false, false, false, false, false, false, false, false, true},
              {}};
  bool vendor_noisy = false;
  // verify.accuracy: the error against the FP64 reference, before the verdict.
  const bool accuracy = std::any_of(runs.begin(), runs.end(), [](const RunRecord& r) { return r.accuracy.measured; });
  if (accuracy) {
    t.head.insert(t.head.end() - 1, "err vs fp64");
    t.left.insert(t.left.end() - 1, false);
  }
  for (const auto& r : runs) {
    const bool timed = timed_run(r);
    vendor_noisy = vendor_noisy || (r.pct_of_vendor >= 0 && r.vendor_noisy);
    t.rows.push_back({r.kernel, r.shape.empty() ? "-" : r.shape, r.dtype, fmt::format("{}x{}x{}", r.m, r.n, r.k),
                      timed ? ms(r.time.min) : "-", timed ? ms(r.time.median) : "-", timed ? ms(r.time.max) : "-",
                      timed ? cv_text(r) : "-", timed ? fmt::format("{:.1f}", r.gflops) : "-",
                      pct(r.pct_of_vendor) + (r.pct_of_vendor >= 0 && r.vendor_noisy ? "*" : ""),
                      r.verify.enabled && r.verify.checks > 0 ? ms(r.verify.seconds) : "-",
                      r.verify.enabled && r.verify.checks > 0 && r.status == RunStatus::ok
                          ? fmt::format("{:.2e}", r.verify.worst_ratio)
                          : "-",
                      verdict(r)});
    if (accuracy) t.rows.back().insert(t.rows.back().end() - 1, accuracy_text(r));
  }
  os << "\n";
  t.print(os);
  if (runs.empty()) return;
  if (vendor_noisy)
    os << "*: the vendor's own run was noisy (its CV above the threshold): that % vendor compares with an unsteady "
          "yardstick\n";
  if (const auto& v = runs.front().verify; v.enabled)
    os << fmt::format("verifier: {} (every timed repetition's C; resid/bound <= 1 passes)\n", v.verifier);
  if (accuracy)
    os << "err vs fp64: max over the last repetition's C of |C - C64| / (|A||B|), C64 and |A||B| in double "
          "(verify.accuracy; Higham's componentwise bound is gamma_K = K u / (1 - K u))\n";
  const auto& first = runs.front();
  os << fmt::format("\nphases (s, slowest rank) for the first run, {} {}:", first.kernel, first.dtype);
  for (const auto& [name, s] : first.phases_s) os << fmt::format("  {} {:.4f}", name, s);
  os << "\n";
  if (first.grid.p > 0) {
    print_grid_ranks(os, runs);
  } else if (first.ranks.size() > 1) {
    os << fmt::format("\nper rank ({} data{}; memory GiB):\n", first.data_mode,
                      first.transport.empty() ? "" : ", B and C via " + first.transport);
    TextTable pr{{"kernel", "rank", "rows", "median ms", "GFLOP/s", "predicted ms", "comm s", "device GiB", "host GiB"},
                 {true, false, false, false, false, false, false, false, false},
                 {}};
    for (const auto& r : runs) {
      for (const auto& rr : r.ranks) {
        double comm = 0;
        for (const char* k : {"scatter", "broadcast", "gather"})
          if (auto it = rr.phases_s.find(k); it != rr.phases_s.end()) comm += it->second;
        pr.rows.push_back({r.kernel, std::to_string(rr.rank), std::to_string(rr.rows), ms(rr.kernel.median),
                           fmt::format("{:.1f}", rr.gflops), rr.predicted_s < 0 ? "-" : ms(rr.predicted_s),
                           fmt::format("{:.4f}", comm), gib_text(rr.device_bytes), gib_text(rr.host_bytes)});
      }
    }
    pr.print(os);
    for (const auto& r : runs)
      os << fmt::format("{}{}{}: load imbalance (max/mean kernel time) {:.3f}\n", r.kernel, r.shape.empty() ? "" : " ", r.shape, r.imbalance);
  }
  for (const auto& r : runs) {
    const std::string what =
        fmt::format("{} {}{}{} {}x{}x{}", r.kernel, r.shape, r.shape.empty() ? "" : " ", r.dtype, r.m, r.n, r.k);
    if (timed_run(r) && r.noisy)
      os << fmt::format("NOISY: {}: CV {} > {} over {} repetitions (min {} ms, median {} ms, max {} ms)\n", what,
                        pct(100 * r.time.cv), pct(100 * r.noise_threshold), r.time.count, ms(r.time.min),
                        ms(r.time.median), ms(r.time.max));
    if (timed_run(r) && r.until_stable.enabled)
      os << fmt::format("until_stable: {}: {} after {} repetitions, {:.3f} s (CV {}; max_cv {}, max_seconds {}, "
                        "max_repetitions {})\n",
                        what, r.until_stable.outcome, r.time.count, r.until_stable.seconds, pct(100 * r.time.cv),
                        pct(100 * r.until_stable.max_cv), r.until_stable.max_seconds, r.until_stable.max_repetitions);
    if (r.status == RunStatus::error) os << fmt::format("KERNEL ERROR: {}: {}\n", what, r.error);
    if (r.status == RunStatus::abandoned) os << fmt::format("ABANDONED: {}: stopped by a signal\n", what);
    if (r.status == RunStatus::ok && r.verify.enabled && !r.verify.passed)
      os << fmt::format("VERIFICATION FAILED: {}: worst row {} residual {:.3e} > bound {:.3e} ({}); {} row(s) over "
                        "their bound; {} non-finite element(s); {} element(s) violate the exact check\n",
                        what, r.verify.worst_row, r.verify.worst_residual, r.verify.worst_bound,
                        r.verify.bound_kind, r.verify.rows_failed, r.verify.nonfinite, r.verify.inexact);
  }
}

namespace {
/// The report as a JSON value (json_report renders it).
nlohmann::json report_json(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs,
                           const Completion& done) {
  using nlohmann::json;
  const auto num = [](double v) { return std::isfinite(v) ? json(v) : json(nullptr); };
  const auto bytes = [](double b) { return json(static_cast<std::int64_t>(std::llround(b))); };
  json j;
  j["schema_version"] = kReportSchemaVersion;
  j["mmapp"] = {{"version", prov.mmapp_version}, {"git", prov.git_hash}};
  json kconf = json::object();
  for (const auto& [k, v] : prov.kokkos_configuration) kconf[k] = v;
  j["build"] = {{"compiler", {{"id", prov.compiler_id}, {"version", prov.compiler_version}, {"path", prov.compiler_path}}},
                {"cxx_flags", prov.cxx_flags},
                {"build_type", prov.build_type},
                {"kokkos",
                 {{"version", prov.kokkos_version},
                  {"execution_spaces", prov.execution_spaces},
                  {"arch", prov.kokkos_arch},
                  {"configuration", kconf}}}};
  j["command_line"] = prov.command_line;
  j["complete"] = done.complete;
  j["stopped_by"] = done.stopped_by.empty() ? json(nullptr) : json(done.stopped_by);
  json ranks = json::array();
  for (size_t r = 0; r < prov.rank_hosts.size(); ++r)
    ranks.push_back({{"rank", r},
                     {"host", prov.rank_hosts[r]},
                     {"device_id", prov.rank_device_ids[r]},
                     {"backend", prov.rank_backends[r]},
                     {"device", prov.rank_devices[r]}});
  j["provenance"] = {{"date", prov.date_utc},
                     {"kokkos_version", prov.kokkos_version},
                     {"execution_spaces", prov.execution_spaces},
                     {"backend", prov.rank_backends.empty() ? "" : prov.rank_backends.front()},
                     {"device", prov.rank_devices.empty() ? "" : prov.rank_devices.front()},
                     {"host", prov.rank_hosts.empty() ? "" : prov.rank_hosts.front()},
                     {"threads", prov.threads},
                     {"host_isa", prov.host_isa},
                     {"host_isa_chosen_by", prov.host_isa_chosen_by},
                     {"host_isa_compiled", prov.host_isa_compiled},
                     {"host_blas_core", prov.host_blas_core},
                     {"host_blas",
                      {{"core", prov.host_blas_core},
                       {"threading", prov.host_blas_threading},
                       {"threads", prov.host_blas_threads},
                       {"cpus", prov.host_blas_cpus},
                       {"bound", prov.host_blas_bound},
                       {"library", prov.host_blas_library}}},
                     {"ranks", prov.ranks}};
  j["deck"] = {{"path", cfg.deck_path}, {"resolved_yaml", cfg.resolved_yaml}};
  j["ranks"] = ranks;
  json jr = json::array();
  for (const auto& r : runs) {
    json rr;
    rr["kernel"] = r.kernel;
    rr["tile"] = r.shape;
    rr["selection"] = r.selection;
    if (!r.math.empty()) rr["math"] = r.math;
    rr["dtype"] = r.dtype;
    rr["backend"] = r.backends.empty() ? "" : r.backends.front();
    rr["backends"] = r.backends;
    rr["m"] = r.m, rr["n"] = r.n, rr["k"] = r.k;
    rr["warmup"] = r.warmup, rr["repetitions"] = r.repetitions, rr["input_sets"] = r.input_sets;
    rr["status"] = to_string(r.status);
    rr["error"] = r.error.empty() ? json(nullptr) : json(r.error);
    if (timed_run(r)) {  // abandoned and failed runs carry no times
      rr["time_s"] = {{"min", r.time.min},       {"median", r.time.median}, {"max", r.time.max},
                      {"mean", r.time.mean},     {"stddev", r.time.stddev}, {"cv", r.time.cv},
                      {"count", r.time.count},   {"samples", r.samples_s}};
      rr["gflops"] = r.gflops;
      rr["noise"] = {{"cv_threshold", r.noise_threshold}, {"noisy", r.noisy}};
      const auto& u = r.until_stable;
      rr["until_stable"] = u.enabled ? json{{"max_cv", u.max_cv},
                                            {"max_seconds", u.max_seconds},
                                            {"max_repetitions", u.max_repetitions},
                                            {"outcome", u.outcome},
                                            {"converged", u.outcome == "converged"},
                                            {"seconds", u.seconds}}
                                     : json(nullptr);
    }
    rr["phases_s"] = r.phases_s;
    rr["pct_of_vendor"] = r.pct_of_vendor < 0 ? json(nullptr) : json(r.pct_of_vendor);
    rr["vendor_noisy"] = r.pct_of_vendor < 0 ? json(nullptr) : json(r.vendor_noisy);
    rr["verify_enabled"] = r.verify.enabled;
    rr["verified"] = r.passed() && r.verify.enabled;
    const auto& v = r.verify;
    rr["verification"] = {{"verifier", v.verifier},
                          {"passed", v.passed && r.status == RunStatus::ok},
                          {"checks", v.checks},
                          {"worst_ratio", num(v.worst_ratio)},
                          {"worst_row", v.worst_row},
                          {"worst_residual", num(v.worst_residual)},
                          {"worst_bound", num(v.worst_bound)},
                          {"bound_kind", v.bound_kind},
                          {"relative_residual", num(v.relative_residual)},
                          {"rows_failed", v.rows_failed},
                          {"nonfinite", v.nonfinite},
                          {"inexact", v.inexact},
                          {"seconds", v.seconds}};
    rr["rel_error"] = num(v.relative_residual);  // the componentwise relative residual (kept name)
    const auto& a = r.accuracy;  // verify.accuracy (since 2.2.0); null when off or not measured
    rr["accuracy"] = a.measured ? json{{"worst_error", num(a.worst_error)},
                                       {"worst_row", a.worst_row},
                                       {"reference", kAccuracyReference}}
                                : json(nullptr);
    rr["checksum"] = r.checksum;
    rr["data_mode"] = r.data_mode;
    if (!r.transport.empty()) rr["transport"] = r.transport;
    rr["rows_split"] = r.rows_split;
    rr["imbalance"] = r.imbalance;
    if (!r.calibration_gflops.empty()) rr["calibration_gflops"] = r.calibration_gflops;
    if (!r.balance_trials.empty()) {
      json bt = json::array();
      for (size_t i = 0; i < r.balance_trials.size(); ++i) {
        const auto& t = r.balance_trials[i];
        json secs = json::array();
        for (double x : t.seconds) secs.push_back(std::isfinite(x) ? json(x) : json(nullptr));
        bt.push_back({{"rows", t.rows}, {"seconds", secs}, {"calibration", i == 0},
                      {"makespan_s", i == 0 ? json(nullptr) : num(t.makespan())}, {"chosen", i > 0 && t.rows == r.rows_split}});
      }
      rr["balance_trials"] = bt;
    }
    if (r.grid.p > 0) {
      json g = {{"p", r.grid.p}, {"q", r.grid.q}, {"algorithm", r.grid.algorithm}, {"transfer", r.grid.transfer}};
      if (r.grid.algorithm == "summa")
        g["panel"] = r.grid.panel, g["panels"] = r.grid.panels, g["overlap"] = r.grid.overlap;
      rr["grid"] = g;
    }
    if (!r.autotune_s.empty()) {
      json at = json::array();
      for (const auto& [shape, t] : r.autotune_s)
        at.push_back({{"tile", shape}, {"median_s", t < 0 ? json(nullptr) : json(t)}, {"chosen", shape == r.shape}});
      rr["autotune"] = at;
    }
    json per_rank = json::array();
    for (const auto& k : r.ranks) {
      per_rank.push_back({{"rank", k.rank},
                          {"host", prov.rank_hosts.at(k.rank)},
                          {"backend", prov.rank_backends.at(k.rank)},
                          {"device", prov.rank_devices.at(k.rank)},
                          {"rows", k.rows},
                          {"row0", k.row0},
                          {"predicted_s", k.predicted_s < 0 ? json(nullptr) : json(k.predicted_s)},
                          {"phases_s", k.phases_s},
                          {"memory_bytes", {{"device", bytes(k.device_bytes)}, {"host", bytes(k.host_bytes)}}}});
      if (timed_run(r)) {
        auto& e = per_rank.back();
        e["kernel_s"] = {{"min", k.kernel.min}, {"median", k.kernel.median}, {"max", k.kernel.max}};
        e["gflops"] = k.gflops;
      }
      if (k.prow >= 0) {
        auto& e = per_rank.back();
        e["prow"] = k.prow, e["pcol"] = k.pcol, e["cols"] = k.cols, e["col0"] = k.col0;
      }
    }
    rr["ranks"] = per_rank;
    jr.push_back(rr);
  }
  j["runs"] = jr;
  return j;
}
}  // namespace

namespace {
/// Escapes invalid UTF-8 in every string and key of `j` (escape_invalid_utf8),
/// so that dumping it cannot throw json's type_error 316.
void make_utf8_safe(nlohmann::json& j) {
  if (j.is_string()) {
    auto& s = j.get_ref<std::string&>();
    if (!is_valid_utf8(s)) s = escape_invalid_utf8(s);
  } else if (j.is_array()) {
    for (auto& e : j) make_utf8_safe(e);
  } else if (j.is_object()) {
    bool bad_key = false;
    for (auto it = j.begin(); it != j.end(); ++it) {
      make_utf8_safe(it.value());
      bad_key |= !is_valid_utf8(it.key());
    }
    if (bad_key) {
      nlohmann::json o = nlohmann::json::object();
      for (auto it = j.begin(); it != j.end(); ++it) o[escape_invalid_utf8(it.key())] = std::move(it.value());
      j = std::move(o);
    }
  }
}

std::string dump_safe(nlohmann::json j) {
  make_utf8_safe(j);
  return j.dump(2);
}

/// The top-level key line of the runs' array in a report dumped with indent
/// 2 and no runs: raw newlines occur in the dump only between values (in
/// strings they are escaped), and only top-level keys are indented by two
/// spaces, so this text occurs exactly once.
constexpr std::string_view kEmptyRuns = "\n  \"runs\": []";
}  // namespace

std::string json_report(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs,
                        const Completion& done) {
  return dump_safe(report_json(cfg, prov, runs, done)) + "\n";
}

void write_json_report(const std::string& path, const Config& cfg, const Provenance& prov,
                       const std::vector<RunRecord>& runs, const Completion& done, const std::string& what) {
  replace_file_atomically(path, json_report(cfg, prov, runs, done), what);
}

ReportWriter::ReportWriter(std::string path, std::string what, const Config& cfg, const Provenance& prov)
    : path_(std::move(path)), what_(std::move(what)), cfg_(cfg), prov_(prov) {
  const std::string text = json_report(cfg_, prov_, {}, {false, ""});
  const size_t at = text.find(kEmptyRuns);
  if (at == std::string::npos || text.find(kEmptyRuns, at + 1) != std::string::npos)
    throw std::logic_error("report: the runs' array is not a single top-level key");
  const size_t open = at + kEmptyRuns.size() - 2;  // at the '['
  head_ = text.substr(0, open);
  tail_ = text.substr(open + 2);
}

void ReportWriter::update(const std::vector<RunRecord>& runs) {
  // Runs before the case in flight are final; those of the case in flight
  // are serialised again (their percent of the vendor may still change).
  const size_t in_flight = std::max<size_t>(cfg_.kernels.size(), 1);
  const size_t final_runs = runs.size() > in_flight ? runs.size() - in_flight : 0;
  if (texts_.size() > final_runs) texts_.resize(final_runs);
  const auto text_of = [&](const RunRecord& r) {
    ++serialised_;
    std::string t = dump_safe(report_json(cfg_, prov_, {r}, {false, ""})["runs"][0]);
    std::string out;  // indented as an element of the top-level array (depth 2)
    out.reserve(t.size() + t.size() / 8);
    for (const char c : t) {
      out += c;
      if (c == '\n') out += "    ";
    }
    return out;
  };
  while (texts_.size() < final_runs) texts_.push_back(text_of(runs[texts_.size()]));
  std::string text = head_;
  if (runs.empty()) {
    text += "[]";
  } else {
    text += "[\n    ";
    for (size_t i = 0; i < runs.size(); ++i) {
      if (i) text += ",\n    ";
      text += i < texts_.size() ? texts_[i] : text_of(runs[i]);
    }
    text += "\n  ]";
  }
  text += tail_;
  replace_file_atomically(path_, text, what_);
}

void ReportWriter::finish(const std::vector<RunRecord>& runs, const Completion& done) {
  serialised_ += runs.size();
  replace_file_atomically(path_, json_report(cfg_, prov_, runs, done), what_);
}

}  // namespace mmapp
