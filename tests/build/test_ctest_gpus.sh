#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# tests/tools/ctest_gpus.sh, CTest's GPU allocation to CUDA_VISIBLE_DEVICES:
# group order kept, repeats dropped, ids as positions in a CUDA_VISIBLE_DEVICES
# already set, no allocation leaving the environment alone, and malformed
# allocations refused (exit 2, the variable named) before the command runs.
set -uo pipefail
w="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)/tools/ctest_gpus.sh"
fails=0
err=$(mktemp "${TMPDIR:-/tmp}/ctest_gpus.XXXXXX")
trap 'rm -f "$err"' EXIT
# expect NAME WANTED_STDOUT WANTED_RC ENV... : runs `env ENV... ctest_gpus.sh sh -c 'echo "<$CUDA_VISIBLE_DEVICES>"'`
expect() {
  local name=$1 want=$2 want_rc=$3; shift 3
  local got rc
  got=$(env -u CUDA_VISIBLE_DEVICES "$@" "$w" sh -c 'echo "<${CUDA_VISIBLE_DEVICES-unset}>"' 2>"$err")
  rc=$?
  if [[ $got != "$want" || $rc != "$want_rc" ]]; then
    echo "FAIL $name: got '$got' rc $rc, wanted '$want' rc $want_rc; stderr: $(cat "$err")"
    fails=$((fails + 1))
  elif ((want_rc != 0)) && ! grep -q "CTEST_RESOURCE_GROUP" "$err"; then
    echo "FAIL $name: the error does not name the variable: $(cat "$err")"
    fails=$((fails + 1))
  else
    echo "PASS $name"
  fi
}
g2=(CTEST_RESOURCE_GROUP_COUNT=2)
expect "no allocation" "<unset>" 0
expect "no allocation keeps a set list" "<4,5>" 0 CUDA_VISIBLE_DEVICES=4,5
expect "one group" "<2>" 0 CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=id:2,slots:1
expect "two groups in group order" "<3,1>" 0 "${g2[@]}" CTEST_RESOURCE_GROUP_0_GPUS=id:3,slots:1 \
  CTEST_RESOURCE_GROUP_1_GPUS=id:1,slots:1
expect "two slots of one GPU" "<0>" 0 "${g2[@]}" CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1 \
  CTEST_RESOURCE_GROUP_1_GPUS=id:0,slots:1
expect "several in one group" "<0,2>" 0 CTEST_RESOURCE_GROUP_COUNT=1 "CTEST_RESOURCE_GROUP_0_GPUS=id:0,slots:1;id:2,slots:1"
expect "ids index a set CUDA_VISIBLE_DEVICES" "<7,6>" 0 CUDA_VISIBLE_DEVICES=6,7 "${g2[@]}" \
  CTEST_RESOURCE_GROUP_0_GPUS=id:1,slots:1 CTEST_RESOURCE_GROUP_1_GPUS=id:0,slots:1
expect "id past CUDA_VISIBLE_DEVICES" "" 2 CUDA_VISIBLE_DEVICES=6,7 CTEST_RESOURCE_GROUP_COUNT=1 \
  CTEST_RESOURCE_GROUP_0_GPUS=id:2,slots:1
expect "malformed allocation" "" 2 CTEST_RESOURCE_GROUP_COUNT=1 CTEST_RESOURCE_GROUP_0_GPUS=gpu0
expect "malformed count" "" 2 CTEST_RESOURCE_GROUP_COUNT=two
((fails == 0)) && echo "all passed" || { echo "$fails failed"; exit 1; }
