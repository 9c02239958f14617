// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// report.hpp — formatting of results, separate from measuring them: the
// human table printed by rank 0 and the machine-readable JSON report.
#pragma once

#include "deck/config.hpp"
#include "parallel/parallel_env.hpp"
#include "report/results.hpp"

#include <ostream>
#include <string>
#include <utility>
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
  /// The build (core/version.hpp, from CMake): C++ compiler id, version and
  /// path, its flags, the build type.
  std::string compiler_id, compiler_version, compiler_path, cxx_flags, build_type;
  /// Kokkos::print_configuration's "name: value" lines, in order (e.g.
  /// {"KOKKOS_ENABLE_CUDA", "yes"}), and the architectures it names as
  /// enabled (KOKKOS_ARCH_* lines that say yes, "... architecture: X" lines).
  std::vector<std::pair<std::string, std::string>> kokkos_configuration;
  std::vector<std::string> kokkos_arch;
  std::vector<std::string> command_line;  ///< argv as given, argv[0] first
};

/// Collects provenance on rank 0 (collective: gathers every rank's
/// placement); `command_line` is main's argv as given.
Provenance collect_provenance(const RankPlacement& place, const std::vector<std::string>& backends,
                              const std::vector<std::string>& command_line = {});

/// The report format's version (semantic; README "Report"): MAJOR when a
/// field is removed or renamed or changes type or meaning, MINOR when one is
/// added, PATCH for fixes to the documentation (docs/report.schema.json).
inline constexpr const char* kReportSchemaVersion = "2.2.0";

/// Prints the placement table (rank -> host -> device id -> device).
void print_placement(std::ostream& os, const Provenance& p);

/// Prints the results table: one row per run with min/median/max ms, the
/// coefficient of variation ("CV", with "noisy" above the run's threshold),
/// GFLOP/s, % of vendor ("*" where the vendor's own run was noisy),
/// verification time, the worst row's residual / bound and the verdict
/// (PASS, FAIL, ERROR, ABANDONED, skipped); columns sized to their widest
/// entry; runs that did not finish (error, abandoned) show no times. Then,
/// for multi-rank runs, the per-rank rows, the split, imbalance and
/// communication times; the noisy runs, run.until_stable's outcome and the
/// reasons of failures.
void print_table(std::ostream& os, const std::vector<RunRecord>& runs);

/// How a deck's runs ended, for the report's top level.
struct Completion {
  bool complete = false;      ///< every case of the deck ran
  std::string stopped_by;     ///< "SIGTERM" / "SIGINT" when a signal stopped it, else ""
};

/// Writes the JSON report to `path` atomically (replace_file_atomically in
/// report_file.hpp: a unique temporary file beside it renamed into place, so
/// a reader never sees a partial file; the mode of an existing file kept).
/// Throws std::runtime_error naming `what` ("--report" or "DECK:
/// output.report") and the path when it cannot be written.
void write_json_report(const std::string& path, const Config& cfg, const Provenance& prov,
                       const std::vector<RunRecord>& runs, const Completion& done,
                       const std::string& what = "output.report");

/// The JSON text of the report (what write_json_report writes). Every string
/// in it (paths, the deck, names) is rendered UTF-8-safe: invalid bytes
/// become `\xhh` (escape_invalid_utf8), so it never throws on them.
std::string json_report(const Config& cfg, const Provenance& prov, const std::vector<RunRecord>& runs,
                        const Completion& done);

/// The report of a deck as it runs (rank 0): rewritten after every finished
/// run ("complete": false) and once at the end. The cost of a rewrite is the
/// bytes of the file, not the serialising of every run so far: each finished
/// run is serialised once and its text kept; a rewrite is the header, the
/// kept texts and the tail (same bytes as json_report). The records of the
/// case in flight (the last cfg.kernels.size() records: the driver updates
/// their percent of the vendor when the vendor runs, and only theirs) are
/// serialised again on each rewrite. The last write (finish) serialises
/// everything afresh. Keeps copies of `cfg` and `prov`. This needs the JSON's
/// top level to depend on the runs only through its "runs" array, and a run's
/// entry only on its own record (the header is built with no runs, each
/// entry alone); the test "the incremental report equals the whole report"
/// ([report_file]) holds the rewrites byte for byte to json_report.
class ReportWriter {
 public:
  /// `path`: the report file (checked up front by check_report_target);
  /// `what`: where it came from, for messages ("--report" or "DECK: output.report").
  ReportWriter(std::string path, std::string what, const Config& cfg, const Provenance& prov);
  /// Rewrites the report with `runs` (every finished run so far), "complete":
  /// false. Throws std::runtime_error naming the path when it cannot be
  /// written (the file keeps its last complete version).
  void update(const std::vector<RunRecord>& runs);
  /// The last write: every run serialised afresh, with `done`. Throws as update.
  void finish(const std::vector<RunRecord>& runs, const Completion& done);
  /// How many run records have been serialised so far (by update and finish).
  std::size_t runs_serialised() const { return serialised_; }
  const std::string& path() const { return path_; }

 private:
  std::string path_, what_;
  Config cfg_;
  Provenance prov_;
  std::string head_, tail_;          ///< the report with no runs, before and after the runs' array
  std::vector<std::string> texts_;   ///< the serialised finished runs, indented for the array
  std::size_t serialised_ = 0;
};

}  // namespace mmapp
