#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# The host vendor yardstick bound against unbound: runs
# inputs/bench/host-yardstick.yaml (OpenBLAS through Kokkos Kernels, N = 4096
# float and double, OpenMP backend) ROUNDS times, each round once with the
# jobs' binding (OMP_PROC_BIND=spread OMP_PLACES=threads) and once with no
# OpenMP binding, alternating so that both see the same machine, and prints
# GFLOP/s per run and the median ratio bound / unbound per dtype.
#
# Usage: scripts/bench/host-yardstick.sh MMAPP_BINARY [OUT_DIR] [ROUNDS]
# Environment: OMP_NUM_THREADS (default: every CPU); extra mmapp arguments in
# MMAPP_ARGS (e.g. "--set problem.n=2048").
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
bin=${1:?usage: host-yardstick.sh MMAPP_BINARY [OUT_DIR] [ROUNDS]}
out=${2:-$top/build/host-yardstick}
rounds=${3:-2}
mkdir -p "$out"
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
# shellcheck disable=SC2086 # MMAPP_ARGS is a list of words
for ((r = 1; r <= rounds; ++r)); do
  env OMP_PROC_BIND=spread OMP_PLACES=threads "$bin" "$top/inputs/bench/host-yardstick.yaml" \
    --report "$out/yardstick-bound-$r.json" ${MMAPP_ARGS:-} >"$out/yardstick-bound-$r.log" 2>&1
  env -u OMP_PROC_BIND -u OMP_PLACES "$bin" "$top/inputs/bench/host-yardstick.yaml" \
    --report "$out/yardstick-unbound-$r.json" ${MMAPP_ARGS:-} >"$out/yardstick-unbound-$r.log" 2>&1
done
python3 "$top/scripts/analysis/host_yardstick.py" "$out" "$rounds"
