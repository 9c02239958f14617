#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of mmapp's robustness (run by CTest at 1 and 2 ranks):
the row split's arithmetic for extreme weights, the whole deck checked before
the first multiply, stop signals in every phase (deck-less start-up and setup,
calibration, one long repetition, a process group under `timeout mpirun`,
the second-signal rule) and the exit codes (4 stopped, 5 not verified).

Every run has a timeout, so a regression fails instead of hanging.

Usage: test_robust.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN] [--shard SHARD]
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

# CTest's shards of this script (harness.in_shard; tests/CMakeLists.txt runs
# each as a test of its own): each long signal test waits for the long naive
# repetition (long_rep_deck) to reach its fence, twice (SIGINT, then SIGTERM).
# "rest" holds the others (the duplicate signal's, one such wait, and a minute
# of short ones).
SHARDS = {
    "long_repetition": ("test_signal_during_one_long_repetition",),
    "process_group": ("test_process_group_signal_of_timeout_keeps_stopped_by",),
}


def command(*args, np=None):
    return harness.command(ARGS, args, np=np)


def mmapp(*args, np=None, timeout=300):
    return harness.run(ARGS, args, np=np, timeout=timeout)


def start(*args, wrap=()):
    """Starts mpiexec mmapp ARGS (in a session of its own, behind `wrap`, e.g.
    ("timeout", "300")); returns the Popen."""
    return subprocess.Popen([*wrap, *command(*args)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env=ENV, start_new_session=True)


# The longest wait for the end of the long naive repetition (long_rep_deck)
# after a signal: the repetition runs to its fence before the stop is taken.
# It is fitted to last about 30 s, but a node that gets busier after the fit
# (a GPU node running the rest of the suite, ctest -j8) stretches it, so the
# bound is generous; a hang still fails, here or at CTest's TIMEOUT.
REPETITION_LIMIT = 420


def finish(p, limit):
    """Waits at most `limit` s for p; returns (code, stdout, stderr, seconds waited). A hang is a failure."""
    t0 = time.time()
    try:
        out, err = p.communicate(timeout=limit)
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        p.communicate()
        raise AssertionError(f"no end within {limit} s of the signal")
    return p.returncode, out, err, time.time() - t0


def ranks_of(p, timeout=60):
    """The PIDs of the mmapp rank processes (children of mpiexec), once all are there."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        kids = subprocess.run(["pgrep", "-P", str(p.pid)], capture_output=True, text=True).stdout.split()
        kids = [int(k) for k in kids if os.path.basename(os.readlink(f"/proc/{k}/exe")) == os.path.basename(ARGS.mmapp)]
        if len(kids) == ARGS.np:
            return sorted(kids)
        time.sleep(0.05)
    raise AssertionError("the ranks did not start")


def wait_for_handlers(pids, timeout=60):
    """Waits until every process in `pids` catches SIGTERM and SIGINT (SigCgt in /proc: mmapp's handlers are
    in place; before that a signal is held blocked, or, in the first milliseconds of exec, takes its
    default action)."""
    t0 = time.time()
    while time.time() - t0 < timeout:
        ready = 0
        for pid in pids:
            with open(f"/proc/{pid}/status") as f:
                cgt = int(next(l for l in f if l.startswith("SigCgt:")).split()[1], 16)
            ready += all(cgt >> (s - 1) & 1 for s in (signal.SIGTERM, signal.SIGINT))
        if ready == len(pids):
            return
        time.sleep(0.01)
    raise AssertionError("mmapp never installed its signal handlers")


def wait_for_line(p, text, timeout=120):
    """Reads p's stdout until a line holding `text` (rank 0 prints it); returns what was read."""
    seen = ""
    t0 = time.time()
    for line in p.stdout:
        seen += line
        if text in line:
            return seen
        if time.time() - t0 > timeout:
            break
    raise AssertionError(f"no line with {text!r}: {seen}")


def report(path):
    with open(path) as f:
        return json.load(f)


def weights(w):
    """A weights list with one entry per rank (`w` cycled)."""
    return "[" + ", ".join(w[i % len(w)] for i in range(ARGS.np)) + "]"


# ---------------------------------------------------------------- split arithmetic

def test_huge_and_tiny_weights_give_exact_rows(tmp):
    """Weights from denormals to DBL_MAX split M exactly (no overflow, no hang), verified, exit 0."""
    d = deck(tmp, "problem: {m: 67, n: 33, k: 29}\nkernels: [naive]\nrun: {warmup: 0, repetitions: 1}\n")
    for w, expect in ((["1e306"], None), (["1.7976931348623157e308"], None), (["5e-324"], None),
                      (["1e306", "5e-324"], [67, 0]), (["5e-324", "1e308"], [0, 67]), (["1e-300", "3e-300"], [17, 50])):
        rep = os.path.join(tmp, "w.json")
        code, out, err = mmapp(d, "--set", f"parallel.decomposition={{weights: {weights(w)}}}", "--report", rep,
                               timeout=120)
        assert code == 0, (w, code, err)
        run = report(rep)["runs"][0]
        assert sum(run["rows_split"]) == 67 and min(run["rows_split"]) >= 0, (w, run["rows_split"])
        if expect and ARGS.np == 2:
            assert run["rows_split"] == expect, (w, run["rows_split"])
        assert run["verified"] is True


def test_weights_not_finite_or_not_positive_exit_2(tmp):
    d = deck(tmp, "problem: {n: 64}\nkernels: [naive]\n")
    for bad in ("1e400", "-1e306", "0", ".nan", ".inf", "-5e-324"):
        w = ["1"] * (ARGS.np - 1) + [bad]
        code, out, err = mmapp(d, "--set", f"parallel.decomposition={{weights: [{', '.join(w)}]}}", timeout=60)
        assert code == 2, (bad, code, err)
        assert "parallel.decomposition.weights" in err, (bad, err)


# ---------------------------------------------------------------- whole deck up front

def test_late_bad_size_fails_up_front(tmp):
    """problem.sizes with a size that does not fit last: exit 2 before any multiply, no table, no report."""
    rep = os.path.join(tmp, "r.json")
    t0 = time.time()
    code, out, err = mmapp(deck(tmp, """
        problem: {sizes: [256, 257, 200000, 300000], dtype: [float, double]}
        kernels: [naive]
        """), "--report", rep, timeout=120)
    assert code == 2, (code, err)
    lines = [l for l in err.splitlines() if l.startswith("mmapp: error:")]
    # every size that does not fit, in each dtype: one line each
    for size, dt in (("200000", "float"), ("200000", "double"), ("300000", "float"), ("300000", "double")):
        assert any(f"m={size}" in l and dt in l and "needs" in l and "available" in l for l in lines), (size, dt, err)
    assert len(lines) == 4, err
    assert "GFLOP/s" not in out and "[1/" not in err, "a case ran before the error"
    assert not os.path.exists(rep)
    assert time.time() - t0 < 100


def compiled_shapes(tmp, dtype):
    """The tiled kernel's shapes compiled for `dtype` on the openmp backend, as the refusal lists them
    ("TILE/THREAD_TILE TAG", e.g. "/6x8 goto")."""
    code, out, err = mmapp(deck(tmp, f"""
        problem: {{n: 64, dtype: {dtype}}}
        kernels: [{{name: tiled, thread_tile: [97, 89]}}]
        run: {{backend: openmp}}
        """, name="probe.yaml"), timeout=120)
    assert code == 2 and "available: " in err, (code, err)
    listed = err.split("available: ", 1)[1].splitlines()[0].split(" (case")[0]
    return {item.split(" ")[0] for item in listed.split(", ")}


def shape_keys(shape):
    """Deck keys for a shape "TILE/THREAD_TILE" ("8x8x8/4x4", "/6x8")."""
    tile, thread = shape.split("/")
    keys = []
    if tile:
        keys.append(f"tile: [{tile.replace('x', ', ')}]")
    if thread:
        keys.append(f"thread_tile: [{thread.replace('x', ', ')}]")
    return ", ".join(keys)


def test_double_only_bad_option_fails_up_front(tmp):
    """A tiled shape compiled for float but not for double, float first in the sweep: exit 2 before any
    multiply, the double cases named, the float ones not; the size that does not fit listed too."""
    only_float = sorted(compiled_shapes(tmp, "float") - compiled_shapes(tmp, "double"))
    if not only_float:
        print("  (every float shape is compiled for double too: skipped)")
        return
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, f"""
        problem: {{sizes: [64, 96, 300000], dtype: [float, double]}}
        kernels: [naive, {{name: tiled, {shape_keys(only_float[0])}}}]
        run: {{backend: openmp}}
        """), "--report", rep, timeout=120)
    assert code == 2, (code, err)
    lines = [l for l in err.splitlines() if l.startswith("mmapp: error:")]
    assert any("kernels[1]" in l and "double" in l for l in lines), err
    assert not any("kernels[1]" in l and "float" in l for l in lines), err
    for dt in ("float", "double"):
        assert any("m=300000" in l and dt in l and "needs" in l for l in lines), (dt, err)
    assert len(lines) == 3, err
    assert "GFLOP/s" not in out and not os.path.exists(rep)


# ---------------------------------------------------------------- exit codes

def test_verify_off_exits_5(tmp):
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(deck(tmp, "problem: {n: 48}\nkernels: [naive, tiled]\nverify: {enabled: false}\n"),
                           "--report", rep, timeout=120)
    assert code == 5, (code, err)
    r = report(rep)
    assert r["complete"] is True and all(run["status"] == "ok" and not run["verified"] for run in r["runs"])
    code, out, err = mmapp(deck(tmp, "problem: {n: 48}\nkernels: [naive]\n"), timeout=120)
    assert code == 0, (code, err)


# ---------------------------------------------------------------- signals

# The signal tests time their signals against one long repetition of the
# naive kernel on the host (OpenMP, 1 thread per rank; LONG_REP: M x N x N);
# on a GPU the same repetition would end before the signal.
LONG_REP = ("problem: {{m: {m}, n: {n}, k: {n}, dtype: float}}\nkernels: [naive]\n"
            "run: {{warmup: 0, repetitions: 1, backend: openmp}}\n")

# How long the long repetition lasts: past every signal's delay below (at most
# 20 s, a retry on a loaded node) with room to spare. A signal during it waits
# for its fence, so each such test waits about this long per signal, where
# a fixed 2500^3 repetition took 90-170 s (a 2-core Xeon: 170 s; a GPU node
# running the suite: about 90 s), several times per script.
LONG_REP_S = 30.0
_long_rows = None  # the fitted M (long_rep_deck)


def long_rep_deck(tmp):
    """A deck of one naive repetition of about LONG_REP_S on this host and rank count: M x 2500 x 2500,
    float, M fitted once per script run from a timed 16-rows-per-rank run (naive's time is linear in M at
    fixed N and K: each row of C walks all of B by columns; 16 rows 0.87 s, 2500 rows 170 s on a 2-core
    Xeon). M is kept within [64, 16384]."""
    global _long_rows
    if _long_rows is None:
        rep = os.path.join(tmp, "calibrate.json")
        m0 = 16 * ARGS.np
        code, out, err = mmapp(deck(tmp, LONG_REP.format(m=m0, n=2500), "calibrate.yaml"), "--report", rep)
        assert code == 0, (code, err)
        seconds = report(rep)["runs"][0]["time_s"]["median"]
        os.remove(rep)
        _long_rows = max(64, min(16384, int(m0 * LONG_REP_S / max(seconds, 1e-3))))
        print(f"  (long repetition: M = {_long_rows}, from {m0} rows in {seconds:.2f} s)", flush=True)
    return deck(tmp, LONG_REP.format(m=_long_rows, n=2500))


def test_signal_in_setup_before_first_run(tmp):
    """A signal right as the deck starts (start-up, the up-front check, allocation, fill of a case whose one
    repetition would take minutes): stopped at the next phase boundary, exit 4, report with no ok run."""
    for sig in (signal.SIGTERM, signal.SIGINT):
        rep = os.path.join(tmp, "r.json")
        p = start(deck(tmp, LONG_REP.format(m=4000, n=4000)), "--report", rep)
        ranks = ranks_of(p)
        wait_for_line(p, "deck ")
        os.kill(ranks[-1], sig)
        code, out, err, waited = finish(p, 90)
        assert code == 4, (sig, code, err)
        r = report(rep)
        assert r["complete"] is False and r["stopped_by"] == signal.Signals(sig).name, r["stopped_by"]
        assert all(run["status"] == "abandoned" for run in r["runs"]), r["runs"]
        assert f"stopped by {r['stopped_by']}" in out


def test_signal_during_start_up(tmp):
    """A signal while the ranks start (MPI, Kokkos, the deck): kept, so exit 4 before any case, and the
    report (asked for) exists with stopped_by and no runs."""
    for sig, after in ((signal.SIGTERM, 0.0), (signal.SIGINT, 0.3)):
        rep = os.path.join(tmp, "r.json")
        p = start(deck(tmp, LONG_REP.format(m=4000, n=4000)), "--report", rep)
        ranks = ranks_of(p)
        wait_for_handlers(ranks)
        time.sleep(after)
        os.kill(ranks[0], sig)
        code, out, err, waited = finish(p, 90)
        assert code == 4, (sig, code, err)
        r = report(rep)
        assert r["stopped_by"] == signal.Signals(sig).name and r["complete"] is False
        assert r["runs"] == [], r["runs"]


def test_signal_during_calibration(tmp):
    """weights: auto times the kernel on every rank (trials of several seconds each): a signal in the first
    trial stops every rank after it, not after the whole calibration and the run."""
    rep = os.path.join(tmp, "r.json")
    p = start(deck(tmp, """
        problem: {m: 1500, n: 1500, k: 1500, dtype: float}
        kernels: [naive]
        run: {warmup: 0, repetitions: 1, backend: openmp}
        parallel: {decomposition: {weights: auto, calibration_n: 512}}
        """), "--report", rep)
    ranks = ranks_of(p)
    wait_for_line(p, "deck ")
    time.sleep(1.0)
    os.kill(ranks[0], signal.SIGTERM)
    code, out, err, waited = finish(p, 120)
    assert code == 4, (code, err)
    r = report(rep)
    assert r["stopped_by"] == "SIGTERM" and r["complete"] is False
    assert not any(run["status"] == "ok" for run in r["runs"])
    # the calibration alone (4 trials of 2 timed runs, the last with every row) takes several times this
    assert waited < 40, f"stopped {waited:.0f} s after the signal"


def test_signal_during_one_long_repetition(tmp):
    """One naive repetition of about LONG_REP_S (1 host thread per rank): a signal 3 s into the run abandons it
    at its fence: exit 4, the run recorded as abandoned, stopped_by in the report, within a bounded time.
    The setup before the run (allocation, fill, the verifier's precomputation) has no line of its own and
    its length follows the node's load: on a GPU node running the suite in parallel it took more than 3 s
    and the signal stopped the deck before its run (no run in the report, test_signal_in_setup_before_first_run's
    case). Then the signal is sent again, later (8 s, then 20 s); the last try must find the run."""
    delays = (3.0, 8.0, 20.0)
    for sig in (signal.SIGINT, signal.SIGTERM):
        for delay in delays:
            rep = os.path.join(tmp, "r.json")
            p = start(long_rep_deck(tmp), "--report", rep)
            ranks = ranks_of(p)
            wait_for_line(p, "deck ")
            time.sleep(delay)
            os.kill(ranks[-1], sig)
            code, out, err, waited = finish(p, REPETITION_LIMIT)
            assert code == 4, (sig, code, err)
            r = report(rep)
            assert r["stopped_by"] == signal.Signals(sig).name and r["complete"] is False
            if r["runs"] == [] and delay != delays[-1]:
                continue  # stopped in the setup: try again with a later signal
            assert [run["status"] for run in r["runs"]] == ["abandoned"], (delay, r["runs"])
            assert "ABANDONED" in out
            break


def test_duplicate_signal_within_window_still_writes_report(tmp):
    """SIGINT then SIGTERM at once (a process group signal forwarded again by a launcher): taken as one
    request: exit 4 with stopped_by. A second signal 3 s later (past the 2 s window) ends the rank at once."""
    rep = os.path.join(tmp, "r.json")
    p = start(long_rep_deck(tmp), "--report", rep)
    ranks = ranks_of(p)
    wait_for_line(p, "deck ")
    time.sleep(1.0)
    os.kill(ranks[-1], signal.SIGINT)
    os.kill(ranks[-1], signal.SIGTERM)
    code, out, err, waited = finish(p, REPETITION_LIMIT)
    assert code == 4, (code, err)
    assert report(rep)["stopped_by"] in ("SIGINT", "SIGTERM")  # whichever a thread took first
    # deliberate second signal: the long repetition is not waited for
    p = start(long_rep_deck(tmp), "--report", rep)  # setup < 3 s, the repetition far longer
    ranks = ranks_of(p)
    wait_for_line(p, "deck ")
    time.sleep(3.0)  # into the repetition, also on a loaded node (see test_signal_during_one_long_repetition)
    os.kill(ranks[-1], signal.SIGTERM)
    time.sleep(3.0)
    assert p.poll() is None, "the repetition ended before the second signal: make it longer"
    os.kill(ranks[-1], signal.SIGTERM)
    code, out, err, waited = finish(p, 30)
    assert code not in (0, 1), (code, err)
    assert report(rep)["stopped_by"] == "SIGTERM"  # rank 0 wrote it at the first signal


def test_process_group_signal_of_timeout_keeps_stopped_by(tmp):
    """`kill -INT -PGID` (and -TERM) of `timeout 300 mmapp ...`: mmapp gets the signal from the group and
    again from timeout (plus SIGCONT): one request, so exit 4 (timeout passes it on), stopped_by kept and
    the run abandoned. One process: under mpirun the ranks are in process groups of their own."""
    if ARGS.np != 1:
        print("  (one process without a launcher: run at --np 1)")
        return
    for sig in (signal.SIGINT, signal.SIGTERM):
        rep = os.path.join(tmp, "r.json")
        p = subprocess.Popen(["timeout", "300", ARGS.mmapp, long_rep_deck(tmp), "--report", rep],
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, env=ENV,
                             start_new_session=True)
        wait_for_line(p, "deck ")
        time.sleep(1.0)
        os.killpg(p.pid, sig)
        code, out, err, waited = finish(p, REPETITION_LIMIT)
        assert code == 4, (sig, code, err)
        r = report(rep)
        assert r["stopped_by"] == signal.Signals(sig).name and r["complete"] is False, r["stopped_by"]
        assert [run["status"] for run in r["runs"]] == ["abandoned"]


def test_launcher_signal_during_long_repetition_keeps_stopped_by(tmp):
    """SIGINT or SIGTERM to mpiexec during one long repetition: OpenMPI forwards SIGTERM to the ranks and
    kills them about a second later, long before the repetition ends; rank 0 has written stopped_by by then."""
    for sig in (signal.SIGINT, signal.SIGTERM):
        rep = os.path.join(tmp, "r.json")
        p = start(long_rep_deck(tmp), "--report", rep)
        ranks_of(p)
        wait_for_line(p, "deck ")
        time.sleep(1.0)
        os.kill(p.pid, sig)
        code, out, err, waited = finish(p, 60)
        assert code != 0, code  # mpiexec's own status (README, Running)
        r = report(rep)
        assert r["complete"] is False and r["stopped_by"] in ("SIGTERM", signal.Signals(sig).name), r["stopped_by"]
        assert not any(run["status"] == "ok" for run in r["runs"])


def main():
    global ARGS
    ARGS = harness.parser().parse_args()
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
