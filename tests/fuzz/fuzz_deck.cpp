// fuzz_deck.cpp — libFuzzer target over the deck parser,
// mmapp::parse_deck_string(text, name, overrides), with `--set` overrides.
//
// Input format: the deck's YAML text, optionally followed by a line "#--set"
// (a YAML comment, so the deck part stays valid YAML) and one override
// "KEY=VALUE" per line after it; a line "--report=PATH" or "--backend=NAME"
// there is that command-line flag instead (its value verbatim, as main.cpp
// passes it: mmapp::FlagOverride). Seeds: tests/fuzz/seeds/ (the invalid-deck
// table of tests/test_config.cpp, with overrides), inputs/**.yaml and the
// tuning-round decks docs/results/*/decks/*.yaml.
//
// What counts as a finding (the process aborts, libFuzzer saves the input):
// - any exception other than mmapp::DeckError escaping the parser (a crash,
//   a hang past -timeout, a leak or undefined behaviour are found by
//   libFuzzer and the sanitizers themselves);
// - a DeckError message that breaks the documented form: one line, starting
//   with "NAME:", "--set ", "--report: " or "--backend: " (config.hpp), at
//   most kMaxMessageChars characters plus the truncation note, with no raw
//   bidirectional control (U+202A-U+202E, U+2066-U+2069: printable());
// - an accepted deck whose output.report is not the --report given, verbatim;
// - an accepted deck whose Config breaks its invariants (sizes and kernels
//   non-empty, dimensions in [1, INT_MAX], repetitions >= 1, warmup >= 0,
//   tolerance finite and > 0), or whose resolved_yaml does not parse back to
//   the same resolved_yaml (the round trip the report relies on).
#include "deck/config.hpp"

#include <climits>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

namespace {

const char* const kName = "fuzz.yaml";

[[noreturn]] void finding(const std::string& what, const std::string& detail) {
  std::fprintf(stderr, "fuzz_deck finding: %s\n  %s\n", what.c_str(), detail.c_str());
  std::abort();
}

void check_message(const std::string& msg) {
  if (msg.find('\n') != std::string::npos) finding("DeckError message spans several lines", msg);
  if (msg.rfind(std::string(kName) + ":", 0) != 0 && msg.rfind("--set ", 0) != 0 &&
      msg.rfind("--report: ", 0) != 0 && msg.rfind("--backend: ", 0) != 0)
    finding("DeckError message does not start with the deck name, '--set ' or the flag", msg);
  if (msg.size() > 4 * mmapp::kMaxMessageChars + 64) finding("DeckError message not truncated", msg.substr(0, 200));
  for (const char* bidi : {"\xe2\x80\xaa", "\xe2\x80\xab", "\xe2\x80\xac", "\xe2\x80\xad", "\xe2\x80\xae",
                           "\xe2\x81\xa6", "\xe2\x81\xa7", "\xe2\x81\xa8", "\xe2\x81\xa9"})
    if (msg.find(bidi) != std::string::npos) finding("DeckError message holds a raw bidirectional control", msg);
}

void check_config(const mmapp::Config& c) {
  if (c.sizes.empty()) finding("accepted deck with no size", c.resolved_yaml);
  for (const auto& s : c.sizes)
    if (s.m < 1 || s.n < 1 || s.k < 1 || s.m > INT_MAX || s.n > INT_MAX || s.k > INT_MAX)
      finding("accepted deck with a dimension outside [1, INT_MAX]", c.resolved_yaml);
  if (c.kernels.empty()) finding("accepted deck with no kernel", c.resolved_yaml);
  if (c.dtypes.empty()) finding("accepted deck with no dtype", c.resolved_yaml);
  if (c.repetitions < 1 || c.warmup < 0) finding("accepted deck with repetitions < 1 or warmup < 0", c.resolved_yaml);
  if (!std::isfinite(c.tolerance) || !(c.tolerance > 0)) finding("accepted deck with a bad tolerance", c.resolved_yaml);
  // The resolved deck is what the report records: it must read back as itself.
  mmapp::Config again;
  try {
    again = mmapp::parse_deck_string(c.resolved_yaml, "resolved.yaml");
  } catch (const mmapp::DeckError& e) {
    finding("resolved_yaml does not parse back", std::string(e.what()) + "\n--- resolved_yaml:\n" + c.resolved_yaml);
  }
  if (again.resolved_yaml != c.resolved_yaml)
    finding("resolved_yaml is not a fixed point", c.resolved_yaml + "--- parses back to:\n" + again.resolved_yaml);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string input(reinterpret_cast<const char*>(data), size);
  std::string deck = input;
  std::vector<std::string> overrides;
  std::vector<mmapp::FlagOverride> flags;
  const std::string marker = "#--set\n";  // at the start of a line: the first one
  std::size_t at = input.rfind(marker, 0) == 0 ? 0 : input.find("\n" + marker);
  if (at != std::string::npos && at != 0) ++at;
  if (at != std::string::npos) {
    deck = input.substr(0, at);
    std::size_t pos = at + marker.size();
    while (pos < input.size()) {
      const std::size_t end = input.find('\n', pos);
      const std::string line = input.substr(pos, end == std::string::npos ? std::string::npos : end - pos);
      if (line.rfind("--report=", 0) == 0)
        flags.push_back({"output.report", line.substr(9), "--report"});
      else if (line.rfind("--backend=", 0) == 0)
        flags.push_back({"run.backend", line.substr(10), "--backend"});
      else
        overrides.push_back(line);
      pos = end == std::string::npos ? input.size() : end + 1;
    }
  }
  try {
    const mmapp::Config c = mmapp::parse_deck_string(deck, kName, overrides, flags);
    check_config(c);
    const mmapp::FlagOverride* report = nullptr;  // the last --report wins
    for (const auto& f : flags)
      if (f.key == "output.report") report = &f;
    if (report && c.report_path != report->value)
      finding("--report not taken verbatim", report->value + " -> " + c.report_path);
  } catch (const mmapp::DeckError& e) {
    check_message(e.what());
  }
  // Anything else thrown escapes: libFuzzer reports "uncaught exception" (abort).
  return 0;
}
