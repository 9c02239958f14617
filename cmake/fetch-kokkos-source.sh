#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Fetches Kokkos 3.4.01 and Kokkos Kernels 3.4.01 from Debian's `trilinos`
# 13.2.0-4 source package (README, "Where Kokkos comes from"), verifies the
# upstream tarball's sha256, and extracts only packages/kokkos and
# packages/kokkos-kernels into the cache. Pristine sources; the project's
# patches are applied by CMake on a copy in the build tree.
#
# Usage: cmake/fetch-kokkos-source.sh [CACHE_DIR]
#   CACHE_DIR defaults to $MMAPP_CACHE_DIR, else ${XDG_CACHE_HOME:-~/.cache}/mmapp.
# Result: CACHE_DIR/kokkos-3.4.01/{kokkos,kokkos-kernels}/ and a stamp file.
# A second run finds the stamp and downloads nothing.
# Exit codes: 0 ok; 1 download or checksum failure (message says what to do).
set -euo pipefail

here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
cache=${1:-${MMAPP_CACHE_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/mmapp}}
version=13.2.0-4
tarball=trilinos_13.2.0.orig.tar.gz
sha256=0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90
dest="$cache/kokkos-3.4.01"
stamp="$dest/.mmapp-source-$sha256"

if [[ -f "$stamp" ]]; then
  echo "mmapp: Kokkos 3.4.01 sources found in $dest (cached, nothing downloaded)"
  exit 0
fi

offline_help() {
  cat >&2 <<MSG
mmapp: cannot fetch the Kokkos sources: $1
  What is needed: Debian source package trilinos=$version, file $tarball
  (165,860,771 bytes, sha256 $sha256).
  On a machine that reaches a Debian archive:
      cmake/fetch-kokkos-source.sh /some/dir     # or: apt-get source --download-only trilinos=$version
  then copy /some/dir/kokkos-3.4.01 to $dest (or set MMAPP_CACHE_DIR), or pass
  -DMMAPP_KOKKOS_SOURCE_ARCHIVE=/path/to/kokkos-3.4.01-sources.tar.gz (made by
  scripts/setup/pack-offline-deps.sh), or -DKokkos_ROOT=<an installed Kokkos>.
MSG
}

mkdir -p "$cache"
work=$(mktemp -d "$cache/.fetch.XXXXXX")
trap 'rm -rf "$work"' EXIT

if [[ -n "${MMAPP_TRILINOS_TARBALL:-}" ]]; then
  # A tarball fetched elsewhere (also used by the tests of the checksum path).
  cp "$MMAPP_TRILINOS_TARBALL" "$work/$tarball"
else
  command -v apt-get >/dev/null || { offline_help "apt-get not found (not a Debian machine)"; exit 1; }
  # shellcheck source=../scripts/setup/apt-private.sh
  source "$here/../scripts/setup/apt-private.sh"
  apt_private_init source deb-src bookworm || { offline_help "no Debian source list to derive a deb-src entry from"; exit 1; }
  echo "mmapp: fetching trilinos=$version source with apt (166 MB, once)"
  if ! apt-get "${APT_PRIVATE_OPTS[@]}" -qq update >"$work/apt.log" 2>&1; then
    cat "$work/apt.log" >&2
    offline_help "apt-get update of the deb-src entry failed (offline?)"
    exit 1
  fi
  if ! (cd "$work" && apt-get "${APT_PRIVATE_OPTS[@]}" -qq source --download-only "trilinos=$version") >>"$work/apt.log" 2>&1; then
    cat "$work/apt.log" >&2
    offline_help "apt-get source --download-only trilinos=$version failed"
    exit 1
  fi
fi

actual=$(sha256sum "$work/$tarball" | cut -d' ' -f1)
if [[ "$actual" != "$sha256" ]]; then
  size=$(stat -c %s "$work/$tarball")
  echo "mmapp: checksum mismatch for $tarball: got sha256 $actual ($size bytes)," >&2
  echo "  expected $sha256 (165860771 bytes). The download is corrupt or truncated;" >&2
  echo "  nothing was cached. Run the build again to fetch it anew." >&2
  exit 1
fi

echo "mmapp: sha256 verified; extracting packages/kokkos and packages/kokkos-kernels"
tar -xzf "$work/$tarball" -C "$work" --wildcards '*/packages/kokkos/*' '*/packages/kokkos-kernels/*'
top=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'Trilinos*' -o -mindepth 1 -maxdepth 1 -type d -name 'trilinos*' | head -1)
rm -rf "$dest"
mkdir -p "$dest"
mv "$top/packages/kokkos" "$dest/kokkos"
mv "$top/packages/kokkos-kernels" "$dest/kokkos-kernels"
touch "$stamp"
echo "mmapp: Kokkos 3.4.01 sources cached in $dest"
