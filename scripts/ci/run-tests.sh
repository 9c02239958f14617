#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Sets up a fresh Debian machine (system packages, Kokkos sources), builds the
# `openmp` preset and runs the whole test suite with CTest, as many tests at
# once as the machine has cores (each test's PROCESSORS counted: a 2-rank test
# takes both of a 2-core machine's). This is the README's test command and
# what CI runs.
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$top"
bash scripts/setup/setup-debian.sh --with-slurm
cmake --preset openmp
cmake --build --preset openmp
ctest --preset openmp --timeout 900 --parallel "$(nproc)"
