#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# jobs/submit.sh — sbatch with the site's account, QoS and partition from
# jobs/site.sh (#SBATCH lines cannot read variables). GPU jobs (gpu-node,
# compare-backends, multi-node, or MMAPP_BACKEND=cuda) go to MMAPP_GPU_PARTITION.
# Options given here come after the site's, so they win.
#
# Usage: jobs/submit.sh [sbatch options] jobs/SCRIPT.sbatch [script args...]
#   jobs/submit.sh jobs/cpu-node.sbatch inputs/default.yaml --set problem.n=1024
#   MMAPP_SIZES="512 1024" jobs/submit.sh --array=0-1 jobs/sweep.sbatch
set -euo pipefail
# shellcheck source=jobs/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

kind=cpu
for arg in "$@"; do
  case $arg in
    *gpu-node.sbatch | *compare-backends.sbatch | *multi-node.sbatch) kind=gpu ;;
  esac
done
[[ "${MMAPP_BACKEND:-}" == cuda ]] && kind=gpu
mapfile -t site_opts < <(mmapp_site_sbatch_opts "$kind")
[[ ${#site_opts[@]} -gt 0 ]] && echo "submit.sh: site options: ${site_opts[*]}" >&2
exec sbatch "${site_opts[@]}" "$@"
