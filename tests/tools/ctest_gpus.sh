#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Usage: ctest_gpus.sh COMMAND [ARGS...]
#
# Runs COMMAND on the GPUs that CTest's resource allocation gave the test
# (`ctest --resource-spec-file FILE`; tests/CMakeLists.txt asks one "gpus"
# slot per group, scripts/bench/gpu-node.sh writes the file). CTest passes the
# allocation as CTEST_RESOURCE_GROUP_COUNT and, per group g,
# CTEST_RESOURCE_GROUP_<g>_GPUS="id:<id>,slots:<n>" (several joined by ';').
# The ids, in group order and without repeats, become CUDA_VISIBLE_DEVICES.
# An id is a position among the GPUs the test would see otherwise: an entry of
# CUDA_VISIBLE_DEVICES when that is set (a suite kept to some GPUs stays
# there), else the GPU of that index.
#
# Says the list it set on stderr. Without an allocation (no spec file: CI,
# CPU builds) COMMAND runs unchanged.
# A malformed allocation, or an id past CUDA_VISIBLE_DEVICES, exits 2 naming
# the variable, before COMMAND runs.
set -euo pipefail
(($#)) || { echo "ctest_gpus: usage: ctest_gpus.sh COMMAND [ARGS...]" >&2; exit 2; }
if [[ -n ${CTEST_RESOURCE_GROUP_COUNT:-} ]]; then
  [[ $CTEST_RESOURCE_GROUP_COUNT =~ ^[0-9]+$ ]] ||
    { echo "ctest_gpus: CTEST_RESOURCE_GROUP_COUNT='$CTEST_RESOURCE_GROUP_COUNT' is not a count" >&2; exit 2; }
  visible=()
  [[ -n ${CUDA_VISIBLE_DEVICES+set} ]] && IFS=, read -r -a visible <<<"$CUDA_VISIBLE_DEVICES"
  picked=()
  for ((g = 0; g < CTEST_RESOURCE_GROUP_COUNT; g++)); do
    var=CTEST_RESOURCE_GROUP_${g}_GPUS
    alloc=${!var:-}
    [[ -n $alloc ]] || continue  # a group without GPUs
    IFS=';' read -r -a parts <<<"$alloc"
    for part in "${parts[@]}"; do
      if ! [[ $part =~ ^id:([0-9]+),slots:[0-9]+$ ]]; then
        echo "ctest_gpus: $var='$alloc': expected id:<index>,slots:<count> (';'-separated)" >&2
        exit 2
      fi
      id=${BASH_REMATCH[1]}
      if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then
        if ((id >= ${#visible[@]})); then
          echo "ctest_gpus: $var names GPU $id, but CUDA_VISIBLE_DEVICES='$CUDA_VISIBLE_DEVICES' has ${#visible[@]}" >&2
          exit 2
        fi
        id=${visible[id]}
      fi
      [[ " ${picked[*]} " == *" $id "* ]] || picked+=("$id")
    done
  done
  if ((${#picked[@]})); then
    CUDA_VISIBLE_DEVICES=$(IFS=,; echo "${picked[*]}")
    export CUDA_VISIBLE_DEVICES
    echo "ctest_gpus: CUDA_VISIBLE_DEVICES=$CUDA_VISIBLE_DEVICES" >&2  # in the log of a failing test
  fi
fi
exec "$@"
