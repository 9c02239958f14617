// report.hpp — formatting of results, separate from measuring them: the
// human table printed by rank 0 and the machine-readable JSON report.
#pragma once

#include "deck/config.hpp"
#include "parallel/parallel_env.hpp"
#include "report/results.hpp"

#include <ostream>
#include <string>
#include <vector>

namespace mmapp {

/// Where and with what a run was made, stamped on every report.
struct Provenance {
  std::string mmapp_version, git_hash, kokkos_version, date_utc;
  std::string host_blas_core;  ///< OpenBLAS core type in use ("" if not OpenBLAS)
  /// The host vendor's threads on rank 0 (host_blas.hpp): "openmp",
  /// "pthreads", "sequential" or "" (not OpenBLAS); thread count; whether
  /// they are bound to the kernels' OpenMP places; on how many CPUs they run;
  /// the library file loaded.
  std::string host_blas_threading, host_blas_library;
  int host_blas_threads = 0, host_blas_cpus = 0;
  bool host_blas_bound = false;
  /// The host micro-kernels' ISA level in use (kernels/host/host_isa.hpp),
  /// how it was chosen ("cpu", "MMAPP_HOST_ISA=...") and the levels compiled.
  std::string host_isa, host_isa_chosen_by;
  std::vector<std::string> host_isa_compiled;
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
/// % of vendor, verification time, the worst row's residual / bound
/// and the verdict (PASS, FAIL, ERROR, ABANDONED, skipped); columns sized to
/// their widest entry. Then, for multi-rank runs, the per-rank rows, the
/// split, imbalance and communication times, and the reasons of failures.
void print_table(std::ostream& os, const std::vector<RunRecord>& runs);

/// How a deck's runs ended, for the report's top level.
struct Completion {
  bool complete = false;      ///< every case of the deck ran
  std::string stopped_by;     ///< "SIGTERM" / "SIGINT" when a signal stopped it, else ""
};

/// Checks, before any compute, that `path` can receive the report: it is not
/// a directory and its directory exists and is writable. Returns "" when
/// fine, else a message naming the path.
std::string check_report_path(const std::string& path);

/// Writes the JSON report to `path` atomically (a temporary file in the same
/// directory renamed into place, so a reader never sees a partial file).
/// Called after every finished run with complete = false, and at the end
/// with complete = true. Throws std::runtime_error naming the path when it
/// cannot be written.
void write_json_report(const std::string& path, const Config& cfg, const Provenance& prov,
                       const std::vector<RunRecord>& runs, const Completion& done);

/// The JSON text of the report (what write_json_report writes).
std::string json_report(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs,
                        const Completion& done);

}  // namespace mmapp
