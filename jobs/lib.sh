# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# jobs/lib.sh — shell functions shared by the mmapp job scripts (sourced).
#
# A job script does:
#   mmapp_args "$@"        deck and extra mmapp arguments from the command line
#   mmapp_start PRESET     site modules, checks, results folder, provenance
#   mmapp_run LABEL ...    one launch of mmapp, report LABEL.json in the folder
#   mmapp_summarize ...    one table from reports (jobs/summarize.py)
#
# Inputs (environment; each has a default):
#   MMAPP_ROOT     the mmapp checkout (default: the folder above jobs/)
#   MMAPP_BIN      the mmapp binary (default: $MMAPP_ROOT/build/<PRESET>/miniapp/mmapp;
#                  installed with cmake --install: <prefix>/bin/mmapp, found through
#                  jobs/install-paths.sh, which the install writes beside this file)
#   MMAPP_DECK     the input deck (default: $MMAPP_ROOT/inputs/default.yaml);
#                  a first script argument that is not an option overrides it
#   MMAPP_ARGS     extra mmapp arguments, split on blanks, e.g. "--set problem.n=4096";
#                  script arguments after the deck are added after them
#   MMAPP_RESULTS  where result folders go (default: $SLURM_SUBMIT_DIR/results)
# Relative paths are taken from the submit directory (the job's working dir).
# Outputs: MMAPP_OUT, the job's results folder
#   results/<job name>-<job id>/ (array tasks: <job name>-<array id>_<task id>/)
# holding provenance.txt, <label>.json reports, <label>.log and slurm.out
# (a link to the job's output file).
#
# Exit codes of the scripts: mmapp's own (0 ok, 1 failed verification, 2 bad
# input, 3 internal error, 4 stopped by a signal with a partial report, 5 ran
# but not verified; other: a crash or the launcher), and 2 when the binary or
# the deck is missing. A launcher that ends with its own status after a
# signal (mpirun: 1, the code of a failed verification) is reported as 4 when
# the report says "stopped_by".
#
# Sourcing this file only defines functions and reads jobs/site.sh.

MMAPP_EXTRA=()
MMAPP_JOBS_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
: "${MMAPP_ROOT:=$(dirname "$MMAPP_JOBS_DIR")}"
# shellcheck source=jobs/site.sh
source "$MMAPP_JOBS_DIR/site.sh"
# An installed copy (<prefix>/share/mmapp/jobs): the apps are in <prefix>/bin.
MMAPP_INSTALLED_BIN_REL=""
if [[ -f "$MMAPP_JOBS_DIR/install-paths.sh" ]]; then
  # shellcheck source=/dev/null
  source "$MMAPP_JOBS_DIR/install-paths.sh"
fi

mmapp_log() { echo "mmapp-job: $*"; }
mmapp_die() {
  echo "mmapp-job: error: $*" >&2
  exit 2
}

# mmapp_site_sbatch_opts cpu|gpu — the site's sbatch options, one per line.
mmapp_site_sbatch_opts() {
  local part=$MMAPP_PARTITION
  [[ "$1" == gpu && -n "$MMAPP_GPU_PARTITION" ]] && part=$MMAPP_GPU_PARTITION
  [[ -n "$MMAPP_ACCOUNT" ]] && echo "--account=$MMAPP_ACCOUNT"
  [[ -n "$MMAPP_QOS" ]] && echo "--qos=$MMAPP_QOS"
  [[ -n "$part" ]] && echo "--partition=$part"
  return 0
}

# _mmapp_abspath PATH — PATH made absolute against the submit directory.
_mmapp_abspath() {
  case $1 in
    /*) echo "$1" ;;
    *) echo "${SLURM_SUBMIT_DIR:-$PWD}/$1" ;;
  esac
}

# mmapp_args "$@" — sets MMAPP_DECK (a first argument that is not an option)
# and the array MMAPP_EXTRA (MMAPP_ARGS words, then the remaining arguments).
mmapp_args() {
  if [[ $# -gt 0 && "$1" != -* ]]; then
    MMAPP_DECK=$1
    shift
  fi
  MMAPP_EXTRA=()
  [[ -n "${MMAPP_ARGS:-}" ]] && read -r -a MMAPP_EXTRA <<<"$MMAPP_ARGS"
  MMAPP_EXTRA+=("$@")
}

# mmapp_start PRESET — for the build preset PRESET (openmp, cuda) that gives
# MMAPP_BIN its default: loads the site modules, checks the binary and the
# deck (exit 2 with a message when either is missing), creates MMAPP_OUT and
# prints the provenance (also kept as MMAPP_OUT/provenance.txt).
# PRESET "none": a job that runs no mmapp (gather); nothing is checked.
mmapp_start() {
  local preset=$1
  MMAPP_PRESET=$preset
  site_modules
  if [[ "$preset" != none ]]; then
    if [[ -z "${MMAPP_BIN:-}" && -n "$MMAPP_INSTALLED_BIN_REL" ]]; then
      MMAPP_BIN=$(cd "$MMAPP_JOBS_DIR/$MMAPP_INSTALLED_BIN_REL" 2>/dev/null && pwd)/mmapp
    fi
    : "${MMAPP_BIN:=$MMAPP_ROOT/build/$preset/miniapp/mmapp}"
    : "${MMAPP_DECK:=$MMAPP_ROOT/inputs/default.yaml}"
    MMAPP_BIN=$(_mmapp_abspath "$MMAPP_BIN")
    MMAPP_DECK=$(_mmapp_abspath "$MMAPP_DECK")
    [[ -f "$MMAPP_BIN" && -x "$MMAPP_BIN" ]] ||
      mmapp_die "mmapp binary not found or not executable: $MMAPP_BIN" \
        "(set MMAPP_BIN, or build it: cmake --preset $preset && cmake --build --preset $preset)"
    [[ -f "$MMAPP_DECK" && -r "$MMAPP_DECK" ]] ||
      mmapp_die "input deck not found: $MMAPP_DECK (pass a deck as the first argument or set MMAPP_DECK)"
  fi

  local name=${SLURM_JOB_NAME:-$(basename "$0" .sbatch)} id
  if [[ -n "${SLURM_ARRAY_JOB_ID:-}" ]]; then
    id=${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}
  elif [[ -n "${SLURM_JOB_ID:-}" ]]; then
    id=$SLURM_JOB_ID
  else
    id=local-$(date +%Y%m%d-%H%M%S)-$$
  fi
  MMAPP_RESULTS=$(_mmapp_abspath "${MMAPP_RESULTS:-results}")
  MMAPP_OUT=$MMAPP_RESULTS/$name-$id
  mkdir -p "$MMAPP_OUT" || mmapp_die "cannot create the results folder $MMAPP_OUT"
  if [[ -n "${SLURM_JOB_ID:-}" ]]; then
    local stdout
    stdout=$(scontrol show job "$SLURM_JOB_ID" 2>/dev/null | sed -n 's/^ *StdOut=//p' | head -n 1)
    [[ -f "$stdout" ]] && ln -sf "$stdout" "$MMAPP_OUT/slurm.out"
  fi
  mmapp_provenance | tee "$MMAPP_OUT/provenance.txt"
}

# mmapp_provenance — where and with what this job runs.
mmapp_provenance() {
  local git_rev="(not a git checkout)" rev gpus modules cpu
  # safe.directory: the job may run as another user than the checkout's owner
  local g=(git -c safe.directory="$MMAPP_ROOT" -C "$MMAPP_ROOT")
  if rev=$("${g[@]}" rev-parse HEAD 2>/dev/null); then
    git_rev="$rev ($("${g[@]}" status --porcelain --untracked-files=no | wc -l) tracked files modified)"
  fi
  if command -v nvidia-smi >/dev/null 2>&1; then
    gpus=$(nvidia-smi --query-gpu=index,name,pci.bus_id,driver_version,memory.total --format=csv,noheader 2>&1 |
      sed '2,$s/^/            /')
  else
    gpus="none (no nvidia-smi)"
  fi
  if command -v module >/dev/null 2>&1 || declare -F module >/dev/null; then
    modules=$(module -t list 2>&1 | tr '\n' ' ')
  else
    modules="(no module command)"
  fi
  cpu=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -n 1)
  echo "== mmapp job provenance =="
  echo "date        $(date -Is)"
  echo "job         ${SLURM_JOB_NAME:-none} ${SLURM_JOB_ID:-(not under Slurm)}${SLURM_ARRAY_JOB_ID:+ (array ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID})}"
  [[ -n "${SLURM_JOB_ID:-}" ]] &&
    echo "cluster     ${SLURM_CLUSTER_NAME:-} partition=${SLURM_JOB_PARTITION:-} account=${SLURM_JOB_ACCOUNT:-} qos=${SLURM_JOB_QOS:-}"
  echo "nodes       ${SLURM_JOB_NODELIST:-$(hostname)} (this one: $(hostname))"
  echo "tasks       ntasks=${SLURM_NTASKS:-1} cpus-per-task=${SLURM_CPUS_PER_TASK:-unset} gpus=${SLURM_GPUS_PER_TASK:+${SLURM_GPUS_PER_TASK}/task}${SLURM_GPUS_ON_NODE:+ on node: $SLURM_GPUS_ON_NODE}"
  echo "cpu         ${cpu:-unknown}, $(nproc) usable here"
  echo "gpus        $gpus"
  echo "modules     $modules"
  echo "checkout    $MMAPP_ROOT @ $git_rev"
  if [[ "${MMAPP_PRESET:-none}" != none ]]; then
    echo "binary      $MMAPP_BIN (built $(date -r "$MMAPP_BIN" -Is 2>/dev/null))"
    echo "deck        $MMAPP_DECK (sha256 $(sha256sum "$MMAPP_DECK" 2>/dev/null | cut -c1-16))"
    echo "extra args  ${MMAPP_EXTRA[*]:-(none)}"
  fi
  if [[ -z "${SLURM_JOB_ID:-}" ]]; then
    echo "launcher    none (not under Slurm: one process)"
  elif [[ "$MMAPP_LAUNCHER" == srun ]]; then
    echo "launcher    srun${MMAPP_SRUN_MPI:+ --mpi=$MMAPP_SRUN_MPI} $MMAPP_SRUN_ARGS"
  else
    echo "launcher    $MMAPP_MPIRUN ${MMAPP_MPIRUN_ARGS:-(--map-by slot:PE=<cpus per task> --bind-to core)}"
  fi
  echo "env         OMP_NUM_THREADS=${OMP_NUM_THREADS:-} OMP_PROC_BIND=${OMP_PROC_BIND:-} OMP_PLACES=${OMP_PLACES:-} CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES:-}"
  echo "results     $MMAPP_OUT"
  echo "=="
}

# mmapp_launch [--gpu] CMD... — starts CMD on every task of the allocation:
# srun or mpirun as jobs/site.sh says; outside Slurm, once, directly.
mmapp_launch() {
  local gpu=0
  if [[ "$1" == --gpu ]]; then
    gpu=1
    shift
  fi
  if [[ -z "${SLURM_JOB_ID:-}" ]]; then
    "$@"
    return
  fi
  local ntasks=${SLURM_NTASKS:-1} cpus=${SLURM_CPUS_PER_TASK:-1} extra=()
  case $MMAPP_LAUNCHER in
    srun)
      # --cpus-per-task is given again: since Slurm 22.05 srun does not take
      # it from the batch job, and each rank would get one core.
      local opts=(--ntasks="$ntasks" --cpus-per-task="$cpus" --kill-on-bad-exit=1)
      [[ -n "$MMAPP_SRUN_MPI" ]] && opts+=(--mpi="$MMAPP_SRUN_MPI")
      ((gpu)) && [[ -n "$MMAPP_GPU_BIND" ]] && opts+=(--gpu-bind="$MMAPP_GPU_BIND")
      [[ -n "$MMAPP_SRUN_ARGS" ]] && read -r -a extra <<<"$MMAPP_SRUN_ARGS"
      srun "${opts[@]}" "${extra[@]}" "$@"
      ;;
    mpirun)
      # Open MPI refuses root unless told; containers and test clusters run as root.
      if [[ $(id -u) -eq 0 ]]; then
        export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
      fi
      if [[ -n "$MMAPP_MPIRUN_ARGS" ]]; then
        read -r -a extra <<<"$MMAPP_MPIRUN_ARGS"
      else
        extra=(--map-by "slot:PE=$cpus" --bind-to core)
      fi
      # MMAPP_MPIRUN_ENV: names of variables mpirun passes to every rank (-x),
      # those that are set (multi-node.sbatch: NCCL_*), for remote nodes too.
      local v
      for v in ${MMAPP_MPIRUN_ENV:-}; do
        if [[ -n "${!v+x}" ]]; then extra+=(-x "$v"); fi
      done
      $MMAPP_MPIRUN -np "$ntasks" "${extra[@]}" "$@"
      ;;
    *) mmapp_die "MMAPP_LAUNCHER must be srun or mpirun, not '$MMAPP_LAUNCHER' (jobs/site.sh)" ;;
  esac
}

# mmapp_node_rows_grid NODES TASKS_PER_NODE — the process grid that keeps
# each process row inside one node (jobs/multi-node.sbatch): "[NODES, G]"
# when the job spans 2 nodes or more with G ranks on each (Slurm's
# SLURM_TASKS_PER_NODE "G(xNODES)"), else "auto" (one node, or uneven nodes).
# Ranks are placed node by node and mmapp's grid is row-major, so q = G puts
# process row i on node i.
mmapp_node_rows_grid() {
  local nodes=$1 tpn=$2
  if ((nodes > 1)) && [[ "$tpn" =~ ^([0-9]+)\(x([0-9]+)\)$ ]] && ((BASH_REMATCH[2] == nodes)); then
    echo "[$nodes, ${BASH_REMATCH[1]}]"
  else
    echo auto
  fi
}

# Stopping a job cleanly. mmapp stops at the next repetition when one rank
# gets SIGTERM or SIGINT (the ranks agree), writes its partial report
# ("complete": false) and exits 4. It ignores a further SIGTERM/SIGINT within
# 2 s of the first (a duplicate) and takes a later one as "stop now" and dies,
# so a rank should get the signal once. The batch shell therefore
# traps SIGTERM and SIGINT while mmapp runs and forwards one SIGTERM:
#   srun launcher:   scancel --signal=TERM $SLURM_JOB_ID (every task of the
#                    job's steps, once; the batch shell is not signalled)
#   mpirun launcher: kill -TERM to this node's mmapp processes (children of
#                    mpirun; one rank is enough, the others follow)
#   no Slurm:        kill -TERM to the mmapp process
# Hence the ways to stop a job (jobs/README.md):
#   scancel --batch --signal=TERM JOBID      any launcher (the batch shell forwards)
#   #SBATCH --signal=B:TERM@120              the same, 120 s before the time limit
#   scancel --signal=TERM JOBID              srun launcher only (job steps)
# `scancel --full` and the time limit itself signal every process of the job
# (ranks, launcher, batch shell): a rank then gets SIGTERM more than once
# (within 2 s: one request) and the launcher may kill it; rank 0 writes
# "stopped_by" into the report at its first signal.
_MMAPP_STOP=""
_MMAPP_LAUNCH_PID=""

# _mmapp_descendants PID — the PIDs of PID's descendants, one per line (from /proc).
_mmapp_descendants() {
  local f stat pid ppid todo=("$1") parent
  local -a all=()
  for f in /proc/[0-9]*/stat; do
    stat=$(<"$f") 2>/dev/null || continue
    pid=${f#/proc/}
    pid=${pid%/stat}
    read -r _ ppid _ <<<"${stat##*) }" # after the command name: state, ppid
    all+=("$pid:$ppid")
  done
  while ((${#todo[@]})); do
    parent=${todo[0]}
    todo=("${todo[@]:1}")
    for f in "${all[@]}"; do
      if [[ "${f#*:}" == "$parent" ]]; then
        echo "${f%%:*}"
        todo+=("${f%%:*}")
      fi
    done
  done
}

# _mmapp_forward_stop — sends the one SIGTERM to the ranks (see above).
_mmapp_forward_stop() {
  if [[ -n "${SLURM_JOB_ID:-}" && "$MMAPP_LAUNCHER" == srun ]]; then
    scancel --signal=TERM "$SLURM_JOB_ID" ||
      mmapp_log "scancel --signal=TERM $SLURM_JOB_ID failed; mmapp goes on until the job ends"
    return 0
  fi
  local bin pid sent=0
  bin=$(realpath "$MMAPP_BIN" 2>/dev/null || echo "$MMAPP_BIN")
  for pid in $(_mmapp_descendants "$_MMAPP_LAUNCH_PID"); do
    if [[ "$(readlink "/proc/$pid/exe" 2>/dev/null)" == "$bin" ]]; then
      kill -TERM "$pid" 2>/dev/null && sent=$((sent + 1))
    fi
  done
  mmapp_log "SIGTERM sent to $sent local mmapp process(es)"
}

# _mmapp_on_signal SIG — the batch shell's trap while mmapp runs.
_mmapp_on_signal() {
  if [[ -n "$_MMAPP_STOP" ]]; then
    mmapp_log "SIG$1 again: still waiting for mmapp to write its partial report"
    return 0
  fi
  _MMAPP_STOP=$1
  mmapp_log "SIG$1 received: asking mmapp to stop (partial report, exit code 4)"
  [[ -n "$_MMAPP_LAUNCH_PID" ]] && _mmapp_forward_stop
  return 0
}

# _mmapp_stopped_by REPORT — the report's "stopped_by" (SIGTERM, SIGINT), or
# nothing when it has none or cannot be read.
_mmapp_stopped_by() {
  [[ -s "$1" ]] || return 0
  python3 - "$1" <<'PY' 2>/dev/null || true
import json, sys
try:
    print(json.load(open(sys.argv[1])).get("stopped_by") or "")
except Exception:
    pass
PY
}

# mmapp_run LABEL [--gpu] [ARG...] — runs mmapp once on the deck with ARGs,
# then the extra arguments, writing MMAPP_OUT/LABEL.json and LABEL.log.
# MMAPP_BACKEND (when set) adds --backend unless the arguments name one.
# Returns mmapp's exit code (3 when it exits 0 but writes no report; 4, and
# mmapp is not started, when the job was already asked to stop; 4 when the
# launcher's status says otherwise but the report says "stopped_by").
# The launch runs in the background while the shell waits, so a SIGTERM or
# SIGINT to the batch shell is handled at once (see _mmapp_on_signal); the
# log's tee ignores both, so it outlives a signal to the whole job and mmapp
# never writes into a closed pipe.
mmapp_run() {
  local label=$1 gpu=()
  shift
  if [[ "${1:-}" == --gpu ]]; then
    gpu=(--gpu)
    shift
  fi
  if [[ -n "$_MMAPP_STOP" ]]; then
    mmapp_log "run $label: not started (the job was asked to stop by SIG$_MMAPP_STOP)"
    return 4
  fi
  local args=("$@" "${MMAPP_EXTRA[@]}")
  if [[ -n "${MMAPP_BACKEND:-}" && " ${args[*]} " != *" --backend "* ]]; then
    args=(--backend "$MMAPP_BACKEND" "${args[@]}")
  fi
  local report=$MMAPP_OUT/$label.json log=$MMAPP_OUT/$label.log rc=0
  rm -f "$report"
  mmapp_log "run $label: $MMAPP_BIN $MMAPP_DECK ${args[*]} --report $report"
  trap '_mmapp_on_signal TERM' TERM
  trap '_mmapp_on_signal INT' INT
  (
    set +e
    mmapp_launch "${gpu[@]}" "$MMAPP_BIN" "$MMAPP_DECK" "${args[@]}" --report "$report" 2>&1 |
      (trap '' TERM INT && exec tee "$log")
    exit "${PIPESTATUS[0]}"
  ) &
  _MMAPP_LAUNCH_PID=$!
  while :; do
    rc=0
    wait "$_MMAPP_LAUNCH_PID" || rc=$?
    # wait returns early (> 128) when a trapped signal arrives: wait again
    kill -0 "$_MMAPP_LAUNCH_PID" 2>/dev/null || break
  done
  _MMAPP_LAUNCH_PID=""
  trap - TERM INT
  # A signalled launcher (mpirun, srun) ends with its own status (mpirun: 1,
  # which is also mmapp's "verification failed"): the report says the truth.
  local stopped
  if [[ $rc -ne 0 && $rc -ne 4 ]]; then
    stopped=$(_mmapp_stopped_by "$report")
    if [[ -n "$stopped" ]]; then
      mmapp_log "run $label: the launcher exited $rc, the report says stopped by $stopped"
      rc=4
    fi
  fi
  case $rc in
    0) if [[ ! -s "$report" ]]; then
         mmapp_log "run $label: mmapp exited 0 but wrote no report $report"
         rc=3
       else
         mmapp_log "run $label: ok, report $report"
       fi ;;
    1) mmapp_log "run $label: FAILED verification (exit 1)" ;;
    2) mmapp_log "run $label: bad input (exit 2), see $log" ;;
    4) mmapp_log "run $label: stopped by a signal (exit 4); partial report $report" ;;
    5) mmapp_log "run $label: ran, NOT verified (verify.enabled: false; exit 5), report $report" ;;
    *) mmapp_log "run $label: mmapp or the launcher failed (exit $rc), see $log" ;;
  esac
  return "$rc"
}

# mmapp_summarize ARG... — jobs/summarize.py with ARGs (report files or
# folders, --csv FILE, --compare FIELD, --strict).
mmapp_summarize() {
  python3 "$MMAPP_JOBS_DIR/summarize.py" "$@"
}
