// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// kokkos_args.hpp — the command line's Kokkos flags (--kokkos-*), checked and
// translated for the Kokkos in use before Kokkos::initialize sees them.
//
// Kokkos renamed flags between versions and does not check them the same
// way: 3.4 silently ignores --kokkos-num-threads (the pool stays at its
// default), aborts on --kokkos-threads=abc or =0 (exit 134) and accepts any
// other --kokkos-* flag without a word; 4.x renamed --kokkos-threads and
// --kokkos-tools-library. So mmapp takes either spelling of every flag that
// both know, writes it the way the Kokkos in use reads it, and refuses an
// unknown flag or a bad value (exit 2, naming the flag) before Kokkos runs.
//
//   flag (either spelling)                      value          3.4 reads           4.x reads
//   --kokkos-num-threads | --kokkos-threads     INT >= 1       --kokkos-threads    --kokkos-num-threads
//   --kokkos-device-id | --kokkos-device        INT >= 0       --kokkos-device-id  --kokkos-device-id
//   --kokkos-num-devices | --kokkos-ndevices    INT>=1[,INT>=0] as given           as given
//   --kokkos-numa                               INT >= 1       as given            (ignored by 4.x: refused)
//   --kokkos-map-device-id-by                   random|mpi_rank (refused)          as given
//   --kokkos-disable-warnings, --kokkos-tune-internals
//                                               none, or =BOOL flag when true      as given
//   --kokkos-print-configuration                none or =BOOL  (refused: --kokkos-info) as given
//   --kokkos-tools-libs | --kokkos-tools-library STRING       --kokkos-tools-library --kokkos-tools-libs
//   --kokkos-tools-args                         STRING         as given            as given
//   --kokkos-tools-help, --kokkos-help          none           as given            as given
//
// A value may follow its flag after '=' or as the next argument
// ("--kokkos-threads 2"). BOOL: true/false, yes/no, on/off, 1/0.
// No Kokkos here: the version is a parameter (kokkos_version() is the
// version compiled against), so both translations are tested in one build.
#pragma once

#include <string>
#include <vector>

namespace mmapp {

/// KOKKOS_VERSION of the Kokkos this binary was compiled against
/// (major * 10000 + minor * 100 + patch, e.g. 30401).
int kokkos_version();

/// "3.4.1" for 30401.
std::string kokkos_version_string(int version);

/// The Kokkos flags of a command line, checked and translated.
struct KokkosArgs {
  std::vector<std::string> args;   ///< for Kokkos::initialize, in the spelling of the Kokkos in use
  bool help = false;               ///< --kokkos-help: Kokkos prints its help; mmapp runs nothing
  int threads = 0;                 ///< the host thread count given (0: none given)
  std::string error;               ///< "" or one line naming the flag: exit 2 before Kokkos starts
  std::vector<std::string> notes;  ///< translations made, e.g. "--kokkos-num-threads=2 passed as --kokkos-threads=2 ..."
};

/// True for an argument that is a Kokkos flag (starts with "--kokkos-"),
/// except mmapp's own --kokkos-info.
bool is_kokkos_flag(const std::string& arg);

/// True when the Kokkos flag `arg` (without '=') takes a value, so that
/// "--kokkos-threads 2" may give it as the next argument.
bool kokkos_flag_takes_value(const std::string& arg);

/// Checks and translates `given` (each "--kokkos-NAME[=VALUE]", a value
/// given separately already joined with '=') for Kokkos `version`. On the
/// first unknown flag or bad value, `error` says which and what was
/// expected (user text shown through printable()); `args` is then
/// incomplete and must not be used.
KokkosArgs translate_kokkos_args(const std::vector<std::string>& given, int version);

/// A problem with a Kokkos environment variable that Kokkos would abort on
/// (KOKKOS_NUM_THREADS, KOKKOS_DEVICE_ID, KOKKOS_NUMA: an integer), or "".
std::string check_kokkos_environment();

/// Kokkos Tools' library variable. Kokkos before 3.7 reads only
/// KOKKOS_PROFILE_LIBRARY; the documented KOKKOS_TOOLS_LIBS is ignored. For
/// such a `version`, when KOKKOS_TOOLS_LIBS is set and KOKKOS_PROFILE_LIBRARY
/// is not, sets KOKKOS_PROFILE_LIBRARY from it (call before
/// Kokkos::initialize, on every rank) and returns the line to print; when
/// both are set and differ, returns that as `error`. Returns {"", ""} when
/// nothing was done.
struct ToolsEnv {
  std::string note, error;
};
ToolsEnv forward_kokkos_tools_libs(int version);

}  // namespace mmapp
