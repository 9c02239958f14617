#!/usr/bin/env bash
# Packs the cached, pristine Kokkos 3.4.01 sources (fetching them first if
# needed) into .kokkos-src/kokkos-3.4.01-sources.tar.gz (about 4 MB,
# git-ignored), for GPU nodes that reach no package archive: carry that
# folder with the checkout and scripts/gpu-node.sh builds from it.
#
# Usage: scripts/pack-kokkos-sources.sh [OUTPUT.tar.gz]
set -euo pipefail
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
cache=${MMAPP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mmapp}
out=${1:-$top/.kokkos-src/kokkos-3.4.01-sources.tar.gz}
bash "$top/cmake/fetch-kokkos-source.sh" "$cache"
mkdir -p "$(dirname "$out")"
tar -czf "$out" -C "$cache" kokkos-3.4.01
echo "mmapp: wrote $out ($(du -h "$out" | cut -f1))"
