#!/usr/bin/env bash
# Registers and spills of every GPU GEMM kernel, without a GPU: compiles the
# translation unit that holds the kernels (miniapp/kernels/instantiate_cuda.cpp)
# with the configured `cuda` build's own command plus -Xptxas=-v, into a scratch
# object (the build directory is not touched), and prints one line per
# gemm_tiled_warp / tiled / gemv kernel: dtype, GpuTile parameters, launch
# bounds, registers, spill stores/loads. Also prints the compile's wall time.
#
# Usage: scripts/ptxas-check.sh [BUILD_DIR] [SOURCE]
#   BUILD_DIR  a configured cuda build (default build/cuda; `cmake --preset cuda` first, with
#              -DMMAPP_LADDER_VARIANTS=ON for the ladder and tuning candidates too)
#   SOURCE     the translation unit (default miniapp/kernels/instantiate_cuda.cpp)
# Environment: OUT (default: a temporary directory) receives ptxas.log and registers.txt.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
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
python3 - "$out/ptxas.log" >"$out/registers.txt" <<'EOF'
import re, sys
lines = open(sys.argv[1]).read().split('\n')
rows = []
for i, l in enumerate(lines):
    m = re.search(r"Function properties for (\S+)", l)
    if not m or 'mmapp' not in m.group(1):
        continue
    name = m.group(1)
    k = re.search(r'mmapp\d*(gemm_tiled_warp|gemm_tiled|gemv_cols|gemv_rows|gemv_dot|splitk_reduce|gemm_shared|gemm_naive)', name)
    if not k:
        continue
    dtype = 'double' if re.search(r'4CudaE?dE', name) else 'float' if re.search(r'4CudaE?fE', name) else '?'
    args = ''
    g = re.search(r'GpuTileI(.*?)EEENS_4Cuda', name)
    if g:
        args = re.sub(r'L[ib]', '', g.group(1)).replace('E', ',')
    else:
        g = re.search(re.escape(k.group(1)) + r'I(.*?)NS_4Cuda', name)
        if g:
            args = re.sub(r'L[ib]', '', g.group(1)).replace('E', ',').strip(',')
    lb = re.search(r'LaunchBoundsILj(\d+)ELj(\d+)', name)
    sp = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', lines[i + 1])
    r = re.search(r'Used (\d+) registers', lines[i + 2])
    rows.append((k.group(1), dtype, args, f"lb {lb.group(1)}x{lb.group(2)}" if lb else "", int(r.group(1)),
                 int(sp.group(1)), int(sp.group(2))))
print(f"{'kernel':16s} {'dtype':6s} {'GpuTile / template args':52s} {'bounds':10s} {'regs':>4s} {'spill st/ld':>11s}")
for row in sorted(set(rows)):
    print(f"{row[0]:16s} {row[1]:6s} {row[2]:52s} {row[3]:10s} {row[4]:4d} {row[5]:5d}/{row[6]:<5d}")
EOF
cat "$out/registers.txt"
echo "compile of $rel with -Xptxas=-v: $((end - start)) s wall; logs in $out" >&2
