#!/usr/bin/env bash
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
exec mpirun -np 2 --oversubscribe --bind-to none -x OMP_NUM_THREADS="$threads" -x OMP_PROC_BIND -x OMP_PLACES \
  "build/$preset/miniapp/mmapp" "$deck" --report "results/$(basename "${deck%.yaml}").json" "$@"
