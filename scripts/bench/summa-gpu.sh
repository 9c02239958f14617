#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# scripts/bench/summa-gpu.sh — the process-grid (SUMMA) measurements on one node
# with 4 GPUs: builds the cuda preset (scripts/bench/gpu-node.sh build), runs the
# bench decks with `mpirun -np 4` (one rank per GPU, grid 2 x 2) and prints a
# short table last. Every report and log goes to $OUT (default
# build/summa-gpu-out/).
#
# Usage: scripts/bench/summa-gpu.sh [STEP...]      (default: build 32768 131072 table)
#   build    scripts/bench/gpu-node.sh build (needs .offline/, see README)
#   info     Open MPI's CUDA support and transports, nvidia-smi topology
#   32768    inputs/bench/summa-32768.yaml (float, N = 32768, cuBLAS local GEMM):
#              summa-auto            transfer auto, overlap auto (the defaults)
#              summa-staged-ibcast   panels staged through pinned host memory, MPI_Ibcast overlap
#              summa-staged-none     staged, blocking MPI_Bcast
#              summa-aware-none      device buffers to MPI, blocking (only if CUDA-aware)
#              summa-aware-ibcast    device buffers to MPI_Ibcast (Open MPI: UCX only; may fail)
#              summa-panel-512 / -1024   the defaults with another panel width
#              rows                  the row split at the same N (B replicated)
#              single-gpu            one rank, one GPU, the whole N (cuBLAS): the
#                                    yardstick of the 4-GPU speed-up, in the same call
#   auto     summa-auto alone (label summa-auto-$MMAPP_TAG when MMAPP_TAG is set:
#              e.g. the same run under other MMAPP_MPIRUN_ARGS)
#   131072   inputs/bench/summa-131072.yaml: 192 GiB of A + B + C over 4 GPUs
#   table    the table of every report in $OUT (also printed after each step)
# Steps may be run one by one (each stays well under 10 minutes).
# Environment: OUT, MMAPP_NP (4), MMAPP_RUN_TIMEOUT (seconds per run, 540),
# OMP_NUM_THREADS (default: cores / ranks), MMAPP_BIN (default
# build/cuda/miniapp/mmapp), MMAPP_EXTRA_ARGS (added to every run, split on
# blanks, before each run's own), MMAPP_MPIRUN_ARGS (e.g. "--oversubscribe").
# A dry run on a small CPU machine: MMAPP_BIN=build/openmp/miniapp/mmapp
# MMAPP_MPIRUN_ARGS=--oversubscribe MMAPP_EXTRA_ARGS="--set problem.n=256
# --set parallel.decomposition.panel=32 --set parallel.share_devices=true".
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
out=${OUT:-$top/build/summa-gpu-out}
mkdir -p "$out"
np=${MMAPP_NP:-4}
bin=${MMAPP_BIN:-$top/build/cuda/miniapp/mmapp}
extra=() mpirun_args=()
[[ -n "${MMAPP_EXTRA_ARGS:-}" ]] && read -r -a extra <<<"$MMAPP_EXTRA_ARGS"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(($(nproc) / np > 0 ? $(nproc) / np : 1))}
# Each rank on its own cores (as jobs/lib.sh does): with OMP_PROC_BIND=spread
# and ranks unbound or sharing a socket, every rank binds its main thread to
# the same first core, and 4 ranks that spin in MPI progress on one core
# stalled the 4-GPU runs of 2026-11-22 (>50 s for what one GPU did in 10 s).
if [[ -n "${MMAPP_MPIRUN_ARGS:-}" ]]; then
  read -r -a mpirun_args <<<"$MMAPP_MPIRUN_ARGS"
else
  mpirun_args=(--map-by "slot:PE=$OMP_NUM_THREADS" --bind-to core)
fi
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
timeout_s=${MMAPP_RUN_TIMEOUT:-540}

# run LABEL DECK [mmapp args...] — one mpirun; report $out/LABEL.json, log $out/LABEL.log
# (RUN_NP=n in the environment of one call overrides the rank count)
run() {
  local label=$1 deck=$2 ranks=${RUN_NP:-$np}
  shift 2
  rm -f "$out/$label.json"
  echo "== $label: mpirun -np $ranks ${mpirun_args[*]} $bin $deck ${extra[*]} $* --report $out/$label.json"
  local t0=$SECONDS rc=0 watch
  # Just before the time limit, what every mmapp thread is doing and where
  # (cpu = the core it last ran on), the GPUs' load and, for long runs where
  # gdb exists, each rank's main-thread stack: $out/LABEL.stall.
  ( sleep $((timeout_s >= 120 ? timeout_s - 25 : timeout_s > 10 ? timeout_s - 5 : timeout_s)) &&
      { ps -eLo pid,tid,psr,pcpu,stat,wchan:24,comm | grep -E "^ *PID|mmapp"
        nvidia-smi --query-gpu=index,utilization.gpu,memory.used --format=csv
        if ((timeout_s >= 120)) && command -v gdb >/dev/null; then
          for p in $(pgrep -x mmapp); do echo "== rank pid $p"; timeout 15 gdb -p "$p" -batch -ex "bt 20" 2>/dev/null | grep "^#"; done
        fi; } >"$out/$label.stall" 2>&1 ) &
  watch=$!
  timeout "$timeout_s" mpirun -np "$ranks" "${mpirun_args[@]}" "$bin" "$deck" "${extra[@]}" "$@" --report "$out/$label.json" \
    >"$out/$label.log" 2>&1 || rc=$?
  # Its sleep too: an orphaned sleep would hold this script's stdout open, and a
  # caller piping it (summa-gpu.sh 131072 | tail) waited out the sleep (190 s, 2026-11-27).
  pkill -P "$watch" 2>/dev/null; kill "$watch" 2>/dev/null; wait "$watch" 2>/dev/null
  echo "   exit $rc after $((SECONDS - t0)) s$( ((rc == 124)) && echo " (timed out: see $out/$label.log)")"
  ((rc == 0)) || tail -n 5 "$out/$label.log" | sed 's/^/   | /'
  echo "$rc" >"$out/$label.rc"
}

table() {
  python3 "$top/scripts/analysis/summa_table.py" "$out"
}

steps=("$@")
((${#steps[@]})) || steps=(build 32768 131072 table)
for step in "${steps[@]}"; do
  case $step in
    build) scripts/bench/gpu-node.sh build || exit 1 ;;
    info)
      { lscpu | grep -E "^(Model name|CPU\(s\)|Thread|Core|Socket|NUMA node)"
        ompi_info --parsable --all 2>/dev/null | grep -E "mpi_built_with_cuda_support|pml_ucx|btl_smcuda" | head -n 20
        ompi_info 2>/dev/null | grep -iE "MCA (pml|btl|coll)" | head -n 20
        nvidia-smi topo -m; } 2>&1 | tee "$out/info.txt" ;;
    32768)
      deck=inputs/bench/summa-32768.yaml
      # The figures the issue asks for first (a stalled variant cannot cost them).
      run summa-auto "$deck"
      run rows "$deck" --set parallel.decomposition=even
      RUN_NP=1 run single-gpu "$deck" --set parallel.decomposition=even
      run summa-staged-ibcast "$deck" --set parallel.decomposition.transfer=staged --set parallel.decomposition.overlap=ibcast
      run summa-staged-none "$deck" --set parallel.decomposition.transfer=staged --set parallel.decomposition.overlap=none
      run summa-aware-none "$deck" --set parallel.decomposition.transfer=cuda-aware --set parallel.decomposition.overlap=none
      run summa-aware-ibcast "$deck" --set parallel.decomposition.transfer=cuda-aware --set parallel.decomposition.overlap=ibcast
      run summa-panel-512 "$deck" --set parallel.decomposition.panel=512
      run summa-panel-1024 "$deck" --set parallel.decomposition.panel=1024
      table ;;
    auto)
      run "summa-auto${MMAPP_TAG:+-$MMAPP_TAG}" inputs/bench/summa-32768.yaml
      table ;;
    131072)
      run "summa-131072${MMAPP_TAG:+-$MMAPP_TAG}" inputs/bench/summa-131072.yaml
      table ;;
    table) table ;;
    *) echo "summa-gpu: unknown step '$step' (build, info, 32768, auto, 131072, table)" >&2; exit 2 ;;
  esac
done
