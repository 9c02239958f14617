#!/usr/bin/env python3
"""End-to-end tests of the mmapp executable (run by CTest).

Each test runs the real binary through mpiexec on a small deck and checks
the exit code, the table on stdout and the JSON report; error paths check
the one-line message, exit code 2 and that no report file is left behind.

Usage: test_cli.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
Prints 'N passed, N failed' and exits 1 on any failure.
"""
import argparse
import json
import os
import subprocess
import sys
import tempfile
import textwrap
import traceback

ARGS = None
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMP_NUM_THREADS="1", OMP_PROC_BIND="false")


def mmapp(*args, np=None, timeout=300):
    """Runs mmapp under mpiexec; returns (exit code, stdout, stderr).

    Ranks may share a GPU (a one-GPU node runs the 2-rank tests too); the
    refusal without that key is tested in test_placement.cpp."""
    share = ["--set", "parallel.share_devices=true"] if args and args[0].endswith(".yaml") else []
    cmd = [ARGS.mpiexec, "-n", str(np or ARGS.np), "--oversubscribe", ARGS.mmapp, *args, *share]
    p = subprocess.run(cmd, capture_output=True, text=True, env=ENV, timeout=timeout)
    return p.returncode, p.stdout, p.stderr


def deck(tmp, text, name="deck.yaml"):
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


SMALL = """
problem: {m: 67, n: 45, k: 33, dtype: [float, double]}
kernels: [naive, shared, tiled, kokkoskernels]
run: {warmup: 1, repetitions: 3}
"""


def test_small_deck_table_and_report(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, SMALL), "--report", rep)
    assert code == 0, (code, out, err)
    for word in ("kernel", "median ms", "GFLOP/s", "% vendor", "naive", "shared", "tiled", "kokkoskernels", "PASS"):
        assert word in out, word
    assert "rank" in out and "device name" in out
    r = json.load(open(rep))
    assert r["mmapp"]["version"] and r["mmapp"]["git"]
    for key in ("kokkos_version", "backend", "device", "threads", "ranks", "execution_spaces"):
        assert key in r["provenance"], key
    assert r["provenance"]["ranks"] == ARGS.np
    assert "resolved_yaml" in r["deck"] and "problem" in r["deck"]["resolved_yaml"]
    assert len(r["runs"]) == 8, len(r["runs"])
    for run in r["runs"]:
        for key in ("kernel", "dtype", "m", "n", "k", "time_s", "phases_s", "gflops", "verified", "rel_error", "checksum"):
            assert key in run, key
        assert (run["m"], run["n"], run["k"]) == (67, 45, 33)
        assert run["verified"] is True
        assert run["time_s"]["min"] <= run["time_s"]["median"] <= run["time_s"]["max"]
        assert run["gflops"] > 0
        assert run["checksum"].startswith("0x") and len(run["checksum"]) == 18
        for phase in ("allocation", "fill", "host_to_device", "kernel", "device_to_host"):
            assert phase in run["phases_s"], phase
        assert len(run["ranks"]) == ARGS.np
        assert sum(x["rows"] for x in run["ranks"]) == 67
    assert {x["dtype"] for x in r["runs"]} == {"float", "double"}
    vendor = [x for x in r["runs"] if x["kernel"] == "kokkoskernels"]
    assert all(abs(x["pct_of_vendor"] - 100.0) < 1e-9 for x in vendor)


def test_identity_exact(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(os.path.join(ARGS.source, "inputs", "identity.yaml"), "--report", rep,
                           "--set", "run.repetitions=1")
    assert code == 0, (code, out, err)
    for run in json.load(open(rep))["runs"]:
        assert run["verified"] and run["exact_check"].startswith("C == A") and run["inexact"] == 0


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
    d = deck(tmp, "problem: {m: 1, n: 5, k: 3}\nkernels: [naive, tiled, kokkoskernels]\nrun: {repetitions: 1}\n")
    code, out, err = mmapp(d)
    assert code == 0, (code, out, err)


def test_bad_inputs_exit_2_and_write_nothing(tmp):
    cases = [
        ("problem: {nn: 100}\n", "did you mean"),
        ("problem: {n: 0}\n", "problem.n"),
        ("problem: {n: 64}\nkernels: [fast]\n", "unknown kernel"),
        ("problem: {n: 64}\nkernels: [{name: tiled, tile: [7, 7, 7], thread_tile: [4, 4]}]\n", "available"),
        ("problem: {n: 64}\nrun: {backend: hip}\n", "run.backend"),
        ("problem: [oops\n", "malformed"),
    ]
    for text, fragment in cases:
        rep = os.path.join(tmp, "never.json")
        path = deck(tmp, text)
        code, out, err = mmapp(path, "--report", rep)
        assert code == 2, (text, code, err)
        assert fragment in err, (text, err)
        assert "deck.yaml" in err, (text, err)
        assert len([l for l in err.splitlines() if l.startswith("mmapp: error")]) == 1, err
        assert not os.path.exists(rep), text
    code, out, err = mmapp(os.path.join(tmp, "missing.yaml"))
    assert code == 2 and "missing.yaml" in err
    code, out, err = mmapp(deck(tmp, "problem: {n: 8}\n"), "--backend", "nonexistent")
    assert code == 2 and "backend" in err
    code, out, err = mmapp(deck(tmp, "problem: {n: 2000000}\n"), "--set", "kernels=[naive]")
    assert code == 2 and "needs" in err and "available" in err, (code, err)


def test_failed_verification_exits_1(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, "problem: {n: 70}\nkernels: [naive]\nverify: {tolerance: 1.0e-9}\n"),
                           "--report", rep)
    assert code == 1, (code, err)
    assert "VERIFICATION FAILED" in out and "bound" in out
    assert json.load(open(rep))["runs"][0]["verified"] is False


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


def main():
    global ARGS
    ap = argparse.ArgumentParser()
    ap.add_argument("--mmapp", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("-k", default="")
    ARGS = ap.parse_args()
    tests = [(n, f) for n, f in sorted(globals().items()) if n.startswith("test_") and ARGS.k in n]
    passed = failed = 0
    for name, fn in tests:
        with tempfile.TemporaryDirectory() as tmp:
            try:
                fn(tmp)
                passed += 1
                print(f"PASS {name}")
            except Exception:
                failed += 1
                print(f"FAIL {name}")
                traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0


if __name__ == "__main__":
    sys.exit(main())
