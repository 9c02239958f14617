#!/usr/bin/env bash
# One call on a GPU node: build, check, measure, summarise. Builds the `cuda`
# preset as scripts/gpu-node.sh does (from .offline/), optionally runs the
# CUDA kernel tests or the whole suite, runs each deck with a JSON report,
# reads the compiler's register/spill report and the SASS instruction mix of
# the GEMM kernels (cuobjdump, no device time), and prints one table of every
# run (GFLOP/s, % of cuBLAS in the same run, verdict) last.
#
# Usage: scripts/gpu-ladder.sh [options] [DECK[:EXTRA_ARGS] ...]
#   --target T     build only target T (default: everything, tests included)
#   --kernel-tests run the kernel tests (every variant on every space against a host reference)
#   --tests        run the whole suite (scripts/gpu-node.sh test)
#   --sass         SASS opcode counts of every mmapp GEMM kernel -> $OUT/sass-mix.txt
#   --set K=V      passed to every deck (repeatable)
# Environment: OUT; MMAPP_GPU_BUILD_DIR (build there, linked as build/, so a
# warm machine keeps it when the checkout is copied again).
# A deck may carry extra mmapp arguments after a colon, commas for spaces:
#   inputs/bench/gpu-auto-square.yaml:--set,problem.dtype=double
# Output (under $OUT, default build/gpu-ladder-out): build and run logs,
# one report per deck (<deck>[-N].json), summary.txt; everything also packed
# into results.tar.gz (a lease returns only a few files).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
out=${OUT:-$top/build/gpu-ladder-out}
mkdir -p "$out"
export OUT="$out" PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
export MMAPP_CACHE_DIR=${MMAPP_CACHE_DIR:-/tmp/mmapp-cache}
target="" kernel_tests=0 tests=0 sass=0 sets=() decks=()
while (($#)); do
  case "$1" in
    --target) target=$2; shift 2 ;;
    --kernel-tests) kernel_tests=1; shift ;;
    --tests) tests=1; shift ;;
    --sass) sass=1; shift ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    *) decks+=("$1"); shift ;;
  esac
done
bin=$top/build/cuda/miniapp/mmapp
t0=$SECONDS
# MMAPP_GPU_BUILD_DIR: keep the build outside a checkout that is re-copied between calls.
if [[ -n "${MMAPP_GPU_BUILD_DIR:-}" && ! -e build ]]; then
  mkdir -p "$MMAPP_GPU_BUILD_DIR" && ln -s "$MMAPP_GPU_BUILD_DIR" build
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv \
  >"$out/gpu.txt" 2>&1 || true
if [[ -z "$target" ]]; then
  scripts/gpu-node.sh build
else
  archive="$top/.offline/kokkos-3.4.01-sources.tar.gz"
  cmake --preset cuda -DMMAPP_KOKKOS_SOURCE_ARCHIVE="$archive" -DMMAPP_XXHASH_INCLUDE_DIR="$top/.offline/include" \
    >"$out/configure.log" 2>&1 || { tail -n 40 "$out/configure.log"; exit 1; }
  cmake --build --preset cuda --target "$target" -j "$(nproc)" >"$out/build.log" 2>&1 ||
    { grep -E -A5 "error|FAILED" "$out/build.log" | head -n 80; exit 1; }
  echo "gpu-ladder: built $target in $((SECONDS - t0)) s"
fi

if ((sass)); then
  # Opcode mix per GEMM kernel: FFMA/DFMA, wide and narrow scratch/global
  # accesses, barriers, local memory (spills), from the binary's SASS.
  cuobjdump --dump-sass "$bin" 2>/dev/null | python3 -c '
import re, sys, subprocess, collections
fun, mix, order = None, {}, []
for line in sys.stdin:
    m = re.match(r"\s*Function : (\S+)", line)
    if m:
        fun = m.group(1) if re.search(r"gemm_tiled|gemv_|splitk", m.group(1)) else None
        if fun: mix[fun] = collections.Counter(); order.append(fun)
        continue
    if fun:
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
        if m: mix[fun][m.group(1)] += 1
keys = ["FFMA", "DFMA", "LDS.128", "LDS.64", "LDS", "STS", "STS.128", "LDG.E.128.CONSTANT", "LDG.E.128", "LDG.E.CONSTANT", "LDG.E", "LD.E", "BAR.SYNC.DEFER_BLOCKING", "LDL", "STL"]
print("kernel | " + " | ".join(k.replace(".DEFER_BLOCKING", "").replace(".CONSTANT", ".C") for k in keys) + " | total")
for f in order:
    d = subprocess.run(["c++filt", f], capture_output=True, text=True).stdout.strip()
    k = re.search(r"(gemm_tiled_warp<mmapp::GpuTile<[^>]*>|gemm_tiled<[^>]*>|gemv_\w+<[^>]*>|splitk_reduce<[^>]*>), Kokkos::Cuda, (\w+)", d) or re.search(r"(gemm_tiled\w*<[^>]*>|gemv_\w+<[^>]*>)", d)
    name = (k.group(1) + " " + (k.group(2) if k.lastindex and k.lastindex > 1 else "")) if k else d[:80]
    c = mix[f]
    print(name.replace("mmapp::", "") + " | " + " | ".join(str(c.get(x, 0)) for x in keys) + " | " + str(sum(c.values())))
' >"$out/sass-mix.txt" 2>&1 || echo "gpu-ladder: SASS mix failed (see sass-mix.txt)"
  echo "gpu-ladder: SASS mix of $(($(wc -l <"$out/sass-mix.txt") - 1)) kernels in sass-mix.txt"
fi

if ((kernel_tests)); then
  (cd build/cuda && OMP_NUM_THREADS=4 mpirun -np 1 --oversubscribe tests/mmapp_tests "[kernels]~[verify]" \
     >"$out/kernel-tests.log" 2>&1) || echo "gpu-ladder: kernel tests FAILED"
  tail -n 4 "$out/kernel-tests.log"
fi
if ((tests)); then
  (OUT="$out" scripts/gpu-node.sh test >"$out/tests.log" 2>&1) || echo "gpu-ladder: test suite FAILED"
  grep -E "tests passed|tests failed|Failed|Passed|\*\*\*" "$out/tests.log" | tail -n 12
fi

reports=()
i=0
for spec in "${decks[@]}"; do
  deck=${spec%%:*}
  extra=()
  [[ "$spec" == *:* ]] && IFS=, read -r -a extra <<<"${spec#*:}"
  name=$(basename "$deck" .yaml)
  i=$((i + 1))
  rep="$out/$name-$i.json"
  echo "gpu-ladder: $deck ${extra[*]-} (t=$((SECONDS - t0)) s)"
  mpirun -np 1 --oversubscribe "$bin" "$deck" "${extra[@]}" "${sets[@]}" --report "$rep" >"$out/$name-$i.log" 2>&1 ||
    echo "gpu-ladder: $deck exited $? (see $name-$i.log)"
  [[ -f "$rep" ]] && reports+=("$rep")
done
if ((${#reports[@]})); then
  python3 scripts/plot_reports.py --table "${reports[@]}" >"$out/summary.txt" || true
fi
tar -czf "$out/results.tar.gz" -C "$out" --exclude results.tar.gz . 2>/dev/null || true
echo "gpu-ladder: done in $((SECONDS - t0)) s"
[[ -f "$out/summary.txt" ]] && cat "$out/summary.txt"
exit 0
