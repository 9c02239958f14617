#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Installs, with apt, the Debian packages mmapp needs to build and test, when
# they are missing. Catch2 v3 comes from bookworm-backports through a private
# apt configuration derived from the system's own Debian sources, so the
# system's apt setup is left as it was. Safe to run again: it installs nothing
# that is already there.
#
# Usage: scripts/setup/setup-debian.sh [--with-slurm] [--with-plots] [--with-fuzz]
#   --with-slurm  slurm-wlm and munge, for the tests of jobs/ (tests/slurm)
#   --with-plots  accepted for older callers: python3-matplotlib (for
#                 scripts/analysis/plot_reports.py and the readme_commands test) is
#                 now always installed
#   --with-fuzz   clang and its libFuzzer/sanitizer runtimes, for scripts/ci/run-fuzz.sh
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
# shellcheck source=scripts/setup/apt-private.sh
source "$here/apt-private.sh"

packages=(
  cmake ninja-build g++ make git patch pkg-config ca-certificates
  libopenmpi-dev openmpi-bin
  libyaml-cpp-dev libcli11-dev libfmt-dev nlohmann-json3-dev libxxhash-dev
  libopenblas-dev libopenblas-openmp-dev
  libscalapack-openmpi-dev
  python3 python3-matplotlib python3-jsonschema
)
for arg in "$@"; do
  case "$arg" in
    --with-slurm) packages+=(slurm-wlm munge) ;;
    --with-plots) ;;
    --with-fuzz) packages+=(clang libclang-rt-14-dev) ;;
    *) echo "setup-debian.sh: unknown option '$arg' (--with-slurm, --with-plots, --with-fuzz)" >&2; exit 2 ;;
  esac
done

sudo_cmd=()
[[ $(id -u) -ne 0 ]] && sudo_cmd=(sudo)

missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
if ((${#missing[@]})); then
  echo "mmapp setup: installing ${missing[*]}"
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

# Catch2 v3: Debian bookworm main has only the v2 single header (2.13), so take
# libcatch2-dev from bookworm-backports (3.7.x), as the GPU image has 3.4.
if ! dpkg-query -W -f='${Version}' libcatch2-dev 2>/dev/null | grep -q '^3\.'; then
  echo "mmapp setup: installing Catch2 v3 (libcatch2-dev) from bookworm-backports"
  apt_private_init backports "deb" "bookworm-backports"
  "${sudo_cmd[@]}" apt-get "${APT_PRIVATE_OPTS[@]}" update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get "${APT_PRIVATE_OPTS[@]}" install -y -qq \
    --no-install-recommends -t bookworm-backports libcatch2-dev
fi
echo "mmapp setup: system packages present"
