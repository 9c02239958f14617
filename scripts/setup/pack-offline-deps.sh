#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Packs what a GPU node with no package archive needs beside the checkout
# into .offline/ (git-ignored; carry it with the checkout):
#   .offline/kokkos-3.4.01-sources.tar.gz   pristine Kokkos + Kokkos Kernels 3.4.01
#                                          (fetched first if not cached; ~3.4 MB)
#   .offline/include/xxhash.h              Debian's libxxhash-dev header (used header-only)
#   .offline/git-hash                      HEAD's hash, for provenance where .git is not copied
#                                          (run this script again after committing)
# scripts/bench/gpu-node.sh builds from these.
#
# Usage: scripts/setup/pack-offline-deps.sh
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cache=${MMAPP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mmapp}
out=$top/.offline
bash "$top/cmake/fetch-kokkos-source.sh" "$cache"
mkdir -p "$out/include"
tar -czf "$out/kokkos-3.4.01-sources.tar.gz" -C "$cache" kokkos-3.4.01
[[ -f /usr/include/xxhash.h ]] || { echo "mmapp: /usr/include/xxhash.h missing (scripts/setup/setup-debian.sh installs libxxhash-dev)" >&2; exit 1; }
cp /usr/include/xxhash.h "$out/include/"
# Python modules the tests import that the GPU node's image lacks (it reaches
# no package archive): Debian's pure-Python python3-jsonschema and its
# dependencies (report_schema.py, the e2e tests' report check), unpacked
# into .offline/python; scripts/bench/gpu-node.sh puts them on PYTHONPATH
# only where `import jsonschema` fails. pyrsistent falls back to its pure-
# Python vector where its C extension does not match the node's Python.
py_debs=(python3-jsonschema python3-attr python3-pyrsistent)
mkdir -p "$cache/debs"
if (cd "$cache/debs" && apt-get download "${py_debs[@]}" >/dev/null 2>&1) || ls "$cache/debs/"python3-jsonschema_*.deb >/dev/null 2>&1; then
  rm -rf "$out/python"
  for d in "${py_debs[@]}"; do
    deb=$(ls -t "$cache/debs/${d}"_*.deb | head -n 1)
    dpkg-deb -x "$deb" "$out/python"
  done
  rm -rf "$out/python/usr/share"
else
  echo "mmapp: could not download ${py_debs[*]} (apt-get download): the GPU node's e2e tests will miss jsonschema" >&2
fi
git -C "$top" rev-parse --short=12 HEAD >"$out/git-hash" 2>/dev/null || echo unknown >"$out/git-hash"
echo "mmapp: packed $(du -sh "$out" | cut -f1) into $out"
