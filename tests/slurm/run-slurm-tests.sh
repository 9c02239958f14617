#!/usr/bin/env bash
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# tests/slurm/run-slurm-tests.sh — tests the job scripts in jobs/ against a
# real one-node Slurm started on this machine, in a private temp folder.
#
# Usage: tests/slurm/run-slurm-tests.sh REPO_ROOT PATH_TO_MMAPP
# Exit: 0 all passed; 1 a test failed; 77 skipped (Slurm cannot run here: not
# root, slurm-wlm/munge cannot be installed, a port is taken, a daemon dies
# at start). Everything is bounded in time (about 3 minutes when it passes).
#
# What it does:
#   1. installs slurm-wlm and munge with apt-get when missing;
#   2. starts munged (as user munge, private key and socket), and a cluster
#      "mmapptest": slurmctld + slurmd for this host (its real CPUs, plus two
#      fake GPUs as a generic resource backed by /dev/null), on free ports;
#      and a second, controller-only cluster "mmappgpu" whose one node has the
#      shape of the two-H200 GPU node (32 cores, gpu:2; a powered-down cloud
#      node, so nothing can run there) for `sbatch --test-only`;
#   3. runs jobs/cpu-node.sbatch (1 rank; 2 ranks with srun; 2 ranks with
#      mpirun), jobs/sweep.sbatch with its gather job, and
#      jobs/compare-backends.sbatch (CPU backends only) through `sbatch --wait`
#      with a small problem, and checks every report (tests/slurm/check_reports.py);
#      checks that a missing deck, a missing binary and a bad deck value fail
#      the job with a message and a non-zero exit code; checks that the GPU
#      scripts are accepted by --test-only on the GPU-shaped cluster (and that
#      a request for more GPUs than the node has is refused); checks that
#      jobs/submit.sh passes the site's partition; submits cpu-node.sbatch
#      every way a user does (jobs/submit.sh and plain sbatch with arguments
#      from the checkout root, plain sbatch from another directory, a checkout
#      path with a blank; a wrong MMAPP_ROOT fails); stops a long sweep
#      through Slurm three ways (scancel on the steps with srun, scancel
#      --batch with mpirun, sbatch --signal=B:TERM@50 before a 2-minute limit)
#      and checks the partial report and exit code 4; checks mmapp's
#      launcher-mismatch check (mpirun -np 2 in a 4-task job accepted; srun
#      tasks that are each a one-rank world refused);
#   4. stops what it started, by PID, and removes the temp folder
#      (MMAPP_SLURM_KEEP=1 keeps it for debugging).
# MMAPP_TEST_DECK overrides the deck (default REPO_ROOT/inputs/default.yaml).
set -uo pipefail

SKIP=77
if [[ $# -ne 2 ]]; then
  echo "usage: $0 REPO_ROOT PATH_TO_MMAPP" >&2
  exit 1
fi
repo=$(cd "$1" && pwd) || exit 1
bin=$(realpath -m "$2")
deck=${MMAPP_TEST_DECK:-$repo/inputs/default.yaml}
keep=${MMAPP_SLURM_KEEP:-0}
start_time=$SECONDS
budget=480            # seconds for the whole run, start-up included
job_timeout=120       # seconds for one sbatch --wait

# The test runs its own cluster: nothing of an outer Slurm job or of the
# user's mmapp settings may leak into it.
for v in $(compgen -e); do
  case $v in SLURM_* | SBATCH_* | SALLOC_* | SRUN_* | MMAPP_*) unset "$v" ;; esac
done

skip() {
  echo "SKIPPED: $*"
  exit "$SKIP"
}
say() { echo "== $*"; }

passed=0
failed=0
pass() {
  echo "PASS: $1"
  passed=$((passed + 1))
}
fail() {
  echo "FAIL: $1"
  shift
  local line
  for line in "$@"; do echo "    $line"; done
  failed=$((failed + 1))
}

[[ $(id -u) -eq 0 ]] || skip "needs root (munged runs as user munge, slurmd as root)"
[[ -x "$bin" ]] || {
  echo "FAIL: mmapp binary not found or not executable: $bin"
  echo "0 passed, 1 failed"
  exit 1
}
[[ -f "$deck" ]] || {
  echo "FAIL: deck not found: $deck"
  echo "0 passed, 1 failed"
  exit 1
}
command -v python3 >/dev/null || skip "python3 not found"

# --- 1. packages ---------------------------------------------------------------
need_install=0
for c in slurmctld slurmd sbatch scontrol munged mungekey setpriv; do
  command -v "$c" >/dev/null 2>&1 || need_install=1
done
if ((need_install)); then
  command -v apt-get >/dev/null || skip "slurm-wlm/munge missing and no apt-get"
  say "installing slurm-wlm and munge with apt-get"
  # No service may start from the package scripts: only what this test starts
  # runs, and it stops it. policy-rc.d is added only when there is none.
  policy_added=0
  if [[ ! -e /usr/sbin/policy-rc.d ]]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d && chmod 755 /usr/sbin/policy-rc.d && policy_added=1
  fi
  apt_install() { DEBIAN_FRONTEND=noninteractive timeout 240 apt-get install -y -q --no-install-recommends slurm-wlm munge; }
  apt_install >/tmp/mmapp-slurm-apt.$$.log 2>&1 ||
    { timeout 120 apt-get update -q >>/tmp/mmapp-slurm-apt.$$.log 2>&1 && apt_install >>/tmp/mmapp-slurm-apt.$$.log 2>&1; }
  apt_rc=$?
  ((policy_added)) && rm -f /usr/sbin/policy-rc.d
  if ((apt_rc != 0)); then
    tail -n 20 /tmp/mmapp-slurm-apt.$$.log
    rm -f /tmp/mmapp-slurm-apt.$$.log
    skip "apt-get could not install slurm-wlm and munge"
  fi
  rm -f /tmp/mmapp-slurm-apt.$$.log
fi
id munge >/dev/null 2>&1 || skip "no user 'munge' (the munge package creates it)"

# --- 2. a private cluster --------------------------------------------------------
tmp=$(mktemp -d "${TMPDIR:-/tmp}/mmapp-slurm.XXXXXX") || skip "cannot create a temp folder"
chmod 755 "$tmp" # munged (user munge) must reach its folder inside
pids=()          # every daemon this script starts, in start order

cleanup() {
  set +e
  if [[ -n "${ctld_pid:-}" ]] && kill -0 "$ctld_pid" 2>/dev/null; then
    # End the jobs first, so no slurmstepd outlives slurmd.
    SLURM_CONF=$tmp/main/slurm.conf scancel --quiet --user="$(id -un)" 2>/dev/null
    local i
    for ((i = 0; i < 20; i++)); do
      [[ -z "$(SLURM_CONF=$tmp/main/slurm.conf squeue -h 2>/dev/null)" ]] && break
      sleep 0.5
    done
  fi
  local p j
  for ((j = ${#pids[@]} - 1; j >= 0; j--)); do
    p=${pids[$j]}
    kill -TERM "$p" 2>/dev/null || continue
    for ((i = 0; i < 50; i++)); do
      kill -0 "$p" 2>/dev/null || break
      sleep 0.2
    done
    kill -0 "$p" 2>/dev/null && kill -KILL "$p" 2>/dev/null
    wait "$p" 2>/dev/null
  done
  if [[ "$keep" == 1 ]]; then
    echo "kept $tmp"
  else
    rm -rf "$tmp"
  fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# logs of the daemons, for a failure
show_logs() {
  local f
  for f in "$tmp"/munge/munged.log "$tmp"/main/*.log "$tmp"/gpu/*.log; do
    [[ -s "$f" ]] || continue
    echo "---- $f (last 15 lines)"
    tail -n 15 "$f"
  done
}
# daemon_died NAME LOG — a daemon exited at start: skip (Slurm cannot run here)
daemon_died() {
  show_logs
  if grep -qiE "address already in use|bind.*in use" "$2" 2>/dev/null; then
    skip "$1 could not bind its port (in use)"
  fi
  skip "$1 exited at start (see its log above)"
}

# munge: own key, socket, log; as user munge
mkdir -p "$tmp/munge"
chown munge:munge "$tmp/munge"
chmod 755 "$tmp/munge"
as_munge=(setpriv --reuid=munge --regid=munge --init-groups)
"${as_munge[@]}" mungekey --create --keyfile="$tmp/munge/munge.key" ||
  skip "mungekey could not create a key"
munge_sock=$tmp/munge/munge.socket
"${as_munge[@]}" munged --foreground --key-file="$tmp/munge/munge.key" --socket="$munge_sock" \
  --pid-file="$tmp/munge/munged.pid" --seed-file="$tmp/munge/munged.seed" \
  >"$tmp/munge/munged.log" 2>&1 &
pids+=($!)
munge_pid=$!
for ((i = 0; i < 50; i++)); do
  munge -n -S "$munge_sock" 2>/dev/null | unmunge -S "$munge_sock" >/dev/null 2>&1 && break
  kill -0 "$munge_pid" 2>/dev/null || daemon_died munged "$tmp/munge/munged.log"
  sleep 0.2
done
((i < 50)) || {
  show_logs
  skip "munged does not answer on $munge_sock"
}

# three free TCP ports outside the ephemeral range
read -r ctld_port slurmd_port gpu_port < <(python3 - <<'EOF'
import random, socket
cands = list(range(20000, 32000))
random.shuffle(cands)
found = []
for p in cands:
    s = socket.socket()
    try:
        s.bind(("0.0.0.0", p))
    except OSError:
        continue
    finally:
        s.close()
    found.append(p)
    if len(found) == 3:
        break
print(*found)
EOF
)
[[ -n "${gpu_port:-}" ]] || skip "no free TCP ports found"

host=$(hostname -s)
# this host's real topology (no memory: it is not a consumable here)
node_hw=$(slurmd -C 2>/dev/null | head -n 1 | sed -e 's/^NodeName=[^ ]* //' -e 's/ *RealMemory=[0-9]*//')
[[ "$node_hw" == *CPUs=* ]] || node_hw="CPUs=$(nproc)"
ncpus=$(sed -n 's/.*CPUs=\([0-9]*\).*/\1/p' <<<"$node_hw")

mkdir -p "$tmp"/main/{state,spool,dev} "$tmp"/gpu/state "$tmp/work"
common_conf() { # common_conf NAME CTLD_PORT
  cat <<EOF
ClusterName=$1
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$2
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$munge_sock
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/backfill
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
MpiDefault=none
EnforcePartLimits=ALL
MinJobAge=600
SlurmctldTimeout=30
SlurmdTimeout=60
GresTypes=gpu
EOF
}
{
  common_conf mmapptest "$ctld_port"
  cat <<EOF
SlurmdPort=$slurmd_port
StateSaveLocation=$tmp/main/state
SlurmdSpoolDir=$tmp/main/spool
SlurmctldPidFile=$tmp/main/slurmctld.pid
SlurmdPidFile=$tmp/main/slurmd.pid
SlurmctldLogFile=$tmp/main/slurmctld.log
SlurmdLogFile=$tmp/main/slurmd.log
ReturnToService=2
NodeName=$host NodeAddr=127.0.0.1 $node_hw Gres=gpu:2 State=UNKNOWN
PartitionName=debug Nodes=$host Default=YES MaxTime=UNLIMITED State=UP
EOF
} >"$tmp/main/slurm.conf"
# two fake GPUs: gres needs one device file per GPU; links to /dev/null do
ln -s /dev/null "$tmp/main/dev/gpu0"
ln -s /dev/null "$tmp/main/dev/gpu1"
echo "NodeName=$host Name=gpu File=$tmp/main/dev/gpu[0-1]" >"$tmp/main/gres.conf"
{
  common_conf mmappgpu "$gpu_port"
  cat <<EOF
SlurmdPort=$slurmd_port
StateSaveLocation=$tmp/gpu/state
SlurmctldPidFile=$tmp/gpu/slurmctld.pid
SlurmctldLogFile=$tmp/gpu/slurmctld.log
# A cloud node, powered down: jobs are planned (--test-only) but never start.
ResumeProgram=/bin/true
SuspendProgram=/bin/true
SuspendTime=600
NodeName=gpunode01 NodeAddr=127.0.0.1 CPUs=32 Sockets=2 CoresPerSocket=16 ThreadsPerCore=1 Gres=gpu:2 State=CLOUD
PartitionName=gpu Nodes=gpunode01 Default=YES MaxTime=UNLIMITED State=UP
EOF
} >"$tmp/gpu/slurm.conf"
echo "NodeName=gpunode01 Name=gpu Count=2" >"$tmp/gpu/gres.conf"

export SLURM_CONF=$tmp/main/slurm.conf
gpu_conf=$tmp/gpu/slurm.conf

# start_ctld CONF LOGDIR — slurmctld in the foreground of a background job
start_ctld() {
  slurmctld -D -f "$1" >"$2/slurmctld.out.log" 2>&1 &
  pids+=($!)
  local pid=$! i
  for ((i = 0; i < 100; i++)); do
    SLURM_CONF=$1 scontrol ping 2>/dev/null | grep -q "is UP" && return 0
    kill -0 "$pid" 2>/dev/null || daemon_died slurmctld "$2/slurmctld.log"
    sleep 0.2
  done
  show_logs
  skip "slurmctld ($1) does not answer"
}
say "starting slurmctld (port $ctld_port), slurmd (port $slurmd_port), GPU-shaped slurmctld (port $gpu_port) in $tmp"
start_ctld "$SLURM_CONF" "$tmp/main"
ctld_pid=${pids[-1]}
slurmd -D -N "$host" -f "$SLURM_CONF" >"$tmp/main/slurmd.out.log" 2>&1 &
pids+=($!)
slurmd_pid=$!
state=""
for ((i = 0; i < 150; i++)); do
  state=$(sinfo -h -n "$host" -o %t 2>/dev/null)
  [[ "$state" == idle ]] && break
  kill -0 "$slurmd_pid" 2>/dev/null || daemon_died slurmd "$tmp/main/slurmd.log"
  sleep 0.2
done
if [[ "$state" != idle ]]; then
  show_logs
  scontrol show node "$host" 2>&1 | grep -E "State|Reason"
  echo "FAIL: node $host is '$state', not idle, after 30 s"
  echo "0 passed, 1 failed"
  exit 1
fi
start_ctld "$gpu_conf" "$tmp/gpu"
say "cluster up in $((SECONDS - start_time)) s: node $host idle, $ncpus CPUs, gpu:2 (fake)"

# --- 3. tests ---------------------------------------------------------------------
work=$tmp/work
results=$work/results
cd "$work" || exit 1
small="--set problem.n=64"
cpt=$((ncpus >= 2 ? 2 : 1)) # cpus per task of a one-rank job
base_env=(MMAPP_BIN="$bin" MMAPP_DECK="$deck" MMAPP_RESULTS="$results")

out_budget() {
  if ((SECONDS - start_time > budget)); then
    fail "$1" "time budget of $budget s used up; not run"
    return 0
  fi
  return 1
}
# run_job ENV... -- SBATCH_ARGS... — sbatch --wait; sets JOB_ID and JOB_RC
run_job() {
  local envs=()
  while [[ "$1" != -- ]]; do
    envs+=("$1")
    shift
  done
  shift
  local out
  out=$(env "${base_env[@]}" "${envs[@]}" timeout "$job_timeout" sbatch --parsable --wait "$@" 2>"$work/sbatch.err")
  JOB_RC=$?
  JOB_ID=${out%%;*}
  JOB_ID=${JOB_ID//[^0-9]/}
  if ((JOB_RC == 124)); then
    echo "    (sbatch --wait timed out after $job_timeout s; cancelling $JOB_ID)"
    [[ -n "$JOB_ID" ]] && scancel "$JOB_ID"
  fi
}
# job_output FILE — the job's output, indented, for a failure message
job_output() { sed 's/^/      | /' "$1" 2>/dev/null | tail -n 25; }
# job_exit_code ID — "N:S" from sacct when accounting works, else scontrol
job_exit_code() {
  local code
  code=$(sacct -n -X -P -j "$1" -o ExitCode 2>/dev/null | head -n 1)
  [[ "$code" == *:* ]] || code=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.* ExitCode=\([0-9:]*\).*/\1/p' | head -n 1)
  echo "$code"
}
# check_job NAME OUTFILE REPORT CHECK_ARGS... — rc 0, report checked
check_job() {
  local name=$1 outfile=$2 report=$3
  shift 3
  local problems
  if ((JOB_RC != 0)); then
    fail "$name" "job ${JOB_ID:-?} exit code $JOB_RC ($(cat "$work/sbatch.err"))" "$(job_output "$outfile")"
  elif [[ ! -s "$report" ]]; then
    fail "$name" "no report $report" "$(job_output "$outfile")"
  elif ! problems=$(python3 "$repo/tests/slurm/check_reports.py" "$report" "$@"); then
    fail "$name" "$problems"
  elif ! grep -q "== mmapp job provenance ==" "$outfile" || ! grep -q "^checkout .*@ [0-9a-f]" "$outfile"; then
    fail "$name" "no provenance (with the checkout's git hash) at the top of $outfile" "$(job_output "$outfile")"
  else
    pass "$name"
  fi
}

# T1: cpu-node, one rank with all its cpus as OpenMP threads
t="cpu-node: 1 rank x $cpt threads (srun)"
if ! out_budget "$t"; then
  run_job MMAPP_ARGS="$small" -- --cpus-per-task="$cpt" "$repo/jobs/cpu-node.sbatch"
  check_job "$t" "$work/mmapp-cpu-$JOB_ID.out" "$results/mmapp-cpu-$JOB_ID/openmp.json" \
    --ranks 1 --threads "$cpt" --backend openmp --n 64
  [[ -L "$results/mmapp-cpu-$JOB_ID/slurm.out" && -s "$results/mmapp-cpu-$JOB_ID/summary.csv" ]] ||
    fail "cpu-node: results folder" "no slurm.out link or summary.csv in $results/mmapp-cpu-$JOB_ID"
fi

# T2, T3: two ranks, with srun --mpi=pmix (site default) and with mpirun
if ((ncpus >= 2)); then
  for launcher in srun mpirun; do
    t="cpu-node: 2 ranks x 1 thread ($launcher)"
    out_budget "$t" && continue
    run_job MMAPP_ARGS="$small" MMAPP_LAUNCHER="$launcher" -- --ntasks=2 --cpus-per-task=1 "$repo/jobs/cpu-node.sbatch"
    check_job "$t" "$work/mmapp-cpu-$JOB_ID.out" "$results/mmapp-cpu-$JOB_ID/openmp.json" \
      --ranks 2 --threads 1 --backend openmp --n 64
  done
else
  echo "(2-rank tests left out: this host has $ncpus CPU)"
fi

# T4: sweep over three sizes, then the gather job it submits
t="sweep: array of 3 sizes + gather"
if ! out_budget "$t"; then
  sizes=(32 48 64)
  run_job MMAPP_SIZES="${sizes[*]}" -- --array=0-2 --cpus-per-task=1 "$repo/jobs/sweep.sbatch"
  array_id=$JOB_ID
  problems=()
  ((JOB_RC == 0)) || problems+=("array job $array_id exit code $JOB_RC ($(cat "$work/sbatch.err"))")
  for i in 0 1 2; do
    dir=$results/mmapp-sweep-${array_id}_$i
    rep=$dir/n${sizes[$i]}.json
    if [[ ! -s "$rep" ]]; then
      problems+=("task $i: no report $rep" "$(job_output "$work/mmapp-sweep-${array_id}_$i.out")")
    elif ! p=$(python3 "$repo/tests/slurm/check_reports.py" "$rep" --n "${sizes[$i]}" --ranks 1); then
      problems+=("task $i: $p")
    fi
  done
  gather_id=$(cat "$results/mmapp-sweep-${array_id}_0/gather.jobid" 2>/dev/null)
  if [[ -z "$gather_id" ]]; then
    problems+=("task 0 wrote no gather.jobid" "$(job_output "$work/mmapp-sweep-${array_id}_0.out")")
  else
    gstate=""
    for ((i = 0; i < 120; i++)); do
      gstate=$(scontrol show job "$gather_id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
      [[ "$gstate" =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY)$ ]] && break
      sleep 0.5
    done
    gout=$work/mmapp-gather-$gather_id.out
    csv=$results/mmapp-gather-$gather_id/summary.csv
    if [[ "$gstate" != COMPLETED ]]; then
      problems+=("gather job $gather_id: state '$gstate', exit code $(job_exit_code "$gather_id")" "$(job_output "$gout")")
    else
      # one CSV row per run of the three reports
      expected_rows=$(python3 -c 'import json,sys; print(sum(len(json.load(open(f))["runs"]) for f in sys.argv[1:]))' \
        "$results"/mmapp-sweep-"${array_id}"_*/n*.json 2>/dev/null)
      rows=$(($(wc -l <"$csv") - 1))
      [[ "$rows" == "$expected_rows" ]] || problems+=("gather: $rows CSV rows in $csv, expected $expected_rows")
      for s in "${sizes[@]}"; do
        grep -qE " $s +$s +$s " "$results/mmapp-gather-$gather_id/summary.txt" ||  # m n k of the square size
          problems+=("gather: no row for n=$s in summary.txt")
      done
    fi
  fi
  if ((${#problems[@]})); then fail "$t" "${problems[@]}"; else pass "$t"; fi
fi

# T5: compare-backends, run for real with the two CPU backends, on a fake GPU
t="compare-backends: openmp vs serial, one table"
if ! out_budget "$t"; then
  run_job MMAPP_ARGS="$small" MMAPP_BACKENDS="openmp serial" -- --cpus-per-task="$cpt" "$repo/jobs/compare-backends.sbatch"
  dir=$results/mmapp-compare-$JOB_ID
  out=$work/mmapp-compare-$JOB_ID.out
  problems=()
  ((JOB_RC == 0)) || problems+=("job $JOB_ID exit code $JOB_RC ($(cat "$work/sbatch.err"))" "$(job_output "$out")")
  for b in openmp serial; do
    if [[ ! -s "$dir/$b.json" ]]; then
      problems+=("no report $dir/$b.json")
    elif ! p=$(python3 "$repo/tests/slurm/check_reports.py" "$dir/$b.json" --backend "$b" --n 64); then
      problems+=("$p")
    fi
  done
  grep -q "serial/openmp" "$dir/compare.txt" 2>/dev/null || problems+=("no comparison table in $dir/compare.txt" "$(job_output "$out")")
  [[ -s "$dir/compare.csv" ]] || problems+=("no $dir/compare.csv")
  if ((${#problems[@]})); then fail "$t" "${problems[@]}"; else pass "$t"; fi
fi

# T5b: the GPU launch line of gpu-node.sbatch on the fake GPUs, with a probe
# in place of mmapp (no GPU work): with --gpus-per-task=1 and Slurm's default
# binding each of the 2 ranks must see one GPU, a different one (mmapp tells
# distinct GPUs apart by PCI bus id, so no sharing override is passed).
t="gpu-node: 2 ranks x 1 GPU, each rank its own GPU (probe, no GPU work)"
if ! out_budget "$t"; then
  probe=$tmp/gpu-probe
  cat >"$probe" <<'EOF'
#!/bin/bash
# stands in for mmapp: records what each rank sees; the last argument is the report
report=${*: -1}
echo "rank=${SLURM_PROCID:-?} CUDA_VISIBLE_DEVICES=${CUDA_VISIBLE_DEVICES-unset}" >>"${report%.json}.ranks"
[[ "${SLURM_PROCID:-0}" == 0 ]] && echo "$*" >"${report%.json}.args" && echo '{"runs": []}' >"$report"
exit 0
EOF
  chmod +x "$probe"
  run_job MMAPP_BIN="$probe" -- --cpus-per-task=1 "$repo/jobs/gpu-node.sbatch"
  seen=$(sort "$results/mmapp-gpu-$JOB_ID/cuda.ranks" 2>/dev/null | tr '\n' ' ')
  args_seen=$(cat "$results/mmapp-gpu-$JOB_ID/cuda.args" 2>/dev/null)
  if ((JOB_RC == 0)) && [[ "$seen" == "rank=0 CUDA_VISIBLE_DEVICES=0 rank=1 CUDA_VISIBLE_DEVICES=1 " &&
    "$args_seen" == *"--backend cuda"* && "$args_seen" != *"share_devices"* ]]; then
    pass "$t"
  else
    fail "$t" "job exit $JOB_RC; ranks saw: ${seen:-nothing}; arguments: $args_seen" \
      "$(job_output "$work/mmapp-gpu-$JOB_ID.out")"
  fi
fi

# T6-T8: failures reach the job's exit code, with a message
# expect_failure NAME PATTERN EXPECTED_CODE ENV... -- SBATCH_ARGS...
expect_failure() {
  local name=$1 pattern=$2 code=$3
  shift 3
  out_budget "$name" && return
  run_job "$@"
  local outfile=$work/mmapp-cpu-$JOB_ID.out exit_code
  exit_code=$(job_exit_code "$JOB_ID")
  if ((JOB_RC == 0)); then
    fail "$name" "the job exited 0" "$(job_output "$outfile")"
  elif ! grep -qE "$pattern" "$outfile" 2>/dev/null; then
    fail "$name" "no '$pattern' in the job output" "$(job_output "$outfile")"
  elif [[ "$exit_code" != "$code:0" ]]; then
    fail "$name" "job exit code '$exit_code', expected $code:0"
  else
    pass "$name"
  fi
}
expect_failure "missing deck fails the job (exit 2)" "input deck not found: $work/no-such-deck.yaml" 2 \
  MMAPP_ARGS="$small" -- --cpus-per-task=1 "$repo/jobs/cpu-node.sbatch" no-such-deck.yaml
expect_failure "missing binary fails the job (exit 2)" "mmapp binary not found or not executable: $tmp/no-such-mmapp" 2 \
  MMAPP_BIN="$tmp/no-such-mmapp" -- --cpus-per-task=1 "$repo/jobs/cpu-node.sbatch"
expect_failure "bad deck value: mmapp's exit 2 is the job's" "bad input \(exit 2\)" 2 \
  MMAPP_ARGS="--set problem.n=not-a-number" -- --cpus-per-task=1 "$repo/jobs/cpu-node.sbatch"

# T9: the GPU scripts against the GPU-shaped cluster (nothing runs there)
# test_only NAME WANT ENV... -- COMMAND...   WANT: accept, refuse or refuse=REGEX (in the message)
test_only() {
  local name=$1 want=$2 envs=()
  shift 2
  while [[ "$1" != -- ]]; do
    envs+=("$1")
    shift
  done
  shift
  local msg rc
  [[ "$want" == refuse=* ]] && want=refuse${want#refuse=} # refuse + the regex
  msg=$(cd "$work" && env SLURM_CONF="$gpu_conf" "${envs[@]}" timeout 30 "$@" 2>&1)
  rc=$?
  if [[ "$want" == accept && $rc -eq 0 && "$msg" == *"to start at"* ]]; then
    pass "$name"
  elif [[ "$want" == refuse* && $rc -ne 0 && "$msg" =~ ${want#refuse} ]]; then
    pass "$name"
  else
    fail "$name" "exit $rc: $msg"
  fi
}
test_only "gpu-node.sbatch accepted (2 ranks x 1 GPU)" accept -- \
  sbatch --test-only "$repo/jobs/gpu-node.sbatch"
test_only "compare-backends.sbatch accepted" accept -- \
  sbatch --test-only "$repo/jobs/compare-backends.sbatch"
test_only "sweep.sbatch accepted as a GPU array" accept -- \
  sbatch --test-only --gpus-per-task=1 "$repo/jobs/sweep.sbatch"
test_only "3 ranks x 1 GPU refused on a 2-GPU node" refuse="not available" -- \
  sbatch --test-only --ntasks-per-node=3 "$repo/jobs/gpu-node.sbatch"
test_only "submit.sh: a GPU job goes to MMAPP_GPU_PARTITION" accept MMAPP_PARTITION=nosuch MMAPP_GPU_PARTITION=gpu -- \
  "$repo/jobs/submit.sh" --test-only "$repo/jobs/gpu-node.sbatch"
test_only "submit.sh: a CPU job goes to MMAPP_PARTITION (unknown: refused)" refuse="partition.*nosuch" \
  MMAPP_PARTITION=nosuch MMAPP_GPU_PARTITION=gpu -- "$repo/jobs/submit.sh" --test-only "$repo/jobs/cpu-node.sbatch"

# T10: summarize.py --strict flags a run that is not verified
t="summarize.py --strict: an unverified run fails, and shows as NO"
some=$(compgen -G "$results/mmapp-cpu-*/openmp.json" | head -n 1)
if [[ -n "$some" ]]; then
  python3 -c 'import json,sys; d=json.load(open(sys.argv[1])); d["runs"][0]["verified"]=False; json.dump(d,open(sys.argv[2],"w"))' \
    "$some" "$work/unverified.json"
  msg=$(python3 "$repo/jobs/summarize.py" --strict "$some" "$work/unverified.json" 2>&1)
  rc=$?
  if [[ $rc -eq 1 && "$msg" == *" NO"* ]]; then pass "$t"; else fail "$t" "exit $rc" "$msg"; fi
else
  fail "$t" "no report to start from"
fi

# ==== BEGIN summa: jobs/multi-node.sbatch (process grid) ========================
# Self-contained (uses only run_job, check_job, test_only, out_budget, pass,
# fail and the variables above); called once, here, before the summary.
# T11: multi-node.sbatch with 4 CPU tasks on this one node: grid: auto must
#      become 2x2, SUMMA (and scalapack when built in) verified on 4 ranks.
#      --overcommit: 4 one-CPU tasks on a node that may have 2 CPUs;
#      --gpus-per-task=0: CPU ranks (the script asks for one GPU per task).
#      The job's log names NCCL_DEBUG=WARN (the default it exports).
# T12: the GPU shape on the GPU-shaped cluster (one node, 2 GPUs): 1 node x 2
#      GPUs accepted; 3 ranks x 1 GPU and the default 2 nodes x 4 refused.
summa_multi_node_tests() {
  local t="multi-node: 4 CPU tasks, grid auto -> 2x2" launcher problems kernels
  kernels="[vendor,tiled,scalapack]"
  for launcher in srun mpirun; do
    out_budget "$t ($launcher)" && return
    # mpirun binds each rank to a core by default: 4 ranks on an overcommitted node need it off
    local mpirun_args=""
    [[ "$launcher" == mpirun ]] && mpirun_args="--oversubscribe --bind-to none"
    run_job MMAPP_BACKEND=openmp MMAPP_LAUNCHER="$launcher" MMAPP_MPIRUN_ARGS="$mpirun_args" \
      MMAPP_DECK="$repo/inputs/bench/summa-32768.yaml" \
      MMAPP_ARGS="--set problem.n=96 --set parallel.decomposition.panel=16 --set kernels=$kernels" -- \
      --nodes=1 --ntasks=4 --cpus-per-task=1 --overcommit --gpus-per-task=0 "$repo/jobs/multi-node.sbatch"
    local out=$work/mmapp-multi-$JOB_ID.out rep=$results/mmapp-multi-$JOB_ID/openmp.json
    if ((JOB_RC != 0)) && grep -q "scalapack is not available" "$out" 2>/dev/null && [[ "$kernels" == *scalapack* ]]; then
      kernels="[vendor,tiled]"  # a build without ScaLAPACK: run without it
      run_job MMAPP_BACKEND=openmp MMAPP_LAUNCHER="$launcher" MMAPP_MPIRUN_ARGS="$mpirun_args" \
        MMAPP_DECK="$repo/inputs/bench/summa-32768.yaml" \
        MMAPP_ARGS="--set problem.n=96 --set parallel.decomposition.panel=16 --set kernels=$kernels" -- \
        --nodes=1 --ntasks=4 --cpus-per-task=1 --overcommit --gpus-per-task=0 "$repo/jobs/multi-node.sbatch"
      out=$work/mmapp-multi-$JOB_ID.out rep=$results/mmapp-multi-$JOB_ID/openmp.json
    fi
    check_job "$t ($launcher)" "$out" "$rep" --ranks 4 --backend openmp --n 96
    [[ -s "$rep" ]] || continue
    problems=$(python3 - "$rep" <<'PY' 2>&1
import json, sys
r = json.load(open(sys.argv[1]))
bad = []
for run in r["runs"]:
    g = run.get("grid") or {}
    if (g.get("p"), g.get("q")) != (2, 2):
        bad.append(f"{run['kernel']}: grid {g.get('p')}x{g.get('q')}, expected 2x2 from grid: auto over 4 ranks")
    if len(run["ranks"]) != 4 or sum(x["rows"] * x["cols"] for x in run["ranks"]) != 96 * 96:
        bad.append(f"{run['kernel']}: the 4 ranks' blocks do not tile C")
print("; ".join(bad))
sys.exit(1 if bad else 0)
PY
    ) || fail "$t ($launcher): the grid" "$problems"
    grep -q "process grid: auto over 4 ranks" "$out" || fail "$t ($launcher): log" "no 'process grid: auto over 4 ranks' line" "$(job_output "$out")"
    # NCCL's environment: WARN by default, written to the job's log
    grep -q "environment: NCCL_DEBUG=WARN" "$out" || fail "$t ($launcher): NCCL_DEBUG" "no 'environment: NCCL_DEBUG=WARN' line" "$(job_output "$out")"
  done
  test_only "multi-node.sbatch accepted as 1 node x 2 GPUs" accept -- \
    sbatch --test-only --nodes=1 --ntasks=2 "$repo/jobs/multi-node.sbatch"
  test_only "multi-node.sbatch: 3 ranks x 1 GPU refused on a 2-GPU node" refuse="not available" -- \
    sbatch --test-only --nodes=1 --ntasks=3 "$repo/jobs/multi-node.sbatch"
  test_only "multi-node.sbatch: 2 nodes x 4 GPUs refused on a 1-node cluster" \
    refuse="not available|[Nn]ode count|[Mm]ore processors" -- sbatch --test-only "$repo/jobs/multi-node.sbatch"
}
summa_multi_node_tests
# ==== END summa ====================================================================
# T11: the ways of submitting (lib.sh must be found from the spooled copy):
# jobs/submit.sh and plain sbatch with arguments from the checkout root,
# plain sbatch from another directory, a checkout path with a blank; a wrong
# MMAPP_ROOT (the override) fails the job with a message.
# submit_in DIR ENV... -- COMMAND... — runs COMMAND (sbatch --parsable --wait
# ... or submit.sh ...) in DIR; sets JOB_ID and JOB_RC
submit_in() {
  local dir=$1 envs=() out
  shift
  while [[ "$1" != -- ]]; do
    envs+=("$1")
    shift
  done
  shift
  out=$(cd "$dir" && env "${base_env[@]}" "${envs[@]}" timeout "$job_timeout" "$@" 2>"$work/sbatch.err")
  JOB_RC=$?
  JOB_ID=${out%%;*}
  JOB_ID=${JOB_ID//[^0-9]/}
}
elsewhere=$tmp/elsewhere
mkdir -p "$elsewhere"
wait_opts=(--parsable --wait --cpus-per-task=1 "--output=$work/%x-%j.out")
t="submit.sh from the checkout root: relative script, deck and arguments"
if ! out_budget "$t"; then
  submit_in "$repo" -- jobs/submit.sh "${wait_opts[@]}" jobs/cpu-node.sbatch inputs/default.yaml --set problem.n=40
  check_job "$t" "$work/mmapp-cpu-$JOB_ID.out" "$results/mmapp-cpu-$JOB_ID/openmp.json" --ranks 1 --n 40
fi
t="plain sbatch from the checkout root: relative script, deck and arguments"
if ! out_budget "$t"; then
  submit_in "$repo" -- sbatch "${wait_opts[@]}" jobs/cpu-node.sbatch inputs/default.yaml --set problem.n=44
  check_job "$t" "$work/mmapp-cpu-$JOB_ID.out" "$results/mmapp-cpu-$JOB_ID/openmp.json" --ranks 1 --n 44
fi
t="plain sbatch from another directory: absolute script and deck, arguments"
if ! out_budget "$t"; then
  submit_in "$elsewhere" -- sbatch "${wait_opts[@]}" "$repo/jobs/cpu-node.sbatch" "$deck" --set problem.n=52
  check_job "$t" "$work/mmapp-cpu-$JOB_ID.out" "$results/mmapp-cpu-$JOB_ID/openmp.json" --ranks 1 --n 52
fi
t="plain sbatch of a checkout whose path has a blank, with arguments"
if ! out_budget "$t"; then
  blank="$tmp/my checkout"
  mkdir -p "$blank" && cp -r "$repo/jobs" "$blank/"
  submit_in "$elsewhere" -- sbatch "${wait_opts[@]}" "$blank/jobs/cpu-node.sbatch" "$deck" --set problem.n=56
  rep=$results/mmapp-cpu-$JOB_ID/openmp.json
  if ((JOB_RC != 0)); then
    fail "$t" "job ${JOB_ID:-?} exit code $JOB_RC ($(cat "$work/sbatch.err"))" "$(job_output "$work/mmapp-cpu-$JOB_ID.out")"
  elif ! problems=$(python3 "$repo/tests/slurm/check_reports.py" "$rep" --n 56); then
    fail "$t" "$problems"
  elif ! grep -q "^checkout  *$blank @" "$work/mmapp-cpu-$JOB_ID.out"; then
    fail "$t" "the job did not take jobs/ from '$blank'" "$(job_output "$work/mmapp-cpu-$JOB_ID.out")"
  else
    pass "$t"
  fi
fi
expect_failure "MMAPP_ROOT without jobs/lib.sh fails the job (exit 2)" \
  "jobs/lib.sh not found in MMAPP_ROOT=$tmp/nowhere" 2 \
  MMAPP_ROOT="$tmp/nowhere" -- --cpus-per-task=1 "$repo/jobs/cpu-node.sbatch"

# T12: a long sweep stopped through Slurm: mmapp stops at the next
# repetition, writes its partial report ("complete": false, "stopped_by":
# "SIGTERM") and exits 4, which is the job's exit code. Three ways that reach
# the ranks exactly once (jobs/README.md): scancel on the job steps (srun's
# ranks), scancel --batch (the batch shell forwards; mpirun's ranks are in the
# batch step), and sbatch --signal=B:TERM@secs before the time limit (srun).
sweep_deck=$work/long-sweep.yaml
# 60 cases of about 2 s each (naive, N ~ 1000, 4 repetitions, 2 cores): far
# longer than the latest --signal of the last test (70 s, see there)
sweep_cases=60
{
  echo "problem: {sizes: [$(seq -s ', ' 1000 $((1000 + sweep_cases - 1)))], dtype: float}"
  echo "kernels: [naive]"
  echo "run: {warmup: 0, repetitions: 4}"
} >"$sweep_deck"
# stop_job NAME HOW ENV... -- SBATCH_ARGS... — submits cpu-node.sbatch on the
# long sweep; HOW "scancel ARGS..." is run once the report holds a finished
# run, HOW "limit" waits for the --signal given in SBATCH_ARGS; then checks.
stop_job() {
  local name=$1 how=$2 envs=() id rep outfile i state code problems=() p
  shift 2
  while [[ "$1" != -- ]]; do
    envs+=("$1")
    shift
  done
  shift
  out_budget "$name" && return
  id=$(env "${base_env[@]}" "${envs[@]}" sbatch --parsable "$@" "$repo/jobs/cpu-node.sbatch" "$sweep_deck" 2>"$work/sbatch.err")
  id=${id%%;*}
  rep=$results/mmapp-cpu-$id/openmp.json
  outfile=$work/mmapp-cpu-$id.out
  if [[ "$how" == scancel* ]]; then
    for ((i = 0; i < 240; i++)); do
      python3 -c 'import json,sys; sys.exit(0 if json.load(open(sys.argv[1]))["runs"] else 1)' "$rep" 2>/dev/null && break
      sleep 0.5
    done
    ((i < 240)) || problems+=("no finished run in $rep after 120 s")
    $how "$id" || problems+=("'$how $id' failed")
  fi
  for ((i = 0; i < 360; i++)); do
    state=$(scontrol show job "$id" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    [[ "$state" =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT|NODE_FAIL|OUT_OF_MEMORY)$ ]] && break
    sleep 0.5
  done
  if [[ ! "$state" =~ ^(COMPLETED|FAILED|CANCELLED|TIMEOUT)$ ]]; then
    scancel "$id"
    problems+=("job $id still '$state' after 180 s")
  fi
  code=$(job_exit_code "$id")
  [[ "$code" == "4:0" ]] || problems+=("job exit code '$code', expected 4:0 (mmapp's 'stopped by a signal')")
  if p=$(python3 - "$rep" "$sweep_cases" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
cases = int(sys.argv[2])
runs = d["runs"]
bad = []
if d.get("complete") is not False: bad.append(f"complete is {d.get('complete')!r}, expected false")
if d.get("stopped_by") != "SIGTERM": bad.append(f"stopped_by is {d.get('stopped_by')!r}, expected 'SIGTERM'")
done = [r for r in runs if r.get("status") == "ok" and r.get("verified") is True]
if not done: bad.append("no finished, verified run")
if len(runs) >= cases: bad.append(f"{len(runs)} runs: the sweep was not stopped")
print("; ".join(bad) if bad else f"{len(done)} finished run(s) of {cases}")
sys.exit(1 if bad else 0)
EOF
  ); then
    :
  else
    problems+=("report $rep: ${p:-unreadable}")
  fi
  grep -q "stopped by a signal (exit 4)" "$outfile" 2>/dev/null ||
    problems+=("the job log does not say 'stopped by a signal (exit 4)'")
  if ((${#problems[@]})); then
    fail "$name" "${problems[@]}" "$(job_output "$outfile")"
  else
    pass "$name ($p)"
  fi
}
if ((ncpus >= 2)); then
  stop_job "stop: scancel --signal=TERM on the steps, srun, 1 rank x 2 threads" "scancel --signal=TERM" \
    MMAPP_LAUNCHER=srun -- --cpus-per-task=2
  stop_job "stop: scancel --batch --signal=TERM, mpirun, 2 ranks x 1 thread" "scancel --batch --signal=TERM" \
    MMAPP_LAUNCHER=mpirun -- --ntasks=2 --cpus-per-task=1
  # sbatch(1): the signal "may be sent up to 60 seconds earlier than
  # specified", so a lead of 50 s before a 120 s limit lands 10-70 s into the
  # job (a lead of 45 s before 60 s, as before, could land before mmapp had
  # started, and did once in CI)
  stop_job "stop: sbatch --signal=B:TERM@50 --time=2, srun (before the time limit)" limit \
    MMAPP_LAUNCHER=srun -- --cpus-per-task=2 --time=2 --signal=B:TERM@50
else
  echo "(stop tests left out: this host has $ncpus CPU)"
fi

# T13: the launcher-mismatch check (mmapp refuses a one-rank world among
# several srun tasks). Legitimate: mpirun -np 2 inside a 4-task allocation
# (SLURM_NTASKS=4, MPI size 2). Mismatch: srun --mpi=none with an MPI that
# does not see srun (simulated: each task's MPI sees no Slurm variables but
# SLURM_STEP_NUM_TASKS, as with an MPI built without Slurm/PMI support;
# Debian's Open MPI would abort in MPI_Init instead).
cat >"$tmp/np2-in-4.sh" <<EOF
#!/bin/bash
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMP_NUM_THREADS=1 OMP_PROC_BIND=false
mpirun -np 2 --oversubscribe "$bin" "$deck" $small --report "$work/np2-in-4.json"
EOF
cat >"$tmp/mismatch.sh" <<EOF
#!/bin/bash
srun --mpi=none bash -c 'exec env -i PATH="\$PATH" HOME="\$HOME" OMP_NUM_THREADS=1 SLURM_NTASKS="\$SLURM_NTASKS" SLURM_PROCID="\$SLURM_PROCID" SLURM_STEP_NUM_TASKS="\$SLURM_STEP_NUM_TASKS" "$bin" "$deck" $small --report "$work/mismatch-\$SLURM_PROCID.json"'
EOF
t="launcher check: mpirun -np 2 inside a 4-task allocation is accepted"
if ! out_budget "$t"; then
  run_job -- --ntasks=4 --overcommit --cpus-per-task=1 --output="$work/np2-in-4.out" "$tmp/np2-in-4.sh"
  if ((JOB_RC != 0)); then
    fail "$t" "job exit code $JOB_RC" "$(job_output "$work/np2-in-4.out")"
  elif ! p=$(python3 "$repo/tests/slurm/check_reports.py" "$work/np2-in-4.json" --ranks 2 --n 64); then
    fail "$t" "$p" "$(job_output "$work/np2-in-4.out")"
  else
    pass "$t"
  fi
fi
t="launcher check: srun tasks that are each a one-rank world are refused (exit 2)"
if ! out_budget "$t"; then
  run_job -- --ntasks=2 --cpus-per-task=1 --output="$work/mismatch.out" "$tmp/mismatch.sh"
  n_msg=$(grep -c "MPI world has 1 rank but this is one of 2 tasks that srun started" "$work/mismatch.out" 2>/dev/null)
  if ((JOB_RC == 0)); then
    fail "$t" "the job exited 0" "$(job_output "$work/mismatch.out")"
  elif [[ "$(job_exit_code "$JOB_ID")" != "2:0" || "$n_msg" != 2 ]]; then
    fail "$t" "job exit code $(job_exit_code "$JOB_ID"), $n_msg refusal message(s), expected 2:0 and 2" \
      "$(job_output "$work/mismatch.out")"
  elif compgen -G "$work/mismatch-*.json" >/dev/null; then
    fail "$t" "a refused task wrote a report"
  else
    pass "$t"
  fi
fi

echo "(run time $((SECONDS - start_time)) s)"
echo "$passed passed, $failed failed"
((failed == 0))
