# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Sourced helper: a private apt configuration whose single source stanza is
# derived from this system's own Debian sources (same URIs and keyring), so no
# mirror host is written in the project and the system's apt setup is never
# modified.
#
# apt_private_init NAME TYPE SUITE
#   NAME   folder name under ${MMAPP_APT_DIR:-/tmp/mmapp-apt-$UID}
#   TYPE   "deb" or "deb-src"
#   SUITE  e.g. bookworm, bookworm-backports
# Sets the array APT_PRIVATE_OPTS to pass to apt-get.
# Fails (exit 1) with a message if no Debian source stanza can be found.

apt_private_init() {
  local name=$1 type=$2 suite=$3
  local root="${MMAPP_APT_DIR:-/tmp/mmapp-apt-$(id -u)}/$name"
  mkdir -p "$root/sources.list.d" "$root/lists/partial"
  local uri="" keyring=""
  # deb822 files first (Debian 12 default), then one-line lists.
  local f
  for f in /etc/apt/sources.list.d/*.sources; do
    [[ -r "$f" ]] || continue
    # the first stanza whose Suites contain "bookworm" and whose URIs end in /debian
    read -r uri keyring < <(awk '
      BEGIN { RS=""; FS="\n" }
      {
        u=""; s=""; k=""
        for (i = 1; i <= NF; i++) {
          if ($i ~ /^URIs:/)      { u = $i; sub(/^URIs:[ \t]*/, "", u) }
          if ($i ~ /^Suites:/)    { s = $i }
          if ($i ~ /^Signed-By:/) { k = $i; sub(/^Signed-By:[ \t]*/, "", k) }
        }
        if (s ~ /bookworm([ \t]|$)/ && u ~ /\/debian\/?$/) { print u, k; exit }
      }' "$f") || true
    [[ -n "$uri" ]] && break
  done
  if [[ -z "$uri" && -r /etc/apt/sources.list ]]; then
    uri=$(awk '$1=="deb" && $0 ~ / bookworm / { for (i=2;i<=NF;i++) if ($i ~ /^(https?|file):/) { print $i; exit } }' /etc/apt/sources.list)
  fi
  if [[ -z "$uri" ]]; then
    echo "mmapp: no Debian bookworm source found in /etc/apt/sources.list{,.d}; cannot derive a '$type $suite' entry" >&2
    return 1
  fi
  {
    echo "Types: $type"
    echo "URIs: $uri"
    echo "Suites: $suite"
    echo "Components: main"
    [[ -n "$keyring" ]] && echo "Signed-By: $keyring"
  } >"$root/sources.list.d/mmapp.sources"
  # Only our stanza is read: packages fetched this way must need nothing new from main.
  APT_PRIVATE_OPTS=(
    -o "Dir::Etc::SourceParts=$root/sources.list.d"
    -o "Dir::Etc::SourceList=/dev/null"
    -o "Dir::State::Lists=$root/lists"
  )
}
