# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Sourced by the GPU node's scripts: where the node's python3 cannot import
# jsonschema (the report schema check of the e2e tests), put the copy that
# scripts/setup/pack-offline-deps.sh unpacked into .offline/python on
# PYTHONPATH (appended: the node's own modules keep precedence).
mmapp_offline_python() {
  local top=$1 dir="$1/.offline/python/usr/lib/python3/dist-packages"
  if ! python3 -c 'import jsonschema' 2>/dev/null && [[ -d $dir ]]; then
    export PYTHONPATH=${PYTHONPATH:+$PYTHONPATH:}$dir
    echo "mmapp: jsonschema from $dir (python3 $(python3 -c 'import sys; print(sys.version.split()[0])'))" >&2
  fi
}
