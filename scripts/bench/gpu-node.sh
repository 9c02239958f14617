#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Builds the `cuda` preset on a GPU node that reaches no package archive
# (Ubuntu 24.04, CUDA 13.0, CMake 4.x, OpenMPI, Catch2 3.4 preinstalled),
# from the Kokkos sources carried beside the checkout in .offline/ (made
# by scripts/setup/pack-offline-deps.sh), then runs what is asked. Every GPU
# figure of this project comes from this script.
#
# Usage: scripts/bench/gpu-node.sh [--np N] COMMAND...
#   build                      configure + build only (prints the build time)
#   info                       nvidia-smi, and the Kokkos configuration from mmapp
#   test                       the whole suite through ctest but the Slurm test,
#                              each test on GPUs of its own (CTest's resource allocation)
#   run DECK [mmapp args...]   mpirun -np N build/cuda/miniapp/mmapp DECK ...
# Several commands may follow one another: `build test run inputs/3072.yaml`.
# Environment: OUT (if set) receives logs and reports; MMAPP_BUILD_JOBS;
# MMAPP_PRESET (cuda, or cuda-native for host code built for the node's CPU:
# the OpenMP backend's benchmarks); MMAPP_CTEST_ARGS (extra ctest arguments
# for `test`, e.g. "-j4 -R unit"); MMAPP_BUILD_TARGET (e.g. mmapp: build the
# executable alone, not the tests; several targets blank-separated);
# MMAPP_ENABLE_NCCL (ON: NCCL is on the image, /usr/include/nccl.h; AUTO or OFF);
# MMAPP_TEST_GPU_SLOTS (tests at once per GPU in `test`) and MMAPP_TEST_JOBS (its -j).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
# shellcheck source=scripts/bench/offline-python.sh
source "$top/scripts/bench/offline-python.sh"
mmapp_offline_python "$top"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export MMAPP_CACHE_DIR=${MMAPP_CACHE_DIR:-/tmp/mmapp-cache}
export PATH=/usr/local/cuda/bin:$PATH
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
out=${OUT:-$top/build/gpu-node-out}
mkdir -p "$out"
np=1
archive="$top/.offline/kokkos-3.4.01-sources.tar.gz"
preset=${MMAPP_PRESET:-cuda}
bin="$top/build/$preset/miniapp/mmapp"

build() {
  if [[ ! -f "$archive" && ! -d "$MMAPP_CACHE_DIR/kokkos-3.4.01" ]]; then
    echo "gpu-node: $archive is missing; run scripts/setup/pack-offline-deps.sh on a machine with apt and carry .offline/" >&2
    exit 1
  fi
  local t0=$SECONDS
  cmake --preset "$preset" -DMMAPP_KOKKOS_SOURCE_ARCHIVE="$archive" -DMMAPP_XXHASH_INCLUDE_DIR="$top/.offline/include" \
    -DMMAPP_GIT_HASH_OVERRIDE="$(cat "$top/.offline/git-hash" 2>/dev/null)" -DMMAPP_ENABLE_NCCL="${MMAPP_ENABLE_NCCL:-ON}" \
    >"$out/configure.log" 2>&1 ||
    { tail -n 40 "$out/configure.log"; exit 1; }
  cmake --build --preset "$preset" -j "${MMAPP_BUILD_JOBS:-$(nproc)}" ${MMAPP_BUILD_TARGET:+--target $MMAPP_BUILD_TARGET} >"$out/build.log" 2>&1 ||
    { grep -E -A5 "error|FAILED" "$out/build.log" | head -n 80; exit 1; }
  echo "gpu-node: $preset preset configured and built in $((SECONDS - t0)) s on $(nproc) cores"
}

# mpirun options giving each rank its own nproc/np cores (jobs/lib.sh does
# the same): ranks sharing cores under OMP_PROC_BIND all bind their main
# thread to the first one (see summa-gpu.sh).
binding() {
  local pe=$(($(nproc) / np))
  ((pe >= 1)) && echo "--map-by slot:PE=$pe --bind-to core" || echo "--oversubscribe --bind-to none"
}

# CTest's resource spec for `test` (tests/CMakeLists.txt, mmapp_gpu_slots):
# the GPUs this script sees (CUDA_VISIBLE_DEVICES when set, else nvidia-smi's),
# MMAPP_TEST_GPU_SLOTS tests at once on each: 1 where there are two GPUs or
# more (each test has its GPUs to itself), 2 on one GPU (a two-rank test asks
# two slots; with more than one, a two-rank test may get one GPU twice, and
# e2e_nccl_np2, which needs two, skips). Sets test_jobs, ctest's -j: two per
# slot, the CPU-only tests running beside.
gpu_spec() {
  local n slots i sep=""
  if [[ -n ${CUDA_VISIBLE_DEVICES+set} ]]; then
    n=$(tr ',' '\n' <<<"$CUDA_VISIBLE_DEVICES" | grep -c . || true)
  else
    n=$(nvidia-smi -L 2>/dev/null | grep -c '^GPU' || true)
  fi
  ((n >= 1)) || { echo "gpu-node: no GPU visible (nvidia-smi -L, CUDA_VISIBLE_DEVICES)" >&2; exit 1; }
  slots=${MMAPP_TEST_GPU_SLOTS:-$((n >= 2 ? 1 : 2))}
  {
    printf '{"version": {"major": 1, "minor": 0}, "local": [{"gpus": ['
    for ((i = 0; i < n; i++)); do printf '%s{"id": "%d", "slots": %d}' "$sep" "$i" "$slots"; sep=", "; done
    printf ']}]}\n'
  } >"$1"
  test_jobs=$((2 * n * slots))
  echo "gpu-node: ctest on $n GPU(s), $slots test(s) at once on each, -j ${MMAPP_TEST_JOBS:-$test_jobs}"
}

while (($#)); do
  case "$1" in
    --np) np=$2; shift 2 ;;
    build) build; shift ;;
    info)
      nvidia-smi --query-gpu=index,name,memory.total,driver_version --format=csv
      mpirun -np "$np" $(binding) "$bin" --kokkos-info 2>&1 | tee "$out/info.log"
      shift ;;
    test)
      # The Slurm harness needs apt (absent here): CI runs it. The GPU tests
      # take their GPUs through CTest's resource allocation (ctest_gpus.sh).
      gpu_spec "$out/ctest-gpus.json"
      # shellcheck disable=SC2086 # MMAPP_CTEST_ARGS is a list of words
      (cd "build/$preset" && ctest --output-on-failure -LE slurm --resource-spec-file "$out/ctest-gpus.json" \
        -j "${MMAPP_TEST_JOBS:-$test_jobs}" ${MMAPP_CTEST_ARGS:-} 2>&1 | tee -a "$out/ctest.log")
      shift ;;
    run)
      deck=$2; shift 2
      args=()
      while (($#)) && [[ "$1" != build && "$1" != info && "$1" != test && "$1" != run && "$1" != --np ]]; do
        args+=("$1"); shift
      done
      mpirun -np "$np" $(binding) "$bin" "$deck" "${args[@]}" 2>&1 | tee -a "$out/run.log"
      ;;
    *) echo "gpu-node: unknown command '$1' (build, info, test, run DECK ...)" >&2; exit 2 ;;
  esac
done
