#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of mmapp over NCCL (registered only when mmapp is built
with NCCL). Two suites (--suite):

per-rank (the default; one GPU per rank, so at least --np GPUs: NCCL refuses
two ranks on one GPU). At --np ranks:
  - SUMMA with transfer: nccl on every grid, both overlap modes, both data
    modes, float and double: verified, the report names the transport, and C is bit for bit
    the C of transfer: staged; transfer: auto picks nccl (at 1 rank: the
    1x1 grid, the NCCL transport's streams and events without a broadcast);
  - the row split in scatter mode (2 ranks or more): B's broadcast and C's
    gather over NCCL (the report's transport "nccl") give the C of the MPI
    path (MMAPP_NCCL=off) bit for bit;
  - the failure paths (MMAPP_TEST_NCCL_FAULT=RANK:PHASE): a communicator that
    cannot be made (init), a broadcast that fails (bcast), a rank that hangs
    before its first broadcast (hang; the only one at 1 rank) and the row
    split's broadcast failing (rows): every rank ends with an "ERROR" line
    (NCCL's message or the failing rank's) and a non-zero exit, within a
    bounded time (MMAPP_NCCL_TIMEOUT=10 for the hang), never a hang.

shared-gpu (--np 2 or more ranks on one GPU, CUDA_VISIBLE_DEVICES=the first
visible: one GPU is enough; the ranks share it as in the one-GPU suite):
  - transfer: nccl is refused: exit 2, the deck and the key
    parallel.decomposition.transfer named, with the reason;
  - transfer: auto takes an MPI transport and says so: the report's
    grid.transfer (SUMMA) and transport "mpi" (row split), the table, and a
    "mmapp: note: ... NCCL not used (two ranks share one GPU ...)" line;
  - NCCL itself refuses one communicator with two ranks on one GPU
    (--duplicate-probe: tests/tools/nccl_duplicate_gpu.cpp, NCCL called
    directly, no mmapp check in the way): an error from ncclCommInitRank on
    both ranks, NCCL's warning naming the duplicate GPU, within a bounded
    time (a hang is a failure).

Usage: test_nccl.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N]
                    [--suite per-rank|shared-gpu] [--duplicate-probe BIN] [-k PATTERN]
Exits 77 (CTest: skipped) when this machine has fewer GPUs than the suite
needs (per-rank: --np; shared-gpu: 1).
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
    if ARGS.np < 2:
        return  # one rank: nothing to broadcast or gather
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
    last = ARGS.np - 1
    # cuBLAS as the local GEMM: launched on the stream, no host fence that a stuck broadcast could hold.
    d = deck(tmp, SMALL.replace("dtype: [float, double]", "dtype: float").replace("[tiled, vendor]", "[vendor]"))
    grid = [f"parallel.decomposition.grid=[1, {ARGS.np}]", "parallel.decomposition.transfer=nccl"]
    err = expect_error_on_every_rank(tmp, "0:hang", d, *grid)
    assert "timed out" in err, err[-3000:]
    if ARGS.np < 2:
        return  # 1 rank: no communicator, no broadcast, no row split over NCCL
    err = expect_error_on_every_rank(tmp, f"{last}:init", d, *grid)
    assert "injected by MMAPP_TEST_NCCL_FAULT" in err, err[-3000:]
    err = expect_error_on_every_rank(tmp, f"{last}:bcast", d, *grid)
    assert "ncclBroadcast" in err or f"rank {last} failed" in err, err[-3000:]
    err = expect_error_on_every_rank(tmp, f"{last}:rows", deck(tmp, ROWS, "rows.yaml"))
    assert "row split" in err, err[-3000:]


# The shared-gpu suite: every rank on one GPU, the first this test sees (GPU 0,
# or the first of CUDA_VISIBLE_DEVICES: CTest's slot, tests/tools/ctest_gpus.sh).
ON_ONE_GPU = {"CUDA_VISIBLE_DEVICES": (os.environ.get("CUDA_VISIBLE_DEVICES") or "0").split(",")[0]}
DECLINED = "NCCL not used (two ranks share one GPU"


def shared_gpu_test_transfer_nccl_is_refused_naming_the_key(tmp):
    d = deck(tmp, SMALL)
    t0 = time.monotonic()
    code, out, err = mmapp(d, "--set", "parallel.decomposition.transfer=nccl", env=env(**ON_ONE_GPU))
    assert code == 2, (code, out[-2000:], err[-3000:])
    assert time.monotonic() - t0 < 120
    assert f"{d}: parallel.decomposition.transfer: nccl, but two ranks share one GPU" in err, err[-3000:]
    assert "one rank per GPU" in err, err[-3000:]
    assert "Traceback" not in err and "terminate called" not in err, err[-3000:]


def shared_gpu_test_transfer_auto_takes_an_mpi_transport_and_says_so(tmp):
    d = deck(tmp, SMALL.replace("dtype: [float, double]", "dtype: float"))
    for data in ("local", "scatter"):
        r, out = run_report(tmp, d, f"parallel.data={data}", label="summa-" + data,
                            environment=env(**ON_ONE_GPU))
        for run in r["runs"]:
            assert run["status"] == "ok" and run["verified"] is True, (data, run["kernel"], run["verification"])
            transfer = run["grid"]["transfer"]
            assert transfer and "nccl" not in transfer.lower(), (data, transfer)
            assert f"panels via {transfer}" in out, (transfer, out[-2000:])
    _, err = run_stderr(tmp, d, ON_ONE_GPU)
    assert "mmapp: note: parallel.decomposition.transfer: auto: " + DECLINED in err, err[-3000:]
    assert err.count("parallel.decomposition.transfer: auto: NCCL not used") == 1, err[-3000:]  # once, not per run
    # The row split (scatter mode): B and C over MPI, and the note says why.
    rows = deck(tmp, ROWS, "rows.yaml")
    r, out = run_report(tmp, rows, label="rows", environment=env(**ON_ONE_GPU))
    for run in r["runs"]:
        assert run["status"] == "ok" and run["verified"] is True, run["verification"]
        assert run.get("transport") == "mpi", run.get("transport")
    assert "B and C via mpi" in out, out[-2000:]
    _, err = run_stderr(tmp, rows, ON_ONE_GPU)
    assert "mmapp: note: row split: " + DECLINED in err, err[-3000:]


def run_stderr(tmp, path, extra_env):
    code, out, err = mmapp(path, env=env(**extra_env))
    assert code == 0, (path, code, err[-3000:])
    return out, err


def shared_gpu_test_nccl_itself_refuses_two_ranks_on_one_gpu(tmp):
    if not ARGS.duplicate_probe:
        raise AssertionError("--duplicate-probe (the nccl_duplicate_gpu binary) is needed by this test")
    e = env(NCCL_DEBUG="WARN")
    e.pop("NCCL_MULTI_RANK_GPU_ENABLE", None)  # NCCL >= 2.30: 1 would allow it; the default is tested
    bound = 60
    t0 = time.monotonic()
    p = subprocess.run([ARGS.mpiexec, "-n", "2", "--oversubscribe", ARGS.duplicate_probe, str(bound)],
                       capture_output=True, text=True, env=e, timeout=bound + 60)
    took = time.monotonic() - t0
    text = p.stdout + p.stderr
    print(text[-3000:], flush=True)  # NCCL's own words, for the log
    assert p.returncode != 124, ("ncclCommInitRank hung", text[-3000:])
    assert p.returncode == 0, ("NCCL accepted two ranks on one GPU" if p.returncode == 1 else p.returncode, text[-3000:])
    assert took < bound + 30, took
    for rank in (0, 1):
        lines = [l for l in p.stdout.splitlines() if l.startswith(f"rank {rank}: ncclCommInitRank: ")]
        assert len(lines) == 1, (rank, text[-3000:])
        code = int(lines[0].split(": ")[2].split()[0])
        assert code != 0, lines[0]  # ncclSuccess is 0; NCCL 2.28 answers ncclInvalidUsage (5)
    assert "Duplicate GPU detected" in text or "same GPU" in text, text[-3000:]


def gpu_count():
    """The GPUs this test may use: nvidia-smi's, at most as many as CUDA_VISIBLE_DEVICES lists when set."""
    try:
        n = len(subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True).stdout.splitlines())
    except OSError:
        return 0
    visible = os.environ.get("CUDA_VISIBLE_DEVICES")
    return n if visible is None else min(n, len([d for d in visible.split(",") if d.strip()]))


def main():
    global ARGS
    ap = harness.parser()
    ap.add_argument("--suite", choices=("per-rank", "shared-gpu"), default="per-rank")
    ap.add_argument("--duplicate-probe", default="", help="the nccl_duplicate_gpu binary (shared-gpu suite)")
    ARGS = ap.parse_args()
    gpus = gpu_count()
    if ARGS.suite == "shared-gpu":
        if ARGS.np < 2:
            print("the shared-gpu suite needs --np 2 or more")
            return 1
        if gpus < 1:
            print("SKIP: no GPU here")
            return 77
        tests = {"test_" + n[len("shared_gpu_test_"):]: f for n, f in globals().items()
                 if n.startswith("shared_gpu_test_")}
        return harness.run_tests(tests, ARGS.k, ARGS.shard)
    if gpus < ARGS.np:
        print(f"SKIP: {gpus} GPU(s) here, {ARGS.np} ranks need one each (NCCL refuses two ranks on one GPU)")
        return 77
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
