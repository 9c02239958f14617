#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# scripts/bench/nccl-gpu.sh — NCCL on one node, in one call (estimated, not
# yet run: build 2-3 min, tests about 2, benchmarks about 3 at N = 32768 on
# H200s; `build check test` and `bench table` may be two calls, the build
# stays): builds the cuda preset with NCCL (scripts/bench/gpu-node.sh build,
# MMAPP_ENABLE_NCCL=ON, the mmapp and nccl_duplicate_gpu targets alone), runs
# the NCCL end-to-end tests (tests/e2e/test_nccl.py), then, with 2 GPUs or
# more, SUMMA and the row split over NCCL against the MPI paths and one GPU
# alone, and prints a table of speed-ups last. PASS / FAIL / SKIP lines for
# each step; every report and log goes to $OUT (default build/nccl-gpu-out/).
# On a node of ONE GPU the default is `build check test unit`: the tests
# that one GPU can run (the 1-rank NCCL path, two ranks sharing the GPU:
# transfer nccl refused, auto falling back and saying so, NCCL's own
# duplicate-GPU refusal; the unit cases at 1 rank, NCCL among SUMMA's paths).
#
# Usage: scripts/bench/nccl-gpu.sh [STEP...]
#        (default: build check test bench table; one GPU: build check test unit)
#   build   scripts/bench/gpu-node.sh build, with NCCL, targets mmapp and nccl_duplicate_gpu
#   check   NCCL found by CMake, linked into mmapp; GPUs and topology
#   test    tests/e2e/test_nccl.py: --np 1 (the 1-rank NCCL path; one GPU),
#           --suite shared-gpu --np 2 (two ranks on GPU 0; one GPU), and
#           --np 2 (one GPU per rank: SKIP with fewer than 2 GPUs)
#   unit    build mmapp_tests, then its "[nccl]" cases at NP ranks and "[summa]" at min(NP, 2) (slow: not in the 2-GPU default)
#   bench   (2 GPUs or more) inputs/bench/nccl-32768.yaml (float, N = MMAPP_NCCL_N, cuBLAS local GEMM):
set -uo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
# shellcheck source=scripts/bench/offline-python.sh
source "$top/scripts/bench/offline-python.sh"
mmapp_offline_python "$top"
out=${OUT:-$top/build/nccl-gpu-out}
mkdir -p "$out"
gpus=$(nvidia-smi -L 2>/dev/null | grep -c "^GPU" || true)
np=${MMAPP_NP:-$gpus}
n=${MMAPP_NCCL_N:-32768}
bin=${MMAPP_BIN:-$top/build/cuda/miniapp/mmapp}
deck=inputs/bench/nccl-32768.yaml
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMP_NUM_THREADS=${OMP_NUM_THREADS:-$(($(nproc) / (np > 0 ? np : 1) > 0 ? $(nproc) / (np > 0 ? np : 1) : 1))}
export OMP_PROC_BIND=${OMP_PROC_BIND:-spread} OMP_PLACES=${OMP_PLACES:-threads}
mpirun_args=()
if [[ -n "${MMAPP_MPIRUN_ARGS:-}" ]]; then
  read -r -a mpirun_args <<<"$MMAPP_MPIRUN_ARGS"
else
  mpirun_args=(--map-by "slot:PE=$OMP_NUM_THREADS" --bind-to core)  # each rank its own cores (summa-gpu.sh)
fi
timeout_s=${MMAPP_RUN_TIMEOUT:-240}
fails=0
verdict() {  # verdict NAME RC
  if (($2 == 0)); then echo "PASS $1"; else echo "FAIL $1 (exit $2)"; fails=$((fails + 1)); fi
}

# run LABEL RANKS [env VAR=VALUE...] -- [mmapp args...]: one mpirun; $out/LABEL.{json,log,rc}
run() {
  local label=$1 ranks=$2 envs=()
  shift 2
  while (($#)) && [[ $1 != -- ]]; do envs+=("$1"); shift; done
  shift
  rm -f "$out/$label.json"
  echo "== $label: ${envs[*]} mpirun -np $ranks $bin $deck --set problem.n=$n $* --report $out/$label.json"
  local t0=$SECONDS rc=0
  env "${envs[@]}" timeout "$timeout_s" mpirun -np "$ranks" "${mpirun_args[@]}" "$bin" "$deck" --set "problem.n=$n" "$@" \
    --report "$out/$label.json" >"$out/$label.log" 2>&1 || rc=$?
  echo "   exit $rc after $((SECONDS - t0)) s"
  ((rc == 0)) || tail -n 6 "$out/$label.log" | sed 's/^/   | /'
  echo "$rc" >"$out/$label.rc"
  verdict "$label" "$rc"
}

table() {
  python3 "$top/scripts/analysis/summa_table.py" "$out"
  python3 - "$out" <<'EOF'
import json, os, sys
out = sys.argv[1]
def load(label):
    p = os.path.join(out, label + ".json")
    if not os.path.exists(p):
        return None
    runs = [r for r in json.load(open(p))["runs"] if r["status"] == "ok"]
    return runs[0] if runs else None
one = load("single-gpu")
print("\nspeed-ups (median time of the multiply; vs one GPU = single-gpu's time / this run's):")
print(f"{'run':18} {'transport':10} {'median s':>9} {'TFLOP/s':>8} {'vs 1 GPU':>9} {'comm s':>8}")
for label in ("single-gpu", "summa-nccl", "summa-nccl-none", "summa-mpi", "rows-nccl", "rows-mpi"):
    r = load(label)
    if r is None:
        print(f"{label:18} (no report)")
        continue
    g = r.get("grid") or {}
    tr = g.get("transfer", r.get("transport", "-")) or "-"
    tr = tr.split(":")[0].replace("staged through pinned host memory", "staged")
    ph = r.get("phases_s", {})
    comm = max([x.get("phases_s", {}).get("summa_comm", 0) for x in r.get("ranks", [])] or [0]) if g else ph.get("communication", 0)
    t = r["time_s"]["median"]
    su = f"{one['time_s']['median'] / t:.2f}x" if one else "-"
    print(f"{label:18} {tr:10} {t:9.4f} {r['gflops'] / 1000:8.1f} {su:>9} {comm:8.3f}")
def ratio(a, b, what):
    ra, rb = load(a), load(b)
    if ra and rb:
        print(f"{what}: {rb['time_s']['median'] / ra['time_s']['median']:.3f}x "
              f"({b} {rb['time_s']['median']:.4f} s / {a} {ra['time_s']['median']:.4f} s)")
ratio("summa-nccl", "summa-mpi", "SUMMA: NCCL over the previous default path")
ratio("summa-nccl", "summa-nccl-none", "SUMMA over NCCL: overlap over none")
ra, rb = load("rows-nccl"), load("rows-mpi")
if ra and rb:
    ta, tb = ra.get("transport", "-"), rb.get("transport", "-")
    ca, cb = ra["phases_s"].get("communication", 0), rb["phases_s"].get("communication", 0)
    print(f"row split communication (scatter + broadcast + gather, slowest rank): rows-nccl ({ta}) {ca:.3f} s, "
          f"rows-mpi ({tb}) {cb:.3f} s" + (f" ({cb / ca:.2f}x)" if ca > 0 else ""))
    for k in ("scatter", "broadcast", "gather", "device_to_host", "host_to_device"):
        print(f"  {k:15} rows-nccl {ra['phases_s'].get(k, 0):.3f} s   rows-mpi {rb['phases_s'].get(k, 0):.3f} s")
# Each run used the transport its label names.
bad = []
for label, want in (("summa-nccl", "nccl"), ("summa-nccl-none", "nccl"), ("rows-nccl", "nccl"), ("rows-mpi", "mpi")):
    r = load(label)
    got = None if r is None else ((r.get("grid") or {}).get("transfer") or r.get("transport") or "-").split(":")[0]
    if got != want:
        bad.append(f"{label}: {got} (expected {want})")
print("transports: " + ("; ".join(bad) if bad else "as named"))
sys.exit(1 if bad else 0)
EOF
  verdict "every run used the transport its label names" $?
}

steps=("$@")
if ((${#steps[@]} == 0)); then
  if ((np >= 2)); then steps=(build check test bench table); else steps=(build check test unit); fi
fi
echo "nccl-gpu: $(date -u +%FT%TZ), $gpus GPU(s), NP $np, N $n, OMP_NUM_THREADS $OMP_NUM_THREADS"
if ((np < 1)); then echo "FAIL nccl-gpu: no GPU here (nvidia-smi -L lists none); NP = $np"; exit 1; fi
probe=$top/build/cuda/tests/nccl_duplicate_gpu
# e2e LABEL ARGS...: tests/e2e/test_nccl.py ARGS; exit 77 is SKIP.
e2e() {
  local label=$1 t0=$SECONDS rc=0
  shift
  timeout 420 python3 tests/e2e/test_nccl.py --mmapp "$bin" --mpiexec mpirun --source "$top" \
    --duplicate-probe "$probe" "$@" >"$out/$label.log" 2>&1 || rc=$?
  grep -E "^(PASS|FAIL|SKIP)|passed, |ncclCommInitRank: " "$out/$label.log"
  if ((rc == 77)); then
    echo "SKIP $label (tests/e2e/test_nccl.py $*) ($((SECONDS - t0)) s)"
    return
  fi
  ((rc == 0)) || grep -v "^PASS" "$out/$label.log" | tail -n 30 | sed 's/^/   | /'
  echo "   ($((SECONDS - t0)) s)"
  verdict "$label (tests/e2e/test_nccl.py $*)" "$rc"
}
for step in "${steps[@]}"; do
  case $step in
    build)
      MMAPP_ENABLE_NCCL=ON MMAPP_BUILD_TARGET="mmapp nccl_duplicate_gpu" OUT="$out" scripts/bench/gpu-node.sh build
      rc=$?; verdict build "$rc"; ((rc == 0)) || exit 1 ;;
    check)
      grep -E "mmapp: NCCL" "$out/configure.log"
      ldd "$bin" | grep libnccl >/dev/null; verdict "mmapp linked with libnccl" $?
      nvidia-smi topo -m 2>&1 | head -n 12 >"$out/topo.txt"; cat "$out/topo.txt" ;;
    test)
      e2e e2e_nccl_np1 --np 1
      e2e e2e_nccl_shared_gpu_np2 --np 2 --suite shared-gpu
      e2e e2e_nccl_np2 --np 2 ;;
    unit)
      (cd build/cuda && cmake --build . -j "$(nproc)" --target mmapp_tests >"$out/build-tests.log" 2>&1)
      verdict "build mmapp_tests" $?
      mpirun -np "$np" --oversubscribe build/cuda/tests/mmapp_tests "[nccl]" >"$out/unit-nccl.log" 2>&1
      verdict "mmapp_tests [nccl] at $np ranks" $?; tail -n 3 "$out/unit-nccl.log"
      r=$((np < 2 ? np : 2))
      timeout 400 mpirun -np "$r" --oversubscribe build/cuda/tests/mmapp_tests "[summa]" >"$out/unit-summa.log" 2>&1
      verdict "mmapp_tests [summa] at $r rank(s) (NCCL among the paths: one GPU per rank)" $?
      tail -n 3 "$out/unit-summa.log" ;;
    bench)
      if ((np < 2)); then echo "SKIP bench: needs 2 or more GPUs (NCCL refuses two ranks on one GPU); NP = $np"; continue; fi
      grid=()
      ((np == 2)) && grid=(--set "parallel.decomposition.grid=[1, 2]")
      run summa-nccl "$np" -- "${grid[@]}" --set parallel.decomposition.transfer=nccl
      run summa-mpi "$np" MMAPP_NCCL=off -- "${grid[@]}"
      run single-gpu 1 -- --set parallel.decomposition=even
      run rows-nccl "$np" -- --set parallel.decomposition=even --set parallel.data=scatter
      run rows-mpi "$np" MMAPP_NCCL=off -- --set parallel.decomposition=even --set parallel.data=scatter
      run summa-nccl-none "$np" -- "${grid[@]}" --set parallel.decomposition.transfer=nccl \
        --set parallel.decomposition.overlap=none
      grep -h "panels via\|B and C via" "$out"/summa-*.log "$out"/rows-*.log 2>/dev/null | sort -u ;;
    table) table ;;
    *) echo "nccl-gpu: unknown step '$step' (build, check, test, unit, bench, table)" >&2; exit 2 ;;
  esac
done
echo "nccl-gpu: $fails failure(s)"
((fails == 0))
