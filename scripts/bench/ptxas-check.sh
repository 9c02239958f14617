#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Registers and spills of every GPU GEMM kernel, without a GPU: compiles the
# translation unit that holds the kernels (miniapp/kernels/instantiate_cuda.cpp)
# with the configured `cuda` build's own command plus -Xptxas=-v, into a scratch
# object (the build directory is not touched), and prints one line per
# gemm_tiled_warp / tiled / gemv kernel: dtype, GpuTile parameters, launch
# bounds, registers, spill stores/loads. Also prints the compile's wall time.
#
# Usage: scripts/bench/ptxas-check.sh [BUILD_DIR] [SOURCE]
#   BUILD_DIR  a configured cuda build (default build/cuda; `cmake --preset cuda` first, with
#              -DMMAPP_LADDER_VARIANTS=ON for the ladder and tuning candidates too)
#   SOURCE     the translation unit (default miniapp/kernels/instantiate_cuda.cpp)
# Environment: OUT (default: a temporary directory) receives ptxas.log and registers.txt.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
build=${1:-$top/build/cuda}
src=${2:-$top/miniapp/kernels/instantiate_cuda.cpp}
export PATH=/usr/local/cuda/bin:$PATH
out=${OUT:-$(mktemp -d /tmp/ptxas-check.XXXXXX)}
mkdir -p "$out"
rel=${src#"$top"/}
obj=miniapp/CMakeFiles/mmapp_core.dir/${rel#miniapp/}.o
cmd=$(cd "$build" && ninja -t commands "$obj" | tail -1)
# Same flags, a scratch object, no dependency file, ptxas verbose.
cmd=$(sed -e "s# -MD -MT [^ ]* -MF [^ ]*##" -e "s# -o [^ ]* -c [^ ]*\$##" <<<"$cmd")
echo "compiling $rel with ptxas -v (this takes minutes)..." >&2
start=$(date +%s)
(cd "$build" && $cmd -Xptxas=-v -o "$out/scratch.o" -c "$src") >"$out/ptxas.log" 2>&1
end=$(date +%s)
rm -f "$out/scratch.o"
python3 "$top/scripts/analysis/ptxas_registers.py" "$out/ptxas.log" >"$out/registers.txt"
cat "$out/registers.txt"
echo "compile of $rel with -Xptxas=-v: $((end - start)) s wall; logs in $out" >&2
