#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The report schema check (CTest report_schema): a report mmapp writes
validates against docs/report.schema.json with report_schema.py (exit 0),
and deliberately broken copies of it (a missing or legacy schema_version, a
float where an integer belongs, an undocumented field, times on an abandoned
run, none on a finished one, a wrong type) are refused (exit 1, naming the
report and the field); the e2e harness's folder check refuses them too. And
the table tool (jobs/summarize.py, plot_reports.py --table) on such reports,
with each run's math path (schema 2.1.0) in the table.

Usage: test_report_schema.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
"""
import copy
import glob
import gzip
import json
import os
import re
import subprocess
import sys

import harness
from harness import deck

ARGS = None
HERE = os.path.dirname(os.path.abspath(__file__))


def check(*paths):
    """Runs report_schema.py on `paths`; returns (exit code, output)."""
    p = subprocess.run([sys.executable, os.path.join(HERE, "report_schema.py"), *paths], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def write(path, doc):
    with open(path, "w") as f:
        json.dump(doc, f, indent=1)
    return path


def test_valid_report_passes_and_broken_copies_fail(tmp):
    rep = os.path.join(tmp, "good.json")
    code, out, err = harness.run(ARGS, [deck(tmp, """
        problem: {n: 40}
        kernels: [naive, vendor]
        run: {warmup: 0, repetitions: 2, until_stable: {max_cv: 1.0e-9, max_seconds: 0.05}}
        """), "--report", rep])
    assert code == 0, (code, out, err)
    code, out = check(rep)
    assert code == 0 and "1 report(s) valid" in out, (code, out)
    good = json.load(open(rep))
    assert good["schema_version"] == "2.2.0", good["schema_version"]  # 2.1.0 added the runs' math, 2.2.0 accuracy
    assert [(r["kernel"], r["math"]) for r in good["runs"]] == [("naive", "simt"), ("vendor", "vendor")], good["runs"]
    run0 = lambda d: d["runs"][0]

    def abandoned(d):
        run0(d)["status"] = "abandoned"  # but time_s, gflops, noise left in

    def unfinished_without_vendor_share(d):
        for k in ("time_s", "gflops", "noise", "until_stable"):
            del run0(d)[k]
        run0(d)["status"] = "abandoned"
        run0(d)["pct_of_vendor"] = 50.0

    broken = {
        "no schema_version": (lambda d: d.pop("schema_version"), "schema_version"),
        "legacy schema_version": (lambda d: d.update(schema_version="1.0.0"), "schema_version"),
        "bytes as a float": (lambda d: run0(d)["ranks"][0]["memory_bytes"].update(device=81920.0),
                             "runs/0/ranks/0/memory_bytes/device"),
        "size as a float": (lambda d: run0(d).update(m=40.0), "runs/0/m"),
        "count as a string": (lambda d: run0(d)["time_s"].update(count="2"), "runs/0/time_s/count"),
        "undocumented field": (lambda d: run0(d).update(speedup=2.0), "runs/0"),
        "undocumented top-level field": (lambda d: d.update(notes="x"), "(top)"),
        "abandoned run with times": (abandoned, "runs/0"),
        "finished run without times": (lambda d: run0(d).pop("time_s"), "runs/0"),
        "abandoned run with a vendor share": (unfinished_without_vendor_share, "runs/0/pct_of_vendor"),
        "noisy not a boolean": (lambda d: run0(d)["noise"].update(noisy="yes"), "runs/0/noise/noisy"),
        "unknown until_stable outcome": (lambda d: run0(d)["until_stable"].update(outcome="stable"),
                                         "runs/0/until_stable"),
        "negative sample": (lambda d: run0(d)["time_s"]["samples"].append(-1.0), "runs/0/time_s/samples"),
        "no command line": (lambda d: d.pop("command_line"), "command_line"),
        "unknown status": (lambda d: run0(d).update(status="done"), "runs/0/status"),
        "unknown math path": (lambda d: run0(d).update(math="tf32"), "runs/0/math"),
        "negative accuracy": (lambda d: run0(d).update(accuracy={"worst_error": -1.0, "worst_row": 0,
                                                                  "reference": "x"}), "runs/0/accuracy"),
        "accuracy without its row": (lambda d: run0(d).update(accuracy={"worst_error": 1e-7, "reference": "x"}),
                                     "runs/0/accuracy"),
    }
    os.makedirs(os.path.join(tmp, "broken"))
    for what, (spoil, where) in broken.items():
        doc = copy.deepcopy(good)
        spoil(doc)
        path = write(os.path.join(tmp, "broken", what.replace(" ", "_") + ".json"), doc)
        code, out = check(path)
        assert code == 1, (what, code, out)
        assert path in out and where in out, (what, where, out)
        # The harness's folder check (every e2e test's reports) refuses it too.
        try:
            harness.validate_reports(os.path.join(tmp, "broken"))
        except AssertionError as e:
            assert path in str(e), (what, str(e))
        else:
            raise AssertionError(f"{what}: validate_reports accepted it")
        os.remove(path)
    # A valid report beside an invalid one: the exit code is still 1.
    bad = write(os.path.join(tmp, "broken", "bad.json"), dict(good, schema_version="3.0.0"))
    code, out = check(rep, bad)
    assert code == 1 and bad in out and rep not in out, out
    os.remove(bad)
    code, out = check(os.path.join(tmp, "no-such-report.json"))
    assert code == 1 and "unreadable" in out, out


def test_autotune_and_sweep_reports_are_valid(tmp):
    """The optional parts of a run (tile: auto candidates, until_stable, a
    sweep of shapes, both dtypes) validate too (harness.run checks them)."""
    rep = os.path.join(tmp, "auto.json")
    code, out, err = harness.run(ARGS, [deck(tmp, """
        problem: {sizes: [24, {m: 7, n: 30, k: 5}], dtype: [float, double]}
        kernels: [{name: tiled, tile: auto}, vendor]
        run: {warmup: 0, repetitions: 2, noise_threshold: 50%, until_stable: {max_seconds: 0.05}}
        """), "--report", rep])
    assert code == 0, (code, out, err)
    doc = json.load(open(rep))
    assert any("autotune" in run for run in doc["runs"])
    assert all(run["noise"]["cv_threshold"] == 0.5 and run["until_stable"]["max_seconds"] == 0.05
               for run in doc["runs"])


def tool(*args):
    """Runs a repository script with python3; returns (exit code, stdout + stderr)."""
    p = subprocess.run([sys.executable, *args], capture_output=True, text=True)
    return p.returncode, p.stdout + p.stderr


def test_table_tool_reads_the_schema_fields(tmp):
    """jobs/summarize.py (the one table tool) shows median and CV from a 2.x
    report, reads a legacy report, --strict fails an unverified run, and
    plot_reports.py --table is summarize.py --detail."""
    rep = os.path.join(tmp, "r.json")
    code, out, err = harness.run(ARGS, [deck(tmp, "problem: {n: 32}\nkernels: [naive, vendor]\n"), "--report", rep,
                                        "--set", "run.noise_threshold=1.0e-9"])
    assert code == 0, (code, out, err)
    doc = json.load(open(rep))
    summarize = os.path.join(ARGS.source, "jobs", "summarize.py")
    code, out = tool(summarize, rep)
    assert code == 0, out
    head = out.splitlines()[0].split()
    assert "median" in head and "CV" in head and head[:2] == ["kernel", "math"], head
    for run in doc["runs"]:
        cv = f"{run['time_s']['cv'] * 100:.1f}%" + (" noisy" if run["noise"]["noisy"] else "")
        line = next(x for x in out.splitlines() if x.startswith(run["kernel"] + " "))
        assert f"{run['time_s']['median'] * 1e3:.3f}" in line and cv in line, (line, cv)
        assert line.split()[1] == run["math"], (line, run["math"])  # the math path, from the report
    assert "2 runs from 1 report(s); 0 not verified" in out, out
    legacy = sorted(glob.glob(os.path.join(ARGS.source, "docs", "results", "*", "*.json")))[:1]
    if legacy:
        code, out = tool(summarize, rep, *legacy)
        assert code == 0 and "legacy report(s)" in out, out
    # A 2.0.0 report (before the runs' math): "-" in the math column.
    old = copy.deepcopy(doc)
    old["schema_version"] = "2.0.0"
    for run in old["runs"]:
        del run["math"]
    code, out = tool(summarize, write(os.path.join(tmp, "old.json"), old))
    assert code == 0 and all(x.split()[1] == "-" for x in out.splitlines()[2:4]), out
    doc["runs"][0]["verified"] = False
    unverified = write(os.path.join(tmp, "unverified.json"), doc)
    code, out = tool(summarize, "--strict", rep, unverified)
    assert code == 1 and " NO" in out, (code, out)
    code, detail = tool(summarize, "--detail", rep)
    code2, table = tool(os.path.join(ARGS.source, "scripts", "analysis", "plot_reports.py"), "--table", rep)
    assert code == code2 == 0 and table == detail and "selection" in table.splitlines()[0], table


def test_table_tool_shows_accuracy(tmp):
    """verify.accuracy: true (schema 2.2.0): the report's accuracy validates
    and summarize.py shows it as `err vs fp64` (before `verified`; "inf" for
    an infinite figure); reports without it have no such column."""
    rep = os.path.join(tmp, "acc.json")
    code, out, err = harness.run(ARGS, [deck(tmp, "problem: {n: 32}\nkernels: [naive, vendor]\n"
                                                  "verify: {accuracy: true}\n"), "--report", rep])
    assert code == 0, (code, out, err)
    doc = json.load(open(rep))
    summarize = os.path.join(ARGS.source, "jobs", "summarize.py")
    code, out = tool(summarize, rep)
    assert code == 0, out
    head = [h for h in out.splitlines()[0].split("  ") if h.strip()]
    assert head[-2:] == ["err vs fp64", "verified"], head
    for run in doc["runs"]:
        line = next(x for x in out.splitlines() if x.startswith(run["kernel"] + " "))
        assert f"{run['accuracy']['worst_error']:.1e}" in line, (line, run["accuracy"])
    doc["runs"][0]["accuracy"]["worst_error"] = None  # infinite
    doc["runs"][1]["accuracy"] = None  # not measured
    code, out = tool(summarize, write(os.path.join(tmp, "inf.json"), doc))
    lines = out.splitlines()
    assert code == 0 and " inf " in lines[2] and lines[3].split()[-2] == "-", out
    code, out = tool(summarize, "--csv", os.path.join(tmp, "acc.csv"), rep)
    assert code == 0 and "err_vs_fp64" in open(os.path.join(tmp, "acc.csv")).readline(), out
    plain = os.path.join(tmp, "plain.json")
    code, out, err = harness.run(ARGS, [deck(tmp, "problem: {n: 32}\nkernels: [naive]\n"), "--report", plain])
    assert code == 0 and json.load(open(plain))["runs"][0]["accuracy"] is None, err
    code, out = tool(summarize, plain)
    assert code == 0 and "err vs fp64" not in out, out


def test_table_tool_floors(tmp):
    """summarize.py --floor DTYPE=PCT: per (report, dtype) the default `tiled`
    runs' lowest and median % of vendor and the runs under the floor; a
    deck's tile, `tile: auto`, the vendor and shapes with min(M, N) below
    --min-side are not held to it; --strict fails on a run under it; a bad
    spec is a usage error (exit 2). Reports in a folder may be gzip-compressed."""
    rep = os.path.join(tmp, "base.json")
    code, out, err = harness.run(ARGS, [deck(tmp, "problem: {n: 32}\nkernels: [tiled, vendor]\n"), "--report", rep])
    assert code == 0, (code, out, err)
    doc = json.load(open(rep))
    template = next(r for r in doc["runs"] if r["kernel"] == "tiled")
    runs = []
    # (dtype, m, n, k, % of vendor, selection)
    for dtype, m, n, k, pct, sel in [
            ("float", 400, 64, 512, 73.9, "shape rule: small C"),   # under 80
            ("float", 100, 100, 512, 79.9, "shape rule: small C"),  # under 80, just
            ("float", 128, 128, 512, 80.0, "shape rule: small C"),  # at the floor: held, not under
            ("float", 4096, 4096, 4096, 190.0, "shape rule: wgmma"),
            ("float", 2048, 2048, 2048, 150.0, "shape rule: wgmma"),
            ("float", 300, 300, 300, 50.0, "deck"),                 # a deck's tile: not the default
            ("float", 301, 300, 300, 50.0, "tile: auto: fastest of 3 compiled variants"),
            ("float", 8, 4096, 4096, 40.0, "shape rule: gemv"),     # min(M, N) < 64: counted apart
            ("double", 500, 500, 500, 69.5, "shape rule: DMMA"),    # under 70
            ("double", 600, 600, 600, 95.0, "shape rule: DMMA"),
            ("double", 700, 700, 700, 100.0, "shape rule: DMMA")]:
        r = copy.deepcopy(template)
        r.update(dtype=dtype, m=m, n=n, k=k, pct_of_vendor=pct, selection=sel)
        runs.append(r)
    vendor = copy.deepcopy(next(r for r in doc["runs"] if r["kernel"] == "vendor"))
    vendor.update(dtype="float", m=400, n=64, k=512, pct_of_vendor=10.0)  # the vendor: never held
    doc["runs"] = runs + [vendor]
    folder = os.path.join(tmp, "floors")
    os.makedirs(folder)
    with gzip.open(os.path.join(folder, "classes.json.gz"), "wt") as f:
        json.dump(doc, f)
    summarize = os.path.join(ARGS.source, "jobs", "summarize.py")
    code, out = tool(summarize, "--floor", "float=80", "--floor", "double=70", folder)
    assert code == 0, out
    tail = out[out.index("floors:"):].splitlines()
    rows = {tuple(x.split()[:2]): x.split() for x in tail if x.startswith("classes.json.gz")}
    # report, dtype, runs, lowest, lowest shape (m x n x k), median, under, below the min side
    assert rows[("classes.json.gz", "float")][2:] == ["5", "73.9", "400", "x", "64", "x", "512", "80.0", "2", "1"], rows
    assert rows[("classes.json.gz", "double")][2:] == ["3", "69.5", "500", "x", "500", "x", "500", "95.0", "1", "0"], rows
    under = tail[tail.index("under the floor:") + 1:]
    assert [x.split(":")[1].strip() for x in under] == ["float 400 x 64 x 512", "double 500 x 500 x 500",
                                                        "float 100 x 100 x 512"], under
    code, out = tool(summarize, "--strict", "--floor", "float=80", "--floor", "double=70", folder)
    assert code == 1, out
    code, out = tool(summarize, "--strict", "--floor", "float=50", "--floor", "double=60", "--min-side", "100", folder)
    assert code == 0 and "under the floor" not in out, out
    assert "min(M, N) >= 100" in out and re.search(r"classes.json.gz +float +4 ", out), out  # 400 x 64 apart
    for bad in ("float", "float=", "=80", "float=x", "float=-5"):
        code, out = tool(summarize, "--floor", bad, folder)
        assert code == 2 and "expected DTYPE=PCT" in out, (bad, code, out)


def main():
    global ARGS
    ARGS = harness.parser().parse_args()
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
