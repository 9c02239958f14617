// report.hpp — formatting of results, separate from measuring them: the
// human table printed by rank 0 and the machine-readable JSON report.
#pragma once

#include "config.hpp"
#include "parallel_env.hpp"
#include "results.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace mmapp {

/// Where and with what a run was made, stamped on every report.
struct Provenance {
  std::string mmapp_version, git_hash, kokkos_version, date_utc;
  std::string host_blas_core;  ///< OpenBLAS core type in use ("" if not OpenBLAS)
  std::vector<std::string> execution_spaces;  ///< compiled in
  int ranks = 1, threads = 1;
  std::vector<std::string> rank_hosts, rank_devices, rank_backends;
  std::vector<int> rank_device_ids;
};

/// Collects provenance on rank 0 (collective: gathers every rank's placement).
Provenance collect_provenance(const RankPlacement& place, const std::vector<std::string>& backends);

/// Prints the placement table (rank -> host -> device id -> device).
void print_placement(std::ostream& os, const Provenance& p);

/// Prints the results table: one row per run with min/median/max ms, GFLOP/s,
/// % of kokkoskernels, error and verdict; then, for multi-rank runs, the
/// per-rank rows, the split, imbalance and communication times.
void print_table(std::ostream& os, const std::vector<RunRecord>& runs);

/// Writes the JSON report to `path` atomically (a temporary file renamed into
/// place, so a failed run never leaves a partial report). Throws
/// std::runtime_error naming the path when it cannot be written.
void write_json_report(const std::string& path, const Config& cfg, const Provenance& prov,
                       const std::vector<RunRecord>& runs);

/// The JSON text of the report (what write_json_report writes).
std::string json_report(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs);

}  // namespace mmapp
