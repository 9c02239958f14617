#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# The host micro-kernel's run-time ISA dispatch against builds for one ISA:
# builds (if needed) three configurations of the mmapp executable,
#   portable  cmake --preset openmp                       (dispatch by the CPU)
#   native    cmake --preset openmp-native                (MMAPP_HOST_ARCH=native)
#   v3        cmake --preset openmp -DMMAPP_HOST_ARCH=x86-64-v3 (one ISA, AVX2+FMA)
# then runs inputs/bench/host-isa.yaml (`tiled` and the vendor GEMM, float
# and double, N = 2048 and 4096) ROUNDS times with four binaries each round:
# portable, portable with MMAPP_HOST_ISA=avx2 (the AVX2 path forced),
# native and v3, in an order rotated every round so that each sees the same
# machine, and prints per (dtype, N) the median GFLOP/s of each and the
# ratios portable / native and forced-avx2 / v3
# (scripts/analysis/host_isa.py; it fails on a run that did not verify or
# ran another ISA than asked).
#
# Usage: scripts/bench/host-isa.sh [OUT_DIR] [ROUNDS]
#   OUT_DIR  reports and logs (default build/host-isa-bench), ROUNDS default 3.
# Environment:
#   BUILD_ROOT   where the three builds live (default build/: build/openmp,
#                build/openmp-native, build/openmp-x86-64-v3; existing ones
#                are reused, only the mmapp target is (re)built)
#   BUILD_JOBS   parallel compile jobs (default: nproc)
#   OMP_NUM_THREADS  threads of every run (default: every CPU)
#   MMAPP_ARGS   extra mmapp arguments (e.g. "--set run.repetitions=5")
# Needs what the presets need (the Kokkos sources in ~/.cache/mmapp or a
# network, OpenBLAS, Open MPI); a compiler launcher such as ccache can be
# given with CMAKE_CXX_COMPILER_LAUNCHER in the environment.
# Time: the builds (about 10 minutes each from nothing on 2 cores, seconds
# when present), then about 3 minutes per round on a 2-core AVX-512 machine.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
out=${1:-$top/build/host-isa-bench}
rounds=${2:-3}
build_root=${BUILD_ROOT:-$top/build}
jobs=${BUILD_JOBS:-$(nproc)}
mkdir -p "$out"
rm -f "$out"/*.json "$out"/*.log

launcher=()
[[ -n "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]] && launcher=(-DCMAKE_CXX_COMPILER_LAUNCHER="$CMAKE_CXX_COMPILER_LAUNCHER")

# build NAME PRESET [cmake -D...]: configures (once) and builds mmapp in $build_root/NAME.
build() {
  local name=$1 preset=$2
  shift 2
  local dir=$build_root/$name
  if [[ ! -f $dir/build.ninja ]]; then
    echo "host-isa: configuring $dir (preset $preset $*)" >&2
    (cd "$top" && cmake --preset "$preset" -B "$dir" "${launcher[@]}" "$@" >"$out/configure-$name.log" 2>&1) ||
      { tail -20 "$out/configure-$name.log" >&2; exit 1; }
  fi
  echo "host-isa: building $dir/miniapp/mmapp" >&2
  nice cmake --build "$dir" --target mmapp -j "$jobs" >"$out/build-$name.log" 2>&1 ||
    { tail -20 "$out/build-$name.log" >&2; exit 1; }
}
build openmp openmp
build openmp-native openmp-native
build openmp-x86-64-v3 openmp -DMMAPP_HOST_ARCH=x86-64-v3

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(nproc)}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
unset MMAPP_HOST_ISA
# name:binary:MMAPP_HOST_ISA value ("" for none)
configs=("portable:$build_root/openmp/miniapp/mmapp:"
         "portable-avx2:$build_root/openmp/miniapp/mmapp:avx2"
         "native:$build_root/openmp-native/miniapp/mmapp:"
         "v3:$build_root/openmp-x86-64-v3/miniapp/mmapp:")
n=${#configs[@]}
start=$SECONDS
for ((r = 1; r <= rounds; ++r)); do
  for ((i = 0; i < n; ++i)); do
    IFS=: read -r name bin isa <<<"${configs[$(((i + r - 1) % n))]}"
    echo "host-isa: round $r/$rounds: $name (load $(cut -d' ' -f1 /proc/loadavg))" >&2
    # shellcheck disable=SC2086 # MMAPP_ARGS is a list of words
    if ! env ${isa:+MMAPP_HOST_ISA=$isa} "$bin" "$top/inputs/bench/host-isa.yaml" \
        --report "$out/$name-$r.json" ${MMAPP_ARGS:-} >"$out/$name-$r.log" 2>&1; then
      echo "host-isa: $name round $r failed:" >&2
      tail -20 "$out/$name-$r.log" >&2
      exit 1
    fi
  done
done
echo "host-isa: $rounds round(s) in $((SECONDS - start)) s, $OMP_NUM_THREADS thread(s), $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2-)" >&2
python3 "$top/scripts/analysis/host_isa.py" "$out" "$rounds"
