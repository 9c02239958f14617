#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# The host-side measurements on the GPU node, with a binary built by
# scripts/bench/gpu-node.sh (MMAPP_PRESET=cuda-native: host code for the node's
# CPU). Every report and log goes to $OUT (default build/host-gpu-node-out).
#
# Usage: scripts/bench/host-gpu-node.sh [STEP...]   (default: host yardstick hetero)
#   host       inputs/bench/host-4096.yaml: host `tiled` against OpenBLAS, N = 4096,
#              float and double, the OpenMP backend on every core, the jobs'
#              binding (OMP_PROC_BIND=spread OMP_PLACES=threads), one run
#   yardstick  scripts/bench/host-yardstick.sh: OpenBLAS bound against unbound
#   hetero     inputs/bench/hetero.yaml on 2 ranks (rank 0 CUDA, rank 1 OpenMP on
#              the other cores, weights: auto), then the GPU rank alone doing
#              all rows (1 rank, CUDA), one after the other; prints both kernel times
# Environment: OUT; MMAPP_BIN (default build/cuda-native/miniapp/mmapp);
# MMAPP_HOST_THREADS (host threads, default every core; the hetero host rank
# gets this minus 2).
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
out=${OUT:-$top/build/host-gpu-node-out}
mkdir -p "$out"
bin=${MMAPP_BIN:-$top/build/cuda-native/miniapp/mmapp}
threads=${MMAPP_HOST_THREADS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

pct() { # pct REPORT — the report's rows: kernel, dtype, size, GFLOP/s, % of vendor, verified
  python3 "$top/scripts/analysis/report_rows.py" "$1"
}

steps=("$@")
((${#steps[@]})) || steps=(host yardstick hetero)
for step in "${steps[@]}"; do
  case $step in
    host)
      echo "== host: inputs/bench/host-4096.yaml, $threads threads, bound"
      OMP_NUM_THREADS=$threads OMP_PROC_BIND=spread OMP_PLACES=threads "$bin" inputs/bench/host-4096.yaml \
        --report "$out/host-4096.json" >"$out/host-4096.log" 2>&1 || tail -n 5 "$out/host-4096.log"
      [[ -f "$out/host-4096.json" ]] && pct "$out/host-4096.json" ;;
    yardstick)
      echo "== yardstick: OpenBLAS bound against unbound, $threads threads"
      OMP_NUM_THREADS=$threads scripts/bench/host-yardstick.sh "$bin" "$out" 2 ;;
    hetero)
      # Each rank on its own half of the cores (ranks sharing cores under
      # OMP_PROC_BIND bind their main threads to the same core; the figure of
      # 2026-11-22 was taken with --bind-to none and 14 threads per rank).
      echo "== hetero: 2 ranks (cuda + openmp, $((threads / 2)) threads each, own cores), weights: auto"
      mpirun -np 2 --map-by slot:PE=$((threads / 2)) --bind-to core -x OMP_NUM_THREADS=$((threads / 2)) -x OMP_PROC_BIND=spread -x OMP_PLACES=threads \
        "$bin" inputs/bench/hetero.yaml --report "$out/hetero-auto.json" >"$out/hetero-auto.log" 2>&1 ||
        tail -n 5 "$out/hetero-auto.log"
      echo "== hetero: the GPU rank alone, all rows"
      mpirun -np 1 --bind-to none -x OMP_NUM_THREADS=2 "$bin" inputs/bench/hetero.yaml --set run.backend=cuda \
        --set parallel.decomposition=even --report "$out/hetero-gpu-alone.json" >"$out/hetero-gpu-alone.log" 2>&1 ||
        tail -n 5 "$out/hetero-gpu-alone.log"
      python3 "$top/scripts/analysis/hetero_ratio.py" "$out/hetero-auto.json" "$out/hetero-gpu-alone.json"
      ;;
    *) echo "host-gpu-node: unknown step '$step' (host, yardstick, hetero)" >&2; exit 2 ;;
  esac
done
