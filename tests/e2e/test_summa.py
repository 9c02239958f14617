#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of mmapp on process grids (SUMMA and ScaLAPACK), run by
CTest at 1, 2, 3 and 4 ranks.

Each test runs the real binary through mpiexec on small decks whose shapes are
not multiples of p, q or the panel, on every p x q grid of the rank count
(1x1; 1x2, 2x1; 1x3, 3x1; 1x4, 2x2, 4x1), and checks exit codes, the table,
the JSON report and the checksums:
  - every kernel (naive, shared, tiled, vendor as SUMMA's local GEMM,
    and scalapack) verified, float and double, both data modes, checksums
    equal between the data modes;
  - checksums equal across runs and overlap modes, and between MPI
    broadcasts and the shared-memory window (transfer: shared);
  - with exact data (closed_form), every grid, panel, kernel and the row
    split give the same C bit for bit (this checks the streamed, global
    row-major checksum and the 2-D scatter/gather);
  - blocks that are empty (M = 2 over 3 process rows, N = 1 over 4 process
    columns) are handled;
  - error paths exit 2 with one line naming the file, line and key, and
    write no report.

Usage: test_summa.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
Prints 'N passed, N failed' and exits 1 on any failure.
"""
import json
import os
import sys
import tempfile

import harness
from harness import deck

ARGS = None
SCALAPACK = True  # set in main(): whether this binary (and backend) runs scalapack
KERNELS = ["naive", "shared", "tiled", "vendor", "scalapack"]


def kernels(*names):
    """`names` (default: every kernel) as a deck list, without scalapack when it cannot run here."""
    names = [k for k in (names or KERNELS) if SCALAPACK or k != "scalapack"]
    return "[" + ", ".join(names) + "]"


def mmapp(*args, np=None, timeout=300):
    """Runs mmapp under mpiexec; returns (exit code, stdout, stderr)."""
    return harness.run(ARGS, args, np=np, timeout=timeout)


def grids(n):
    """Every p x q with p * q == n."""
    return [(p, n // p) for p in range(1, n + 1) if n % p == 0]


def run_report(tmp, path, *sets, label="r"):
    rep = os.path.join(tmp, label + ".json")
    args = [path, "--report", rep]
    for s in sets:
        args += ["--set", s]
    code, out, err = mmapp(*args)
    assert code == 0, (sets, code, out[-3000:], err[-3000:])
    return json.load(open(rep)), out


SMALL = """
problem: {m: 37, n: 29, k: 53, dtype: [float, double]}
kernels: KERNELS
run: {warmup: 1, repetitions: 2}
parallel:
  decomposition: {grid: auto, panel: 8}
"""


def test_every_kernel_every_grid_both_modes(tmp):
    """37x29x53, panel 8: every kernel verified on every grid, in both data modes, same checksums."""
    d = deck(tmp, SMALL.replace("KERNELS", kernels()))
    for p, q in grids(ARGS.np):
        sums = {}
        for mode in ("scatter", "local"):
            r, out = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]", f"parallel.data={mode}")
            assert "SUMMA on" in out and "per rank" in out and "bcast s" in out, out
            runs = r["runs"]
            assert len(runs) == 2 * len(kernels()[1:-1].split(", ")), len(runs)
            for run in runs:
                what = (p, q, mode, run["kernel"], run["dtype"])
                assert run["status"] == "ok" and run["verified"] is True, (what, run["verification"], run["error"])
                v = run["verification"]
                assert v["checks"] == 2 and "2-D blocks" in v["verifier"] and 0 <= v["worst_ratio"] <= 1, (what, v)
                g = run["grid"]
                assert (g["p"], g["q"]) == (p, q), (what, g)
                host = r["provenance"]["backend"] != "cuda"
                if host or run["kernel"] == "scalapack":
                    assert g["transfer"] == "host", (what, g)
                else:
                    assert g["transfer"] in ("cuda-aware", "staged through pinned host memory",
                                             "shared: an MPI shared-memory window (one node)",
                                             "nccl: device to device (NCCL)"), (what, g)
                overlap = "none" if g["transfer"] == "cuda-aware" else "ibcast"  # the safe default
                if run["kernel"] == "scalapack":
                    assert g["algorithm"] == "scalapack p?gemm", (what, g)
                    assert abs(run["pct_of_vendor"] - 100.0) < 1e-9, what
                else:
                    assert g["algorithm"] == "summa" and g["panel"] == 8 and g["overlap"] == overlap, (what, g)
                    assert g["panels"] >= 7, (what, g)  # ceil(53 / 8), plus splits at block boundaries
                    for phase in ("summa_comm", "summa_gemm", "summa_copy"):
                        assert phase in run["phases_s"], (what, phase)
                    assert run["pct_of_vendor"] is not None and run["pct_of_vendor"] > 0, what
                    if not SCALAPACK and run["kernel"] == "vendor":
                        assert abs(run["pct_of_vendor"] - 100.0) < 1e-9, what
                assert ("scatter" in run["phases_s"]) == (mode == "scatter"), what
                assert len(run["ranks"]) == ARGS.np
                cells = 0
                for rr in run["ranks"]:
                    assert rr["prow"] * q + rr["pcol"] == rr["rank"], rr
                    assert rr["memory_bytes"]["device"] > 0 and rr["memory_bytes"]["host"] > 0, rr
                    cells += rr["rows"] * rr["cols"]
                assert cells == 37 * 29, (what, cells)  # the blocks tile C
                sums.setdefault((run["kernel"], run["dtype"]), set()).add(run["checksum"])
        for key, values in sums.items():
            assert len(values) == 1, (p, q, key, values)


def test_checksums_repeat_across_runs_and_overlap_modes(tmp):
    """The same grid and panel give the same C in two runs and with overlap none or ibcast."""
    d = deck(tmp, SMALL.replace("KERNELS", kernels()))
    p, q = grids(ARGS.np)[-1]
    seen = {}
    for overlap in ("ibcast", "none", "ibcast"):
        r, _ = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]", f"parallel.decomposition.overlap={overlap}",
                          "parallel.data=local", "kernels=[naive, tiled, vendor]")
        for run in r["runs"]:
            assert run["verified"], run["verification"]
            assert run["grid"]["overlap"] == overlap
            seen.setdefault((run["kernel"], run["dtype"]), set()).add(run["checksum"])
    for key, values in seen.items():
        assert len(values) == 1, (key, values)


def test_shared_window_path_gives_the_broadcasts_c(tmp):
    """transfer: shared (panels through an MPI shared-memory window, barriers as signals) gives, on every grid
    and in both overlap modes, the C of the broadcast paths bit for bit, verified, and the report names it."""
    d = deck(tmp, SMALL.replace("KERNELS", "[naive, tiled, vendor]"))
    for p, q in grids(ARGS.np):
        seen = {}
        for transfer, overlap in (("staged", "ibcast"), ("shared", "ibcast"), ("shared", "none")):
            r, _ = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]", "parallel.data=local",
                              f"parallel.decomposition.transfer={transfer}", f"parallel.decomposition.overlap={overlap}")
            for run in r["runs"]:
                what = (p, q, transfer, overlap, run["kernel"], run["dtype"])
                assert run["status"] == "ok" and run["verified"] is True, (what, run["verification"])
                g = run["grid"]
                if transfer == "shared":
                    assert g["transfer"] == "shared: an MPI shared-memory window (one node)", (what, g)
                    for rr in run["ranks"]:  # the window segment counts as pinned host memory
                        assert rr["memory_bytes"]["host"] > 0, (what, rr)
                assert g["overlap"] == overlap, (what, g)
                seen.setdefault((run["kernel"], run["dtype"]), set()).add(run["checksum"])
        for key, values in seen.items():
            assert len(values) == 1, (p, q, key, values)


def test_exact_data_is_the_same_c_on_every_grid_panel_and_the_row_split(tmp):
    """closed_form: every partial sum is an exact integer, so every grid, panel and kernel, and
    the row split, give bit-identical C; this checks the global row-major order of the streamed
    checksum (local) and of the 2-D scatter/gather (scatter)."""
    d = deck(tmp, """
        problem: {m: 23, n: 31, k: 40, dtype: [float, double], init: closed_form}
        kernels: KERNELS
        run: {warmup: 0, repetitions: 1}
        parallel:
          decomposition: {grid: auto, panel: 8}
        """.replace("KERNELS", kernels("naive", "tiled", "vendor", "scalapack")))
    sums = {}
    for p, q in grids(ARGS.np):
        for panel in (1, 8, 1000):
            for mode in ("local", "scatter"):
                r, _ = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]",
                                  f"parallel.decomposition.panel={panel}", f"parallel.data={mode}")
                for run in r["runs"]:
                    assert run["verified"] and run["verification"]["inexact"] == 0, run["verification"]
                    sums.setdefault(run["dtype"], set()).add(run["checksum"])
    r, _ = run_report(tmp, d, "parallel.decomposition=even", "kernels=[naive, vendor]")
    for run in r["runs"]:
        sums.setdefault(run["dtype"], set()).add(run["checksum"])
    for dtype, values in sums.items():
        assert len(values) == 1, (dtype, values)


def test_one_panel_on_one_rank_is_the_row_split(tmp):
    """1x1 grid, panel >= K: naive's C is the row split's bit for bit (one sum per element)."""
    if ARGS.np != 1:
        return
    d = deck(tmp, """
        problem: {m: 41, n: 19, k: 33, dtype: [float, double]}
        kernels: [naive]
        run: {warmup: 0, repetitions: 1}
        parallel:
          decomposition: {grid: [1, 1], panel: 64}
        """)
    grid, _ = run_report(tmp, d, label="g")
    rows, _ = run_report(tmp, d, "parallel.decomposition=even", label="rows")
    assert [x["checksum"] for x in grid["runs"]] == [x["checksum"] for x in rows["runs"]]


def test_empty_blocks(tmp):
    """Ranks whose block of A, B or C is empty (M = 2 over 3 or 4 process rows, N = 1 over
    several process columns, K = 2 over 3 or 4 parts) take part and every kernel verifies."""
    shapes = [(2, 5, 4), (5, 1, 2), (1, 1, 1), (2, 2, 3)]
    d = deck(tmp, SMALL.replace("KERNELS", kernels()))
    for p, q in grids(ARGS.np):
        for m, n, k in shapes:
            for mode in ("local", "scatter"):
                r, _ = run_report(tmp, d, f"parallel.decomposition.grid=[{p}, {q}]", f"problem.m={m}",
                                  f"problem.n={n}", f"problem.k={k}", "parallel.decomposition.panel=1",
                                  f"parallel.data={mode}")
                for run in r["runs"]:
                    assert run["verified"], (p, q, m, n, k, mode, run["kernel"], run["verification"])
                    assert sum(x["rows"] * x["cols"] for x in run["ranks"]) == m * n


def test_grid_auto_takes_the_most_square_grid(tmp):
    r, _ = run_report(tmp, deck(tmp, SMALL.replace("KERNELS", kernels())), "kernels=[vendor]",
                      "problem.dtype=float")
    expect = {1: (1, 1), 2: (1, 2), 3: (1, 3), 4: (2, 2)}[ARGS.np]
    g = r["runs"][0]["grid"]
    assert (g["p"], g["q"]) == expect, g
    assert "grid: auto" in r["deck"]["resolved_yaml"]


def test_bad_grid_inputs_exit_2_naming_the_key(tmp):
    rep = os.path.join(tmp, "never.json")
    cases = [
        ("problem: {n: 16}\nparallel:\n  decomposition: {grid: [2, 3]}\n",
         f"deck.yaml:3: parallel.decomposition.grid: 2x3 = 6 ranks but the job has {ARGS.np}"),
        ("problem: {n: 16}\nparallel:\n  decomposition:\n    grid: [2, 2]\n    panel: 0\n",
         "deck.yaml:5: parallel.decomposition.panel: expected an integer >= 1, got '0'"),
        ("problem: {n: 16}\nparallel:\n  decomposition:\n    grid: auto\n    rows: [16]\n",
         "deck.yaml:5: parallel.decomposition.rows: exclusive with parallel.decomposition.grid"),
        ("problem: {n: 16}\nparallel:\n  decomposition:\n    grid: auto\n    weights: [1]\n",
         "deck.yaml:5: parallel.decomposition.weights: exclusive with parallel.decomposition.grid"),
        ("problem: {n: 16}\nkernels: [naive, scalapack]\n",
         "deck.yaml:2: kernels[1]: scalapack is ScaLAPACK's distributed p?gemm and needs a process grid"),
    ]
    for text, expected in cases:
        code, out, err = mmapp(deck(tmp, text), "--report", rep)
        assert code == 2, (text, code, err)
        assert expected in err, (text, err)
        # one error message (rank 0's); other ranks' stderr (Kokkos warnings) may interleave with it
        assert err.count("mmapp: error") == 1, err
        assert not os.path.exists(rep), text
    code, out, err = mmapp(deck(tmp, "problem: {n: 16}\nparallel: {decomposition: {grid: auto}}\n"),
                           "--set", "parallel.decomposition.grid=[7, 7]")
    assert code == 2 and "--set parallel.decomposition.grid: 7x7 = 49 ranks but the job has" in err, err


def test_memory_need_is_checked_before_allocating(tmp):
    """A grid problem too big for the host is refused (exit 2) with the per-rank need and what is available."""
    code, out, err = mmapp(deck(tmp, "problem: {n: 2000000}\nkernels: [naive]\nparallel: {decomposition: {grid: auto}}\n"))
    assert code == 2, (code, err)
    assert "grid needs" in err and "available" in err and "rank" in err, err


def main():
    global ARGS
    ARGS = harness.parser().parse_args()
    global SCALAPACK
    with tempfile.TemporaryDirectory() as tmp:
        code, out, err = mmapp(deck(tmp, "problem: {n: 4}\nkernels: [scalapack]\nrun: {warmup: 0, repetitions: 1}\n"
                                         "parallel: {decomposition: {grid: auto}}\n"))
        SCALAPACK = code == 0
        if not SCALAPACK:
            assert code == 2 and "scalapack is not available" in err, (code, err)
            why = [l for l in err.splitlines() if l.startswith("mmapp: error")]
            print("(scalapack left out: " + (why[0] if why else "?") + ")")
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
