#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
#
# tests/install/test_install.sh BUILD_DIR — the install tree works on its own:
# `cmake --install BUILD_DIR --prefix <tmp>` (cmake/MmappInstall.cmake), then,
# from a folder outside the source and build trees:
#   - the files a user needs are there (apps, decks, jobs, docs, licence) and
#     the in-tree static Kokkos is not (no headers or CMake packages);
#   - the installed mmapp loads the same host BLAS as the build's (RPATH);
#   - the installed mmapp runs an installed deck with small sizes (--set):
#     exit 0 and a complete report whose every run is verified;
#   - the installed mmapp-fma-peak runs and checks its launches, prints its
#     tensor-core lines (or says they are not available), and --what selects;
#   - the installed jobs/cpu-node.sbatch, run without Slurm, finds the
#     installed mmapp (jobs/install-paths.sh) and writes its report, also
#     after the prefix is moved elsewhere.
# Exit 0 when all hold, 1 with a message naming what failed.
set -euo pipefail
build=$(cd "${1:?usage: test_install.sh BUILD_DIR}" && pwd)
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmapp-install-test.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
prefix=$tmp/prefix
fail() {
  echo "install test: FAILED: $*" >&2
  exit 1
}

cmake --install "$build" --prefix "$prefix" >"$tmp/install.log" 2>&1 || {
  cat "$tmp/install.log"
  fail "cmake --install $build --prefix $prefix"
}

for f in bin/mmapp bin/mmapp-fma-peak share/mmapp/inputs/default.yaml share/mmapp/inputs/example.yaml \
  share/mmapp/inputs/bench share/mmapp/jobs/lib.sh share/mmapp/jobs/site.sh share/mmapp/jobs/summarize.py \
  share/mmapp/jobs/install-paths.sh share/mmapp/scripts/analysis/plot_reports.py \
  share/doc/mmapp/README.md share/doc/mmapp/LICENSE share/doc/mmapp/CITATION.cff share/doc/mmapp/CHANGELOG.md \
  share/doc/mmapp/docs/performance.md share/doc/mmapp/docs/verification.md; do
  [[ -e "$prefix/$f" ]] || fail "$f is not installed"
done
for f in bin/mmapp bin/mmapp-fma-peak share/mmapp/jobs/cpu-node.sbatch share/mmapp/jobs/submit.sh; do
  [[ -x "$prefix/$f" ]] || fail "$f is not executable"
done
if ! grep -q '^BUILD_SHARED_LIBS:BOOL=ON' "$build/CMakeCache.txt"; then
  for f in include/Kokkos_Core.hpp include/KokkosBlas3_gemm.hpp lib/cmake/Kokkos lib64/cmake/Kokkos; do
    [[ ! -e "$prefix/$f" ]] || fail "$f is installed (the static in-tree Kokkos should stay out of the prefix)"
  done
fi

# The same host BLAS as the build (the OpenMP OpenBLAS lives outside the default search path).
blas_build=$(ldd "$build/miniapp/mmapp" | awk '/libopenblas/ {print $3}')
blas_inst=$(ldd "$prefix/bin/mmapp" | awk '/libopenblas/ {print $3}')
[[ "$blas_build" == "$blas_inst" ]] ||
  fail "the installed mmapp loads '$blas_inst', the build's loads '$blas_build' (INSTALL_RPATH)"
if ldd "$prefix/bin/mmapp" | grep -q 'not found'; then
  ldd "$prefix/bin/mmapp"
  fail "the installed mmapp has unresolved libraries"
fi

export OMP_NUM_THREADS=${OMP_NUM_THREADS:-1} OMP_PROC_BIND=${OMP_PROC_BIND:-false}
mkdir "$tmp/run"
cd "$tmp/run"
small=(--set 'problem.sizes=[48, {m: 17, n: 33, k: 9}]' --set run.repetitions=2 --set run.warmup=0)
"$prefix/bin/mmapp" "$prefix/share/mmapp/inputs/default.yaml" "${small[@]}" --report "$tmp/run/report.json" \
  >"$tmp/run/mmapp.log" 2>&1 || {
  cat "$tmp/run/mmapp.log"
  fail "installed mmapp on the installed default.yaml exited $?"
}
python3 - "$tmp/run/report.json" <<'EOF' || fail "the installed mmapp's report"
import json, sys
r = json.load(open(sys.argv[1]))
assert r["complete"] is True, "report not complete"
runs = r["runs"]
shapes = {(x["m"], x["n"], x["k"]) for x in runs}
assert shapes == {(48, 48, 48), (17, 33, 9)}, f"sizes {shapes}"
bad = [(x["kernel"], x["m"]) for x in runs if not x.get("verified")]
assert runs and not bad, f"runs not verified: {bad}"
print(f"install test: installed mmapp: {len(runs)} runs, all verified")
EOF

"$prefix/bin/mmapp-fma-peak" --seconds 0.02 --repetitions 1 >"$tmp/run/peak.log" 2>&1 || {
  cat "$tmp/run/peak.log"
  fail "installed mmapp-fma-peak exited $?"
}
if ! grep -q 'float: .*checked' "$tmp/run/peak.log" || ! grep -q 'double: .*checked' "$tmp/run/peak.log"; then
  fail "installed mmapp-fma-peak printed no checked float and double rates: $(cat "$tmp/run/peak.log")"
fi
# The tensor-core lines: measured and checked on a CUDA build for sm_80+, else
# "not available on this build" (exit 0 all the same); a bad --what exits 2.
for shape in 'dmma m8n8k4 f64' 'tf32 m16n8k8'; do
  grep -Eq "mma-peak .* $shape: (not available on this build|.*checked)" "$tmp/run/peak.log" ||
    fail "installed mmapp-fma-peak printed no '$shape' line: $(cat "$tmp/run/peak.log")"
done
"$prefix/bin/mmapp-fma-peak" --what mma --dtype float --seconds 0.02 --repetitions 1 >"$tmp/run/mma.log" 2>&1 ||
  fail "installed mmapp-fma-peak --what mma exited $?: $(cat "$tmp/run/mma.log")"
if grep -q 'fma-peak\|dmma' "$tmp/run/mma.log" || ! grep -q 'tf32 m16n8k8' "$tmp/run/mma.log"; then
  fail "mmapp-fma-peak --what mma --dtype float printed other lines than tf32's: $(cat "$tmp/run/mma.log")"
fi
code=0
"$prefix/bin/mmapp-fma-peak" --what nothing >"$tmp/run/bad.log" 2>&1 || code=$?
[[ $code == 2 ]] || fail "mmapp-fma-peak --what nothing exited $code, not 2"

# The installed job script outside Slurm (as jobs/README.md allows), then with the prefix moved.
run_job() { # run_job PREFIX LABEL
  local p=$1 out=$tmp/results-$2
  (
    unset SLURM_JOB_ID SLURM_ARRAY_JOB_ID SLURM_SUBMIT_DIR MMAPP_ROOT MMAPP_BIN MMAPP_DECK MMAPP_ARGS
    MMAPP_RESULTS=$out bash "$p/share/mmapp/jobs/cpu-node.sbatch" "$p/share/mmapp/inputs/default.yaml" \
      --set 'problem.sizes=[40]' --set run.repetitions=1
  ) >"$tmp/job-$2.log" 2>&1 || {
    cat "$tmp/job-$2.log"
    fail "the installed jobs/cpu-node.sbatch ($2) exited $?"
  }
  ls "$out"/*/openmp.json >/dev/null 2>&1 || fail "the installed job ($2) wrote no report under $out"
  grep -q "^binary *$p/bin/mmapp " "$out"/*/provenance.txt ||
    fail "the installed job ($2) did not run $p/bin/mmapp: $(grep '^binary' "$out"/*/provenance.txt)"
}
run_job "$prefix" installed
mv "$prefix" "$tmp/moved"
run_job "$tmp/moved" moved
echo "install test: OK (prefix $prefix, then moved)"
