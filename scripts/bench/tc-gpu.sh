#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# One call on a GPU node for the tensor-core kernels (issue 21,
# kernels/gpu/tiled_gpu_mma.hpp): builds the `cuda` preset (the ladder
# variants off) from .offline/ as scripts/bench/gpu-node.sh does, only the
# targets needed (mmapp, mmapp_tests); prints the tensor-core instructions in
# the binary's GEMM kernels (cuobjdump: DMMA, HMMA ... TF32); runs the GPU
# Catch2 cases of the new variants ("[tensor-core]": DMMA and 3xTF32 against
# a host reference on odd shapes, K tails, misaligned rows, split-K, A near
# FLT_MIN / DBL_MIN) and the shape rule's; then the decks
# inputs/bench/tc-double.yaml and tc-float.yaml (DMMA vs cuBLAS DGEMM, 3xTF32
# vs cuBLAS SGEMM, the SIMT variants forced alongside, N = 4096 and 8192 and
# thin shapes) with NVIDIA_TF32_OVERRIDE=0, and prints one table per deck
# (GFLOP/s, % of cuBLAS in the same run, the verifier's verdict); last, with
# the time left before --by, the whole "[kernels]" suite on the GPU.
# Target: under 500 s wall on one H200 (16 cores).
#
# Usage: scripts/bench/tc-gpu.sh [--by SECONDS] [--decks-only] [DECK ...]
#   --by S        stop starting work S seconds after the start (default 480)
#   --decks-only  build mmapp alone and run the decks, no tests (the audit decks:
#                 inputs/bench/gpu-audit-*.yaml, scripts/bench/audit_decks.py)
#   DECK          decks to run instead of the two above
# Environment: OUT (default build/tc-gpu-out) receives summary.txt (the table,
# then jobs/summarize.py --floor: issue 21's floors, float 80 and double 70%
# of cuBLAS, and the runs under them), floors.txt (that last part alone), the
# reports (<deck>.json), tests.log and logs.tar.gz (configure, build, runs).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
# shellcheck source=scripts/bench/offline-python.sh
source "$top/scripts/bench/offline-python.sh"
mmapp_offline_python "$top"
out=${OUT:-$top/build/tc-gpu-out}
mkdir -p "$out"
logs=$(mktemp -d /tmp/tc-gpu-logs.XXXXXX)
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
export MMAPP_CACHE_DIR=${MMAPP_CACHE_DIR:-/tmp/mmapp-cache}
export NVIDIA_TF32_OVERRIDE=0  # cuBLAS SGEMM in FP32, not TF32
by=480 decks=() run_tests=1
while (($#)); do
  case "$1" in
    --by) by=$2; shift 2 ;;
    --decks-only) run_tests=0; shift ;;
    -*) echo "tc-gpu: unknown option '$1' (--by SECONDS, --decks-only, then decks)" >&2; exit 2 ;;
    *) decks+=("$1"); shift ;;
  esac
done
((${#decks[@]})) || decks=(inputs/bench/tc-double.yaml inputs/bench/tc-float.yaml)
t0=$SECONDS
pack() { tar -czf "$out/logs.tar.gz" -C "$logs" . 2>/dev/null || true; }
trap pack EXIT
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.max.sm --format=csv 2>&1 | tee "$logs/gpu.txt" || true

archive="$top/.offline/kokkos-3.4.01-sources.tar.gz"
export GIT_CEILING_DIRECTORIES
GIT_CEILING_DIRECTORIES=$(dirname "$top")
cmake --preset cuda -DMMAPP_KOKKOS_SOURCE_ARCHIVE="$archive" -DMMAPP_XXHASH_INCLUDE_DIR="$top/.offline/include" \
  -DMMAPP_GIT_HASH_OVERRIDE="$(cat "$top/.offline/git-hash" 2>/dev/null)" -DMMAPP_LADDER_VARIANTS=OFF \
  >"$logs/configure.log" 2>&1 || { tail -n 40 "$logs/configure.log"; exit 1; }
targets=(mmapp mmapp_tests)
((run_tests)) || targets=(mmapp)
cmake --build --preset cuda --target "${targets[@]}" -j "$(nproc)" >"$logs/build.log" 2>&1 ||
  { grep -E -A5 "error|FAILED" "$logs/build.log" | head -n 80; exit 1; }
echo "tc-gpu: built ${targets[*]} in $((SECONDS - t0)) s on $(nproc) cores"
bin=$top/build/cuda/miniapp/mmapp
tests=$top/build/cuda/tests/mmapp_tests

# Tensor-core instructions per GEMM kernel (mangled names with "mma" or "warp").
{
  echo "tensor-core and FMA instructions in the GEMM kernels (cuobjdump --dump-sass; HGMMA: wgmma):"
  cuobjdump --dump-sass "$bin" 2>/dev/null | awk '
    /Function :/ { f = $3 }
    /DMMA/ { d[f]++ } /HMMA/ { h[f]++ } /HGMMA/ { g[f]++ } /DFMA/ { df[f]++ } /FFMA/ { ff[f]++ } /LDL|STL/ { l[f]++ }
    END { for (k in d) seen[k] = 1; for (k in h) seen[k] = 1; for (k in g) seen[k] = 1
          for (k in seen) printf "  DMMA %5d  HMMA %5d  HGMMA %5d  DFMA %5d  FFMA %5d  local %3d  %s\n", d[k], h[k], g[k], df[k], ff[k], l[k], substr(k, 1, 140) }'
} 2>&1 | tee "$out/sass-tc.txt"

# The new variants on the GPU against the host reference, and the shape rule's tests.
if ((run_tests)); then
  (cd build/cuda && OMP_NUM_THREADS=8 timeout 150 mpirun -np 1 --oversubscribe "$tests" "[tensor-core],[rule]" \
    >"$out/tests.log" 2>&1) && echo "tc-gpu: [tensor-core] and [rule] tests passed" ||
    echo "tc-gpu: [tensor-core] or [rule] tests FAILED (tests.log)"
  grep -E "test cases|assertions|FAILED|with expansion" "$out/tests.log" | head -n 30 || true
fi

reports=()
for deck in "${decks[@]}"; do
  name=$(basename "$deck" .yaml)
  left=$((by - (SECONDS - t0)))
  ((left > 20)) || { echo "tc-gpu: no time left for $deck"; continue; }
  echo "tc-gpu: $deck (t=$((SECONDS - t0)) s)"
  timeout "$left" mpirun -np 1 --oversubscribe "$bin" "$deck" --report "$out/$name.json" >"$logs/$name.log" 2>&1 ||
    { echo "tc-gpu: $deck exited $? (see $name.log)"; tail -n 20 "$logs/$name.log"; }
  [[ -f "$out/$name.json" ]] && reports+=("$out/$name.json")
done
# The table (plot_reports.py --table is summarize.py --detail), its floors at the end, also on their own.
((${#reports[@]})) && python3 "$top/jobs/summarize.py" --detail --floor float=80 --floor double=70 "${reports[@]}" \
  >"$out/summary.txt" 2>&1
[[ -f "$out/summary.txt" ]] && cat "$out/summary.txt" && sed -n '/^floors:/,$p' "$out/summary.txt" >"$out/floors.txt"

# Every kernel variant against the host reference (GPU and host spaces), in the time left.
left=$((by - (SECONDS - t0)))
if ((run_tests && left > 30)); then
  echo "tc-gpu: [kernels] suite, ${left} s left"
  (cd build/cuda && OMP_NUM_THREADS=8 timeout "$left" mpirun -np 1 --oversubscribe "$tests" "[kernels]~[tensor-core]~[verify]" \
    >>"$out/tests.log" 2>&1) && echo "tc-gpu: [kernels] passed" || echo "tc-gpu: [kernels] FAILED or cut at the limit (tests.log)"
  grep -E "test cases|assertions" "$out/tests.log" | tail -n 2 || true
fi
echo "tc-gpu: done in $((SECONDS - t0)) s"
