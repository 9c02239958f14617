#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# One call on a GPU node: build, measure, check, summarise. Builds the `cuda`
# preset as scripts/bench/gpu-node.sh does (from .offline/), runs each deck with a
# JSON report while logging the SM clock and power (nvidia-smi), optionally
# reads the SASS instruction mix of the GEMM kernels (cuobjdump) and runs the
# kernel tests or the whole suite, and prints one table of every run
# (GFLOP/s, % of cuBLAS in the same run, verdict) last.
#
# Usage: scripts/bench/gpu-ladder.sh [options] [DECK[:EXTRA_ARGS] ...]
#   --target T      build only target T (repeatable; default: everything, tests included)
#   --fma-peak      the measured multiply-add ceiling first (mmapp-fma-peak, float and double,
#                   2 s launches): fma-peak.txt; its clock and power in summary.txt
#   --kernel-tests  run the kernel tests (every variant on every space against a host reference)
#   --tests         run the whole suite (scripts/bench/gpu-node.sh test) after the decks
#   --tests-by S    give the suite only until S seconds after the start (default 590)
#   --sass          SASS opcode counts of every mmapp GEMM kernel (sass-mix.txt)
#   --set K=V       passed to every deck (repeatable)
#   --ncu DECK      profile the first launch (--ncu-kernel) of DECK with Nsight Compute
#                   (--clock-control none; speed of light, warp stalls, pipes, memory,
#                   shared-memory wavefronts and bank conflicts) into $OUT/ncu-<deck>.txt
#                   (repeatable; after the decks, before the tests)
#   --ncu-kernel RE profile the kernels whose demangled name matches the regex RE instead of
#                   gemm_tiled_warp (e.g. 'gemm_tiled_wgmma|sgemm|xmma': the wgmma tiles and cuBLAS)
#   --ncu-launches N  profile the first N such launches instead (a deck of N kernels,
#                   warm-up 0, one repetition: one launch each)
#   --ncu-source DECK  per-instruction SASS with the warp-stall samples of each instruction
#                   (Nsight Compute's source page, SourceCounters) for the first
#                   --ncu-launches launches (--ncu-kernel) of DECK: ncu-source-<deck>.csv.gz
#   --sass-dump RE  the whole SASS of every GEMM kernel whose demangled name matches the
#                   Python regex RE, with the raw encodings (control bits: stall counts,
#                   barriers, reuse): sass-dump.txt.gz
# A deck may carry extra mmapp arguments after a colon, commas for spaces:
#   inputs/bench/gpu-shapes.yaml:--set,problem.dtype=double
# Environment: OUT (default build/gpu-ladder-out); MMAPP_GPU_BUILD_DIR (build
# there, linked as build/, so a warm machine keeps it when the checkout is
# copied again).
# Output under $OUT, few files (a lease returns at most 8): one report per
# deck (<deck>.json), summary.txt (clock/power per deck, the `tile: auto`
# tables, one row per run), tests.log, and logs.tar.gz (configure, build,
# run, kernel-test logs, clocks.csv, sass-mix.txt).
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
out=${OUT:-$top/build/gpu-ladder-out}
mkdir -p "$out"
logs=$(mktemp -d /tmp/gpu-ladder-logs.XXXXXX)
export PATH=/usr/local/cuda/bin:$PATH
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
export MMAPP_CACHE_DIR=${MMAPP_CACHE_DIR:-/tmp/mmapp-cache}
targets=() kernel_tests=0 tests=0 tests_by=590 sass=0 sets=() decks=() ncu_decks=() ncu_launches=1 ncu_kernel=gemm_tiled_warp
fma_peak=0 ncu_source=() sass_dump=""
while (($#)); do
  case "$1" in
    --target) targets+=("$2"); shift 2 ;;
    --fma-peak) fma_peak=1; shift ;;
    --ncu-source) ncu_source+=("$2"); shift 2 ;;
    --sass-dump) sass_dump=$2; shift 2 ;;
    --kernel-tests) kernel_tests=1; shift ;;
    --tests) tests=1; shift ;;
    --tests-by) tests_by=$2; shift 2 ;;
    --sass) sass=1; shift ;;
    --set) sets+=(--set "$2"); shift 2 ;;
    --ncu) ncu_decks+=("$2"); shift 2 ;;
    --ncu-launches) ncu_launches=$2; shift 2 ;;
    --ncu-kernel) ncu_kernel=$2; shift 2 ;;
    *) decks+=("$1"); shift ;;
  esac
done
bin=$top/build/cuda/miniapp/mmapp
t0=$SECONDS
pack() { tar -czf "$out/logs.tar.gz" -C "$logs" . 2>/dev/null || true; }
trap pack EXIT
if [[ -n "${MMAPP_GPU_BUILD_DIR:-}" && ! -e build ]]; then
  mkdir -p "$MMAPP_GPU_BUILD_DIR" && ln -s "$MMAPP_GPU_BUILD_DIR" build
fi
nvidia-smi --query-gpu=name,memory.total,driver_version,clocks.sm,clocks.max.sm,power.limit --format=csv \
  >"$logs/gpu.txt" 2>&1 || true

archive="$top/.offline/kokkos-3.4.01-sources.tar.gz"
# Provenance: the hash written by scripts/setup/pack-offline-deps.sh wins (the
# copy on a GPU node may carry a .git whose HEAD is not the commit copied:
# the reports of 2026-11-23's first three calls named the landed commit);
# without it, a copy without .git nested in another checkout must not take
# that checkout's hash: git stops at the parent.
export GIT_CEILING_DIRECTORIES
GIT_CEILING_DIRECTORIES=$(dirname "$top")
# MMAPP_LADDER_VARIANTS=ON: the ladder steps and tuning candidates too (ladder
# and tuning-round decks name them; `tile: auto` times them).
cmake --preset cuda -DMMAPP_KOKKOS_SOURCE_ARCHIVE="$archive" -DMMAPP_XXHASH_INCLUDE_DIR="$top/.offline/include" \
  -DMMAPP_GIT_HASH_OVERRIDE="$(cat "$top/.offline/git-hash" 2>/dev/null)" -DMMAPP_LADDER_VARIANTS=ON \
  >"$logs/configure.log" 2>&1 || { tail -n 40 "$logs/configure.log"; exit 1; }
build_targets=()
((${#targets[@]})) && build_targets=(--target "${targets[@]}")
cmake --build --preset cuda "${build_targets[@]}" -j "$(nproc)" >"$logs/build.log" 2>&1 ||
  { grep -E -A5 "error|FAILED" "$logs/build.log" | head -n 80; exit 1; }
echo "gpu-ladder: built ${targets[*]:-everything} in $((SECONDS - t0)) s on $(nproc) cores"

# The SM clock, power and temperature every 200 ms from here to the end of
# the decks; phases.txt names the spans (the multiply-add ceiling, each deck)
# that summary.txt summarises.
nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu --format=csv,noheader,nounits -lms 200 \
  >"$logs/clocks.csv" 2>/dev/null &
smi=$!
touch "$logs/phases.txt"
phase() { echo "$(date '+%Y/%m/%d %H:%M:%S') $1 $2" >>"$logs/phases.txt"; }

if ((fma_peak)); then
  # The ceiling under the card's own clock and power management: long launches.
  phase start fma-peak
  for dt in float double; do
    "$top/build/cuda/miniapp/mmapp-fma-peak" --backend cuda --dtype "$dt" --seconds 2 --repetitions 5 \
      >>"$out/fma-peak.txt" 2>&1 || echo "gpu-ladder: mmapp-fma-peak $dt exited $?"
    sleep 1
  done
  phase end fma-peak
  cat "$out/fma-peak.txt"
fi

if [[ -n "$sass_dump" ]]; then
  # Whole SASS, raw encodings included, of the GEMM kernels matching the regex.
  cuobjdump --dump-sass "$bin" 2>/dev/null | python3 "$top/scripts/analysis/sass_dump.py" "$sass_dump" | gzip >"$out/sass-dump.txt.gz" || echo "gpu-ladder: SASS dump failed"
fi

if ((sass)); then
  # Opcode mix per GEMM kernel: FFMA/DFMA, wide and narrow scratch/global
  # accesses, barriers, local memory (spills), from the binary's SASS.
  cuobjdump --dump-sass "$bin" 2>/dev/null | python3 "$top/scripts/analysis/sass_mix.py" >"$logs/sass-mix.txt" 2>&1 || echo "gpu-ladder: SASS mix failed (see sass-mix.txt)"
fi

if ((kernel_tests)); then
  (cd build/cuda && OMP_NUM_THREADS=4 mpirun -np 1 --oversubscribe tests/mmapp_tests "[kernels]~[verify]" \
     >"$logs/kernel-tests.log" 2>&1) || echo "gpu-ladder: kernel tests FAILED"
  tail -n 4 "$logs/kernel-tests.log"
fi

# The decks (the sampler started above runs on).
reports=()
for spec in "${decks[@]}"; do
  deck=${spec%%:*}
  extra=()
  [[ "$spec" == *:* ]] && IFS=, read -r -a extra <<<"${spec#*:}"
  name=$(basename "$deck" .yaml)
  rep="$out/$name.json"
  [[ -e "$rep" ]] && rep="$out/$name-$SECONDS.json"
  echo "gpu-ladder: $deck ${extra[*]-} (t=$((SECONDS - t0)) s)"
  phase start "$name"
  mpirun -np 1 --oversubscribe "$bin" "$deck" "${extra[@]}" "${sets[@]}" --report "$rep" >"$logs/$name.log" 2>&1 ||
    echo "gpu-ladder: $deck exited $? (see $name.log)"
  phase end "$name"
  [[ -f "$rep" ]] && reports+=("$rep")
done
kill "$smi" 2>/dev/null || true
{
  # Median SM clock and highest power while each phase ran (samples at or above 1 GHz: the kernels').
  python3 "$top/scripts/analysis/clock_summary.py" "$logs/phases.txt" "$logs/clocks.csv" || true
  ((${#reports[@]})) && python3 "$top/scripts/analysis/plot_reports.py" --table "${reports[@]}"
} >"$out/summary.txt" 2>&1

for deck in "${ncu_decks[@]}"; do
  name=$(basename "$deck" .yaml)
  echo "gpu-ladder: ncu on $deck (t=$((SECONDS - t0)) s)"
  ncu_run() {
    mpirun -np 1 --oversubscribe ncu --clock-control none --kernel-name-base demangled -k "regex:$ncu_kernel" \
      --launch-count "$ncu_launches" "$@" "$bin" "$deck" "${sets[@]}" >>"$out/ncu-$name.txt" 2>&1 || echo "gpu-ladder: ncu on $deck exited $?"
  }
  # Sections first (always valid), then single metrics (a name this ncu lacks fails only this pass).
  ncu_run --section SpeedOfLight --section ComputeWorkloadAnalysis --section MemoryWorkloadAnalysis \
    --section MemoryWorkloadAnalysis_Tables --section WarpStateStats --section SchedulerStats --section Occupancy \
    --section LaunchStats --section InstructionStats
  ncu_run --metrics smsp__inst_executed_op_shared_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum,sm__inst_executed_pipe_fp64.avg.pct_of_peak_sustained_active,sm__pipe_fp64_cycles_active.avg.pct_of_peak_sustained_active,sm__pipe_fma_cycles_active.avg.pct_of_peak_sustained_active,smsp__warp_issue_stalled_barrier_per_warp_active.pct,smsp__warp_issue_stalled_short_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct,smsp__warp_issue_stalled_math_pipe_throttle_per_warp_active.pct,smsp__warp_issue_stalled_mio_throttle_per_warp_active.pct,smsp__warp_issue_stalled_wait_per_warp_active.pct,smsp__warp_issue_stalled_not_selected_per_warp_active.pct,smsp__warp_issue_stalled_dispatch_stall_per_warp_active.pct,smsp__warp_issue_stalled_lg_throttle_per_warp_active.pct
  grep -E "Duration|SM Frequency|Compute \(SM\) Throughput|Memory Throughput|wavefronts|inst_executed|pipe_f|stalled|Warp Cycles Per Issued|Issue Slots Busy|Achieved Occupancy|Registers Per" "$out/ncu-$name.txt" | head -n 40
done

for deck in "${ncu_source[@]}"; do
  name=$(basename "$deck" .yaml)
  echo "gpu-ladder: ncu source counters on $deck (t=$((SECONDS - t0)) s)"
  rep=/tmp/ncu-source-$name
  mpirun -np 1 --oversubscribe ncu --clock-control none --kernel-name-base demangled -k "regex:$ncu_kernel" \
    --launch-count "$ncu_launches" --section SourceCounters --section WarpStateStats --section InstructionStats \
    -f -o "$rep" "$bin" "$deck" "${sets[@]}" >"$logs/ncu-source-$name.log" 2>&1 ||
    echo "gpu-ladder: ncu on $deck exited $? (ncu-source-$name.log)"
  { ncu --import "$rep.ncu-rep" --page source --print-source sass --csv 2>&1 ||
      ncu --import "$rep.ncu-rep" --page details 2>&1; } | gzip >"$out/ncu-source-$name.csv.gz"
done

if ((tests)); then
  left=$((tests_by - (SECONDS - t0)))
  echo "gpu-ladder: the whole suite, ${left} s left"
  (OUT="$logs" timeout "$left" "$top/scripts/bench/gpu-node.sh" test >"$out/tests.log" 2>&1) ||
    echo "gpu-ladder: test suite FAILED or cut at the time limit (tests.log)"
  grep -E "tests passed|tests failed|\*\*\*|Failed|Passed" "$out/tests.log" | tail -n 14
fi
echo "gpu-ladder: done in $((SECONDS - t0)) s"
cat "$out/summary.txt"
exit 0
