#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# The Kokkos source fetch (cmake/fetch-kokkos-source.sh), on its failure paths:
#   1. a corrupt or truncated tarball is refused by checksum, nothing cached;
#   2. an offline machine with no cache is told what to fetch and how
#      (no network: a fresh network namespace, `unshare -n`, needs root);
#   3. a cache hit downloads nothing.
# Prints 'N passed, N failed'; exit 1 on a failure, 77 when nothing could run.
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
fetch=$top/cmake/fetch-kokkos-source.sh
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0 failed=0 skipped=0
ok() { echo "PASS $1"; passed=$((passed + 1)); }
ko() { echo "FAIL $1"; shift; printf '  %s\n' "$@"; failed=$((failed + 1)); }

# 1. corrupt / truncated download
head -c 100000 /dev/urandom >"$tmp/truncated.tar.gz"
out=$(MMAPP_TRILINOS_TARBALL="$tmp/truncated.tar.gz" bash "$fetch" "$tmp/cache1" 2>&1)
rc=$?
if ((rc == 1)) && [[ "$out" == *"checksum mismatch"* && "$out" == *"corrupt or truncated"* &&
  "$out" == *"0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90"* ]] &&
  [[ ! -e "$tmp/cache1/kokkos-3.4.01" ]]; then
  ok "a truncated tarball fails its sha256 and nothing is cached"
else
  ko "a truncated tarball fails its sha256 and nothing is cached" "exit $rc" "$out"
fi

# 2. offline, no cache
if [[ $(id -u) -eq 0 ]] && command -v unshare >/dev/null && unshare -n true 2>/dev/null; then
  out=$(MMAPP_APT_DIR="$tmp/apt" timeout 120 unshare -n bash "$fetch" "$tmp/cache2" 2>&1)
  rc=$?
  if ((rc == 1)) && [[ "$out" == *"cannot fetch the Kokkos sources"* && "$out" == *"trilinos=13.2.0-4"* &&
    "$out" == *"MMAPP_KOKKOS_SOURCE_ARCHIVE"* && "$out" == *"Kokkos_ROOT"* ]]; then
    ok "offline with no cache: says what to fetch and how"
  else
    ko "offline with no cache: says what to fetch and how" "exit $rc" "$out"
  fi
else
  echo "SKIP offline test: needs root and unshare -n"
  skipped=$((skipped + 1))
fi

# 3. cache hit
mkdir -p "$tmp/cache3/kokkos-3.4.01"
touch "$tmp/cache3/kokkos-3.4.01/.mmapp-source-0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90"
out=$(MMAPP_TRILINOS_TARBALL=/nonexistent bash "$fetch" "$tmp/cache3" 2>&1)
rc=$?
if ((rc == 0)) && [[ "$out" == *"nothing downloaded"* ]]; then
  ok "a cached source is used and nothing is downloaded"
else
  ko "a cached source is used and nothing is downloaded" "exit $rc" "$out"
fi

echo "$passed passed, $failed failed${skipped:+, $skipped skipped}"
((failed > 0)) && exit 1
((passed == 0)) && exit 77
exit 0
