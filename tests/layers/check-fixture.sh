#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Runs scripts/ci/check-layers.py on a fixture tree under tests/layers/ and
# checks its verdict. With FIXTURE.expected: the tree breaks the layers, the
# script must exit 1 and report exactly the problems listed there (an upward
# include of each kind it must catch: a quoted, an angle-bracket, a relative
# and a not-yet-existing header; an include of the app; a file in an unknown
# folder). Without it: the tree keeps the layers and the script must exit 0.
#
# Usage: tests/layers/check-fixture.sh PYTHON FIXTURE     (FIXTURE: upward, clean)
set -uo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
python=${1:?usage: check-fixture.sh PYTHON FIXTURE}
name=${2:?usage: check-fixture.sh PYTHON FIXTURE}
cd "$here" || exit 2
out=$("$python" ../../scripts/ci/check-layers.py --root "$name" 2>&1)
rc=$?
echo "$out"
if [[ -f "$name.expected" ]]; then
  ((rc == 1)) || { echo "check-fixture: $name: exit $rc, expected 1" >&2; exit 1; }
  # Every line but the summary, against the expected problems.
  if ! diff -u "$name.expected" <(sed '$d' <<<"$out"); then
    echo "check-fixture: $name: the problems reported differ from $name.expected" >&2
    exit 1
  fi
else
  ((rc == 0)) || { echo "check-fixture: $name: exit $rc, expected 0 (a clean tree)" >&2; exit 1; }
fi
echo "check-fixture: $name: as expected"
