// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// kokkos_args.cpp — implementation of kokkos_args.hpp (the table of flags is
// there, in the file comment, and below in kFlags).
#include "core/kokkos_args.hpp"

#include "core/printable.hpp"

#include <Kokkos_Macros.hpp>

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <climits>
#include <cstdlib>

namespace mmapp {

namespace {

/// Kokkos 3.7 renamed --kokkos-threads (--kokkos-num-threads) and
/// --kokkos-tools-library (--kokkos-tools-libs) and started reading
/// KOKKOS_TOOLS_LIBS; 3.4.01 knows only the old names.
constexpr int kNewNames = 30700;

/// The kinds of value a flag takes.
enum class Value { none, boolean, threads, device_id, num_devices, numa, map_by, string };

/// One Kokkos flag: its spellings (the first is the newest), the spelling
/// each Kokkos generation reads (nullptr: that generation does not take it,
/// and why), and its value.
struct FlagSpec {
  std::vector<std::string> names;
  const char* old_name;  ///< Kokkos < 3.7
  const char* new_name;  ///< Kokkos >= 3.7
  Value value;
  const char* refused;   ///< why a generation that lacks it refuses it
};

const std::vector<FlagSpec>& flags() {
  static const std::vector<FlagSpec> table{
      {{"--kokkos-num-threads", "--kokkos-threads"}, "--kokkos-threads", "--kokkos-num-threads", Value::threads, ""},
      {{"--kokkos-device-id", "--kokkos-device"}, "--kokkos-device-id", "--kokkos-device-id", Value::device_id, ""},
      {{"--kokkos-num-devices", "--kokkos-ndevices"}, "--kokkos-num-devices", "--kokkos-num-devices",
       Value::num_devices, ""},
      {{"--kokkos-numa"}, "--kokkos-numa", nullptr, Value::numa, "Kokkos 4 removed NUMA regions"},
      {{"--kokkos-map-device-id-by"}, nullptr, "--kokkos-map-device-id-by", Value::map_by,
       "mmapp maps ranks to devices itself (node-local rank modulo visible GPUs)"},
      {{"--kokkos-disable-warnings"}, "--kokkos-disable-warnings", "--kokkos-disable-warnings", Value::boolean, ""},
      {{"--kokkos-tune-internals"}, "--kokkos-tune-internals", "--kokkos-tune-internals", Value::boolean, ""},
      {{"--kokkos-print-configuration"}, nullptr, "--kokkos-print-configuration", Value::boolean,
       "use mmapp --kokkos-info"},
      {{"--kokkos-tools-libs", "--kokkos-tools-library"}, "--kokkos-tools-library", "--kokkos-tools-libs",
       Value::string, ""},
      {{"--kokkos-tools-args"}, "--kokkos-tools-args", "--kokkos-tools-args", Value::string, ""},
      {{"--kokkos-tools-help"}, "--kokkos-tools-help", "--kokkos-tools-help", Value::none, ""},
      {{"--kokkos-help"}, "--kokkos-help", "--kokkos-help", Value::none, ""},
  };
  return table;
}

/// The largest host thread count accepted (Kokkos' OpenMP pool would try to
/// start every one of them).
constexpr long kMaxThreads = 65536;

/// A decimal integer in [lo, hi] ("+3" allowed; "3.0", "0x3", "" not).
bool parse_int(const std::string& s, long lo, long hi, long& out) {
  const std::size_t start = !s.empty() && s[0] == '+' ? 1 : 0;
  if (start == s.size() || s.size() > 19) return false;
  if (!std::all_of(s.begin() + static_cast<long>(start), s.end(), [](char c) { return c >= '0' && c <= '9'; }))
    return false;
  errno = 0;
  const long long v = std::strtoll(s.c_str(), nullptr, 10);
  if (errno == ERANGE || v < lo || v > hi) return false;
  out = static_cast<long>(v);
  return true;
}

/// BOOL as Kokkos 4 reads it: true/yes/on/1, false/no/off/0 (any case).
bool parse_bool(std::string s, bool& out) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  if (s == "true" || s == "yes" || s == "on" || s == "1") return out = true, true;
  if (s == "false" || s == "no" || s == "off" || s == "0") return out = false, true;
  return false;
}

std::string known_flags(int version) {
  std::string out;
  for (const auto& f : flags())
    if (const char* n = version >= kNewNames ? f.new_name : f.old_name) out += (out.empty() ? "" : ", ") + std::string(n);
  return out;
}

const FlagSpec* find_flag(const std::string& name) {
  for (const auto& f : flags())
    if (std::find(f.names.begin(), f.names.end(), name) != f.names.end()) return &f;
  return nullptr;
}

}  // namespace

int kokkos_version() { return KOKKOS_VERSION; }

std::string kokkos_version_string(int version) {
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." +
         std::to_string(version % 100);
}

bool is_kokkos_flag(const std::string& arg) { return arg.rfind("--kokkos-", 0) == 0 && arg != "--kokkos-info"; }

bool kokkos_flag_takes_value(const std::string& arg) {
  const FlagSpec* f = find_flag(arg);
  return f && f->value != Value::none && f->value != Value::boolean;
}

KokkosArgs translate_kokkos_args(const std::vector<std::string>& given, int version) {
  KokkosArgs out;
  const bool fresh = version >= kNewNames;
  const std::string kokkos = "Kokkos " + kokkos_version_string(version);
  for (const std::string& arg : given) {
    const auto eq = arg.find('=');
    const std::string name = arg.substr(0, eq);
    const bool has_value = eq != std::string::npos;
    const std::string value = has_value ? arg.substr(eq + 1) : "";
    const FlagSpec* f = find_flag(name);
    const auto fail = [&](const std::string& why) {
      out.error = printable(arg) + ": " + why;
      return out;
    };
    if (!f) return fail("unknown Kokkos flag (" + kokkos + " takes " + known_flags(version) + ")");
    const char* target = fresh ? f->new_name : f->old_name;
    if (!target)
      return fail("not taken by " + kokkos + (f->refused[0] ? std::string(" (") + f->refused + ")" : std::string()));
    std::string pass = target;  // the flag as the Kokkos in use reads it
    long n = 0;
    switch (f->value) {
      case Value::none:
        if (has_value) return fail("takes no value");
        if (f->names.front() == "--kokkos-help") out.help = true;
        break;
      case Value::boolean: {
        bool on = true;
        if (has_value && !parse_bool(value, on)) return fail("expected no value or true/false, got " + quoted(value));
        if (!on) {
          out.notes.push_back(printable(arg) + ": off, as by default (not passed to Kokkos)");
          continue;
        }
        break;
      }
      case Value::threads:
        if (!parse_int(value, 1, kMaxThreads, n))
          return fail("expected the number of host threads, an integer from 1 to " + std::to_string(kMaxThreads) +
                      ", got " + quoted(value));
        out.threads = static_cast<int>(n);
        pass += "=" + std::to_string(n);
        break;
      case Value::device_id:
        if (!parse_int(value, 0, INT_MAX, n)) return fail("expected a device id, an integer >= 0, got " + quoted(value));
        pass += "=" + std::to_string(n);
        break;
      case Value::numa:
        if (!parse_int(value, 1, INT_MAX, n))
          return fail("expected the number of NUMA regions, an integer >= 1, got " + quoted(value));
        pass += "=" + std::to_string(n);
        break;
      case Value::num_devices: {
        const auto comma = value.find(',');
        long skip = 0;
        if (!parse_int(value.substr(0, comma), 1, INT_MAX, n) ||
            (comma != std::string::npos && !parse_int(value.substr(comma + 1), 0, INT_MAX, skip)))
          return fail("expected DEVICES[,SKIP]: integers, DEVICES >= 1, SKIP >= 0, got " + quoted(value));
        pass += "=" + std::to_string(n) + (comma != std::string::npos ? "," + std::to_string(skip) : "");
        break;
      }
      case Value::map_by:
        if (value != "random" && value != "mpi_rank") return fail("expected random or mpi_rank, got " + quoted(value));
        pass += "=" + value;
        break;
      case Value::string:
        if (value.empty()) return fail("expected " + name + "=VALUE (a non-empty string)");
        pass += "=" + value;
        break;
    }
    if (name != target)
      out.notes.push_back(printable(arg) + " passed as " + printable(pass) + " (the spelling " + kokkos + " reads)");
    out.args.push_back(pass);
  }
  return out;
}

std::string check_kokkos_environment() {
  static const struct {
    const char* name;
    long lo, hi;
  } vars[] = {{"KOKKOS_NUM_THREADS", 1, kMaxThreads}, {"KOKKOS_DEVICE_ID", 0, INT_MAX}, {"KOKKOS_NUMA", 1, INT_MAX}};
  for (const auto& v : vars) {
    const char* e = std::getenv(v.name);
    long n = 0;
    if (e && !parse_int(e, v.lo, v.hi, n))
      return std::string("environment variable ") + v.name + "=" + printable(e) + ": expected an integer from " +
             std::to_string(v.lo) + " to " + std::to_string(v.hi);
  }
  return "";
}

ToolsEnv forward_kokkos_tools_libs(int version) {
  ToolsEnv t;
  if (version >= kNewNames) return t;
  const char* libs = std::getenv("KOKKOS_TOOLS_LIBS");
  if (!libs || !*libs) return t;
  const char* profile = std::getenv("KOKKOS_PROFILE_LIBRARY");
  const std::string kokkos = "Kokkos " + kokkos_version_string(version);
  if (profile && *profile) {
    if (std::string(profile) != libs)
      t.error = "KOKKOS_TOOLS_LIBS=" + printable(libs) + " and KOKKOS_PROFILE_LIBRARY=" + printable(profile) +
                " differ; " + kokkos + " reads only KOKKOS_PROFILE_LIBRARY: set one of them";
    return t;
  }
  setenv("KOKKOS_PROFILE_LIBRARY", libs, 1);
  t.note = kokkos + " reads only KOKKOS_PROFILE_LIBRARY: KOKKOS_TOOLS_LIBS=" + printable(libs) +
           " passed on as KOKKOS_PROFILE_LIBRARY";
  return t;
}

}  // namespace mmapp
