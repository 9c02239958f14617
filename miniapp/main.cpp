// main.cpp — mmapp's lifetimes and command line: MPI, then the device choice
// (node-local rank modulo visible GPUs, before Kokkos starts), then Kokkos
// (ScopeGuard), then the deck, the runs, the table and the report.
//
//   mmapp DECK.yaml [--backend openmp|cuda|serial] [--set key=value ...]
//                   [--report FILE] [--kokkos-threads=N ...]
// Exit codes: 0 all runs verified; 1 a verification failed or a kernel
// failed; 2 bad input, an unusable report path or a problem that does not fit
// (nothing computed); 3 an unexpected error; 4 stopped by SIGTERM/SIGINT (the
// partial report, "complete": false, is written).
#include "deck/config.hpp"
#include "driver/driver.hpp"
#include "core/exec_spaces.hpp"
#include "kernels/host/host_isa.hpp"
#include "kernels/vendor/host_blas.hpp"
#include "parallel/parallel_env.hpp"
#include "report/report.hpp"
#include "core/signals.hpp"
#include "core/version.hpp"

#include <CLI/CLI.hpp>
#include <Kokkos_Core.hpp>
#include <fmt/format.h>

#include <cstdio>
#include <iostream>
#include <memory>
#include <sstream>

namespace {

struct Options {
  std::string deck;
  std::string backend;
  std::vector<std::string> sets;
  std::string report;
  bool kokkos_info = false;
};

/// Splits argv into mmapp's own arguments and Kokkos' (--kokkos-*), which
/// Kokkos::initialize parses itself.
void split_args(int argc, char** argv, std::vector<std::string>& own, std::vector<std::string>& kokkos) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    (a.rfind("--kokkos-", 0) == 0 && a != "--kokkos-info" ? kokkos : own).push_back(a);
  }
}

/// The command line: mmapp's options (parsed by CLI11) and Kokkos' own
/// (--kokkos-*, left for Kokkos::initialize).
struct CommandLine {
  Options opt;
  std::vector<std::string> kokkos_args;
  bool done = false;  ///< --help printed (or a parse error reported): exit with `code`
  int code = 0;
};

/// Parses argv with CLI11. --help prints on rank 0 and ends with code 0; a
/// parse error prints on rank 0 and ends with code 2 (done = true).
CommandLine parse_command_line(int argc, char** argv, bool root) {
  CLI::App app{"mmapp: dense GEMM C = A x B with naive, shared, tiled and vendor (Kokkos Kernels) kernels on "
               "Kokkos, over MPI ranks (rows of A and C split, B replicated).",
               "mmapp"};
  CommandLine cl;
  Options& opt = cl.opt;
  app.add_option("deck", opt.deck, "YAML input deck (see inputs/example.yaml); required unless --kokkos-info");
  app.add_option("--backend", opt.backend,
                 "execution space to run on, overriding run.backend: " + fmt::format("{}", fmt::join(mmapp::enabled_backends(), "|")));
  app.add_option("--set", opt.sets, "override a deck key, e.g. --set problem.n=4096 (repeatable)");
  app.add_option("--report", opt.report, "write the JSON report here (overrides output.report)");
  app.add_flag("--kokkos-info", opt.kokkos_info, "print the Kokkos configuration and the rank placement, then exit");
  app.footer(
      "Kokkos options (--kokkos-threads=N, --kokkos-device-id=N, ...) are passed to Kokkos::initialize; the device "
      "of each rank is chosen from its node-local rank.\nExit codes: 0 verified, 1 verification or kernel failed, 2 bad "
      "input, 3 internal error, 4 stopped by SIGTERM/SIGINT (partial report written).");

  std::vector<std::string> own;
  split_args(argc, argv, own, cl.kokkos_args);
  std::vector<std::string> reversed(own.rbegin(), own.rend());
  try {
    app.parse(reversed);
  } catch (const CLI::ParseError& e) {
    // --help and --version print and exit 0 on every rank; errors print once and exit 2.
    std::ostringstream out, err;
    const int code = app.exit(e, out, err);
    if (root) std::cout << out.str() << std::flush, std::cerr << err.str() << std::flush;
    cl.done = true;
    cl.code = code == 0 ? 0 : 2;
  }
  return cl;
}

/// Starts Kokkos with the Kokkos arguments of the command line and this
/// rank's GPU (--kokkos-device-id from the placement).
std::unique_ptr<Kokkos::ScopeGuard> start_kokkos(const char* argv0, const std::vector<std::string>& kokkos_args,
                                                 const mmapp::RankPlacement& place) {
  std::vector<std::string> kargs{argv0};
  for (const auto& a : kokkos_args) kargs.push_back(a);
  if (place.device_id >= 0) kargs.push_back("--kokkos-device-id=" + std::to_string(place.device_id));
  std::vector<char*> kargv;
  for (auto& a : kargs) kargv.push_back(a.data());
  int kargc = int(kargv.size());
  kargv.push_back(nullptr);
  return std::make_unique<Kokkos::ScopeGuard>(kargc, kargv.data());
}

/// One progress line on stderr (rank 0) after each finished run.
void print_progress(const mmapp::RunRecord& r, int done, int total, double elapsed) {
  const double left = done > 0 ? elapsed / done * (total - done) : 0;
  const char* verdict = r.status == mmapp::RunStatus::error       ? "KERNEL ERROR"
                        : r.status == mmapp::RunStatus::abandoned ? "abandoned"
                        : !r.verify.enabled                       ? "not verified"
                        : r.verify.passed                         ? "verified"
                                                                  : "FAILED";
  std::cerr << fmt::format("[{}/{}] {} {} {}x{}x{}: {:.1f} GFLOP/s, {} (elapsed {:.1f} s, about {:.0f} s left)\n", done,
                           total, r.kernel, r.dtype, r.m, r.n, r.k, r.gflops, verdict, elapsed, left);
}

/// Runs the deck, prints the table and writes the report (rank 0); returns
/// the exit code, the same on every rank. Collective.
int run_and_report(const mmapp::Config& cfg, const mmapp::RankPlacement& place,
                   const std::vector<std::string>& backends, const mmapp::Provenance& prov) {
  const bool root = place.rank == 0;
  mmapp::DriverHooks hooks;
  hooks.progress = print_progress;
  // Rank 0 keeps every finished run and rewrites the report after each one
  // ("complete": false), so a job killed later still leaves its results.
  std::vector<mmapp::RunRecord> finished;
  hooks.records_so_far = [&](const std::vector<mmapp::RunRecord>& so_far) {
    finished = so_far;
    if (cfg.report_path.empty()) return;
    try {
      mmapp::write_json_report(cfg.report_path, cfg, prov, finished, {false, ""});
    } catch (const std::exception& e) {
      std::cerr << "mmapp: warning: " << e.what() << " (the run goes on)\n";
    }
  };
  std::vector<mmapp::RunRecord> runs;
  int stopped_by = 0;
  try {
    runs = mmapp::run_deck(cfg, place, backends, hooks);
  } catch (const mmapp::Stopped& s) {  // on every rank alike
    stopped_by = s.signal;
    runs = finished;
  }
  bool all_ok = true;
  for (const auto& r : runs) all_ok &= r.passed();
  int code = stopped_by ? mmapp::kExitStopped : all_ok ? 0 : 1;
  if (root) {
    mmapp::print_table(std::cout, runs);
    if (stopped_by)
      std::cout << "stopped by " << mmapp::signal_name(stopped_by) << " after " << runs.size()
                << " run(s); the report is partial (\"complete\": false)\n";
    if (!cfg.report_path.empty()) {
      try {
        mmapp::write_json_report(cfg.report_path, cfg, prov, runs,
                                 {!stopped_by, stopped_by ? mmapp::signal_name(stopped_by) : ""});
        std::cout << "report written to " << cfg.report_path << "\n";
      } catch (const std::exception& e) {
        std::cerr << "mmapp: error: " << e.what() << "\n";
        code = 3;
      }
    }
  }
  MPI_Bcast(&code, 1, MPI_INT, 0, MPI_COMM_WORLD);  // same exit code everywhere
  return code;
}

}  // namespace

int main(int argc, char* argv[]) {
  mmapp::ensure_host_blas_core(argv);  // may re-exec: before MPI starts
  mmapp::MpiSession mpi(argc, argv);
  mmapp::install_stop_handlers();
  const mmapp::RankPlacement place = mmapp::place_rank();
  const bool root = place.rank == 0;
  const CommandLine cl = parse_command_line(argc, argv, root);
  if (cl.done) return cl.code;
  const Options& opt = cl.opt;

  // Input errors before Kokkos starts: bad input never touches a device. One
  // line from rank 0, the same exit code on every rank.
  const auto fail = [root](const std::string& why, int code) {
    if (root) std::cerr << "mmapp: error: " << why << "\n";
    return code;
  };
  if (opt.deck.empty() && !opt.kokkos_info) return fail("no deck given (mmapp DECK.yaml ...; see --help)", 2);
  mmapp::Config cfg;
  std::vector<std::string> backends(place.size, mmapp::default_backend());
  std::string input_error;
  try {
    std::vector<std::string> overrides = opt.sets;
    if (!opt.backend.empty()) overrides.push_back("run.backend=" + opt.backend);
    if (!opt.report.empty()) overrides.push_back("output.report=" + opt.report);
    mmapp::host::selected_host_isa();  // MMAPP_HOST_ISA: an unknown level or one this CPU lacks is bad input
    if (!opt.kokkos_info) {
      cfg = mmapp::parse_deck(opt.deck, overrides);
      backends = mmapp::backends_per_rank(cfg, place.size);
    }
    // The report's path, before anything is computed: a long sweep must not
    // find out at its end that it cannot write (rank 0 writes it).
    if (root && !opt.kokkos_info) input_error = mmapp::check_report_path(cfg.report_path);
  } catch (const std::exception& e) {  // DeckError, HostIsaError, or RunError(2) for run.backend
    input_error = e.what();
  }
  if (std::string why = mmapp::first_error(input_error, MPI_COMM_WORLD); !why.empty()) return fail(why, 2);
  if (root)
    for (const auto& note : cfg.notes) std::cerr << "mmapp: note: " << note << "\n";
  const bool uses_gpu = backends[place.rank] == "cuda";  // this rank's own backend
  if (const std::string why = mmapp::check_placement(place, uses_gpu, cfg.share_devices); !why.empty())
    return fail(why, 2);

  // cuBLAS must run plain FP32/FP64 so the reference is comparable: never TF32
  // (NVIDIA_TF32_OVERRIDE=0 forbids it in every CUDA library of the process).
  setenv("NVIDIA_TF32_OVERRIDE", "0", 1);
  const auto kokkos = start_kokkos(argv[0], cl.kokkos_args, place);

  int code = 0;
  try {
    const mmapp::Provenance prov = mmapp::collect_provenance(place, backends);
    if (root) mmapp::print_placement(std::cout, prov);
    if (opt.kokkos_info) {
      if (root) Kokkos::print_configuration(std::cout, true);
      return 0;
    }
    if (root) std::cout << "deck " << cfg.deck_path << "\n" << std::flush;
    code = run_and_report(cfg, place, backends, prov);
  } catch (const mmapp::RunError& e) {
    code = fail(e.what(), e.exit_code);
  } catch (const std::exception& e) {
    std::cerr << "mmapp: rank " << place.rank << ": fatal: " << e.what() << "\n" << std::flush;
    MPI_Abort(MPI_COMM_WORLD, 3);
  }
  return code;
}
