#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Sets up a fresh Debian machine, builds the `openmp-native` preset (MMAPP_PRESET overrides) and runs the main
# job: `mpirun -np 2 mmapp` on a deck (default: inputs/default.yaml), writing
# results/default.json. Extra arguments go to mmapp (e.g. --set problem.n=1024).
#
# Usage: scripts/run-default.sh [DECK] [mmapp options...]
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
bash scripts/setup/setup-debian.sh
preset=${MMAPP_PRESET:-openmp-native}  # built and run here: host code for this CPU (README, Host instruction set)
cmake --preset "$preset" >/dev/null
cmake --build --preset "$preset"
deck=${1:-inputs/default.yaml}
(($#)) && shift
mkdir -p results
# Two ranks on a small machine: one OpenMP thread per core each.
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ncores=$(nproc)
threads=$(( ncores >= 2 ? ncores / 2 : 1 ))
report="results/$(basename "${deck%.yaml}").json"
rm -f "$report"
# mpirun runs in the background so that a SIGTERM/SIGINT to this script is
# passed on once (mpirun forwards SIGTERM to the ranks: partial report, exit
# 4); a signal to the whole process group reaches mpirun by itself. mpirun
# ends with its own status after a signal (1, also "verification failed"):
# exit 4 whenever the report says "stopped_by".
set +e
pid=""
trap '[[ -n "$pid" ]] && kill -TERM "$pid" 2>/dev/null' TERM
trap ':' INT  # Ctrl-C reaches mpirun through the process group; the script waits for the report
mpirun -np 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS="$threads" -x OMP_PROC_BIND -x OMP_PLACES \
  "build/$preset/miniapp/mmapp" "$deck" --report "$report" "$@" &
pid=$!
while :; do
  wait "$pid"
  rc=$?
  kill -0 "$pid" 2>/dev/null || break  # wait returns early (> 128) when a trapped signal arrives
done
stopped=$(python3 -c 'import json, sys; print(json.load(open(sys.argv[1])).get("stopped_by") or "")' "$report" 2>/dev/null)
if [[ -n "$stopped" ]]; then
  echo "run-default: stopped by $stopped (mpirun exited $rc); partial report $report" >&2
  exit 4
fi
exit "$rc"
