#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Fuzzes the deck parser (mmapp::parse_deck_string with --set overrides and
# the verbatim --report / --backend strings of the command line) with
# libFuzzer for a bounded time: builds tests/fuzz/ with clang
# (-fsanitize=fuzzer,address,undefined) into build/fuzz/, then runs
# fuzz_deck on a working corpus (build/fuzz/corpus, kept between runs) seeded
# from tests/fuzz/seeds (the invalid-deck table of tests/test_config.cpp),
# tests/fuzz/regressions (past findings), inputs/ and the tuning-round decks
# (docs/results/*/decks/).
#
# Usage: scripts/ci/run-fuzz.sh [SECONDS]      (default 60)
# Exit: 0 no finding; 1 a finding (crash, hang past 10 s, leak, undefined
# behaviour, an exception other than DeckError, a malformed message or a
# resolved_yaml that does not read back; see tests/fuzz/fuzz_deck.cpp): the
# input is saved under build/fuzz/findings/ and printed. Fix it, then add the
# input to tests/fuzz/regressions/ (replayed by the fuzz_deck_replay test)
# and a test to tests/test_config.cpp.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
secs=${1:-60}
[[ "$secs" =~ ^[0-9]+$ ]] || { echo "run-fuzz.sh: SECONDS must be a whole number, not '$secs'" >&2; exit 2; }
cxx=${MMAPP_FUZZ_CXX:-clang++}
command -v "$cxx" >/dev/null ||
  { echo "run-fuzz.sh: $cxx not found (Debian: scripts/setup/setup-debian.sh --with-fuzz installs clang and libclang-rt-14-dev)" >&2; exit 2; }

out=$top/build/fuzz
cmake -S tests/fuzz -B "$out" -G Ninja -DCMAKE_CXX_COMPILER="$cxx" >"$out.configure.log" 2>&1 ||
  { tail -n 20 "$out.configure.log"; exit 2; }
cmake --build "$out" >"$out.build.log" 2>&1 || { tail -n 30 "$out.build.log"; exit 2; }
mkdir -p "$out/corpus" "$out/findings"

echo "=== fuzzing the deck parser for $secs s (libFuzzer + ASan + UBSan)"
rc=0
# -timeout: one input may take 10 s at most (a hang is a finding);
# -rss_limit_mb: memory growth is a finding; leaks are checked at exit (ASan).
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=1} UBSAN_OPTIONS=${UBSAN_OPTIONS:-print_stacktrace=1:halt_on_error=1} \
  "$out/fuzz_deck" -max_total_time="$secs" -timeout=10 -rss_limit_mb=2048 -max_len=4096 \
  -dict=tests/fuzz/deck.dict -artifact_prefix="$out/findings/" -print_final_stats=1 \
  "$out/corpus" tests/fuzz/seeds tests/fuzz/regressions inputs docs/results/*/decks >"$out/fuzz.log" 2>&1 || rc=$?
grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb|^Done" "$out/fuzz.log" || true
if ((rc != 0)); then
  echo "run-fuzz.sh: FINDING (exit $rc); the log's end:"
  grep -vE "^#[0-9]+ " "$out/fuzz.log" | tail -n 40
  ls -1 "$out/findings/"
  exit 1
fi
echo "run-fuzz.sh: no finding in $secs s ($(find "$out/corpus" -type f | wc -l) inputs in the working corpus)"
