// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// config.cpp — reads a YAML input deck into a validated mmapp::Config.
//
// The pipeline is: read the file -> yaml-cpp tree -> apply the `--set`
// overrides to the tree -> validate the tree section by section into a
// Config (every default comes from the Config member initialisers) -> emit
// Config::resolved_yaml from the validated Config. Nothing here knows about
// Kokkos or MPI; checks that need the rank count (rows sum to m) or the
// compiled kernels (tile shapes) belong to the driver and the kernel registry.
//
// Messages are one line, `FILE:LINE: KEY: message` with a 1-based LINE and a
// dotted KEY (`kernels[1].tile`); a value that came from an override reads
// `--set KEY: message` instead. Only API common to yaml-cpp 0.7 and 0.8 is used.
#include "deck/config.hpp"

#include "core/printable.hpp"
#include "kernels/kernel_names.hpp"

#include <yaml-cpp/eventhandler.h>
#include <yaml-cpp/yaml.h>

#include <algorithm>
#include <cerrno>
#include <climits>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <map>
#include <set>
#include <sstream>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace mmapp {

// The message quotes deck text: keep it one printable line (found by
// tests/fuzz). Each quoted piece went through printable() already (at most
// kMaxShownChars); this is the net under all of it.
DeckError::DeckError(const std::string& what) : std::runtime_error(printable(what, kMaxMessageChars)) {}

std::string tile_label(const std::string& shape) {
  std::string out;
  for (const char c : shape) {
    if (c == ' ' || c == '\t') {
      if (!out.empty() && out.back() != ' ') out += ' ';
    } else {
      out += c;
    }
  }
  while (!out.empty() && out.back() == ' ') out.pop_back();
  return out.empty() ? "-" : out;
}

std::string Config::where(const std::string& key) const {
  const auto it = origins.find(key);
  return it != origins.end() ? it->second : printable(deck_path) + ": " + key;
}

std::string Config::prefix(const std::string& key) const {
  const std::string w = where(key);
  if (w.rfind("--set ", 0) == 0) return "--set ";
  if (w.size() >= key.size() && w.compare(w.size() - key.size(), key.size(), key) == 0)
    return w.substr(0, w.size() - key.size());
  return w + ": ";
}

const char* to_string(DType t) {
  switch (t) {
    case DType::f32: return "float";
    case DType::f64: return "double";
  }
  return "?";
}

const char* to_string(Init i) {
  switch (i) {
    case Init::random: return "random";
    case Init::identity: return "identity";
    case Init::ones: return "ones";
    case Init::closed_form: return "closed_form";
    case Init::wide: return "wide";
  }
  return "?";
}

const char* to_string(DataMode d) {
  switch (d) {
    case DataMode::scatter: return "scatter";
    case DataMode::local: return "local";
  }
  return "?";
}

const char* to_string(Overlap o) {
  switch (o) {
    case Overlap::automatic: return "auto";
    case Overlap::ibcast: return "ibcast";
    case Overlap::none: return "none";
  }
  return "?";
}

const char* to_string(MathMode m) { return m == MathMode::simt ? "simt" : "auto"; }

const char* to_string(Transfer t) {
  switch (t) {
    case Transfer::automatic: return "auto";
    case Transfer::cuda_aware: return "cuda-aware";
    case Transfer::staged: return "staged";
    case Transfer::shared: return "shared";
    case Transfer::nccl: return "nccl";
  }
  return "?";
}

namespace {

// ---------------------------------------------------------------------------
// The schema: the keys allowed in each map of the deck. Used both to reject
// unknown keys in the file and to check `--set` keys before they touch the tree.

const std::vector<std::string> kRootKeys{"problem", "kernels", "run", "verify", "output", "parallel"};
const std::vector<std::string> kProblemKeys{"n", "m", "k", "sizes", "dtype", "init", "seed"};
const std::vector<std::string> kRunKeys{"warmup",          "repetitions",     "backend",      "rotate_inputs",
                                        "noise_threshold", "until_stable",    "math"};
const std::vector<std::string> kUntilStableKeys{"max_cv", "max_seconds", "max_repetitions"};
const std::vector<std::string> kVerifyKeys{"enabled", "tolerance", "accuracy"};
const std::vector<std::string> kOutputKeys{"report"};
const std::vector<std::string> kParallelKeys{"decomposition", "data", "share_devices"};
const std::vector<std::string> kDecompositionKeys{"rows", "weights", "calibration_n", "grid", "panel", "overlap",
                                                  "transfer"};
/// The keys of a grid decomposition besides `grid` itself.
const std::vector<std::string> kGridOnlyKeys{"panel", "overlap", "transfer"};
const std::vector<std::string> kKernelKeys{"name", "tile", "thread_tile", "prefetch", "variant"};
const std::vector<std::string> kSizeKeys{"m", "n", "k"};

/// The single-device kernels (kernels/kernel_names.hpp, the catalog's names)
/// and `scalapack` (grid decks only: SUMMA's yardstick).
const std::vector<std::string> kKernelNames = [] {
  std::vector<std::string> names = kernel_names();
  names.push_back("scalapack");
  return names;
}();
const std::vector<std::string> kDefaultKernels{"naive", "tiled", "vendor"};
const std::vector<std::string> kDTypeNames{"float", "double"};
const std::vector<std::string> kInitNames{"random", "identity", "ones", "closed_form", "wide"};  // Init's order
const std::vector<std::string> kBackendNames{"serial", "openmp", "cuda"};
const std::vector<std::string> kDataNames{"scatter", "local"};
const std::vector<std::string> kMathNames{"auto", "simt"};  // MathMode's order
const std::vector<std::string> kOverlapNames{"auto", "ibcast", "none"};
const std::vector<std::string> kTransferNames{"auto", "cuda-aware", "staged", "shared", "nccl"};

/// The allowed keys of the map at dotted `path` ("" is the root), or nullptr
/// when `path` is not a map in the schema (a scalar, or the `kernels` list).
const std::vector<std::string>* schema_keys(const std::string& path) {
  if (path.empty()) return &kRootKeys;
  if (path == "problem") return &kProblemKeys;
  if (path == "run") return &kRunKeys;
  if (path == "run.until_stable") return &kUntilStableKeys;
  if (path == "verify") return &kVerifyKeys;
  if (path == "output") return &kOutputKeys;
  if (path == "parallel") return &kParallelKeys;
  if (path == "parallel.decomposition") return &kDecompositionKeys;
  return nullptr;
}

}  // namespace

std::vector<std::string> deck_keys() {
  std::vector<std::string> keys;
  const auto add = [&keys](const std::string& prefix, const std::vector<std::string>& names) {
    for (const auto& name : names) keys.push_back(prefix + name);
  };
  for (const auto& section : kRootKeys) {
    keys.push_back(section);
    if (const auto* inner = schema_keys(section)) add(section + ".", *inner);
    if (section == "kernels") add("kernels[].", kKernelKeys);
  }
  add("problem.sizes[].", kSizeKeys);
  add("parallel.decomposition.", kDecompositionKeys);
  return keys;
}

namespace {

// ---------------------------------------------------------------------------
// Small string helpers.

std::string join(const std::vector<std::string>& items, const char* sep = ", ") {
  std::string out;
  for (std::size_t i = 0; i < items.size(); ++i) {
    if (i) out += sep;
    out += items[i];
  }
  return out;
}

std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diag = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diag + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diag = up;
    }
  }
  return row[b.size()];
}

/// "; did you mean 'x'?" for the closest candidate within edit distance 2
/// (ties: the first in schema order), otherwise "; expected one of a, b, c".
std::string suggestion(const std::string& got, const std::vector<std::string>& candidates) {
  const std::string* best = nullptr;
  std::size_t best_d = 3;
  for (const auto& c : candidates) {
    const std::size_t d = edit_distance(got, c);
    if (d < best_d) {
      best_d = d;
      best = &c;
    }
  }
  if (best) return "; did you mean '" + *best + "'?";
  return "; expected one of " + join(candidates);
}

bool starts_with(const std::string& s, const std::string& prefix) {
  return s.compare(0, prefix.size(), prefix) == 0;
}

std::string trim(const std::string& s) {
  const auto b = s.find_first_not_of(" \t");
  if (b == std::string::npos) return "";
  const auto e = s.find_last_not_of(" \t");
  return s.substr(b, e - b + 1);
}

/// Shortest decimal text that reads back as exactly `v`.
std::string format_double(double v) {
  char buf[64];
  for (int precision = 1; precision <= 17; ++precision) {
    std::snprintf(buf, sizeof buf, "%.*g", precision, v);
    if (std::strtod(buf, nullptr) == v) break;
  }
  return buf;
}

/// How a node reads in a message: 'text' for a scalar, else its kind.
std::string describe(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Scalar: return quoted(node.Scalar());
    case YAML::NodeType::Sequence: return "a list";
    case YAML::NodeType::Map: return "a map";
    default: return "nothing";
  }
}

// ---------------------------------------------------------------------------
// Validation.

/// A node under validation: its value, its dotted path and where it is.
/// `mark` is the key's position for a map entry (so an empty value or a
/// block list still points at the line of its key) and the item's own
/// position for a list item.
struct Field {
  YAML::Node node;
  std::string path;
  YAML::Mark mark;
};

/// Validates a yaml-cpp tree into a Config. One instance per parse.
class DeckParser {
 public:
  /// The dotted key an override set and the flag that set it ("" for `--set`).
  struct OverrideOrigin {
    std::string path, flag;
  };

  /// `name` prefixes messages; `overrides` are the dotted keys set on the
  /// command line: a message about a key at or under one of them reads
  /// `--set KEY:` (or `FLAG:` for a key a flag set, e.g. `--report:`).
  DeckParser(std::string name, std::vector<OverrideOrigin> overrides)
      : name_(std::move(name)), overrides_(std::move(overrides)) {}

  Config parse(const YAML::Node& root) {
    Config cfg;
    cfg.deck_path = name_;
    const Field root_field{root, "", root.Mark()};
    if (!root.IsMap()) fail(root_field, "expected a map of sections (" + join(kRootKeys) + "), got " + describe(root));
    const Section top = section(root_field);
    parse_problem(top, cfg);
    parse_kernels(top, cfg);
    parse_run(top, cfg);
    parse_verify(top, cfg);
    parse_output(top, cfg);
    parse_parallel(top, cfg);
    check_scalapack_needs_grid(top, cfg);
    check_accuracy_needs_row_split(top, cfg);
    cfg.notes = notes_;
    cfg.origins.insert(origins_.begin(), origins_.end());
    return cfg;
  }

 private:
  /// The entries of one map, after the unknown-key and duplicate-key checks.
  struct Section {
    Field self;
    std::vector<std::pair<std::string, Field>> entries;

    const Field* find(const std::string& key) const {
      for (const auto& e : entries)
        if (e.first == key) return &e.second;
      return nullptr;
    }
    bool has(const std::string& key) const { return find(key) != nullptr; }
  };

  std::string name_;
  std::vector<OverrideOrigin> overrides_;
  mutable std::vector<std::string> notes_;  ///< Config::notes (deprecated spellings accepted)
  mutable std::map<std::string, std::string> origins_;  ///< Config::origins

  /// The last override that set `path` or a key above it, or nullptr.
  const OverrideOrigin* override_of(const std::string& path) const {
    const OverrideOrigin* found = nullptr;
    for (const auto& o : overrides_)
      if (path == o.path || starts_with(path, o.path + ".") || starts_with(path, o.path + "[")) found = &o;
    return found;
  }
  bool from_override(const std::string& path) const { return override_of(path) != nullptr; }

  /// Where `path` was given, as a message's start: `NAME:LINE: PATH` (no
  /// LINE when `mark` is null, as for a map that an override created),
  /// `--set PATH` when PATH is at or under a key set by `--set`, or the flag
  /// that set it (`--report`).
  std::string where_at(const std::string& path, const YAML::Mark& mark) const {
    if (const OverrideOrigin* o = path.empty() ? nullptr : override_of(path))
      return o->flag.empty() ? "--set " + printable(path) : o->flag;
    std::string where = printable(name_);
    if (mark.line >= 0) where += ":" + std::to_string(mark.line + 1);
    return path.empty() ? where : where + ": " + printable(path);
  }
  std::string where(const Field& f) const { return where_at(f.path, f.mark); }

  /// Throws `WHERE: msg` (where_at).
  [[noreturn]] void fail_at(const std::string& path, const YAML::Mark& mark, const std::string& msg) const {
    throw DeckError(where_at(path, mark) + ": " + msg);
  }
  [[noreturn]] void fail(const Field& f, const std::string& msg) const { fail_at(f.path, f.mark, msg); }

  static std::string child_path(const std::string& parent, const std::string& key) {
    return parent.empty() ? key : parent + "." + key;
  }
  static Field item(const Field& list, const YAML::Node& node, std::size_t i) {
    return Field{node, list.path + "[" + std::to_string(i) + "]", node.Mark()};
  }

  /// The map at `f` with keys checked against `allowed` (default: the
  /// schema's keys for f.path). An empty value (`run:` alone) is an empty map.
  Section section(const Field& f, const std::vector<std::string>* allowed = nullptr) const {
    if (!allowed) allowed = schema_keys(f.path);
    Section s{f, {}};
    if (f.node.IsNull()) return s;
    if (!f.node.IsMap()) fail(f, "expected a map with keys " + join(*allowed) + ", got " + describe(f.node));
    std::set<std::string> seen;
    for (auto it = f.node.begin(); it != f.node.end(); ++it) {
      const YAML::Node key = it->first;
      if (!key.IsScalar()) fail_at(f.path, key.Mark(), "expected a key name, got " + describe(key));
      const std::string k = key.Scalar();
      const Field child{it->second, child_path(f.path, k), key.Mark()};
      if (std::find(allowed->begin(), allowed->end(), k) == allowed->end())
        fail(child, "unknown key" + suggestion(k, *allowed));
      if (!seen.insert(k).second) fail(child, "duplicate key");
      s.entries.emplace_back(k, child);
    }
    return s;
  }

  const YAML::Node& scalar(const Field& f, const std::string& expected) const {
    if (!f.node.IsScalar()) fail(f, "expected " + expected + ", got " + describe(f.node));
    return f.node;
  }

  /// A decimal integer in [lo, hi]; "1.5", "abc", "true", "0x10" are rejected.
  long long integer(const Field& f, long long lo, long long hi) const {
    std::string expected = "an integer >= " + std::to_string(lo);
    const std::string text = scalar(f, expected).Scalar();
    std::size_t i = (!text.empty() && (text[0] == '+' || text[0] == '-')) ? 1 : 0;
    const bool digits = i < text.size() && std::all_of(text.begin() + static_cast<long>(i), text.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
    errno = 0;
    const long long v = digits ? std::strtoll(text.c_str(), nullptr, 10) : 0;
    if (digits && errno != ERANGE && v > hi) expected += " and <= " + std::to_string(hi);
    if (!digits || errno == ERANGE || v < lo || v > hi) fail(f, "expected " + expected + ", got " + describe(f.node));
    return v;
  }

  std::uint64_t unsigned_integer(const Field& f) const {
    const std::string expected = "an integer >= 0";
    const std::string text = scalar(f, expected).Scalar();
    const std::size_t i = (!text.empty() && text[0] == '+') ? 1 : 0;
    const bool digits = i < text.size() && std::all_of(text.begin() + static_cast<long>(i), text.end(),
                                                       [](char c) { return c >= '0' && c <= '9'; });
    errno = 0;
    const unsigned long long v = digits ? std::strtoull(text.c_str(), nullptr, 10) : 0;
    if (!digits || errno == ERANGE) fail(f, "expected " + expected + " and < 2^64, got " + describe(f.node));
    return v;
  }

  /// A finite decimal number > 0 ("3", "0.5", "1e-3"; not ".inf", "0x1p3").
  double positive_number(const Field& f) const {
    const std::string expected = "a number > 0";
    const std::string text = scalar(f, expected).Scalar();
    const char* s = text.c_str();
    if (*s == '+' || *s == '-') ++s;
    const bool ok_chars = *s != '\0' && std::all_of(s, text.c_str() + text.size(), [](char c) {
      return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    });
    char* end = nullptr;
    const double v = ok_chars ? std::strtod(text.c_str(), &end) : 0.0;
    if (!ok_chars || end != text.c_str() + text.size() || !std::isfinite(v) || !(v > 0))
      fail(f, "expected " + expected + ", got " + describe(f.node));
    return v;
  }

  /// A fraction in (0, 1] ("0.05"), or a percentage in (0, 100] ("5%").
  double fraction(const Field& f) const {
    const std::string expected = "a fraction in (0, 1] (0.05) or a percentage ('5%')";
    const std::string text = scalar(f, expected).Scalar();
    const bool pct = !text.empty() && text.back() == '%';
    const std::string digits = pct ? text.substr(0, text.size() - 1) : text;
    const bool ok_chars = !digits.empty() && std::all_of(digits.begin(), digits.end(), [](char c) {
      return (c >= '0' && c <= '9') || c == '.' || c == 'e' || c == 'E' || c == '+' || c == '-';
    });
    char* end = nullptr;
    double v = ok_chars ? std::strtod(digits.c_str(), &end) : 0.0;
    if (!ok_chars || end != digits.c_str() + digits.size() || !std::isfinite(v))
      fail(f, "expected " + expected + ", got " + describe(f.node));
    if (pct) v /= 100.0;
    if (!(v > 0) || v > 1) fail(f, "expected " + expected + ", got " + describe(f.node));
    return v;
  }

  bool boolean(const Field& f) const {
    bool b = false;
    if (!f.node.IsScalar() || !YAML::convert<bool>::decode(f.node, b))
      fail(f, "expected true or false, got " + describe(f.node));
    return b;
  }

  /// The index in `names` of the scalar at `f`; `what` names the value in
  /// messages ("unknown dtype 'half'; expected one of float, double").
  std::size_t choice(const Field& f, const std::vector<std::string>& names, const std::string& what) const {
    const std::string text = scalar(f, "one of " + join(names)).Scalar();
    const auto it = std::find(names.begin(), names.end(), text);
    if (it == names.end()) fail(f, "unknown " + what + " " + quoted(text) + suggestion(text, names));
    return static_cast<std::size_t>(it - names.begin());
  }

  /// The items of a non-empty list at `f`; with `allow_scalar`, a scalar is a list of one.
  std::vector<Field> list(const Field& f, const std::string& what, bool allow_scalar) const {
    std::vector<Field> out;
    if (allow_scalar && f.node.IsScalar()) {
      out.push_back(f);
      return out;
    }
    if (!f.node.IsSequence() || f.node.size() == 0)
      fail(f, "expected " + std::string(allow_scalar ? "a value or " : "") + "a non-empty list of " + what + ", got " +
                  (f.node.IsSequence() ? std::string("an empty list") : describe(f.node)));
    std::size_t i = 0;
    for (const auto& n : f.node) out.push_back(item(f, n, i++));
    return out;
  }

  // -- problem: --------------------------------------------------------------

  static constexpr long long kMaxExtent = (1LL << 62);

  /// A matrix dimension: an integer in [1, INT_MAX]. cuBLAS, the BLAS (LP64)
  /// and MPI counts take `int`, and mmapp's kernels index with `int` within
  /// a dimension, so a larger value is refused here, before anything is
  /// allocated, rather than truncated later.
  long dimension(const Field& f) const {
    const long long v = integer(f, 1, LLONG_MAX);
    if (v > INT_MAX)
      fail(f, std::to_string(v) + " exceeds " + std::to_string(INT_MAX) +
                  ", the largest dimension cuBLAS and BLAS accept (their dimensions and MPI counts are int)");
    return static_cast<long>(v);
  }

  /// One size from a map with n alone (square) or m, n and k (rectangular).
  ProblemSize size_from(const Section& s) const {
    const Field* m = s.find("m");
    const Field* n = s.find("n");
    const Field* k = s.find("k");
    ProblemSize p;
    if (!m && !k) {
      if (!n)
        fail_at(child_path(s.self.path, "n"), s.self.mark,
                "missing required key " + child_path(s.self.path, "n") + " (give n alone for a square problem, " +
                    "m, n and k for a rectangular one" + (s.self.path == "problem" ? ", or sizes for a sweep)" : ")"));
      p.m = p.n = p.k = dimension(*n);
    } else {
      for (const char* key : {"m", "n", "k"})
        if (!s.has(key))
          fail_at(child_path(s.self.path, key), s.self.mark,
                  "missing required key " + child_path(s.self.path, key) + " (" +
                      child_path(s.self.path, m ? "m" : "k") +
                      " is given, so m, n and k are all required; or give n alone for a square problem)");
      p.m = dimension(*m);
      p.n = dimension(*n);
      p.k = dimension(*k);
    }
    const auto too_big = [](long long a, long long b) { return a > kMaxExtent / b; };
    if (too_big(p.m, p.k) || too_big(p.k, p.n) || too_big(p.m, p.n))
      fail(m || k ? s.self : *n, "m*k, k*n or m*n exceeds 2^62 elements (m = " + std::to_string(p.m) +
                                     ", n = " + std::to_string(p.n) + ", k = " + std::to_string(p.k) + ")");
    return p;
  }

  void parse_problem(const Section& top, Config& cfg) const {
    const Field* pf = top.find("problem");
    const Field missing{YAML::Node(YAML::NodeType::Null), "problem", YAML::Mark::null_mark()};
    const Section s = section(pf ? *pf : missing);

    if (const Field* sizes = s.find("sizes")) {
      for (const char* key : {"m", "n", "k"})
        if (const Field* other = s.find(key))
          fail(*other, "exclusive with problem.sizes; give either problem.sizes or problem.n (m, n, k)");
      for (const Field& it : list(*sizes, "sizes (integers or maps {m, n, k})", false)) {
        if (it.node.IsMap()) {
          cfg.sizes.push_back(size_from(section(it, &kSizeKeys)));
        } else if (it.node.IsScalar()) {
          cfg.sizes.push_back(size_from(Section{it, {{"n", it}}}));
        } else {
          fail(it, "expected an integer >= 1 or a map {m, n, k}, got " + describe(it.node));
        }
      }
    } else {
      cfg.sizes.push_back(size_from(s));
    }

    if (const Field* f = s.find("dtype")) {
      cfg.dtypes.clear();
      for (const Field& it : list(*f, "dtypes", true)) {
        const DType t = choice(it, kDTypeNames, "dtype") == 0 ? DType::f32 : DType::f64;
        if (std::find(cfg.dtypes.begin(), cfg.dtypes.end(), t) != cfg.dtypes.end())
          fail(it, std::string("duplicate dtype '") + to_string(t) + "'");
        cfg.dtypes.push_back(t);
      }
    }
    if (const Field* f = s.find("init")) {
      cfg.init = static_cast<Init>(choice(*f, kInitNames, "init"));
      if (cfg.init == Init::identity)
        for (std::size_t i = 0; i < cfg.sizes.size(); ++i)
          if (cfg.sizes[i].k != cfg.sizes[i].n)
            fail(*f, "identity sets B = I, which needs k == n, but " +
                         (cfg.sizes.size() > 1 ? "problem.sizes[" + std::to_string(i) + "]" : std::string("the problem")) +
                         " has k = " + std::to_string(cfg.sizes[i].k) + ", n = " + std::to_string(cfg.sizes[i].n));
    }
    if (const Field* f = s.find("seed")) cfg.seed = unsigned_integer(*f);
    // Exact inits in float: every partial sum is an integer <= k in magnitude,
    // exact only up to 2^24; beyond, the "exact" answer is not what float gives.
    if (const Field* f = s.find("init"); f && (cfg.init == Init::ones || cfg.init == Init::closed_form) &&
                                         std::find(cfg.dtypes.begin(), cfg.dtypes.end(), DType::f32) != cfg.dtypes.end())
      for (std::size_t i = 0; i < cfg.sizes.size(); ++i)
        if (cfg.sizes[i].k > kMaxExactFloatK)
          fail(*f, std::string(to_string(cfg.init)) + " is exact in float only for k <= " +
                       std::to_string(kMaxExactFloatK) + " (2^24), but " +
                       (cfg.sizes.size() > 1 ? "problem.sizes[" + std::to_string(i) + "]" : std::string("the problem")) +
                       " has k = " + std::to_string(cfg.sizes[i].k) + "; use dtype double or init random");
  }

  static constexpr long kMaxExactFloatK = 1L << 24;

  // -- kernels: --------------------------------------------------------------

  /// Exactly `count` integers >= 1 from the list at `f`; `form` documents the
  /// expected shape in the message ("[block_m, block_n, block_k]").
  std::vector<int> tile_values(const Field& f, std::size_t count, const std::string& kernel, const char* form) const {
    if (!f.node.IsSequence() || f.node.size() != count)
      fail(f, kernel + " takes " + f.path.substr(f.path.rfind('.') + 1) + ": " + form + " (" + std::to_string(count) +
                  (count == 1 ? " positive integer" : " positive integers") + "), got " +
                  (f.node.IsSequence() ? std::to_string(f.node.size()) + (f.node.size() == 1 ? " value" : " values")
                                       : describe(f.node)));
    std::vector<int> out;
    std::size_t i = 0;
    for (const auto& n : f.node) out.push_back(static_cast<int>(integer(item(f, n, i++), 1, INT_MAX)));
    return out;
  }

  /// A kernel's name: one of kKernelNames, or the deprecated alias
  /// `kokkoskernels` of `vendor` (accepted, with a note in Config::notes).
  std::string kernel_name(const Field& f) const {
    if (f.node.IsScalar() && f.node.Scalar() == kDeprecatedVendorName) {
      notes_.push_back(where(f) + ": '" + kDeprecatedVendorName + "' is the deprecated name of 'vendor' (use vendor)");
      return "vendor";
    }
    return kKernelNames[choice(f, kKernelNames, "kernel")];
  }

  /// One `kernels:` entry: a name, or a map {name, tile, thread_tile} whose
  /// tile keys must fit the kernel (whether the shape was compiled is the
  /// kernel registry's check). line: the entry's 1-based line, 0 if it came
  /// from an override.
  KernelSpec kernel(const Field& f) const {
    KernelSpec spec;
    spec.line = (from_override(f.path) || f.mark.line < 0) ? 0 : f.mark.line + 1;
    spec.where = where(f);
    if (f.node.IsScalar()) {
      spec.name = kernel_name(f);
      return spec;
    }
    if (!f.node.IsMap())
      fail(f, "expected a kernel name (" + join(kKernelNames) + ") or a map {name, tile, thread_tile, prefetch}, got " +
                  describe(f.node));
    const Section s = section(f, &kKernelKeys);
    const Field* name = s.find("name");
    if (!name) fail_at(f.path + ".name", f.mark, "missing required key " + f.path + ".name");
    spec.name = kernel_name(*name);
    const Field* tile = s.find("tile");
    const Field* thread_tile = s.find("thread_tile");
    const Field* prefetch = s.find("prefetch");
    if (prefetch && spec.name != "tiled") fail(*prefetch, spec.name + " takes no prefetch (tiled only)");
    if (prefetch) spec.prefetch = boolean(*prefetch) ? 1 : 0;
    const Field* variant = s.find("variant");
    if (variant && spec.name != "tiled") fail(*variant, spec.name + " takes no variant (tiled only)");
    if (variant) spec.variant = scalar(*variant, "a variant tag as printed in the table (e.g. 'w32x64 1st vec sw8 lb2')").Scalar();
    if (tile && tile->node.IsScalar() && tile->node.Scalar() != "auto") {
      // A label as printed by the table, the report and --list: which
      // variant it names is the kernel catalog's (driver/resolve_kernel.hpp).
      for (const Field* other : {thread_tile, prefetch, variant})
        if (other)
          fail(*other, "exclusive with a tile label (tile: " + quoted(tile->node.Scalar()) +
                           " names one variant whole)");
      spec.label = tile_label(tile->node.Scalar());
      return spec;
    }
    if (tile && tile->node.IsScalar() && tile->node.Scalar() == "auto") {
      if (spec.name != "tiled" && spec.name != "shared")
        fail(*tile, spec.name + " takes no tile (tile: auto is for tiled and shared)");
      if (thread_tile) fail(*thread_tile, "exclusive with tile: auto (which tries every compiled shape)");
      if (prefetch) fail(*prefetch, "exclusive with tile: auto (which tries every compiled shape)");
      if (variant) fail(*variant, "exclusive with tile: auto (which tries every compiled shape)");
      spec.tile_auto = true;
      return spec;
    }
    if (spec.name == "tiled") {
      if (tile) spec.tile = tile_values(*tile, 3, spec.name, "[block_m, block_n, block_k], auto or a label as --list prints it");
      if (thread_tile) spec.thread_tile = tile_values(*thread_tile, 2, spec.name, "[thread_m, thread_n]");
    } else if (spec.name == "shared") {
      if (tile) spec.tile = tile_values(*tile, 1, spec.name, "[T], auto or a label as --list prints it");
      if (thread_tile) fail(*thread_tile, "shared takes no thread_tile (only tile: [T])");
    } else {
      if (tile) fail(*tile, spec.name + " takes no tile");
      if (thread_tile) fail(*thread_tile, spec.name + " takes no thread_tile");
    }
    return spec;
  }

  /// `scalapack` is the distributed ScaLAPACK p?gemm: it needs a process grid.
  void check_scalapack_needs_grid(const Section& top, const Config& cfg) const {
    const Field* f = top.find("kernels");
    if (!f || cfg.decomposition.kind == SplitKind::grid) return;
    const std::vector<Field> items = list(*f, "kernels", true);
    for (std::size_t i = 0; i < items.size() && i < cfg.kernels.size(); ++i)
      if (cfg.kernels[i].name == "scalapack")
        fail(items[i], "scalapack is ScaLAPACK's distributed p?gemm and needs a process grid "
                       "(parallel.decomposition: {grid: [p, q] | auto}); the row split runs local kernels only");
  }

  void parse_kernels(const Section& top, Config& cfg) const {
    const Field* f = top.find("kernels");
    if (!f) {
      for (const auto& name : kDefaultKernels) {
        KernelSpec spec;
        spec.name = name;
        cfg.kernels.push_back(spec);
      }
      return;
    }
    for (const Field& it : list(*f, "kernels", true)) cfg.kernels.push_back(kernel(it));
  }

  // -- run:, verify:, output: -----------------------------------------------

  void parse_run(const Section& top, Config& cfg) const {
    const Field* f = top.find("run");
    if (!f) return;
    const Section s = section(*f);
    if (const Field* w = s.find("warmup")) cfg.warmup = static_cast<int>(integer(*w, 0, INT_MAX));
    if (const Field* r = s.find("repetitions")) cfg.repetitions = static_cast<int>(integer(*r, 1, INT_MAX));
    if (const Field* b = s.find("backend")) {
      cfg.origins["run.backend"] = where(*b);
      if (b->node.IsScalar() && b->node.Scalar() == "default") {
        cfg.backend.clear();
      } else {
        for (const Field& it : list(*b, "backends (one per rank)", true))
          cfg.backend.push_back(kBackendNames[choice(it, kBackendNames, "backend")]);
      }
    }
    if (const Field* r = s.find("rotate_inputs")) cfg.rotate_inputs = boolean(*r);
    if (const Field* t = s.find("noise_threshold")) cfg.noise_threshold = fraction(*t);
    if (const Field* u = s.find("until_stable")) parse_until_stable(*u, cfg);
    if (const Field* m = s.find("math")) {
      cfg.origins["run.math"] = where(*m);
      cfg.math = static_cast<MathMode>(choice(*m, kMathNames, "math mode"));
    }
  }

  /// run.until_stable: false (off; also null), true (on with the defaults)
  /// or a map {max_cv, max_seconds, max_repetitions} (on; keys left out keep
  /// their defaults). max_repetitions must be >= run.repetitions.
  void parse_until_stable(const Field& f, Config& cfg) const {
    auto& u = cfg.until_stable;
    if (f.node.IsNull()) {
      u.enabled = false;
      return;
    }
    if (f.node.IsScalar()) {
      bool b = false;
      if (!YAML::convert<bool>::decode(f.node, b))
        fail(f, "expected false, true or a map {max_cv, max_seconds, max_repetitions}, got " + describe(f.node));
      u.enabled = b;
      return;
    }
    const Section s = section(f);
    u.enabled = true;
    if (const Field* c = s.find("max_cv")) u.max_cv = fraction(*c);
    if (const Field* t = s.find("max_seconds")) u.max_seconds = positive_number(*t);
    if (const Field* r = s.find("max_repetitions")) {
      u.max_repetitions = integer(*r, 1, INT_MAX);
      if (u.max_repetitions < cfg.repetitions)
        fail(*r, "expected an integer >= run.repetitions (" + std::to_string(cfg.repetitions) + "), got " +
                     describe(r->node));
    }
  }

  void parse_verify(const Section& top, Config& cfg) const {
    const Field* f = top.find("verify");
    if (!f) return;
    const Section s = section(*f);
    if (const Field* e = s.find("enabled")) cfg.verify = boolean(*e);
    if (const Field* t = s.find("tolerance")) cfg.tolerance = positive_number(*t);
    if (const Field* a = s.find("accuracy")) cfg.accuracy = boolean(*a);
  }

  /// verify.accuracy: true needs the row split: on a process grid a rank's
  /// block of C needs rows of A and columns of B that it does not hold
  /// (check/accuracy.hpp).
  void check_accuracy_needs_row_split(const Section& top, const Config& cfg) const {
    if (!cfg.accuracy || cfg.decomposition.kind != SplitKind::grid) return;
    const Section verify = section(*top.find("verify"));
    fail(*verify.find("accuracy"), "the FP64 reference (true) needs the row split; on a process grid (parallel.decomposition: "
             "{grid: ...}) a rank holds blocks of A and B only: set it false or use a row split");
  }

  void parse_output(const Section& top, Config& cfg) const {
    const Field* f = top.find("output");
    if (!f) return;
    const Section s = section(*f);
    if (const Field* r = s.find("report")) {
      if (r->node.IsNull()) cfg.report_path.clear();
      else cfg.report_path = scalar(*r, "a file path (or \"\" for no report)").Scalar();
    }
  }

  // -- parallel: -------------------------------------------------------------

  /// `even`, or a map with exactly one of rows / weights / grid;
  /// calibration_n only with `weights: auto`; panel, overlap and transfer
  /// only with grid. The per-rank checks (list length == ranks, rows sum to
  /// m, p x q == ranks) need the rank count and belong to split_rows() and
  /// resolve_grid().
  void parse_decomposition(const Field& f, Decomposition& d) const {
    const std::string expected = "expected even, {rows: [...]}, {weights: [...]}, {weights: auto} or {grid: [p, q] | auto, panel: NB}, got ";
    if (f.node.IsScalar()) {
      if (f.node.Scalar() != "even") fail(f, expected + describe(f.node));
      d.kind = SplitKind::even;
      return;
    }
    if (!f.node.IsMap()) fail(f, expected + describe(f.node));
    const Section s = section(f);
    const Field* rows = s.find("rows");
    const Field* weights = s.find("weights");
    const Field* calibration = s.find("calibration_n");
    const Field* grid = s.find("grid");
    for (const Field* k : {rows, weights, calibration})
      if (k) origins_[k->path] = where(*k);
    if (grid) {
      for (const char* other : {"rows", "weights", "calibration_n"})
        if (const Field* o = s.find(other))
          fail(*o, "exclusive with parallel.decomposition.grid (a process grid distributes every matrix in 2-D "
                   "blocks; rows and weights are for the row split); give one of them");
      parse_grid(*grid, s, d);
      return;
    }
    for (const auto& key : kGridOnlyKeys)
      if (const Field* g = s.find(key)) fail(*g, "only with parallel.decomposition.grid (the SUMMA process grid)");
    if (rows && weights) fail(*weights, "exclusive with parallel.decomposition.rows; give one of them");
    if (!rows && !weights)
      fail(f, "expected a key rows, weights or grid (or use decomposition: even)");
    if (rows) {
      d.kind = SplitKind::rows;
      for (const Field& it : list(*rows, "row counts (one per rank)", false)) d.rows.push_back(integer(it, 0, INT_MAX));
      if (std::all_of(d.rows.begin(), d.rows.end(), [](long r) { return r == 0; }))
        fail(*rows, "at least one rank needs rows > 0");
    } else if (weights->node.IsScalar() && weights->node.Scalar() == "auto") {
      d.kind = SplitKind::auto_weights;
      if (calibration) d.calibration_n = dimension(*calibration);
    } else {
      d.kind = SplitKind::weights;
      for (const Field& it : list(*weights, "weights > 0 (one per rank), or auto", false))
        d.weights.push_back(positive_number(it));
    }
    if (calibration && d.kind != SplitKind::auto_weights)
      fail(*calibration, "only with parallel.decomposition.weights: auto");
  }

  /// `grid: [p, q]` (integers >= 1) or `grid: auto`, with the optional
  /// panel (an integer >= 1), overlap and transfer of the same map.
  void parse_grid(const Field& grid, const Section& s, Decomposition& d) const {
    d.kind = SplitKind::grid;
    // grid_where is a prefix that the key's path follows ("FILE:LINE: "), or the flag.
    if (const OverrideOrigin* o = override_of(grid.path))
      d.grid_where = o->flag.empty() ? "--set " : o->flag + ": ";
    else
      d.grid_where = printable(name_) + (grid.mark.line >= 0 ? ":" + std::to_string(grid.mark.line + 1) : "") + ": ";
    if (grid.node.IsScalar() && grid.node.Scalar() == "auto") {
      d.grid_p = d.grid_q = 0;
    } else {
      if (!grid.node.IsSequence() || grid.node.size() != 2)
        fail(grid, "expected [p, q] (process rows, process columns; integers >= 1) or auto, got " +
                       (grid.node.IsSequence() ? std::to_string(grid.node.size()) + " values" : describe(grid.node)));
      std::size_t i = 0;
      int pq[2] = {1, 1};
      for (const auto& n : grid.node) {
        pq[i] = static_cast<int>(integer(item(grid, n, i), 1, INT_MAX));
        ++i;
      }
      d.grid_p = pq[0], d.grid_q = pq[1];
    }
    if (const Field* p = s.find("panel")) d.panel = static_cast<long>(integer(*p, 1, INT_MAX));
    if (const Field* o = s.find("overlap")) d.overlap = static_cast<Overlap>(choice(*o, kOverlapNames, "overlap"));
    if (const Field* t = s.find("transfer"))
      d.transfer = static_cast<Transfer>(choice(*t, kTransferNames, "transfer"));
  }

  void parse_parallel(const Section& top, Config& cfg) const {
    const Field* f = top.find("parallel");
    if (!f) return;
    const Section s = section(*f);
    if (const Field* d = s.find("decomposition")) {
      cfg.origins["parallel.decomposition"] = where(*d);
      parse_decomposition(*d, cfg.decomposition);
    }
    if (const Field* d = s.find("data")) cfg.data_mode = static_cast<DataMode>(choice(*d, kDataNames, "data mode"));
    if (const Field* d = s.find("share_devices")) cfg.share_devices = boolean(*d);
  }
};

// ---------------------------------------------------------------------------
// Overrides.

[[noreturn]] void override_error(const std::string& key, const std::string& msg) {
  throw DeckError("--set " + printable(key) + ": " + msg);
}

/// Keys that exclude one another: setting one through `--set` removes the
/// others from its map, so the override wins over the deck.
std::vector<std::string> displaced_by(const std::string& path, const YAML::Node& value) {
  if (path == "problem.n" || path == "problem.m" || path == "problem.k") return {"sizes"};
  if (path == "problem.sizes") return {"m", "n", "k"};
  if (path == "parallel.decomposition.rows") return {"weights", "calibration_n", "grid", "panel", "overlap", "transfer"};
  if (path == "parallel.decomposition.weights") {
    if (value.IsScalar() && value.Scalar() == "auto") return {"rows", "grid", "panel", "overlap", "transfer"};
    return {"rows", "calibration_n", "grid", "panel", "overlap", "transfer"};
  }
  if (path == "parallel.decomposition.grid") return {"rows", "weights", "calibration_n"};
  return {};
}

/// Sets `value` at keys[i..] under `map`, creating (or replacing with) maps
/// on the way. yaml-cpp Nodes are handles: `Node a = b` copies the handle,
/// whereas assigning to an existing handle rebinds the node in the tree, so
/// every level gets a fresh handle.
void set_in(YAML::Node map, const std::vector<std::string>& keys, std::size_t i, const std::string& path,
            const YAML::Node& value) {
  const std::string& key = keys[i];
  if (i + 1 == keys.size()) {
    for (const auto& other : displaced_by(path, value)) map.remove(other);
    map[key] = value;
    return;
  }
  if (!map[key].IsMap()) map[key] = YAML::Node(YAML::NodeType::Map);
  set_in(map[key], keys, i + 1, path, value);
}

/// Applies one "key=value" override to `root` and returns its dotted key.
std::string apply_override(YAML::Node& root, const std::string& text) {
  const auto eq = text.find('=');
  if (eq == std::string::npos)
    override_error(trim(text), "expected KEY=VALUE (e.g. --set problem.n=4096), got " + quoted(text));
  const std::string key = trim(text.substr(0, eq));
  const std::string value_text = text.substr(eq + 1);
  if (key.empty()) override_error(key, "expected KEY=VALUE (e.g. --set problem.n=4096), got " + quoted(text));

  std::vector<std::string> keys;
  std::string path;
  std::size_t start = 0;
  while (true) {
    const auto dot = key.find('.', start);
    const std::string seg = key.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
    if (seg.empty()) override_error(key, "empty key name in a dotted key");
    const std::vector<std::string>* allowed = schema_keys(path);
    if (!allowed) {
      if (path == "kernels")
        override_error(key, "kernels is a list; set it whole, e.g. --set 'kernels=[naive, {name: tiled, tile: [128, 128, 8]}]'");
      override_error(key, path + " is a value, not a map of keys");
    }
    if (std::find(allowed->begin(), allowed->end(), seg) == allowed->end()) {
      const bool last = dot == std::string::npos;
      override_error(key, "unknown key" + (last ? std::string() : " " + quoted(seg)) + suggestion(seg, *allowed));
    }
    keys.push_back(seg);
    path += (path.empty() ? "" : ".") + seg;
    if (dot == std::string::npos) break;
    start = dot + 1;
  }

  YAML::Node value;
  try {
    value = YAML::Load(value_text);
  } catch (const YAML::Exception& e) {
    override_error(key, "malformed YAML value " + quoted(value_text) + ": " + e.msg);
  }
  set_in(root, keys, 0, path, value);
  return path;
}

/// Emits the validated configuration in the deck schema, every key present.
std::string emit(const Config& c) {
  YAML::Emitter out;
  out << YAML::BeginMap;

  out << YAML::Key << "problem" << YAML::Value << YAML::BeginMap;
  const auto& s0 = c.sizes.front();
  if (c.sizes.size() == 1 && s0.m == s0.n && s0.k == s0.n) {
    out << YAML::Key << "n" << YAML::Value << s0.n;
  } else if (c.sizes.size() == 1) {
    out << YAML::Key << "m" << YAML::Value << s0.m << YAML::Key << "n" << YAML::Value << s0.n << YAML::Key << "k"
        << YAML::Value << s0.k;
  } else {
    out << YAML::Key << "sizes" << YAML::Value << YAML::BeginSeq;
    for (const auto& s : c.sizes) {
      if (s.m == s.n && s.k == s.n)
        out << s.n;
      else
        out << YAML::Flow << YAML::BeginMap << YAML::Key << "m" << YAML::Value << s.m << YAML::Key << "n"
            << YAML::Value << s.n << YAML::Key << "k" << YAML::Value << s.k << YAML::EndMap;
    }
    out << YAML::EndSeq;
  }
  out << YAML::Key << "dtype" << YAML::Value;
  if (c.dtypes.size() == 1) {
    out << to_string(c.dtypes.front());
  } else {
    out << YAML::Flow << YAML::BeginSeq;
    for (auto t : c.dtypes) out << to_string(t);
    out << YAML::EndSeq;
  }
  out << YAML::Key << "init" << YAML::Value << to_string(c.init);
  out << YAML::Key << "seed" << YAML::Value << static_cast<unsigned long long>(c.seed);
  out << YAML::EndMap;

  out << YAML::Key << "kernels" << YAML::Value << YAML::BeginSeq;
  for (const auto& k : c.kernels) {
    if (k.tile.empty() && k.thread_tile.empty() && k.prefetch < 0 && !k.tile_auto && k.variant.empty() &&
        k.label.empty()) {
      out << k.name;
      continue;
    }
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "name" << YAML::Value << k.name;
    if (k.tile_auto) out << YAML::Key << "tile" << YAML::Value << "auto";
    if (!k.label.empty()) out << YAML::Key << "tile" << YAML::Value << YAML::DoubleQuoted << k.label;
    if (!k.tile.empty()) out << YAML::Key << "tile" << YAML::Value << YAML::Flow << k.tile;
    if (!k.thread_tile.empty()) out << YAML::Key << "thread_tile" << YAML::Value << YAML::Flow << k.thread_tile;
    if (k.prefetch >= 0) out << YAML::Key << "prefetch" << YAML::Value << (k.prefetch == 1);
    if (!k.variant.empty()) out << YAML::Key << "variant" << YAML::Value << k.variant;
    out << YAML::EndMap;
  }
  out << YAML::EndSeq;

  out << YAML::Key << "run" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "warmup" << YAML::Value << c.warmup;
  out << YAML::Key << "repetitions" << YAML::Value << c.repetitions;
  out << YAML::Key << "backend" << YAML::Value;
  if (c.backend.empty())
    out << "default";
  else if (c.backend.size() == 1)
    out << c.backend.front();
  else
    out << YAML::Flow << c.backend;
  out << YAML::Key << "rotate_inputs" << YAML::Value << c.rotate_inputs;
  out << YAML::Key << "math" << YAML::Value << to_string(c.math);
  out << YAML::Key << "noise_threshold" << YAML::Value << format_double(c.noise_threshold);
  out << YAML::Key << "until_stable" << YAML::Value;
  if (!c.until_stable.enabled) {
    out << false;
  } else {
    out << YAML::Flow << YAML::BeginMap << YAML::Key << "max_cv" << YAML::Value
        << format_double(c.until_stable.max_cv) << YAML::Key << "max_seconds" << YAML::Value
        << format_double(c.until_stable.max_seconds) << YAML::Key << "max_repetitions" << YAML::Value
        << c.until_stable.max_repetitions << YAML::EndMap;
  }
  out << YAML::EndMap;

  out << YAML::Key << "verify" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "enabled" << YAML::Value << c.verify;
  out << YAML::Key << "tolerance" << YAML::Value << format_double(c.tolerance);
  out << YAML::Key << "accuracy" << YAML::Value << c.accuracy;
  out << YAML::EndMap;

  out << YAML::Key << "output" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "report" << YAML::Value << YAML::DoubleQuoted << c.report_path;
  out << YAML::EndMap;

  out << YAML::Key << "parallel" << YAML::Value << YAML::BeginMap;
  out << YAML::Key << "decomposition" << YAML::Value;
  const auto& d = c.decomposition;
  switch (d.kind) {
    case SplitKind::even: out << "even"; break;
    case SplitKind::rows:
      out << YAML::BeginMap << YAML::Key << "rows" << YAML::Value << YAML::Flow << d.rows << YAML::EndMap;
      break;
    case SplitKind::weights: {
      std::vector<std::string> w;
      for (double x : d.weights) w.push_back(format_double(x));
      out << YAML::BeginMap << YAML::Key << "weights" << YAML::Value << YAML::Flow << w << YAML::EndMap;
      break;
    }
    case SplitKind::auto_weights:
      out << YAML::BeginMap << YAML::Key << "weights" << YAML::Value << "auto" << YAML::Key << "calibration_n"
          << YAML::Value << d.calibration_n << YAML::EndMap;
      break;
    case SplitKind::grid:
      out << YAML::BeginMap << YAML::Key << "grid" << YAML::Value;
      if (d.grid_p == 0)
        out << "auto";
      else
        out << YAML::Flow << std::vector<int>{d.grid_p, d.grid_q};
      out << YAML::Key << "panel" << YAML::Value << d.panel;
      out << YAML::Key << "overlap" << YAML::Value << to_string(d.overlap);
      out << YAML::Key << "transfer" << YAML::Value << to_string(d.transfer);
      out << YAML::EndMap;
      break;
  }
  out << YAML::Key << "data" << YAML::Value << to_string(c.data_mode);
  out << YAML::Key << "share_devices" << YAML::Value << c.share_devices;
  out << YAML::EndMap;

  out << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

/// Counts the YAML documents of a text, with a bound: yaml-cpp 0.7's LoadAll
/// never ends on some malformed input (a stray ',' before the first node
/// yields null documents without consuming it; found by tests/fuzz), so
/// LoadAll is not used. `second` is the first node of the second document.
struct DocumentCounter : YAML::EventHandler {
  static constexpr int kBound = 64;  ///< reached only when the parser makes no progress
  int documents = 0;
  YAML::Mark second = YAML::Mark::null_mark();
  void count(const std::string& text) {
    std::stringstream in(text);
    YAML::Parser parser(in);
    while (documents < kBound && parser.HandleNextDocument(*this)) {
    }
  }
  void node(const YAML::Mark& m) {
    if (documents == 2 && second.line < 0) second = m;
  }
  void OnDocumentStart(const YAML::Mark&) override { ++documents; }
  void OnDocumentEnd() override {}
  void OnNull(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnAlias(const YAML::Mark& m, YAML::anchor_t) override { node(m); }
  void OnScalar(const YAML::Mark& m, const std::string&, YAML::anchor_t, const std::string&) override { node(m); }
  void OnSequenceStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnSequenceEnd() override {}
  void OnMapStart(const YAML::Mark& m, const std::string&, YAML::anchor_t, YAML::EmitterStyle::value) override {
    node(m);
  }
  void OnMapEnd() override {}
};

}  // namespace

Config parse_deck_string(const std::string& yaml_text, const std::string& name,
                         const std::vector<std::string>& overrides, const std::vector<FlagOverride>& flags) {
  // YAML excludes NUL; yaml-cpp 0.7 takes leading NULs for UTF-32 and reads
  // nothing (found by tests/fuzz): say what is wrong instead of "empty deck".
  if (const auto nul = yaml_text.find('\0'); nul != std::string::npos) {
    const auto line = std::count(yaml_text.begin(), yaml_text.begin() + static_cast<long>(nul), '\n') + 1;
    throw DeckError(printable(name) + ":" + std::to_string(line) + ": not a text deck: a NUL byte (decks are UTF-8 YAML)");
  }
  YAML::Node root;
  DocumentCounter docs;
  try {
    root = YAML::Load(yaml_text);
    docs.count(yaml_text);
  } catch (const YAML::Exception& e) {
    throw DeckError(printable(name) + (e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) : std::string()) +
                    ": malformed YAML: " + e.msg);
  }
  if (docs.documents >= DocumentCounter::kBound)
    throw DeckError(printable(name) + ": malformed YAML: the parser reads no node (a stray ',', ']' or '}' before the first key?)");
  if (root.IsNull()) throw DeckError(printable(name) + ": empty deck (it needs at least problem.n)");
  if (docs.documents > 1) {
    const auto line = docs.second.line;
    throw DeckError(printable(name) + (line >= 0 ? ":" + std::to_string(line + 1) : std::string()) +
                    ": expected one YAML document, found " + std::to_string(docs.documents));
  }
  try {
    std::vector<DeckParser::OverrideOrigin> origins;
    if (root.IsMap()) {
      for (const auto& o : overrides) origins.push_back({apply_override(root, o), ""});
      for (const auto& f : flags) {
        std::vector<std::string> keys;
        for (std::size_t start = 0;;) {
          const auto dot = f.key.find('.', start);
          keys.push_back(f.key.substr(start, dot == std::string::npos ? std::string::npos : dot - start));
          if (dot == std::string::npos) break;
          start = dot + 1;
        }
        set_in(root, keys, 0, f.key, YAML::Node(f.value));  // a string node: verbatim, never parsed
        origins.push_back({f.key, f.flag});
      }
    }
    Config cfg = DeckParser(name, origins).parse(root);
    cfg.resolved_yaml = emit(cfg);
    return cfg;
  } catch (const YAML::Exception& e) {
    // Not expected (the validator checks types before converting); keep the
    // promise of a DeckError rather than a crash.
    throw DeckError(printable(name) + ": " + e.what());
  }
}

namespace {

/// What a file that is not a regular file is, for the message.
const char* file_kind(mode_t mode) {
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISFIFO(mode)) return "a FIFO (named pipe)";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  return "not a regular file";
}

/// The deck file's text: a regular file (stat before opening, so a FIFO or
/// a device is never opened; opened O_NONBLOCK and checked again with fstat,
/// in case it was swapped in between) of at most kMaxDeckBytes.
std::string read_deck_file(const std::string& path) {
  const std::string shown = printable(path);
  const std::string limit = "decks are at most " + std::to_string(kMaxDeckBytes) + " bytes (1 MiB)";
  const auto check = [&](const struct stat& st) {
    if (!S_ISREG(st.st_mode))
      throw DeckError(shown + ": not a deck file: " + file_kind(st.st_mode) + " (a deck is a regular YAML file)");
    if (static_cast<unsigned long long>(st.st_size) > kMaxDeckBytes)
      throw DeckError(shown + ": too large for a deck: " + std::to_string(st.st_size) + " bytes; " + limit);
  };
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) throw DeckError(shown + ": cannot open: " + std::strerror(errno));
  check(st);
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw DeckError(shown + ": cannot open: " + std::strerror(errno));
  std::string text;
  int err = 0;
  if (::fstat(fd, &st) != 0) {
    err = errno;
  } else {
    try {
      check(st);
    } catch (...) {
      ::close(fd);
      throw;
    }
    char buf[65536];
    while (text.size() <= kMaxDeckBytes) {
      const ssize_t got = ::read(fd, buf, sizeof buf);
      if (got < 0 && errno == EINTR) continue;
      if (got < 0) err = errno;
      if (got <= 0) break;
      text.append(buf, static_cast<std::size_t>(got));
    }
  }
  ::close(fd);
  if (err) throw DeckError(shown + ": cannot read: " + std::strerror(err));
  if (text.size() > kMaxDeckBytes) throw DeckError(shown + ": too large for a deck (it grew while read); " + limit);
  return text;
}

}  // namespace

Config parse_deck(const std::string& path, const std::vector<std::string>& overrides,
                  const std::vector<FlagOverride>& flags) {
  return parse_deck_string(read_deck_file(path), path, overrides, flags);
}

}  // namespace mmapp
