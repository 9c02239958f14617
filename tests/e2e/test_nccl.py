#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of mmapp over NCCL (registered only when mmapp is built
with NCCL; they need one GPU per rank, so at least --np GPUs: NCCL refuses two
ranks on one GPU). At --np ranks:
  - SUMMA with transfer: nccl on every grid, both overlap modes, both data
    modes, float and double: verified, the report names the transport, and C is bit for bit
    the C of transfer: staged; transfer: auto picks nccl;
  - the row split in scatter mode: B's broadcast and C's gather over NCCL
    (the report's transport "nccl") give the C of the MPI path (MMAPP_NCCL=off)
    bit for bit;
  - the failure paths (MMAPP_TEST_NCCL_FAULT=RANK:PHASE): a communicator that
    cannot be made (init), a broadcast that fails (bcast), a rank that hangs
    before its first broadcast (hang) and the row split's broadcast failing
    (rows): every rank ends with an "ERROR" line (NCCL's message or the
    failing rank's) and a non-zero exit, within a bounded time
    (MMAPP_NCCL_TIMEOUT=10 for the hang), never a hang;
  - transfer: nccl with two ranks on one GPU (CUDA_VISIBLE_DEVICES=0) exits 2
    naming the duplicate GPU.

Usage: test_nccl.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
Exits 77 (CTest: skipped) when this machine has fewer GPUs than --np.
"""
import json
import os
import subprocess
import sys
import time

import harness
from harness import deck

ARGS = None

SMALL = """
problem: {m: 301, n: 277, k: 389, dtype: [float, double]}
kernels: [tiled, vendor]
run: {backend: cuda, warmup: 1, repetitions: 2}
parallel:
  decomposition: {grid: auto, panel: 32}
"""

ROWS = """
problem: {m: 301, n: 277, k: 389, dtype: float}
kernels: [vendor]
run: {backend: cuda, warmup: 1, repetitions: 2}
parallel:
  decomposition: even
  data: scatter
"""


def mmapp(*args, np=None, timeout=300, env=None):
    return harness.run(ARGS, args, np=np, timeout=timeout, env=env)


def env(**extra):
    e = dict(harness.ENV)
    e.update(extra)
    return e


def grids(n):
    return [(p, n // p) for p in range(1, n + 1) if n % p == 0]


def run_report(tmp, path, *sets, label="r", environment=None):
    rep = os.path.join(tmp, label + ".json")
    args = [path, "--report", rep]
    for s in sets:
        args += ["--set", s]
    code, out, err = mmapp(*args, env=environment)
    assert code == 0, (sets, code, out[-3000:], err[-3000:])
    return json.load(open(rep)), out


def test_summa_over_nccl_is_the_staged_c_bit_for_bit(tmp):
    d = deck(tmp, SMALL)
    for p, q in grids(ARGS.np):
        seen = {}
        # Checksums do not depend on the data mode (test_summa.py), so each run takes one.
        for transfer, overlap, data in (("staged", "ibcast", "local"), ("nccl", "ibcast", "local"),
                                        ("nccl", "none", "scatter"), ("auto", "auto", "local")):
            r, out = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]", f"parallel.data={data}",
                                f"parallel.decomposition.transfer={transfer}",
                                f"parallel.decomposition.overlap={overlap}")
            for run in r["runs"]:
                what = (p, q, transfer, overlap, data, run["kernel"], run["dtype"])
                assert run["status"] == "ok" and run["verified"] is True, (what, run["verification"])
                if transfer in ("nccl", "auto"):
                    assert run["grid"]["transfer"] == "nccl: device to device (NCCL)", (what, run["grid"])
                    assert "nccl: device to device (NCCL)" in out, what
                seen.setdefault((run["kernel"], run["dtype"]), set()).add(run["checksum"])
        for key, values in seen.items():
            assert len(values) == 1, (p, q, key, values)


def test_row_split_over_nccl_is_the_mpi_c_bit_for_bit(tmp):
    d = deck(tmp, ROWS)
    r1, out = run_report(tmp, d, label="nccl")
    r2, _ = run_report(tmp, d, label="mpi", environment=env(MMAPP_NCCL="off"))
    for a, b in zip(r1["runs"], r2["runs"]):
        assert a["status"] == "ok" and a["verified"] is True, a["verification"]
        assert b["status"] == "ok" and b["verified"] is True, b["verification"]
        assert a.get("transport") == "nccl" and b.get("transport") == "mpi", (a.get("transport"), b.get("transport"))
        assert a["checksum"] == b["checksum"], (a["checksum"], b["checksum"])
        for phase in ("broadcast", "gather", "communication"):
            assert phase in a["phases_s"], (phase, a["phases_s"].keys())
    assert "B and C via nccl" in out, out[-2000:]


def expect_error_on_every_rank(tmp, fault, path, *sets, timeout_env="10", bound=90):
    """MMAPP_TEST_NCCL_FAULT=fault: non-zero exit, an ERROR line from every rank, within `bound` seconds."""
    args = [path]
    for s in sets:
        args += ["--set", s]
    t0 = time.monotonic()
    code, out, err = mmapp(*args, timeout=bound + 60,
                           env=env(MMAPP_TEST_NCCL_FAULT=fault, MMAPP_NCCL_TIMEOUT=timeout_env))
    took = time.monotonic() - t0
    assert code != 0, (fault, code, err[-3000:])
    assert took < bound, (fault, took)
    for rank in range(ARGS.np):
        assert f"mmapp: rank {rank}: ERROR: " in err, (fault, rank, err[-3000:])
    return err


def test_failing_nccl_ends_every_rank_with_an_error(tmp):
    if ARGS.np < 2:
        return
    last = ARGS.np - 1
    # cuBLAS as the local GEMM: launched on the stream, no host fence that a stuck broadcast could hold.
    d = deck(tmp, SMALL.replace("dtype: [float, double]", "dtype: float").replace("[tiled, vendor]", "[vendor]"))
    grid = [f"parallel.decomposition.grid=[1, {ARGS.np}]", "parallel.decomposition.transfer=nccl"]
    err = expect_error_on_every_rank(tmp, f"{last}:init", d, *grid)
    assert "injected by MMAPP_TEST_NCCL_FAULT" in err, err[-3000:]
    err = expect_error_on_every_rank(tmp, f"{last}:bcast", d, *grid)
    assert "ncclBroadcast" in err or f"rank {last} failed" in err, err[-3000:]
    err = expect_error_on_every_rank(tmp, "0:hang", d, *grid)
    assert "timed out" in err, err[-3000:]
    err = expect_error_on_every_rank(tmp, f"{last}:rows", deck(tmp, ROWS, "rows.yaml"))
    assert "row split" in err, err[-3000:]


def test_nccl_on_two_ranks_of_one_gpu_is_refused(tmp):
    if ARGS.np < 2:
        return
    d = deck(tmp, SMALL)
    code, out, err = mmapp(d, "--set", "parallel.decomposition.transfer=nccl", env=env(CUDA_VISIBLE_DEVICES="0"))
    assert code == 2, (code, err[-3000:])
    assert "transfer: nccl, but two ranks share one GPU" in err, err[-3000:]
    # auto falls back to an MPI path there, and runs.
    code, out, err = mmapp(d, env=env(CUDA_VISIBLE_DEVICES="0"))
    assert code == 0, (code, err[-3000:])
    assert "NCCL" not in out.split("process grid runs")[-1].split("per rank")[0], out[-2000:]


def main():
    global ARGS
    ARGS = harness.parser().parse_args()
    try:
        gpus = len(subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.splitlines())
    except OSError:
        gpus = 0
    if gpus < ARGS.np:
        print(f"SKIP: {gpus} GPU(s) here, {ARGS.np} ranks need one each (NCCL refuses two ranks on one GPU)")
        return 77
    return harness.run_tests(globals(), ARGS.k)


if __name__ == "__main__":
    sys.exit(main())
