#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# scripts/bench/detached.sh: the first call starts the job and returns while it
# runs; a later call waits for it, brings back its log and out/ to $OUT and
# exits with its status; the command is never started twice; bad usage and an
# unknown job exit 2.
set -uo pipefail
d="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)/scripts/bench/detached.sh"
tmp=$(mktemp -d "${TMPDIR:-/tmp}/detached.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
export MMAPP_JOBS_DIR=$tmp/jobs
fails=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "PASS $name"; else echo "FAIL $name"; fails=$((fails + 1)); fi
}
# The job counts its starts, waits for a go file, writes a file to JOB_OUT, exits 3.
# shellcheck disable=SC2016  # expanded by the job's shell, not here
job='echo start >>"$JOB_OUT/../starts"; while [ ! -f "$JOB_OUT/../go" ]; do sleep 0.2; done; echo part >"$JOB_OUT/x"; echo done; exit 3'
first=$("$d" --wait 0 j1 bash -c "$job")
rc=$?
check "first call returns while the job runs (rc 0)" test "$rc" = 0
check "first call says running" grep -q "detached: j1 running" <<<"$first"
touch "$MMAPP_JOBS_DIR/j1/go"
second=$(OUT=$tmp/out "$d" --wait 30 j1 bash -c "$job")
rc=$?
check "a later call exits with the job's status" test "$rc" = 3
check "a later call says done rc=3" grep -q "detached: j1 done rc=3" <<<"$second"
check "the job's out/ comes back to \$OUT" test -f "$tmp/out/x"
check "the job's log comes back to \$OUT" grep -q "^done$" "$tmp/out/log"
check "the log's tail is printed" grep -q "^done$" <<<"$second"
"$d" --wait 0 j1 bash -c "$job" >/dev/null
check "the command runs once" test "$(wc -l <"$MMAPP_JOBS_DIR/j1/starts")" = 1
"$d" --wait 0 nosuch >/dev/null 2>&1
check "an unknown job without a command exits 2" test "$?" = 2
"$d" --wait x j2 true >/dev/null 2>&1
check "--wait without a number exits 2" test "$?" = 2
"$d" >/dev/null 2>&1
check "no arguments exit 2" test "$?" = 2
"$d" --wait 0 'a/b' true >/dev/null 2>&1
check "a name with a slash exits 2" test "$?" = 2
# More files in out/ than MMAPP_DETACHED_MAX_FILES: one archive, out.tar.gz, holding them all.
# shellcheck disable=SC2016  # expanded by the job's shell, not here
many='for i in 1 2 3; do echo $i >"$JOB_OUT/f$i"; done'
OUT=$tmp/out3 MMAPP_DETACHED_MAX_FILES=2 "$d" --wait 30 j3 bash -c "$many" >/dev/null
check "more files than the bound come back as out.tar.gz alone" \
  test -f "$tmp/out3/out.tar.gz" -a ! -e "$tmp/out3/f1"
check "out.tar.gz holds every file" test "$(tar -tzf "$tmp/out3/out.tar.gz" | grep -c '/f[123]$')" = 3
OUT=$tmp/out4 MMAPP_DETACHED_MAX_FILES=3 "$d" --wait 30 j3 >/dev/null
check "up to the bound they come back as they are" test -f "$tmp/out4/f3" -a ! -e "$tmp/out4/out.tar.gz"
((fails == 0)) && echo "detached: all passed" || echo "detached: $fails failed"
exit $((fails != 0))
