#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# tests/slurm/test-lib-multinode.sh — jobs/lib.sh's pieces of
# jobs/multi-node.sbatch, without Slurm (a one-node Slurm cannot place ranks
# on several nodes; tests/slurm/run-slurm-tests.sh runs the script itself):
#   - mmapp_node_rows_grid: [nodes, G] for G ranks on each of 2 or more
#     nodes (SLURM_TASKS_PER_NODE "G(xN)"), auto on one node, on uneven
#     nodes and on a count that disagrees with the node count;
#   - mmapp_launch under mpirun: every set variable named in
#     MMAPP_MPIRUN_ENV is passed with -x (NCCL_* to remote nodes), unset ones
#     are not, and the binding options stay.
# Usage: tests/slurm/test-lib-multinode.sh REPO
set -uo pipefail
repo=$(cd "${1:?usage: $0 REPO}" && pwd)
# shellcheck source=jobs/lib.sh
source "$repo/jobs/lib.sh"
fails=0
expect() {  # expect NAME GOT WANT
  if [[ "$2" == "$3" ]]; then echo "PASS: $1"; else echo "FAIL: $1: got '$2', expected '$3'"; fails=$((fails + 1)); fi
}
expect "2 nodes x 4 ranks" "$(mmapp_node_rows_grid 2 '4(x2)')" "[2, 4]"
expect "8 nodes x 8 ranks" "$(mmapp_node_rows_grid 8 '8(x8)')" "[8, 8]"
expect "one node" "$(mmapp_node_rows_grid 1 4)" auto
expect "one node, Slurm's G(x1) form" "$(mmapp_node_rows_grid 1 '4(x1)')" auto
expect "uneven nodes" "$(mmapp_node_rows_grid 2 '5,3')" auto
expect "uneven nodes, mixed form" "$(mmapp_node_rows_grid 3 '4(x2),3')" auto
expect "node count disagrees" "$(mmapp_node_rows_grid 3 '4(x2)')" auto

# mmapp_launch with mpirun replaced by echo: the command line it would run.
export NCCL_DEBUG=WARN NCCL_SOCKET_IFNAME=ib0
unset NCCL_IB_HCA
line=$(SLURM_JOB_ID=1 SLURM_NTASKS=8 SLURM_CPUS_PER_TASK=4 MMAPP_LAUNCHER=mpirun MMAPP_MPIRUN=echo \
  MMAPP_MPIRUN_ARGS="" MMAPP_MPIRUN_ENV="NCCL_DEBUG NCCL_SOCKET_IFNAME NCCL_IB_HCA" mmapp_launch --gpu mmapp deck.yaml)
expect "mpirun -x for the set NCCL variables, not the unset one" "$line" \
  "-np 8 --map-by slot:PE=4 --bind-to core -x NCCL_DEBUG -x NCCL_SOCKET_IFNAME mmapp deck.yaml"
line=$(SLURM_JOB_ID=1 SLURM_NTASKS=2 MMAPP_LAUNCHER=mpirun MMAPP_MPIRUN=echo MMAPP_MPIRUN_ARGS="--oversubscribe" \
  MMAPP_MPIRUN_ENV="" mmapp_launch mmapp deck.yaml)
expect "no MMAPP_MPIRUN_ENV: no -x" "$line" "-np 2 --oversubscribe mmapp deck.yaml"
echo "$fails failure(s)"
((fails == 0))
