#!/usr/bin/env bash
# Builds the openmp-asan preset (mmapp and its tests with
# -fsanitize=address,undefined -fno-sanitize-recover=all; Kokkos itself not
# instrumented) and runs its test preset: unit_np1, unit_np2, e2e_np1,
# e2e_np2 with 2 OpenMP threads per rank, host_blas_*, fuzz_deck_replay.
# Any ASan/UBSan report fails the test it happens in; Open MPI's allocations
# kept until exit are suppressed (tests/sanitizers/lsan.supp), any other
# leak fails.
#
# Usage: scripts/ci-asan.sh
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cd "$top"
mkdir -p build
cmake --preset openmp-asan >build/openmp-asan.configure.log 2>&1 || { tail -n 30 build/openmp-asan.configure.log; exit 1; }
cmake --build --preset openmp-asan
ctest --preset openmp-asan --timeout 1800
