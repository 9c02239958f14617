// report.cpp — implementation of report.hpp (see there for the contracts).
#include "report.hpp"

#include "exec_spaces.hpp"
#include "host_blas.hpp"
#include "version.hpp"

#include <Kokkos_Core.hpp>
#include <fmt/format.h>
#include <nlohmann/json.hpp>

#include <cstdio>
#include <ctime>
#include <fstream>
#include <sstream>

namespace mmapp {

Provenance collect_provenance(const RankPlacement& place, const std::vector<std::string>& backends) {
  Provenance p;
  p.mmapp_version = MMAPP_VERSION;
  p.git_hash = MMAPP_GIT_HASH;
  p.kokkos_version = fmt::format("{}.{}.{}", KOKKOS_VERSION / 10000, KOKKOS_VERSION / 100 % 100, KOKKOS_VERSION % 100);
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
  return p;
}

void print_placement(std::ostream& os, const Provenance& p) {
  os << fmt::format("mmapp {} ({}), Kokkos {}, execution spaces:", p.mmapp_version, p.git_hash, p.kokkos_version);
  for (const auto& s : p.execution_spaces) os << ' ' << s;
  os << fmt::format(", {} rank(s), {} host thread(s) per rank", p.ranks, p.threads);
  if (!p.host_blas_core.empty()) os << ", OpenBLAS core " << p.host_blas_core;
  os << "\n";
  os << fmt::format("{:>4}  {:<20} {:>6}  {:<8} {}\n", "rank", "host", "device", "backend", "device name");
  for (size_t r = 0; r < p.rank_hosts.size(); ++r)
    os << fmt::format("{:>4}  {:<20} {:>6}  {:<8} {}\n", r, p.rank_hosts[r],
                      p.rank_device_ids[r] < 0 ? std::string("-") : std::to_string(p.rank_device_ids[r]),
                      p.rank_backends[r], p.rank_devices[r]);
}

namespace {
std::string pct(double v) { return v < 0 ? "n/a" : fmt::format("{:.1f}%", v); }
std::string verdict(const RunRecord& r) {
  if (!r.verify_enabled) return "skipped";
  return r.verified ? "PASS" : "FAIL";
}
}  // namespace

void print_table(std::ostream& os, const std::vector<RunRecord>& runs) {
  os << fmt::format("\n{:<14} {:<14} {:<6} {:>18} {:>10} {:>10} {:>10} {:>11} {:>8} {:>10} {:>7}\n", "kernel",
                    "tile", "dtype", "m x n x k", "min ms", "median ms", "max ms", "GFLOP/s", "% vendor", "rel.err",
                    "check");
  for (const auto& r : runs) {
    os << fmt::format("{:<14} {:<14} {:<6} {:>18} {:>10.3f} {:>10.3f} {:>10.3f} {:>11.1f} {:>8} {:>10.2e} {:>7}\n",
                      r.kernel, r.shape.empty() ? "-" : r.shape, r.dtype, fmt::format("{}x{}x{}", r.m, r.n, r.k),
                      r.time.min * 1e3, r.time.median * 1e3, r.time.max * 1e3, r.gflops, pct(r.pct_of_vendor),
                      r.rel_error, verdict(r));
  }
  if (runs.empty()) return;
  const auto& first = runs.front();
  os << fmt::format("\nphases (s, slowest rank) for the first run, {} {}:", first.kernel, first.dtype);
  for (const auto& [name, s] : first.phases_s) os << fmt::format("  {} {:.4f}", name, s);
  os << "\n";
  if (first.ranks.size() > 1) {
    os << fmt::format("\nper rank ({} data):\n", first.data_mode);
    os << fmt::format("{:<14} {:>4} {:>8} {:>10} {:>11} {:>12}\n", "kernel", "rank", "rows", "median ms", "GFLOP/s",
                      "comm s");
    for (const auto& r : runs) {
      for (const auto& rr : r.ranks) {
        double comm = 0;
        for (const char* k : {"scatter", "broadcast", "gather"})
          if (auto it = rr.phases_s.find(k); it != rr.phases_s.end()) comm += it->second;
        os << fmt::format("{:<14} {:>4} {:>8} {:>10.3f} {:>11.1f} {:>12.4f}\n", r.kernel, rr.rank, rr.rows,
                          rr.kernel.median * 1e3, rr.gflops, comm);
      }
      os << fmt::format("{:<14} load imbalance (max/mean kernel time) {:.3f}\n", r.kernel, r.imbalance);
    }
  }
  for (const auto& r : runs)
    if (r.verify_enabled && !r.verified)
      os << fmt::format("VERIFICATION FAILED: {} {} {}x{}x{}: rel. error {:.3e} > bound {:.3e}; {} non-finite "
                        "element(s); {} element(s) violate {}\n",
                        r.kernel, r.dtype, r.m, r.n, r.k, r.rel_error, r.error_bound, r.nonfinite, r.inexact,
                        r.exact_check.empty() ? "no exact check" : r.exact_check);
}

std::string json_report(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs) {
  using nlohmann::json;
  json j;
  j["mmapp"] = {{"version", prov.mmapp_version}, {"git", prov.git_hash}};
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
                     {"host_blas_core", prov.host_blas_core},
                     {"ranks", prov.ranks}};
  j["deck"] = {{"path", cfg.deck_path}, {"resolved_yaml", cfg.resolved_yaml}};
  j["ranks"] = ranks;
  json jr = json::array();
  for (const auto& r : runs) {
    json rr;
    rr["kernel"] = r.kernel;
    rr["tile"] = r.shape;
    rr["dtype"] = r.dtype;
    rr["backend"] = r.backends.empty() ? "" : r.backends.front();
    rr["backends"] = r.backends;
    rr["m"] = r.m, rr["n"] = r.n, rr["k"] = r.k;
    rr["warmup"] = r.warmup, rr["repetitions"] = r.repetitions, rr["input_sets"] = r.input_sets;
    rr["time_s"] = {{"min", r.time.min}, {"median", r.time.median}, {"max", r.time.max}};
    rr["phases_s"] = r.phases_s;
    rr["gflops"] = r.gflops;
    rr["pct_of_vendor"] = r.pct_of_vendor < 0 ? json(nullptr) : json(r.pct_of_vendor);
    rr["verify_enabled"] = r.verify_enabled;
    rr["verified"] = r.verified;
    rr["rel_error"] = std::isfinite(r.rel_error) ? json(r.rel_error) : json(nullptr);
    rr["error_bound"] = r.error_bound;
    rr["max_abs_error"] = r.max_abs_error;
    rr["nonfinite"] = r.nonfinite;
    rr["exact_check"] = r.exact_check;
    rr["inexact"] = r.inexact;
    rr["checksum"] = r.checksum;
    rr["data_mode"] = r.data_mode;
    rr["rows_split"] = r.rows_split;
    rr["imbalance"] = r.imbalance;
    if (!r.calibration_gflops.empty()) rr["calibration_gflops"] = r.calibration_gflops;
    json per_rank = json::array();
    for (const auto& k : r.ranks)
      per_rank.push_back({{"rank", k.rank},
                          {"host", prov.rank_hosts.at(k.rank)},
                          {"backend", prov.rank_backends.at(k.rank)},
                          {"device", prov.rank_devices.at(k.rank)},
                          {"rows", k.rows},
                          {"row0", k.row0},
                          {"kernel_s", {{"min", k.kernel.min}, {"median", k.kernel.median}, {"max", k.kernel.max}}},
                          {"gflops", k.gflops},
                          {"phases_s", k.phases_s}});
    rr["ranks"] = per_rank;
    jr.push_back(rr);
  }
  j["runs"] = jr;
  return j.dump(2) + "\n";
}

void write_json_report(const std::string& path, const Config& cfg, const Provenance& prov,
                       const std::vector<RunRecord>& runs) {
  const std::string tmp = path + ".partial";
  {
    std::ofstream f(tmp);
    if (!f) throw std::runtime_error(path + ": cannot write report (does the directory exist?)");
    f << json_report(cfg, prov, runs);
    if (!f) throw std::runtime_error(path + ": error while writing report");
  }
  if (std::rename(tmp.c_str(), path.c_str()) != 0) {
    std::remove(tmp.c_str());
    throw std::runtime_error(path + ": cannot move the report into place");
  }
}

}  // namespace mmapp
