#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# A job longer than one call on a lent GPU machine (one call: at most 600 s; the
# machine stays warm between calls made within its idle time): the first call
# starts COMMAND detached from the call (setsid nohup), later calls wait for it
# and bring back what it wrote so far. The tensor-core rounds ran the whole
# suite (`gpu-node.sh build test`, about 1500 s) and the audit decks this way.
#
# Usage: scripts/bench/detached.sh [--wait SECONDS] NAME [COMMAND [ARGS...]]
#   NAME            the job: its directory is ${MMAPP_JOBS_DIR:-/tmp/mmapp-jobs}/NAME,
#                   holding `log` (COMMAND's stdout and stderr), `out/` (exported to
#                   COMMAND as JOB_OUT, for its files) and, once it has ended, `rc`
#   COMMAND         started (from the current directory) only if job NAME has not
#                   been started on this machine; given again on a later call it
#                   is ignored, so every call can be the same command line
#   --wait SECONDS  how long this call waits for the job to end (default 560)
# Then copies `log` and `out/` to $OUT when OUT is set (the device tool brings
# $OUT back, at most 8 files): out/'s files as they are where they are at most
# ${MMAPP_DETACHED_MAX_FILES:-7}, else one archive of out/, `out.tar.gz`; then
# prints the log's last 40 lines and one state line: "detached: NAME running
# (N s)" or "detached: NAME done rc=R (N s)".
# Exit status: the job's when it has ended, 0 while it runs; 2 for bad usage or
# an unknown NAME given without COMMAND.
set -euo pipefail
wait_s=560
if [[ ${1:-} == --wait ]]; then
  [[ ${2:-} =~ ^[0-9]+$ ]] || { echo "detached: --wait takes a number of seconds, got '${2:-}'" >&2; exit 2; }
  wait_s=$2
  shift 2
fi
(($#)) || { echo "detached: usage: detached.sh [--wait SECONDS] NAME [COMMAND [ARGS...]]" >&2; exit 2; }
name=$1
shift
[[ $name =~ ^[A-Za-z0-9._-]+$ ]] || { echo "detached: job name '$name': letters, digits, '.', '_', '-' only" >&2; exit 2; }
job=${MMAPP_JOBS_DIR:-/tmp/mmapp-jobs}/$name
if [[ ! -d $job ]]; then
  (($#)) || { echo "detached: no job '$name' on this machine, and no COMMAND to start it" >&2; exit 2; }
  mkdir -p "$job/out"
  date +%s >"$job/started"
  # The job writes rc last, so that rc's presence means the log and out/ are whole.
  # shellcheck disable=SC2016  # expanded by the job's bash, not here
  JOB_OUT=$job/out setsid nohup bash -c '"$@" >"$0/log" 2>&1; echo $? >"$0/rc.tmp"; mv "$0/rc.tmp" "$0/rc"' \
    "$job" "$@" </dev/null >/dev/null 2>&1 &
  echo "detached: started $name: $*"
fi
t0=$SECONDS
while [[ ! -f $job/rc ]] && ((SECONDS - t0 < wait_s)); do sleep 2; done
if [[ -n ${OUT:-} ]]; then
  mkdir -p "$OUT"
  cp "$job/log" "$OUT/" 2>/dev/null || true
  files=$(find "$job/out" -type f | wc -l)
  if ((files <= ${MMAPP_DETACHED_MAX_FILES:-7})); then
    cp -r "$job/out/." "$OUT/" 2>/dev/null || true
  else
    tar -czf "$OUT/out.tar.gz" -C "$job/out" . 2>/dev/null || true
    echo "detached: $files files in out/, brought back as out.tar.gz"
  fi
fi
tail -n 40 "$job/log" 2>/dev/null || true
age=$(($(date +%s) - $(cat "$job/started")))
if [[ -f $job/rc ]]; then
  rc=$(cat "$job/rc")
  echo "detached: $name done rc=$rc (${age} s)"
  exit "$rc"
fi
echo "detached: $name running (${age} s)"
