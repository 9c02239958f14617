# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# jobs/site.sh — the one file with site settings for the mmapp Slurm jobs.
#
# Edit this file (or set the same variables in your environment) when you move
# to another cluster; nothing else in jobs/ names an account, a partition, a
# module or an MPI launcher. The defaults work on a plain Slurm with no
# modules (the one-node test cluster of tests/slurm/run-slurm-tests.sh).
#
# It is sourced in two places and must stay free of side effects (it only sets
# variables and defines site_modules):
#   - by jobs/submit.sh, before sbatch: account, partition and QoS become
#     sbatch options (#SBATCH lines cannot read variables);
#   - by jobs/lib.sh inside every job: modules, launcher, MPI settings.
# Every setting keeps a value already present in the environment, so a
# one-off change needs no edit:  MMAPP_LAUNCHER=mpirun jobs/submit.sh ...

# --- where jobs are charged and queued (empty: the cluster's default) -------
: "${MMAPP_ACCOUNT:=}"           # sbatch --account, e.g. proj123
: "${MMAPP_QOS:=}"               # sbatch --qos, e.g. normal
: "${MMAPP_PARTITION:=}"         # CPU jobs (cpu-node, sweep, gather)
: "${MMAPP_GPU_PARTITION:=}"     # GPU jobs (gpu-node, compare-backends, a sweep with MMAPP_BACKEND=cuda)

# --- software environment of the job ----------------------------------------
# Called by jobs/lib.sh at the start of every job, before provenance is
# printed (so the module list shows what the run used). Put the same modules
# here that the build used. Example for a GPU site:
#   module purge
#   module load gcc/12 cuda/12.4 openmpi/4.1
site_modules() {
  : # no modules on the test cluster
}

# --- how ranks are started ---------------------------------------------------
# srun:   the default and the right choice where Slurm and the MPI library
#         agree on a PMI (check with `srun --mpi=list`).
# mpirun: started inside the allocation (Open MPI reads the Slurm allocation
#         itself); use it where srun cannot start your MPI (the symptom: every
#         rank reports "ranks": 1, or MPI_Init aborts with a PMI error).
: "${MMAPP_LAUNCHER:=srun}"
# srun --mpi=<type>. Debian's Open MPI 4.1 under Debian's Slurm needs pmix
# (with MpiDefault=none every srun task becomes a one-rank MPI_COMM_WORLD);
# empty: the cluster's MpiDefault.
: "${MMAPP_SRUN_MPI:=pmix}"
# Extra srun options for every launch, e.g. "--cpu-bind=cores".
: "${MMAPP_SRUN_ARGS:=}"
# GPU placement for srun in GPU jobs (--gpu-bind=<value>); see gpu-node.sbatch.
# Empty (default): Slurm's binding for --gpus-per-task=1, each rank sees only
# its own GPU, as device 0. "closest": a GPU on the rank's NUMA domain (needs
# gres.conf Cores=). "none": no binding; Slurm 22.05 then unsets
# CUDA_VISIBLE_DEVICES, so every rank sees every GPU of the node (safe only on
# whole nodes or with cgroup ConstrainDevices) and mmapp picks by local rank.
: "${MMAPP_GPU_BIND:=}"
# mpirun command and its options; lib.sh adds -np and the per-rank core count.
: "${MMAPP_MPIRUN:=mpirun}"
: "${MMAPP_MPIRUN_ARGS:=}"
