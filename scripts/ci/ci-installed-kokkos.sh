#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Installs the OpenMP Kokkos and Kokkos Kernels 3.4.01 (from the cached,
# patched sources of the openmp build) to a prefix, configures mmapp against
# it with Kokkos_ROOT (so nothing is fetched), builds the tests and runs one.
# Exercises the "use an existing Kokkos" path in CI.
#
# Usage: scripts/ci/ci-installed-kokkos.sh [--install-only] [PREFIX]
#   PREFIX          default build/installed-kokkos/prefix
#   --install-only  install Kokkos and Kokkos Kernels, build no mmapp: CI
#                   (.ci/run) builds mmapp against the prefix once, in the
#                   sanitizer step (scripts/ci/ci-asan.sh PREFIX), which
#                   fails unless CMake took the installed Kokkos
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
work=$top/build/installed-kokkos
install_only=0
if [[ "${1:-}" == --install-only ]]; then
  install_only=1
  shift
fi
prefix=${1:-$work/prefix}
src=$top/build/openmp/_deps/kokkos-3.4.01
[[ -d "$src/kokkos" ]] || { echo "configure the openmp preset first ($src missing)" >&2; exit 1; }
jobs=$(nproc)
# The host BLAS the openmp preset chose (cmake/MmappDependencies.cmake), for Kokkos Kernels too.
blas=$(sed -n 's/^MMAPP_OPENBLAS_LIBRARY:FILEPATH=//p' "$top/build/openmp/CMakeCache.txt")
blas_dir=$(dirname "${blas:-/usr/lib/libopenblas.so}")
blas_name=$(basename "${blas:-libopenblas.so}")
blas_name=${blas_name#lib}
blas_name=${blas_name%%.*}

cmake -S "$src/kokkos" -B "$work/kokkos" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_INSTALL_PREFIX="$prefix" \
  -DKokkos_ENABLE_SERIAL=ON -DKokkos_ENABLE_OPENMP=ON >"$work.kokkos.log" 2>&1 || { tail -30 "$work.kokkos.log"; exit 1; }
cmake --build "$work/kokkos" --target install -j "$jobs" >>"$work.kokkos.log" 2>&1 || { tail -30 "$work.kokkos.log"; exit 1; }
cmake -S "$src/kokkos-kernels" -B "$work/kokkos-kernels" -G Ninja -DCMAKE_BUILD_TYPE=Release \
  -DCMAKE_INSTALL_PREFIX="$prefix" -DKokkos_ROOT="$prefix" \
  -DKokkosKernels_ENABLED_COMPONENTS=BLAS -DKokkosKernels_ADD_DEFAULT_ETI=OFF \
  -DKokkosKernels_ENABLE_TPL_BLAS=ON -DKokkosKernels_ENABLE_TPL_LAPACK=OFF \
  -DBLAS_LIBRARY_DIRS="$blas_dir" -DBLAS_LIBRARIES="$blas_name" \
  "-DF77_BLAS_MANGLE=(name,NAME) name ## _" >"$work.kk.log" 2>&1 || { tail -30 "$work.kk.log"; exit 1; }
cmake --build "$work/kokkos-kernels" --target install -j "$jobs" >>"$work.kk.log" 2>&1 || { tail -30 "$work.kk.log"; exit 1; }

if ((install_only)); then
  echo "installed Kokkos and Kokkos Kernels in $prefix (no mmapp build: --install-only)"
  exit 0
fi
cmake -S "$top" -B "$work/app" -G Ninja -DCMAKE_BUILD_TYPE=Release -DKokkos_ROOT="$prefix" \
  -DCMAKE_PREFIX_PATH="$prefix" | grep -E "mmapp|Kokkos" || true
cmake --build "$work/app" --target mmapp_tests -j "$jobs"
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_PROC_BIND=false \
  "$work/app/tests/mmapp_tests" "[kokkos]"
echo "installed-Kokkos build: OK (configured with Kokkos_ROOT=$prefix, nothing downloaded)"
