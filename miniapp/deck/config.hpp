// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// config.hpp — the validated run configuration parsed from a YAML input deck
// (see README "Input decks" and inputs/example.yaml). Every default lives in
// the member initialisers below; parse_deck() is the only place that reads
// YAML. Errors are DeckError with the file, the key and the line.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

namespace mmapp {

/// Element type of A, B and C.
enum class DType { f32, f64 };

/// Initialisation of A and B.
/// - random:   A and B uniform in [-1, 1] from a counter-based generator keyed
///             on (seed, matrix, i, j), so values do not depend on rank count.
/// - identity: A random, B = I (requires k == n); C must equal A bit for bit.
/// - ones:     A = B = 1; every element of C must equal k exactly.
/// - closed_form: A(i,k) = f(i+k), B(k,j) = f(k+j+1), f(t) = t mod 3 - 1; C
///             known in closed form (init.hpp, closed_form_c) and exact.
/// - wide:   A and B with random signs and mantissas and binary exponents
///             uniform over 2^-60..2^60 (double) or 2^-60..2^40 (float: no
///             sum of products can overflow), keyed like random (init.hpp,
///             counter_wide and WideExponents give the reasons).
/// ones and closed_form are exact for k <= 2^24 in float (refused above).
enum class Init { random, identity, ones, closed_form, wide };

/// How A, B and C are distributed across MPI ranks: the row split (even,
/// rows, weights, auto_weights: rows of A and C split, B replicated) or a
/// 2-D process grid (grid: SUMMA, every matrix in p x q blocks; grid.hpp).
enum class SplitKind { even, rows, weights, auto_weights, grid };

/// Grid decompositions: how the panels' broadcasts meet the local GEMMs.
/// - automatic: ibcast when every rank's panels travel through host memory
///              (host backends, or staged), none when device buffers go to
///              MPI (Open MPI supports MPI_Ibcast on device memory only
///              through UCX);
/// - ibcast:    double-buffered panels, the next panel's MPI_Ibcast posted
///              before the current local GEMM;
/// - none:      blocking MPI_Bcast, then the local GEMM, panel after panel.
enum class Overlap { automatic, ibcast, none };

/// Grid decompositions: how panels reach the other ranks.
/// - automatic:  nccl where it can run (see nccl); else on a GPU rank, cuda_aware when Open MPI reports CUDA support
///               at run time (MPIX_Query_cuda_support), else shared when
///               every process row and column is within one node (and every
///               rank is a GPU rank), else staged; host ranks pass host
///               buffers to MPI ("host");
/// - cuda_aware: device buffers are given to MPI (GPU ranks);
/// - staged:     through pinned host buffers (Kokkos::CudaHostPinnedSpace) and
///               MPI_Bcast / MPI_Ibcast (GPU ranks; host ranks: "host");
/// - shared:     through an MPI-3 shared-memory window over each process row
///               and column (one node only), MPI_Ibarrier as the signal
///               (summa.hpp); GPU and host ranks;
/// - nccl:       NCCL broadcasts from device to device (built with NCCL,
///               every rank a GPU rank with a GPU of its own); automatic
///               picks it first where it can.
enum class Transfer { automatic, cuda_aware, staged, shared, nccl };

/// Where the distributed rows come from.
/// - scatter: rank 0 creates A and B, MPI_Scatterv rows of A, MPI_Bcast B,
///            MPI_Gatherv C (each phase timed); with a process grid, rank 0
///            sends every rank its 2-D blocks of A and B and gathers C's.
/// - local:   every rank generates its own rows (or 2-D blocks); nothing is
///            distributed.
enum class DataMode { scatter, local };

/// run.math: the arithmetic kernels may use. automatic ("auto", the
/// default): any, the GPU shape rule taking tensor cores where the build
/// has them; simt: no tensor cores (GPU `tiled` takes the shape rule's SIMT
/// choice, `tile: auto` times only SIMT variants, and a kernels entry that
/// names a tensor-core variant is refused).
enum class MathMode { automatic, simt };

/// One GEMM problem C(m x n) = A(m x k) * B(k x n); each in [1, INT_MAX].
struct ProblemSize {
  long m = 0, n = 0, k = 0;
};

/// One kernel to run, as named in the deck's `kernels:` list.
/// tile = {block_m, block_n, block_k} and thread_tile = {thread_m, thread_n};
/// empty means "the kernel's default for the backend and the problem's shape"
/// (kernels/catalog.hpp, default_variant). `tile: auto` times every variant
/// compiled for the backend on the actual problem and keeps the fastest.
/// `tile: LABEL` (a string other than auto) names one variant by the label
/// the results table, the report and `mmapp --list` print for it
/// (KernelVariant::shape(), "-" for a kernel without a shape), e.g.
/// "/8x48 goto", "16", "128x128x8/8x8 nopf".
struct KernelSpec {
  std::string name;                  ///< naive | shared | tiled | vendor | scalapack (grid decks only)
  std::vector<int> tile;             ///< empty, or 3 values (tiled), or 1 value (shared: T)
  std::vector<int> thread_tile;      ///< empty, or 2 values (tiled only)
  int prefetch = -1;                 ///< tiled: -1 the variant's default, 0 off, 1 on (register double buffering)
  std::string variant;               ///< tiled: the variant's tag as the registry prints it ("" any), e.g. "w32x64 1st vec sw8 lb2"
  bool tile_auto = false;            ///< `tile: auto` (tiled, shared): the fastest variant, timed before the runs
  std::string label;                 ///< `tile: LABEL`: the variant's label, blanks collapsed ("" none)
  int line = 0;                      ///< 1-based deck line of this entry (0: not from a file)
  /// Where the entry was given, as the start of a message about it:
  /// "FILE:LINE: kernels[i]" or "--set kernels[i]" ("" when not parsed from a deck).
  std::string where;
};

/// The label of a kernel variant as printed and as accepted back by
/// `tile:`: `shape` with runs of blanks collapsed to one and trimmed, and
/// "-" for a variant without a shape.
std::string tile_label(const std::string& shape);

/// The decomposition: the row split (`even` (default), explicit `rows`,
/// `weights`, or `auto`), or a process grid `{grid: [p, q] | auto, panel,
/// overlap, transfer}` (SUMMA; see grid.hpp and summa.hpp).
struct Decomposition {
  SplitKind kind = SplitKind::even;
  std::vector<long> rows;            ///< kind == rows: one per rank, sum == m
  std::vector<double> weights;       ///< kind == weights: one per rank, > 0
  long calibration_n = 1024;         ///< kind == auto_weights: rows of the first timed trial (of the actual n x k)
  // kind == grid:
  int grid_p = 0, grid_q = 0;        ///< process rows x process columns; 0 x 0: `grid: auto`
  long panel = 512;                  ///< SUMMA panel width NB (columns of A / rows of B per broadcast), >= 1
  Overlap overlap = Overlap::automatic;
  Transfer transfer = Transfer::automatic;
  /// Where the grid key was given, as the prefix of a run-time message about
  /// it: "FILE:LINE: " for a deck, "--set " for an override ("" if unknown).
  std::string grid_where;
};

/// The whole validated configuration.
struct Config {
  std::string deck_path;             ///< file it was read from ("" for defaults)

  // problem:
  std::vector<ProblemSize> sizes;    ///< one or more (a sweep); problem.n / m,n,k / sizes
  std::vector<DType> dtypes{DType::f32};
  Init init = Init::random;
  std::uint64_t seed = 12345;

  // kernels:
  std::vector<KernelSpec> kernels;   ///< in deck order; default: naive, tiled, vendor

  // run:
  int warmup = 1;                    ///< untimed runs per kernel, >= 0
  int repetitions = 5;               ///< timed runs per kernel, >= 1
  std::vector<std::string> backend;  ///< empty: the build's default; one entry, or one per rank
  bool rotate_inputs = true;         ///< rotate input sets when A+B+C fit in the L2 (cuda)
  MathMode math = MathMode::automatic;  ///< run.math: auto, or simt (no tensor cores)
  /// A run whose coefficient of variation (stddev / mean of its timed
  /// samples) is above this fraction is marked noisy (run.noise_threshold;
  /// the deck takes 0.05 or "5%").
  double noise_threshold = 0.05;
  /// run.until_stable: repetitions go on past `repetitions` until the CV is
  /// at most max_cv, max_seconds of timed repetitions have passed, or
  /// max_repetitions were timed (core/stats.hpp, until_stable_step).
  struct UntilStable {
    bool enabled = false;            ///< off unless the deck gives run.until_stable
    double max_cv = 0.02;            ///< fraction (0.02 = 2%)
    double max_seconds = 60;         ///< > 0
    long max_repetitions = 1000;     ///< >= run.repetitions; bounds the report's raw samples
  } until_stable;

  // verify:
  bool verify = true;
  double tolerance = 10.0;           ///< tau: residual bound in modelled standard deviations (verify.hpp)
  bool accuracy = false;             ///< verify.accuracy: each run's error against an FP64 reference (check/accuracy.hpp)

  // output:
  std::string report_path;           ///< "" = no JSON report

  // parallel:
  Decomposition decomposition;
  DataMode data_mode = DataMode::scatter;
  bool share_devices = false;        ///< allow more ranks on a node than GPUs

  /// Notes for the user about the deck (a deprecated spelling accepted:
  /// "FILE:LINE: kernels[2]: 'kokkoskernels' is the deprecated name of 'vendor' ...").
  std::vector<std::string> notes;

  std::string resolved_yaml;         ///< the deck after --set overrides and defaults, as YAML

  /// Where each key that later checks speak about was given ("run.backend",
  /// "parallel.decomposition"): "FILE:LINE: KEY", "--set KEY" or the flag
  /// ("--backend"). Filled by the deck parser.
  std::map<std::string, std::string> origins;

  /// The start of a message about `key`: origins[key], or "DECK: KEY" when
  /// the parser recorded none. Append ": what is wrong".
  std::string where(const std::string& key) const;

  /// The start of a message that names `key` itself: "FILE:LINE: ",
  /// "--set " or "FLAG: ", e.g. prefix(k) + "parallel.decomposition.rows: ...".
  std::string prefix(const std::string& key) const;
};

/// The largest deck file read, in bytes (1 MiB): a deck is a few hundred
/// bytes; anything near this is not a deck (see parse_deck).
inline constexpr std::size_t kMaxDeckBytes = std::size_t(1) << 20;

/// A deck key given whole by a command-line flag (`--report FILE` ->
/// output.report, `--backend NAME` -> run.backend): `value` is taken
/// verbatim as a string, never parsed as YAML ('#', '~', 'null', '*' stay
/// what they are), and messages about it name `flag` ("--report").
struct FlagOverride {
  std::string key;    ///< dotted deck key, e.g. "output.report"
  std::string value;  ///< verbatim
  std::string flag;   ///< e.g. "--report"
};

/// A bad deck or override: what(), e.g.
///   "inputs/x.yaml:7: problem.m: expected an integer >= 1, got 'abc'".
/// Always one printable line: the text goes through printable()
/// (core/printable.hpp; a quoted key or value may hold a newline, a tab, a
/// NUL or a bidirectional override), capped at kMaxMessageChars.
inline constexpr std::size_t kMaxMessageChars = 2000;
struct DeckError : std::runtime_error {
  explicit DeckError(const std::string& what);
};

/// Parses and validates the deck at `path`, applying `overrides` ("key=value",
/// dotted keys such as "problem.n=4096", applied in order, a value parsed as
/// YAML; messages about them read "--set KEY: ..."), then `flags` (verbatim
/// strings), before validation.
/// The file must be a regular file (checked with stat before it is opened,
/// and opened without blocking: a FIFO, a device such as /dev/zero, a
/// directory are refused at once) of at most kMaxDeckBytes.
/// Throws DeckError for a missing, unreadable, non-regular, oversized or
/// malformed file, an unknown key (with a did-you-mean suggestion), a wrong
/// type, a missing required key, a value out of range, or a malformed
/// override. User text quoted in messages goes through printable()
/// (core/printable.hpp). Never returns a partial Config.
Config parse_deck(const std::string& path, const std::vector<std::string>& overrides = {},
                  const std::vector<FlagOverride>& flags = {});

/// Same as parse_deck but from YAML text; `name` is used in messages.
Config parse_deck_string(const std::string& yaml_text, const std::string& name,
                         const std::vector<std::string>& overrides = {},
                         const std::vector<FlagOverride>& flags = {});

/// Every key a deck may hold, as dotted paths from the root in schema order:
/// the sections ("problem"), their keys ("problem.n", "parallel.decomposition.grid"),
/// and the keys of list entries, marked "[]" ("problem.sizes[].m",
/// "kernels[].variant"). Built from the same tables the parser checks keys
/// against (an unknown key is rejected with them as the alternatives), so a
/// key added to the parser appears here; inputs/example.yaml documents each
/// (tests/test_deck_keys.cpp).
std::vector<std::string> deck_keys();

/// "float" / "double".
const char* to_string(DType t);
/// "random" / "identity" / "ones".
const char* to_string(Init i);
/// "scatter" / "local".
const char* to_string(DataMode d);
/// "auto" / "simt" (run.math).
const char* to_string(MathMode m);
/// "auto" / "ibcast" / "none".
const char* to_string(Overlap o);
/// "auto" / "cuda-aware" / "staged" / "shared".
const char* to_string(Transfer t);

}  // namespace mmapp
