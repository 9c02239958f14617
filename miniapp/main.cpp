// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// main.cpp — mmapp's lifetimes and command line: MPI, then the device choice
// (node-local rank modulo visible GPUs, before Kokkos starts), then Kokkos
// (ScopeGuard), then the deck, the runs, the table and the report.
//
//   mmapp DECK.yaml [--backend openmp|cuda|serial] [--set key=value]...
//                   [--report FILE] [--kokkos-num-threads=N ...]
//   mmapp --version | --list | --help | --kokkos-help | --kokkos-info
// Exit codes: 0 all runs verified; 1 a verification failed or a kernel
// failed; 2 bad input, an unusable report path or a problem that does not fit
// (nothing computed); 3 an unexpected error, or the report's last write
// failed (README "Report"); 4 stopped by SIGTERM/SIGINT (the
// partial report, "complete": false, is written); 5 every run ran but
// verification was off (verify.enabled: false).
#include "core/exec_spaces.hpp"
#include "core/kokkos_args.hpp"
#include "core/printable.hpp"
#include "deck/config.hpp"
#include "driver/driver.hpp"
#include "driver/listing.hpp"
#include "kernels/host/host_isa.hpp"
#include "kernels/vendor/host_blas.hpp"
#include "parallel/parallel_env.hpp"
#include "report/report.hpp"
#include "report/report_file.hpp"
#include "core/signals.hpp"
#include "core/version.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <memory>
#include <mutex>
#include <sstream>

namespace {

struct Options {
  std::string deck;
  std::string backend;
  std::vector<std::string> sets;
  std::string report;
  bool kokkos_info = false;
  bool version = false;
  bool list = false;
};

/// This process' rank as the launcher tells it (Open MPI, PMIx, MPICH's PMI,
/// Slurm), before MPI starts; 0 when launched alone. Used only to print the
/// answers of --help, --version, --list and command-line errors once.
int launcher_rank() {
  for (const char* var : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK", "SLURM_PROCID"})
    if (const char* v = std::getenv(var); v && *v) return std::atoi(v);
  return 0;
}

/// Splits argv into mmapp's own arguments and Kokkos' (--kokkos-*, but
/// --kokkos-info, which is mmapp's). A Kokkos flag that takes a value may
/// give it as the next argument ("--kokkos-threads 2"): it is joined with '='.
void split_args(int argc, char** argv, std::vector<std::string>& own, std::vector<std::string>& kokkos) {
  for (int i = 1; i < argc; ++i) {
    std::string a = argv[i];
    if (a == "--") {  // the rest is mmapp's (a deck named --kokkos-x.yaml)
      for (; i < argc; ++i) own.emplace_back(argv[i]);
      break;
    }
    if (!mmapp::is_kokkos_flag(a)) {
      own.push_back(a);
      continue;
    }
    if (a.find('=') == std::string::npos && mmapp::kokkos_flag_takes_value(a) && i + 1 < argc) a += "=" + std::string(argv[++i]);
    kokkos.push_back(a);
  }
}

/// The command line: mmapp's options (parsed by CLI11) and Kokkos' own
/// (--kokkos-*, checked and translated for the Kokkos in use: kokkos_args.hpp).
struct CommandLine {
  Options opt;
  mmapp::KokkosArgs kokkos;
  bool done = false;  ///< --help, --version or --list printed, or a bad argument reported: exit with `code`
  int code = 0;
};

/// Parses argv with CLI11 and checks the Kokkos flags; needs neither MPI nor
/// Kokkos. --help, --version and --list print (on rank 0 only, `root`) and
/// end with code 0; a bad argument prints one line and ends with code 2
/// (done = true).
CommandLine parse_command_line(int argc, char** argv, bool root) {
  CLI::App app{"mmapp: dense GEMM C = A x B with naive, shared, tiled and vendor (cuBLAS / Kokkos Kernels) "
               "kernels on Kokkos, over MPI ranks: rows of A and C split and B replicated (the row split), or "
               "every matrix in p x q blocks on a 2-D process grid (parallel.decomposition: {grid: [p, q] | auto}: "
               "SUMMA, and ScaLAPACK's p?gemm as `scalapack`).",
               "mmapp"};
  CommandLine cl;
  Options& opt = cl.opt;
  app.add_option("deck", opt.deck, "YAML input deck (see inputs/example.yaml); required unless --kokkos-info");
  app.add_option("--backend", opt.backend,
                 "execution space to run on, overriding run.backend: " +
                     fmt::format("{}", fmt::join(mmapp::enabled_backends(), "|")));
  app.add_option("--set", opt.sets,
                 "override a deck key with a YAML value, e.g. --set problem.n=4096, --set "
                 "parallel.decomposition.grid=auto; one KEY=VALUE per --set, repeatable, anywhere on the line")
      ->allow_extra_args(false)
      ->type_name("KEY=VALUE");
  app.add_option("--report", opt.report,
                 "write the JSON report to FILE (overrides output.report; the path is taken verbatim)")
      ->type_name("FILE");
  app.add_flag("--kokkos-info", opt.kokkos_info, "print the Kokkos configuration and the rank placement, then exit");
  app.add_flag("--version", opt.version, "print the version, git hash, Kokkos version and backends, then exit");
  app.add_flag("--list", opt.list,
               "list backends, SUMMA panel transports, kernels and every kernel variant with its tile label "
               "(one per line; a deck's tile: takes the label back), then exit");
  app.footer(fmt::format(
      "Kokkos flags (checked, and spelt as Kokkos {} reads them): --kokkos-num-threads=N (or --kokkos-threads=N), "
      "--kokkos-device-id=N, --kokkos-disable-warnings, --kokkos-tools-libs=LIB (or --kokkos-tools-library), "
      "--kokkos-tools-args=STR, --kokkos-help (Kokkos' own list; then exit); an unknown --kokkos-* flag or a bad "
      "value is exit 2. The vendor BLAS runs the kernels' thread count. KOKKOS_TOOLS_LIBS is honoured on every "
      "Kokkos (on 3.4 passed on as KOKKOS_PROFILE_LIBRARY). The device of each rank is chosen from its "
      "node-local rank.\n"
      "Exit codes: 0 verified, 1 verification or kernel failed, 2 bad input, 3 internal error, 4 stopped by "
      "SIGTERM/SIGINT (partial report written), 5 ran but not verified (verify.enabled: false).",
      mmapp::kokkos_version_string(mmapp::kokkos_version())));

  std::vector<std::string> own, kokkos;
  split_args(argc, argv, own, kokkos);
  const auto stop = [&](int code, const std::string& out, const std::string& err) {
    if (root) std::cout << out << std::flush, std::cerr << err << std::flush;
    cl.done = true;
    cl.code = code;
    return cl;
  };
  std::vector<std::string> reversed(own.rbegin(), own.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    // --help prints and exits 0 on every rank; errors print once and exit 2.
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    // CLI11 quotes the arguments it did not expect: each line through printable().
    std::istringstream lines(err.str());
    std::string shown;
    for (std::string line; std::getline(lines, line);) shown += mmapp::printable(line, 500) + "\n";
    return stop(code == 0 ? 0 : 2, out.str(), shown);
  }
  if (opt.version) {
    std::ostringstream out;
    mmapp::print_version(out);
    return stop(0, out.str(), "");
  }
  if (opt.list) {
    std::ostringstream out;
    mmapp::print_list(out);
    return stop(0, out.str(), "");
  }
  cl.kokkos = mmapp::translate_kokkos_args(kokkos, mmapp::kokkos_version());
  if (!cl.kokkos.error.empty()) return stop(2, "", "mmapp: error: " + cl.kokkos.error + "\n");
  if (const std::string env = mmapp::check_kokkos_environment(); !env.empty())
    return stop(2, "", "mmapp: error: " + env + "\n");
  return cl;
}

/// Starts Kokkos with the (translated) Kokkos arguments of the command line
/// and this rank's GPU (--kokkos-device-id from the placement, when >= 0).
/// Kokkos reports a problem with its arguments or environment by throwing:
/// that is `error` (exit 2 after every rank agreed), never an abort.
std::unique_ptr<Kokkos::ScopeGuard> start_kokkos(const char* argv0, const std::vector<std::string>& kokkos_args,
                                                 int device_id, std::string& error) {
  std::vector<std::string> kargs{argv0};
  for (const auto& a : kokkos_args) kargs.push_back(a);
  if (device_id >= 0) kargs.push_back("--kokkos-device-id=" + std::to_string(device_id));
  std::vector<char*> kargv;
  for (auto& a : kargs) kargv.push_back(a.data());
  int kargc = int(kargv.size());
  kargv.push_back(nullptr);
  try {
    return std::make_unique<Kokkos::ScopeGuard>(kargc, kargv.data());
  } catch (const std::exception& e) {
    error = "Kokkos::initialize refused its arguments: " + mmapp::printable(e.what(), 500);
    return nullptr;
  }
}

/// The host threads of this rank's kernels: 1 on the serial backend, else
/// the default host execution space's concurrency (OpenMP's pool).
int kernel_host_threads(const std::string& backend) {
  return backend == "serial" ? 1 : int(Kokkos::DefaultHostExecutionSpace().concurrency());
}

/// Where the report's path came from, for messages: "--report", or the
/// deck's output.report.
std::string report_what(const Options& opt, const mmapp::Config& cfg) {
  return opt.report.empty() ? mmapp::escape_invalid_utf8(cfg.deck_path) + ": output.report" : "--report";
}

/// One progress line on stderr (rank 0) after each finished run.
void print_progress(const mmapp::RunRecord& r, int done, int total, double elapsed) {
  const double left = done > 0 ? elapsed / done * (total - done) : 0;
  const char* verdict = r.status == mmapp::RunStatus::error       ? "KERNEL ERROR"
                        : r.status == mmapp::RunStatus::abandoned ? "abandoned"
                        : !r.verify.enabled                       ? "not verified"
                        : r.verify.passed                         ? "verified"
                                                                  : "FAILED";
  // verify.accuracy: the error against the FP64 reference ("err 3.1e-08").
  const std::string err = r.accuracy.measured ? fmt::format(", err {:.1e}", r.accuracy.worst_error) : "";
  std::cerr << fmt::format("[{}/{}] {} {} {}x{}x{}: {:.1f} GFLOP/s, {}{} (elapsed {:.1f} s, about {:.0f} s left)\n",
                           done, total, r.kernel, r.dtype, r.m, r.n, r.k, r.gflops, verdict, err, elapsed, left);
}

/// Runs the deck, prints the table and writes the report (rank 0); returns
/// the exit code, the same on every rank. Collective. `report_what` names
/// where the report path came from ("--report" or "DECK: output.report").
int run_and_report(const mmapp::Config& cfg, const mmapp::RankPlacement& place,
                   const std::vector<std::string>& backends, const mmapp::Provenance& prov,
                   const std::string& report_what) {
  const bool root = place.rank == 0;
  mmapp::DriverHooks hooks;
  hooks.progress = print_progress;
  // Rank 0 keeps every finished run and rewrites the report after each one
  // ("complete": false), so a job killed later still leaves its results. A
  // failed rewrite is a warning (the first one, then a count at the end): the
  // file keeps its last complete version and the next run tries again. A stop
  // signal makes it "stopped_by" at once (StopWatcher's thread), as the
  // launcher may kill the ranks before they reach the next stop point.
  std::vector<mmapp::RunRecord> finished;
  std::mutex report_mutex;
  std::unique_ptr<mmapp::ReportWriter> writer;
  if (root && !cfg.report_path.empty())
    writer = std::make_unique<mmapp::ReportWriter>(cfg.report_path, report_what, cfg, prov);
  int failed_rewrites = 0;
  const auto write_partial = [&](int sig) {  // report_mutex held
    if (!writer) return;
    try {
      if (sig)
        writer->finish(finished, {false, mmapp::signal_name(sig)});  // whole, with "stopped_by"
      else
        writer->update(finished);
    } catch (const std::exception& e) {
      if (failed_rewrites++ == 0)
        std::cerr << "mmapp: warning: " << e.what() << " (the run goes on; the report is tried again after each run)\n";
    }
  };
  hooks.records_so_far = [&](const std::vector<mmapp::RunRecord>& so_far) {
    const std::lock_guard<std::mutex> lock(report_mutex);
    finished = so_far;
    write_partial(mmapp::pending_stop_signal());
  };
  std::unique_ptr<mmapp::StopWatcher> watcher;
  if (root)
    watcher = std::make_unique<mmapp::StopWatcher>([&](int sig) {
      const std::lock_guard<std::mutex> lock(report_mutex);
      write_partial(sig);
    });
  std::vector<mmapp::RunRecord> runs;
  int stopped_by = 0;
  try {
    runs = mmapp::run_deck(cfg, place, backends, hooks);
  } catch (const mmapp::Stopped& s) {  // on every rank alike
    stopped_by = s.signal;
    const std::lock_guard<std::mutex> lock(report_mutex);
    runs = finished;
  }
  watcher.reset();  // from here on the final report is written below
  // 4 stopped; 1 any run failed (kernel error or verification); 5 every run
  // ran but some were not verified (verify.enabled: false); 0 all verified.
  bool any_failed = false, any_unverified = false;
  for (const auto& r : runs) {
    any_failed |= r.status == mmapp::RunStatus::error || (r.verify.enabled && !r.passed());
    any_unverified |= r.status == mmapp::RunStatus::ok && !r.verify.enabled;
  }
  int code = stopped_by ? mmapp::kExitStopped : any_failed ? 1 : any_unverified ? mmapp::kExitNotVerified : 0;
  if (root) {
    mmapp::print_table(std::cout, runs);
    if (stopped_by)
      std::cout << "stopped by " << mmapp::signal_name(stopped_by) << " after " << runs.size()
                << " run(s); the report is partial (\"complete\": false)\n";
    if (writer) {
      // The last write fails: exit 3, whatever the runs' verdict, and the file
      // keeps its last complete version ("complete": false) or stays absent.
      try {
        writer->finish(runs, {!stopped_by, stopped_by ? mmapp::signal_name(stopped_by) : ""});
        std::cout << "report written to " << mmapp::escape_invalid_utf8(cfg.report_path) << "\n";
        if (failed_rewrites)
          std::cerr << "mmapp: note: " << failed_rewrites << " of the report's rewrites during the run failed; the "
                    << "last one succeeded\n";
      } catch (const std::exception& e) {
        std::cerr << "mmapp: error: " << e.what() << " (the report is not complete; the table above is)\n";
        code = 3;
      }
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);  // same exit code everywhere
  return code;
}

}  // namespace

int main(int argc, char* argv[]) {
  mmapp::hold_stop_signals();          // a stop signal from here on is kept (across the re-exec too)
  mmapp::ensure_host_blas_core(argv);  // may re-exec: before MPI starts
  const std::vector<std::string> command_line(argv, argv + argc);  // as given, for the report
  // The command line first: --help, --version, --list and bad arguments end
  // here, the same on every rank, without MPI or Kokkos.
  const CommandLine cl = parse_command_line(argc, argv, launcher_rank() == 0);
  if (cl.done) return cl.code;
  const Options& opt = cl.opt;
  if (cl.kokkos.help) {  // Kokkos prints its flags (once) in initialize; nothing runs
    std::vector<std::string> args = cl.kokkos.args;
    if (launcher_rank() != 0) args.erase(std::remove(args.begin(), args.end(), "--kokkos-help"), args.end());
    std::string error;
    const auto kokkos = start_kokkos(argv[0], args, -1, error);
    if (!error.empty() && launcher_rank() == 0) std::cerr << "mmapp: error: " << error << "\n";
    return error.empty() ? 0 : 2;
  }

  mmapp::install_stop_handlers();  // a signal during MPI's start-up is kept too
  mmapp::MpiSession mpi(argc, argv);
  mmapp::install_stop_handlers();  // again: MPI_Init may have set its own
  const mmapp::RankPlacement place = mmapp::place_rank();
  const bool root = place.rank == 0;

  // Input errors before Kokkos starts: bad input never touches a device. One
  // line from rank 0, the same exit code on every rank.
  // A message of several errors (the deck check lists each on a line of its
  // own, "\nmmapp: error: " between them) is printed a line each, every line
  // through printable() (which would escape the newlines themselves).
  const auto fail = [root](const std::string& why, int code) {
    if (!root) return code;
    const std::string prefix = "mmapp: error: ";
    std::size_t at = 0;
    do {
      const std::size_t end = std::min(why.find('\n', at), why.size());
      std::string line = why.substr(at, end - at);
      if (line.rfind(prefix, 0) == 0) line.erase(0, prefix.size());
      std::cerr << prefix << mmapp::printable(line, mmapp::kMaxMessageChars) << "\n";
      at = end + 1;
    } while (at < why.size());
    return code;
  };
  // Kokkos Tools: KOKKOS_TOOLS_LIBS for a Kokkos that reads only
  // KOKKOS_PROFILE_LIBRARY (every rank sets it; rank 0 says so first).
  const mmapp::ToolsEnv tools = mmapp::forward_kokkos_tools_libs(mmapp::kokkos_version());
  if (root && !tools.note.empty()) std::cout << "mmapp: note: " << tools.note << "\n" << std::flush;
  if (opt.deck.empty() && !opt.kokkos_info) return fail("no deck given (mmapp DECK.yaml ...; see --help)", 2);
  mmapp::Config cfg;
  std::vector<std::string> backends(place.size, mmapp::default_backend());
  std::string input_error = tools.error;
  try {
    // --backend and --report are strings, taken verbatim (never YAML).
    std::vector<mmapp::FlagOverride> flags;
    if (!opt.backend.empty()) flags.push_back({"run.backend", opt.backend, "--backend"});
    if (!opt.report.empty()) flags.push_back({"output.report", opt.report, "--report"});
    mmapp::host::selected_host_isa();  // MMAPP_HOST_ISA: an unknown level or one this CPU lacks is bad input
    if (!opt.kokkos_info && input_error.empty()) {
      cfg = mmapp::parse_deck(opt.deck, opt.sets, flags);
      backends = mmapp::backends_per_rank(cfg, place.size);
    }
    // The report's path, before anything is computed: a long sweep must not
    // find out at its end that it cannot write (rank 0 writes it).
    if (root && !opt.kokkos_info && input_error.empty())
      input_error = mmapp::check_report_target(cfg.report_path, report_what(opt, cfg));
  } catch (const std::exception& e) {  // DeckError, HostIsaError, or RunError(2) for run.backend
    input_error = e.what();
  }
  if (std::string why = mmapp::first_error(input_error, MPI_COMM_WORLD); !why.empty()) return fail(why, 2);
  if (root) {
    for (const auto& note : cl.kokkos.notes) std::cerr << "mmapp: note: " << note << "\n";
    for (const auto& note : cfg.notes) std::cerr << "mmapp: note: " << note << "\n";
  }
  const bool uses_gpu = backends[place.rank] == "cuda";  // this rank's own backend
  if (const std::string why = mmapp::check_placement(place, uses_gpu, cfg.share_devices); !why.empty())
    return fail(why, 2);

  // cuBLAS must run plain FP32/FP64 so the reference is comparable: never TF32
  // (NVIDIA_TF32_OVERRIDE=0 forbids it in every CUDA library of the process).
  setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
  std::string kokkos_error;
  const auto kokkos = start_kokkos(argv[0], cl.kokkos.args, place.device_id, kokkos_error);
  if (std::string why = mmapp::first_error(kokkos_error, MPI_COMM_WORLD); !why.empty()) return fail(why, 2);
  // The vendor BLAS runs what the kernels run, however the count was given.
  const int threads = kernel_host_threads(backends[place.rank]);
  const int blas_threads = mmapp::set_host_blas_threads(threads);
  if (root && blas_threads > 0)
    if (const char* e = std::getenv("OPENBLAS_NUM_THREADS"); e && std::atoi(e) != blas_threads)
      std::cerr << "mmapp: note: OPENBLAS_NUM_THREADS=" << mmapp::printable(e)
                << " not used: the vendor BLAS runs the kernels' " << blas_threads << " thread(s)\n";

  int code = 0;
  try {
    const mmapp::Provenance prov = mmapp::collect_provenance(place, backends, command_line);
    if (root) mmapp::print_placement(std::cout, prov);
    if (opt.kokkos_info) {
      if (root) Kokkos::print_configuration(std::cout, true);
      return 0;
    }
    if (root) std::cout << "deck " << cfg.deck_path << "\n" << std::flush;
    code = run_and_report(cfg, place, backends, prov, report_what(opt, cfg));
  } catch (const mmapp::RunError& e) {
    code = fail(e.what(), e.exit_code);
  } catch (const std::exception& e) {
    std::cerr << "mmapp: rank " << place.rank << ": fatal: " << mmapp::printable(e.what(), mmapp::kMaxMessageChars)
              << "\n" << std::flush;
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return code;
}
