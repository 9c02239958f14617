#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of the mmapp executable (run by CTest).

Each test runs the real binary through mpiexec on a small deck and checks
the exit code, the table on stdout and the JSON report; error paths check
the one-line message, exit code 2 and that no report file is left behind.

Usage: test_cli.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
Prints 'N passed, N failed' and exits 1 on any failure.
"""
import json
import os
import signal
import subprocess
import sys
import time

import harness
from harness import ENV, deck

ARGS = None


def command(*args, np=None):
    """The mpiexec command line for mmapp with `args` (harness.command)."""
    return harness.command(ARGS, args, np=np)


def mmapp(*args, np=None, timeout=300, env=None):
    """Runs mmapp under mpiexec; returns (exit code, stdout, stderr)."""
    return harness.run(ARGS, args, np=np, timeout=timeout, env=env)


SMALL = """
problem: {m: 67, n: 45, k: 33, dtype: [float, double]}
kernels: [naive, shared, tiled, vendor]
run: {warmup: 1, repetitions: 3}
"""


def table_rows(out):
    """The results table of mmapp's stdout: a list of {header: cell} per row."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("kernel ") and " CV " in line)
    head = lines[start]
    # Columns are separated by two spaces or more; headers hold single spaces.
    names = [h for h in head.split("  ") if h.strip()]
    rows = []
    for line in lines[start + 1:]:
        if not line.strip():
            break
        cells = [c.strip() for c in line.split("  ") if c.strip()]
        if len(cells) != len(names):  # "tiled /6x8 goto": single spaces inside a cell are kept
            break
        rows.append(dict(zip([n.strip() for n in names], cells)))
    return rows


def check_table_against_report(out, runs):
    """The table shows every run's median (ms) and CV (%, "noisy" above the
    threshold), and % vendor with "*" where the vendor's run was noisy, as the report says."""
    rows = table_rows(out)
    assert len(rows) == len(runs), (len(rows), len(runs), out)
    for row, run in zip(rows, runs):
        assert row["kernel"] == run["kernel"] and row["dtype"] == run["dtype"], (row, run["kernel"])
        if run["status"] != "ok":
            assert row["median ms"] == "-" and row["CV"] == "-", row
            continue
        assert row["median ms"] == f"{run['time_s']['median'] * 1e3:.3f}", (row, run["time_s"])
        cv = f"{run['time_s']['cv'] * 100:.1f}%"
        assert row["CV"] == (cv + " noisy" if run["noise"]["noisy"] else cv), (row, run["time_s"], run["noise"])
        if run["pct_of_vendor"] is not None:
            assert row["% vendor"].endswith("*") == run["vendor_noisy"], (row, run["vendor_noisy"])


def check_statistics(run, repetitions):
    """time_s's statistics recomputed from its raw samples (Python's statistics module)."""
    import statistics
    t = run["time_s"]
    x = t["samples"]
    assert t["count"] == len(x) and len(x) >= repetitions, (t, repetitions)
    assert t["min"] == min(x) and t["max"] == max(x) and abs(t["median"] - statistics.median(x)) <= 1e-15
    assert abs(t["mean"] - statistics.fmean(x)) <= 1e-12 * t["mean"]
    sd = statistics.stdev(x) if len(x) > 1 else 0.0
    assert abs(t["stddev"] - sd) <= 1e-9 * max(sd, 1e-12), (t["stddev"], sd)
    assert abs(t["cv"] - sd / t["mean"]) <= 1e-9 * max(sd / t["mean"], 1e-12)
    assert run["noise"]["noisy"] == (t["cv"] > run["noise"]["cv_threshold"]), run["noise"]
    assert abs(run["gflops"] - 2e-9 * run["m"] * run["n"] * run["k"] / t["median"]) <= 1e-9 * run["gflops"]


def test_noise_threshold_and_until_stable(tmp):
    """run.noise_threshold marks runs (table, NOISY lines, JSON); vendor_noisy
    follows the vendor run; run.until_stable times at least the deck's
    repetitions and stops on time (an unreachable CV) or on CV (any CV)."""
    d = deck(tmp, """
        problem: {n: 48, dtype: [float, double]}
        kernels: [naive, vendor]
        run: {warmup: 1, repetitions: 3}
        """)
    for threshold in ("0.0001%", "1"):
        rep = os.path.join(tmp, "noise.json")
        code, out, err = mmapp(d, "--report", rep, "--set", f"run.noise_threshold={threshold}")
        assert code == 0, (code, out, err)
        runs = json.load(open(rep))["runs"]
        check_table_against_report(out, runs)
        for run in runs:
            check_statistics(run, 3)
            assert run["until_stable"] is None
            vendor = next(v for v in runs if v["kernel"] == "vendor" and v["dtype"] == run["dtype"])
            assert run["vendor_noisy"] == vendor["noise"]["noisy"]
            assert ("NOISY: " + run["kernel"] + " " + run["dtype"] in out) == run["noise"]["noisy"], out
        if threshold == "0.0001%":  # no two timings agree to a part in a million: all noisy
            assert all(run["noise"]["noisy"] for run in runs), [r["time_s"]["cv"] for r in runs]
            assert "*: the vendor's own run was noisy" in out
    rep = os.path.join(tmp, "stable.json")
    code, out, err = mmapp(d, "--report", rep, "--set", "run.until_stable={max_cv: 1.0e-9, max_seconds: 0.2}")
    assert code == 0, (code, out, err)
    for run in json.load(open(rep))["runs"]:
        u = run["until_stable"]
        check_statistics(run, 3)
        assert u["max_cv"] == 1e-9 and u["max_seconds"] == 0.2 and u["converged"] is False, u
        assert u["outcome"] in ("timed_out", "capped") and (u["outcome"] != "timed_out" or u["seconds"] >= 0.2), u
        assert run["verification"]["checks"] == run["time_s"]["count"]  # every repetition verified
        assert f"until_stable: {run['kernel']} {run['dtype']}" in out and u["outcome"] in out
    code, out, err = mmapp(d, "--report", rep, "--set", "run.until_stable={max_cv: 100%, max_seconds: 30}")
    assert code == 0, (code, out, err)
    for run in json.load(open(rep))["runs"]:
        u, t = run["until_stable"], run["time_s"]
        check_statistics(run, 3)
        assert u["converged"] == (u["outcome"] == "converged"), u
        if u["converged"]:
            assert t["cv"] <= 1.0
            # It stopped at the first repetition whose samples converged.
            assert t["count"] == 3 or statistics_cv(t["samples"][:-1]) > 1.0, t
        else:  # CV above 100%: a tiny kernel's outlier can keep it there until the cap
            assert (u["outcome"] == "timed_out" and u["seconds"] >= 30) or \
                (u["outcome"] == "capped" and t["count"] == u["max_repetitions"]), (u, t["count"])


def statistics_cv(x):
    import statistics
    return statistics.stdev(x) / statistics.fmean(x) if len(x) > 1 else 0.0


def test_small_deck_table_and_report(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, SMALL), "--report", rep)
    assert code == 0, (code, out, err)
    for word in ("kernel", "median ms", "CV", "GFLOP/s", "% vendor", "naive", "shared", "tiled", "vendor", "PASS"):
        assert word in out, word
    assert "rank" in out and "device name" in out
    r = json.load(open(rep))
    assert r["schema_version"].startswith("2.")
    assert r["build"]["compiler"]["id"] and r["build"]["compiler"]["version"] and r["build"]["build_type"]
    assert r["build"]["kokkos"]["version"] == r["provenance"]["kokkos_version"]
    assert r["build"]["kokkos"]["configuration"] and r["build"]["kokkos"]["execution_spaces"]
    assert r["command_line"][1:] == [os.path.join(tmp, "deck.yaml"), "--report", rep, "--set",
                                     "parallel.share_devices=true"], r["command_line"]
    check_table_against_report(out, r["runs"])
    assert r["mmapp"]["version"] and r["mmapp"]["git"]
    for key in ("kokkos_version", "backend", "device", "threads", "ranks", "execution_spaces"):
        assert key in r["provenance"], key
    assert r["provenance"]["ranks"] == ARGS.np
    blas = r["provenance"]["host_blas"]
    if blas["core"] and "OPENBLAS_NUM_THREADS" not in os.environ:  # the vendor runs as many threads as the kernels
        assert blas["threads"] == r["provenance"]["threads"], blas
        assert blas["threading"] in ("openmp", "pthreads", "sequential") and blas["cpus"] >= 1, blas
    assert "resolved_yaml" in r["deck"] and "problem" in r["deck"]["resolved_yaml"]
    assert len(r["runs"]) == 8, len(r["runs"])
    assert r["complete"] is True and r["stopped_by"] is None
    for run in r["runs"]:
        for key in ("kernel", "dtype", "m", "n", "k", "time_s", "phases_s", "gflops", "verified", "rel_error", "checksum",
                    "status", "verification"):
            assert key in run, key
        v = run["verification"]
        assert v["passed"] is True and v["checks"] == 3 and v["verifier"].startswith("freivalds")
        assert 0 <= v["worst_ratio"] <= 1 and v["worst_bound"] > 0 and v["bound_kind"] in ("probabilistic", "deterministic")
        assert v["rows_failed"] == 0 and v["nonfinite"] == 0 and v["seconds"] > 0
        assert run["status"] == "ok" and run["error"] is None
        # The math path: vendor for the vendor, tensor cores only for a variant whose tag says so.
        tc = next((t for t in ("dmma", "3xtf32") if any(w.startswith(t) for w in run["tile"].split())), None)
        assert run["math"] == ("vendor" if run["kernel"] == "vendor" else tc or "simt"), (run["tile"], run["math"])
        assert (run["m"], run["n"], run["k"]) == (67, 45, 33)
        assert run["verified"] is True
        assert run["time_s"]["min"] <= run["time_s"]["median"] <= run["time_s"]["max"]
        check_statistics(run, 3)
        assert run["gflops"] > 0
        assert run["checksum"].startswith("0x") and len(run["checksum"]) == 18
        for phase in ("allocation", "fill", "host_to_device", "kernel", "device_to_host"):
            assert phase in run["phases_s"], phase
        assert len(run["ranks"]) == ARGS.np
        assert sum(x["rows"] for x in run["ranks"]) == 67
        elem = 4 if run["dtype"] == "float" else 8
        for x in run["ranks"]:  # at least its rows of A and C and all of B (more with input sets, workspace)
            assert x["memory_bytes"]["device"] >= (x["rows"] * 33 + 33 * 45 + x["rows"] * 45) * elem, x
            assert x["memory_bytes"]["host"] >= 0, x
    assert {x["dtype"] for x in r["runs"]} == {"float", "double"}
    vendor = [x for x in r["runs"] if x["kernel"] == "vendor"]
    assert all(abs(x["pct_of_vendor"] - 100.0) < 1e-9 for x in vendor)


def test_identity_exact(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(os.path.join(ARGS.source, "inputs", "identity.yaml"), "--report", rep,
                           "--set", "run.repetitions=1")
    assert code == 0, (code, out, err)
    for run in json.load(open(rep))["runs"]:
        assert run["verified"] and "C == A" in run["verification"]["verifier"]
        assert run["verification"]["inexact"] == 0


def test_checksum_same_for_any_rank_count_and_mode(tmp):
    """The same deck gives bit-identical C for 1 and 2 ranks, scatter and local."""
    d = deck(tmp, """
        problem: {m: 131, n: 70, k: 45}
        kernels: [naive, tiled]
        run: {warmup: 0, repetitions: 1}
        """)
    sums = {}
    for np in (1, 2):
        for mode in ("scatter", "local"):
            rep = os.path.join(tmp, f"r{np}{mode}.json")
            code, out, err = mmapp(d, "--report", rep, "--set", f"parallel.data={mode}", np=np)
            assert code == 0, (np, mode, code, err)
            for run in json.load(open(rep))["runs"]:
                sums.setdefault(run["kernel"], set()).add(run["checksum"])
    for kernel, values in sums.items():
        assert len(values) == 1, (kernel, values)


def test_wide_init_verifies_with_the_same_checksum_at_1_and_2_ranks(tmp):
    """init: wide (exponents over 2^-60..2^60, float 2^-60..2^40): every kernel verified, float and
    double, and C bit-identical for 1 and 2 ranks; another seed gives another C."""
    d = deck(tmp, """
        problem: {m: 131, n: 70, k: 301, dtype: [float, double], init: wide}
        kernels: [naive, shared, tiled]
        run: {warmup: 0, repetitions: 1}
        """)
    sums = {}
    for np in (1, 2):
        rep = os.path.join(tmp, f"wide{np}.json")
        code, out, err = mmapp(d, "--report", rep, np=np)
        assert code == 0, (np, code, out, err)
        report = json.load(open(rep))
        assert "init: wide" in report["deck"]["resolved_yaml"], report["deck"]["resolved_yaml"]
        for run in report["runs"]:
            assert run["status"] == "ok" and run["verified"], (np, run["kernel"], run["dtype"], run["verification"])
            sums.setdefault((run["kernel"], run["dtype"]), set()).add(run["checksum"])
    assert len(sums) == 6, sums
    for key, values in sums.items():
        assert len(values) == 1, (key, values)
    rep = os.path.join(tmp, "seed.json")
    code, out, err = mmapp(d, "--report", rep, "--set", "problem.seed=99", np=1)
    assert code == 0, (code, err)
    for run in json.load(open(rep))["runs"]:
        assert run["checksum"] not in sums[(run["kernel"], run["dtype"])], run["kernel"]


def test_weighted_and_explicit_splits(tmp):
    d = deck(tmp, "problem: {m: 100, n: 20, k: 10}\nkernels: [tiled]\nrun: {repetitions: 1}\n")
    rep = os.path.join(tmp, "w.json")
    if ARGS.np == 2:
        code, out, err = mmapp(d, "--report", rep, "--set", "parallel.decomposition.weights=[3,1]")
        assert code == 0, err
        assert json.load(open(rep))["runs"][0]["rows_split"] == [75, 25]
        code, out, err = mmapp(d, "--report", rep, "--set", "parallel.decomposition.rows=[100,0]")
        assert code == 0, err
        assert json.load(open(rep))["runs"][0]["rows_split"] == [100, 0]
        code, out, err = mmapp(d, "--report", rep, "--set", "parallel.decomposition.weights=auto",
                               "--set", "parallel.decomposition.calibration_n=64")
        assert code == 0, err
        run = json.load(open(rep))["runs"][0]
        assert sum(run["rows_split"]) == 100 and len(run["calibration_gflops"]) == 2
        assert all(g > 0 for g in run["calibration_gflops"])
    code, out, err = mmapp(d, "--report", os.path.join(tmp, "bad.json"),
                           "--set", "parallel.decomposition.rows=" + str([60] * ARGS.np))
    assert code == 2 and "sum to" in err, (code, err)
    assert not os.path.exists(os.path.join(tmp, "bad.json"))


def test_more_ranks_than_rows(tmp):
    d = deck(tmp, "problem: {m: 1, n: 5, k: 3}\nkernels: [naive, tiled, vendor]\nrun: {repetitions: 1}\n")
    code, out, err = mmapp(d)
    assert code == 0, (code, out, err)


def test_bad_inputs_exit_2_and_write_nothing(tmp):
    cases = [
        ("problem: {nn: 100}\n", "did you mean"),
        ("problem: {n: 0}\n", "problem.n"),
        ("problem: {n: 64}\nkernels: [fast]\n", "unknown kernel"),
        ("problem: {n: 64}\nkernels: [{name: tiled, tile: [7, 7, 7], thread_tile: [4, 4]}]\n", "available"),
        ("problem: {n: 64}\nrun: {backend: hip}\n", "run.backend"),
        ("problem: {n: 64}\nrun: {math: tensor}\n", "run.math: unknown math mode 'tensor'"),
        ("problem: [oops\n", "malformed"),
    ]
    for text, fragment in cases:
        rep = os.path.join(tmp, "never.json")
        path = deck(tmp, text)
        code, out, err = mmapp(path, "--report", rep)
        assert code == 2, (text, code, err)
        assert fragment in err, (text, err)
        assert "deck.yaml" in err, (text, err)
        # one error message (rank 0's); other ranks' stderr (Kokkos warnings) may interleave with it
        assert err.count("mmapp: error") == 1, err
        assert not os.path.exists(rep), text
    code, out, err = mmapp(os.path.join(tmp, "missing.yaml"))
    assert code == 2 and "missing.yaml" in err
    code, out, err = mmapp(deck(tmp, "problem: {n: 8}\n"), "--backend", "nonexistent")
    assert code == 2 and "backend" in err
    code, out, err = mmapp(deck(tmp, "problem: {n: 2000000}\n"), "--set", "kernels=[naive]")
    assert code == 2 and "needs" in err and "available" in err, (code, err)


def test_run_math_simt(tmp):
    """run.math: simt: every run's math is simt (vendor: vendor), the
    resolved deck says so, and on a build with tensor cores a deck entry
    naming a tensor-core variant is refused (exit 2, naming the key)."""
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, "problem: {m: 70, n: 90, k: 300, dtype: [float, double]}\n"
                                     "kernels: [tiled, {name: tiled, tile: auto}, vendor]\n"
                                     "run: {warmup: 0, repetitions: 1, math: simt}\n"), "--report", rep)
    assert code == 0, (code, out, err)
    r = json.load(open(rep))
    assert "math: simt" in r["deck"]["resolved_yaml"], r["deck"]["resolved_yaml"]
    for run in r["runs"]:
        assert run["math"] == ("vendor" if run["kernel"] == "vendor" else "simt"), (run["tile"], run["math"])
        assert not any(w.startswith(("dmma", "3xtf32")) for c in run.get("autotune", []) for w in c["tile"].split()), run
    code, out, err = mmapp("--list")
    tc = [x.split(None, 4) for x in out.splitlines() if x.startswith("variant ") and (" dmma" in x or " 3xtf32" in x)]
    if tc:  # a CUDA build for sm_80 and later
        backend, dtype, kernel, label = tc[0][1], tc[0][2], tc[0][3], tc[0][4]
        code, out, err = mmapp(deck(tmp, f"problem: {{n: 64, dtype: {dtype}}}\nrun: {{math: simt, backend: {backend}}}\n"
                                         f"kernels:\n  - {{name: {kernel}, tile: '{label}'}}\n"))
        assert code == 2 and "kernels[0].tile" in err and "run.math is simt" in err, (code, err)


def test_failed_verification_exits_1(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, "problem: {n: 70}\nkernels: [naive]\nverify: {tolerance: 1.0e-9}\n"),
                           "--report", rep)
    assert code == 1, (code, err)
    assert "VERIFICATION FAILED" in out and "bound" in out
    run = json.load(open(rep))["runs"][0]
    assert run["verified"] is False and run["verification"]["worst_ratio"] > 1


def test_closed_form_init_is_exact(tmp):
    """init: closed_form: every kernel gives the analytic C exactly (and passes Freivalds too)."""
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, """
        problem: {m: 70, n: 45, k: 301, dtype: [float, double], init: closed_form}
        kernels: [naive, shared, tiled, vendor]
        run: {warmup: 0, repetitions: 1}
        """), "--report", rep)
    assert code == 0, (code, out, err)
    for run in json.load(open(rep))["runs"]:
        assert run["verified"] and "closed form" in run["verification"]["verifier"], run
        assert run["verification"]["inexact"] == 0
    code, out, err = mmapp(deck(tmp, "problem: {m: 2, n: 2, k: 16777217, init: closed_form}\n"))
    assert code == 2 and "problem.init" in err and "16777216" in err, (code, err)


def test_dimensions_beyond_int_exit_2_before_allocating(tmp):
    """k = 2^31 + 1 cannot reach cuBLAS/BLAS/MPI (int): exit 2 naming the key and the limit, at once."""
    for text, key in (("problem: {m: 2, n: 2, k: 2147483649}\n", "problem.k"),
                      ("problem: {m: 2147483648, n: 2, k: 2}\n", "problem.m"),
                      ("problem: {sizes: [{m: 2, n: 3000000000, k: 2}]}\n", "problem.sizes[0].n")):
        t0 = time.time()
        code, out, err = mmapp(deck(tmp, text))
        assert code == 2, (text, code, err)
        assert key + ":" in err and "exceeds 2147483647" in err, (text, err)
        assert time.time() - t0 < 60
    code, out, err = mmapp(deck(tmp, "problem: {m: 2, n: 2, k: 2}\n"), "--set", "problem.k=2147483649")
    assert code == 2 and "problem.k" in err and "2147483647" in err, err


def test_vendor_made_wrong_from_outside_fails_only_the_vendor(tmp):
    """A BLAS (and, in CUDA builds, cuBLAS) wrapped by LD_PRELOAD to spoil its C:
    the vendor row FAILS, mmapp's own kernels PASS, exit 1."""
    if not ARGS.fault_libs:
        print("  (no fault library given: skipped)")
        return
    d = deck(tmp, """
        problem: {m: 301, n: 257, k: 640, dtype: [float, double]}
        kernels: [naive, tiled, vendor]
        run: {warmup: 0, repetitions: 2}
        """)
    for fault in ("element", "zero", "halfk", "row"):
        env = dict(ENV, LD_PRELOAD=ARGS.fault_libs.replace(",", ":"), MMAPP_FAULT=fault, MMAPP_FAULT_DELTA="1.0")
        rep = os.path.join(tmp, f"{fault}.json")
        code, out, err = mmapp(d, "--report", rep, env=env)
        assert code == 1, (fault, code, out, err)
        runs = json.load(open(rep))["runs"]
        for run in runs:
            expect = run["kernel"] != "vendor"
            assert run["verified"] is expect, (fault, run["kernel"], run["dtype"], run["verification"])
            if not expect:
                assert run["verification"]["worst_ratio"] > 1 and run["verification"]["rows_failed"] >= 1
    code, out, err = mmapp(d, env=dict(ENV, LD_PRELOAD=ARGS.fault_libs.replace(",", ":")))
    assert code == 0, ("interposer with no fault", code, err)


ACCURACY = """
problem: {m: 301, n: 257, k: 640, dtype: [float, double]}
kernels: [naive, tiled, vendor]
run: {warmup: 0, repetitions: 2}
verify: {accuracy: true}
"""
EPS = {"float": 2.0 ** -23, "double": 2.0 ** -52}


def accuracy_runs(tmp, name, env=None):
    """Runs the ACCURACY deck; returns (exit code, stdout, the report's runs)."""
    rep = os.path.join(tmp, name + ".json")
    code, out, err = mmapp(deck(tmp, ACCURACY), "--report", rep, env=env)
    assert os.path.exists(rep), (code, err)
    return code, out, err, json.load(open(rep))["runs"]


def test_accuracy_against_fp64_reference(tmp):
    """verify.accuracy: true: every run carries its error against the FP64
    reference, finite and below Higham's componentwise bound gamma_K ~ K u
    (u = eps/2), in the report and the table's `err vs fp64`; the figure and
    its row do not depend on the number of ranks. Off (the default): null,
    and no column."""
    code, out, err, runs = accuracy_runs(tmp, "on")
    assert code == 0, (code, err)
    assert len(runs) == 6
    rows = table_rows(out)
    for run, row in zip(runs, rows):
        acc = run["accuracy"]
        assert acc is not None and acc["reference"].startswith("fp64 elementwise"), run
        bound = run["k"] * EPS[run["dtype"]] / 2
        assert acc["worst_error"] is not None and 0 <= acc["worst_error"] < bound, (run["kernel"], run["dtype"], acc)
        assert 0 <= acc["worst_row"] < run["m"], acc
        assert row["err vs fp64"] == f"{acc['worst_error']:.1e}", (row, acc)
        assert f"{run['kernel']} {run['dtype']} 301x257x640: " in err and f", err {acc['worst_error']:.1e} (" in err, err
    # The float runs' errors are far above double's: the figure sees the dtype.
    assert min(r["accuracy"]["worst_error"] for r in runs if r["dtype"] == "float") > \
        1e3 * max(r["accuracy"]["worst_error"] for r in runs if r["dtype"] == "double")
    # One rank computes the same figure at the same row (naive's order does not depend on the split).
    if ARGS.np > 1:
        rep1 = os.path.join(tmp, "np1.json")
        code, out1, err1 = mmapp(deck(tmp, ACCURACY), "--report", rep1, np=1)
        assert code == 0, err1
        for a, b in zip(runs, json.load(open(rep1))["runs"]):
            if a["kernel"] == "naive":
                assert a["accuracy"] == b["accuracy"], (a["accuracy"], b["accuracy"])
    # init: wide (exponents over 2^-60..2^60): the same bound holds, the scale being |A||B| elementwise.
    wide = os.path.join(tmp, "wide.json")
    code, out, err = mmapp(deck(tmp, ACCURACY), "--report", wide, "--set", "problem.init=wide")
    assert code == 0, err
    for run in json.load(open(wide))["runs"]:
        acc = run["accuracy"]
        assert acc["worst_error"] is not None and acc["worst_error"] < run["k"] * EPS[run["dtype"]] / 2, (run, acc)
    off = os.path.join(tmp, "off.json")
    code, out, err = mmapp(deck(tmp, ACCURACY), "--report", off, "--set", "verify.accuracy=false")
    assert code == 0, err
    assert all(r["accuracy"] is None for r in json.load(open(off))["runs"])
    assert "err vs fp64" not in out and ", err " not in err


def test_accuracy_sees_a_wrong_vendor(tmp):
    """A BLAS spoiled from outside (one element of C off by 1.0): the vendor
    runs' error is large (far above K u) at the row the verifier names, the
    other kernels' stay small."""
    if not ARGS.fault_libs:
        print("  (no fault library given: skipped)")
        return
    env = dict(ENV, LD_PRELOAD=ARGS.fault_libs.replace(",", ":"), MMAPP_FAULT="element", MMAPP_FAULT_DELTA="1.0")
    code, out, err, runs = accuracy_runs(tmp, "fault", env=env)
    assert code == 1, (code, err)
    for run in runs:
        acc, bound = run["accuracy"], run["k"] * EPS[run["dtype"]] / 2
        if run["kernel"] == "vendor":
            assert acc["worst_error"] > 1e-3 and acc["worst_error"] > 10 * bound, acc
            assert acc["worst_row"] == run["verification"]["worst_row"], (acc, run["verification"])
        else:
            assert acc["worst_error"] < bound, (run["kernel"], acc)


def test_accuracy_memory_counted_up_front(tmp):
    """The FP64 reference's C64 and |A||B| (2 doubles per element of the
    rank's rows of C) are in the up-front memory check: a problem too large
    is refused at once, exit 2, and the need it names grows by exactly them."""
    import re
    m, n = 400000, 200000  # C alone (320 GB) fits no GPU and no host
    big = deck(tmp, f"problem: {{m: {m}, n: {n}, k: 1000, dtype: float}}\nkernels: [naive]\n")
    need = {}
    for on in ("false", "true"):
        t0 = time.time()
        code, out, err = mmapp(big, "--set", "verify.accuracy=" + on)
        assert code == 2 and "needs" in err and time.time() - t0 < 60, (on, code, err)
        found = re.search(r"needs ([0-9.e+]+) GiB of (host|\S+ device) memory on rank (\d+)", err)
        assert found, err
        need[on] = (float(found.group(1)), int(found.group(3)))
    rows = m // ARGS.np  # the even split; the same rank is named both times
    assert need["true"][1] == need["false"][1], need
    extra = 2 * rows * n * 8 / 2 ** 30
    slack = 0.005 * (need["true"][0] + need["false"][0])  # the message's 3 significant digits
    assert abs(need["true"][0] - need["false"][0] - extra) <= slack, (need, extra)


def test_accuracy_key_errors(tmp):
    """A value other than true/false, and the key on a process grid: exit 2
    naming verify.accuracy, before anything runs."""
    for text, fragment in (("verify: {accuracy: maybe}\n", "expected true or false"),
                           ("verify: {accuracy: [true]}\n", "expected true or false"),
                           ("verify: {accuracy: true}\nparallel: {decomposition: {grid: [1, 1]}}\n", "row split")):
        code, out, err = mmapp(deck(tmp, "problem: {n: 16}\nkernels: [naive]\n" + text))
        assert code == 2, (text, code, err)
        assert "verify.accuracy" in err and fragment in err, (text, err)
    code, out, err = mmapp(deck(tmp, "problem: {n: 16}\nkernels: [naive]\n"), "--set", "verify.accuracy=2")
    assert code == 2 and "--set verify.accuracy" in err and "true or false" in err, err


def test_report_path_checked_before_any_compute(tmp):
    """A report path that cannot be written is exit 2 naming it, before the (long) deck runs."""
    slow = deck(tmp, "problem: {n: 4000}\nkernels: [naive]\n")
    # A missing directory is created (tests/e2e/test_report.py); one under a file cannot be.
    for path, why in ((os.path.join(slow, "sub", "r.json"), "cannot be created"), (tmp, "is a directory")):
        t0 = time.time()
        code, out, err = mmapp(slow, "--report", path)
        assert code == 2, (path, code, err)
        assert path in err and why in err, err
        assert time.time() - t0 < 60, "the deck ran before the path was checked"
    ro = os.path.join(tmp, "ro")
    os.mkdir(ro)
    os.chmod(ro, 0o500)
    if os.geteuid() != 0:  # root writes anywhere
        code, out, err = mmapp(slow, "--report", os.path.join(ro, "r.json"))
        assert code == 2 and "not writable" in err, err


SWEEP = """
problem: {sizes: [1000, 1001, 1002, 1003, 1004, 1005, 1006, 1007, 1008, 1009], dtype: float}
kernels: [naive]
run: {warmup: 0, repetitions: 2}
"""


def run_and_signal(tmp, target, sig):
    """Starts the sweep, waits for the first finished run in the report, sends
    `sig` to `target` ("mpiexec" or "rank" = the last rank), waits for the end."""
    rep = os.path.join(tmp, "sweep.json")
    p = subprocess.Popen(command(deck(tmp, SWEEP), "--report", rep), stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                         text=True, env=ENV, start_new_session=True)
    t0 = time.time()
    while time.time() - t0 < 120:
        if os.path.exists(rep) and json.load(open(rep))["runs"]:
            break
        time.sleep(0.2)
    partial = json.load(open(rep))
    assert partial["complete"] is False and len(partial["runs"]) >= 1, "no incremental report"
    if target == "mpiexec":
        os.kill(p.pid, sig)
    else:
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        assert kids, "no rank processes found"
        os.kill(int(sorted(kids, key=int)[-1]), sig)
    try:
        out, err = p.communicate(timeout=120)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        raise AssertionError("hang after the signal")
    return p.returncode, out, err, json.load(open(rep))


def test_sigterm_mid_sweep_writes_partial_report(tmp):
    """SIGTERM to one rank (and SIGINT to the launcher): every rank stops at the
    next repetition, the report holds the finished runs, "complete": false."""
    for target, sig in (("rank", signal.SIGTERM), ("mpiexec", signal.SIGINT), ("mpiexec", signal.SIGTERM)):
        code, out, err, rep = run_and_signal(tmp, target, sig)
        name = signal.Signals(sig).name
        # A signalled rank exits 4 (documented); OpenMPI's launcher, when it is
        # itself signalled, forwards SIGTERM to the ranks, then ends by the
        # signal itself (its status), once the ranks have written the report.
        assert code == 4 if target == "rank" else code != 0, (target, name, code, err)
        # OpenMPI's launcher forwards SIGINT to the ranks as SIGTERM.
        expect = (name,) if target == "rank" else (name, "SIGTERM")
        assert rep["complete"] is False and rep["stopped_by"] in expect, (target, name, rep["stopped_by"])
        runs = rep["runs"]
        assert 1 <= len(runs) < 10
        assert all(r["status"] == "ok" and r["verified"] for r in runs[:-1])
        assert runs[-1]["status"] in ("ok", "abandoned")
        assert all(not r["verified"] for r in runs if r["status"] == "abandoned")
        for r in runs:  # an abandoned run has no times, rates or statistics
            if r["status"] != "ok":
                for key in ("time_s", "gflops", "noise", "until_stable"):
                    assert key not in r, (key, r)
                assert all("kernel_s" not in x and "gflops" not in x for x in r["ranks"]), r["ranks"]
                assert "kernel" not in r["phases_s"] and all("kernel" not in x["phases_s"] for x in r["ranks"]), r
        if target == "rank":  # a signalled launcher may die before relaying the ranks' output
            assert f"stopped by {rep['stopped_by']}" in out, out


def test_kokkos_info_and_missing_deck(tmp):
    code, out, err = mmapp("--kokkos-info", np=1)
    assert code == 0, (code, err)
    assert "Kokkos" in out and "rank" in out and "device name" in out
    code, out, err = mmapp(np=1)
    assert code == 2 and "no deck given" in err, (code, err)


def test_help(tmp):
    code, out, err = mmapp("--help", np=1)
    assert code == 0
    for word in ("--backend", "--set", "--report", "deck", "Exit codes"):
        assert word in out, word


# --- the command line (issue 23 item 1, issue 24 items 3, 5, 6, 7) ---------

TINY = "problem: {n: 16}\nkernels: [naive, vendor]\nrun: {warmup: 0, repetitions: 1}\n"


def run_in(cwd, *args, np=None, timeout=120, env=None):
    """mmapp under mpiexec from the folder `cwd`; returns (exit code, stdout, stderr)."""
    p = subprocess.run(command(*args, np=np), capture_output=True, text=True, env=env or ENV, timeout=timeout, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def test_set_takes_one_value_anywhere_and_repeats(tmp):
    d = deck(tmp, TINY)
    rep = os.path.join(tmp, "r.json")
    for args in (["--set", "problem.n=24", d, "--report", rep],
                 [d, "--set", "problem.n=24", "--report", rep],
                 ["--set", "problem.n=12", "--set", "run.repetitions=2", d, "--set", "problem.n=24", "--report", rep],
                 ["--set=problem.n=24", d, "--report", rep]):
        code, out, err = mmapp(*args)
        assert code == 0, (args, code, err)
        runs = json.load(open(rep))["runs"]
        assert {(r["m"], r["n"], r["k"]) for r in runs} == {(24, 24, 24)}, args
    assert len(json.load(open(rep))["runs"][0]["time_s"]) >= 1


def test_version_needs_no_mpirun_and_runs_nothing(tmp):
    for cmd in ([ARGS.mmapp, "--version"], command("--version")):
        p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=60)
        assert p.returncode == 0, (cmd, p.stderr)
        assert p.stdout.startswith("mmapp ") and "(git " in p.stdout and "Kokkos " in p.stdout, p.stdout
        assert "backends:" in p.stdout and ("openmp" in p.stdout or "serial" in p.stdout), p.stdout
        assert p.stdout.count("mmapp ") == 1, p.stdout  # once, from rank 0
        assert "rank" not in p.stdout and "deck" not in p.stdout


def listed():
    p = subprocess.run([ARGS.mmapp, "--list"], capture_output=True, text=True, env=ENV, timeout=60)
    assert p.returncode == 0, p.stderr
    return p.stdout.splitlines()


def test_list_labels_round_trip_through_tile(tmp):
    """Every variant --list prints, named in a deck by its label as `tile:`,
    runs that variant: the report's tile is the label."""
    lines = listed()
    assert any(x.startswith("kokkos ") for x in lines) and any(x.startswith("backend ") for x in lines)
    assert any(x.startswith("transport ") for x in lines) and "kernel tiled" in lines
    variants = {}
    for line in lines:
        if line.startswith("variant "):
            _, backend, dtype, kernel, label = line.split(" ", 4)
            variants.setdefault((backend, dtype), []).append((kernel, label))
    assert variants, lines
    for (backend, dtype), items in sorted(variants.items()):
        if backend == "cuda" and "cuda" not in os.environ.get("MMAPP_TEST_BACKENDS", ""):
            continue  # needs a GPU
        kernels = ", ".join('{name: %s, tile: "%s"}' % (k, label) for k, label in items)
        d = deck(tmp, f"problem: {{n: 16, dtype: {dtype}}}\nkernels: [{kernels}]\nrun: {{warmup: 0, repetitions: 1}}\n")
        rep = os.path.join(tmp, f"{backend}-{dtype}.json")
        code, out, err = mmapp(d, "--backend", backend, "--report", rep)
        assert code == 0, (backend, dtype, code, err)
        got = [(r["kernel"], r["tile"] or "-") for r in json.load(open(rep))["runs"]]
        assert got == items, (backend, dtype, got, items)
        for kernel, label in items:  # the table prints the same label
            assert label in out, (label, out)


def test_kokkos_help_prints_and_runs_nothing(tmp):
    rep = os.path.join(tmp, "never.json")
    code, out, err = mmapp(deck(tmp, TINY), "--kokkos-help", "--report", rep, timeout=60)
    assert code == 0, (code, err)
    assert "--kokkos-" in out and out.count("Kokkos command line arguments") <= 1, out
    assert "deck " not in out and "GFLOP/s" not in out and not os.path.exists(rep), out
    code, out, err = mmapp("--kokkos-help", timeout=60)  # no deck needed
    assert code == 0, (code, err)


def test_kokkos_thread_flags_reach_kernels_and_vendor(tmp):
    """--kokkos-num-threads=2 (ignored by Kokkos 3.4 unless translated) and
    --kokkos-threads=2 (ignored by 4.x) both give 2 threads, to the kernels
    and to the vendor BLAS, whatever OMP_NUM_THREADS and OPENBLAS_NUM_THREADS say."""
    env = dict(ENV, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    for flag in ("--kokkos-num-threads=2", "--kokkos-threads=2", "--kokkos-num-threads 2"):
        rep = os.path.join(tmp, "r.json")
        code, out, err = mmapp(deck(tmp, TINY), *flag.split(), "--report", rep, env=env)
        assert code == 0, (flag, code, err)
        prov = json.load(open(rep))["provenance"]
        assert prov["threads"] == 2, (flag, prov["threads"])
        if prov["host_blas"]["core"]:
            assert prov["host_blas"]["threads"] == 2, (flag, prov["host_blas"])
            assert "2 openmp thread(s)" in out or "2 pthreads thread(s)" in out, out
    rep = os.path.join(tmp, "r1.json")
    code, out, err = mmapp(deck(tmp, TINY), "--report", rep, env=dict(ENV, OMP_NUM_THREADS="2", OPENBLAS_NUM_THREADS="1"))
    assert code == 0, err
    prov = json.load(open(rep))["provenance"]
    if prov["host_blas"]["core"]:
        assert prov["host_blas"]["threads"] == prov["threads"] == 2, prov


def test_bad_kokkos_flags_exit_2_naming_the_flag(tmp):
    d = deck(tmp, TINY)
    for flag, why in (("--kokkos-bogus=3", "unknown Kokkos flag"), ("--kokkos-threads=abc", "host threads"),
                      ("--kokkos-threads=0", "host threads"), ("--kokkos-num-threads=-1", "host threads"),
                      ("--kokkos-device-id=x", "device id")):
        t0 = time.time()
        code, out, err = mmapp(d, flag, timeout=60)
        assert code == 2, (flag, code, err)
        assert flag in err and why in err and err.count("mmapp: error") == 1, (flag, err)
        assert time.time() - t0 < 30
    code, out, err = mmapp(d, env=dict(ENV, KOKKOS_NUM_THREADS="abc"), timeout=60)
    assert code == 2 and "KOKKOS_NUM_THREADS" in err, (code, err)


def test_set_errors_name_the_set_key(tmp):
    d = deck(tmp, TINY)
    backends = [x.split()[1] for x in listed() if x.startswith("backend ")]
    missing = next((b for b in ("cuda", "serial", "openmp") if b not in backends), None)
    if missing:
        code, out, err = mmapp(d, "--set", f"run.backend={missing}")
        assert code == 2 and f"--set run.backend: '{missing}' is not compiled" in err, (code, err)
        assert "deck.yaml" not in err, err
        code, out, err = mmapp(d, "--backend", missing)
        assert code == 2 and f"--backend: '{missing}'" in err, (code, err)
    code, out, err = mmapp(d, "--set", "parallel.decomposition.rows=" + str([1000] * ARGS.np))
    assert code == 2 and "--set parallel.decomposition.rows: sum to" in err and "deck.yaml" not in err, (code, err)
    code, out, err = mmapp(d, "--set", "kernels=[{name: tiled, tile: '/1x1 none'}]")
    assert code == 2 and "--set kernels[0].tile: no tiled variant labelled" in err, (code, err)


def test_report_path_is_taken_verbatim(tmp):
    d = deck(tmp, TINY)
    for name in ("a #1.json", "~", "null", "*.json", "[x].json"):
        code, out, err = run_in(tmp, d, "--report", name)
        assert code == 0, (name, code, err)
        path = os.path.join(tmp, name)
        assert os.path.isfile(path), (name, os.listdir(tmp))
        assert json.load(open(path))["runs"], name
        os.remove(path)
    assert sorted(os.listdir(tmp)) == ["deck.yaml"], os.listdir(tmp)


def test_decks_that_are_not_regular_files_are_refused_at_once(tmp):
    fifo = os.path.join(tmp, "fifo.yaml")
    os.mkfifo(fifo)
    big = deck(tmp, "problem: {n: 8}\n#" + "x" * (2 << 20) + "\n", name="big.yaml")
    for path, why in ((fifo, "FIFO"), ("/dev/zero", "character device"), (big, "too large"), (tmp, "directory")):
        t0 = time.time()
        code, out, err = mmapp(path, timeout=30)
        assert code == 2, (path, code, err)
        assert path in err and why in err and err.count("mmapp: error") == 1, (path, err)
        assert time.time() - t0 < 30


def test_long_and_control_strings_are_truncated_and_escaped(tmp):
    for text, fragment in (("problem: {n: '" + "y" * ((1 << 20) - 100) + "'}\n", "...[+"),
                           ('problem: {n: "\\u202e12"}\n', "\\u202e12"),
                           ("problem: {n: 8}\nkernels: [\"" + "k" * 5000 + "\\u202e\"]\n", "...[+")):
        code, out, err = mmapp(deck(tmp, text))
        assert code == 2, (code, err[:300])
        assert fragment in err, err[:300]
        assert "\u202e" not in err and max(len(x) for x in err.splitlines()) < 2100, err[:300]
    code, out, err = mmapp(deck(tmp, TINY), "--set", "problem.n=" + "z" * 100000 + "\u202e")
    assert code == 2 and err.startswith("mmapp: error: --set problem.n:") and "\u202e" not in err, err[:300]
    assert len(err) < 1000, len(err)


def test_kokkos_tools_libs_loads_a_tool(tmp):
    """KOKKOS_TOOLS_LIBS loads a Kokkos Tools library on every Kokkos (3.4 reads
    only KOKKOS_PROFILE_LIBRARY: mmapp passes it on and says so first)."""
    if not ARGS.probe_tool:
        print("  (no probe tool given: skipped)")
        return
    env = dict(ENV, KOKKOS_TOOLS_LIBS=ARGS.probe_tool)
    env.pop("KOKKOS_PROFILE_LIBRARY", None)
    code, out, err = mmapp(deck(tmp, TINY), env=env)
    assert code == 0, (code, err)
    assert "mmapp probe tool: loaded" in out + err, (out, err)
    version = next(x.split()[1] for x in listed() if x.startswith("kokkos "))
    if tuple(int(v) for v in version.split(".")[:2]) < (3, 7):
        # rank 0's first line (other ranks' tool may print in between)
        first = [x for x in out.splitlines() if x != "mmapp probe tool: loaded"][0]
        assert first.startswith("mmapp: note: Kokkos ") and "KOKKOS_TOOLS_LIBS" in first, out


def main():
    global ARGS
    ap = harness.parser()
    ap.add_argument("--fault-libs", default="", help="comma-separated LD_PRELOAD libraries that spoil the vendor GEMM")
    ap.add_argument("--probe-tool", default="", help="a Kokkos Tools library that says 'mmapp probe tool: loaded'")
    ARGS = ap.parse_args()
    if os.sep in ARGS.mmapp:  # some tests run from another folder
        ARGS.mmapp = os.path.abspath(ARGS.mmapp)
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
