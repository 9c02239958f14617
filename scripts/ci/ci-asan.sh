#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Builds the openmp-asan preset (mmapp and its tests with
# -fsanitize=address,undefined -fno-sanitize-recover=all at -O1 -g1; Kokkos
# itself not instrumented) and runs its test preset: unit_np1, unit_np2 and
# e2e_np2 with 2 OpenMP threads per rank, host_blas_*, fuzz_deck_replay
# (CMakePresets.json says what the preset leaves out, and why).
# Any ASan/UBSan report fails the test it happens in; Open MPI's allocations
# kept until exit are suppressed (tests/sanitizers/lsan.supp), any other
# leak fails.
#
# Usage: scripts/ci/ci-asan.sh [KOKKOS_PREFIX]
#   KOKKOS_PREFIX  an installed Kokkos + Kokkos Kernels to build against
#                  (Kokkos_ROOT) instead of building Kokkos in-tree again;
#                  CI passes the one scripts/ci/ci-installed-kokkos.sh
#                  --install-only installed, and this build is CI's check of
#                  that path: it fails unless CMake took that Kokkos.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
mkdir -p build
kokkos=()
if [[ -n "${1:-}" ]]; then
  prefix=$(cd "$1" 2>/dev/null && pwd) || { echo "ci-asan.sh: no Kokkos prefix $1" >&2; exit 2; }
  kokkos=(-DKokkos_ROOT="$prefix" -DCMAKE_PREFIX_PATH="$prefix")
fi
cmake --preset openmp-asan "${kokkos[@]}" >build/openmp-asan.configure.log 2>&1 ||
  { tail -n 30 build/openmp-asan.configure.log; exit 1; }
grep -E "^-- mmapp" build/openmp-asan.configure.log || true
# Given a prefix, this build is CI's build against an installed Kokkos: CMake must
# have taken it (cmake/MmappDependencies.cmake's "using installed Kokkos"), not
# fetched or built one in-tree.
if [[ -n "${1:-}" ]] && ! grep -q "^-- mmapp: using installed Kokkos .* from $prefix/" build/openmp-asan.configure.log; then
  echo "ci-asan.sh: configured without the installed Kokkos in $prefix (see build/openmp-asan.configure.log)" >&2
  exit 1
fi
cmake --build --preset openmp-asan
ctest --preset openmp-asan --timeout 1800
