#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Checks mmapp JSON reports for tests/slurm/run-slurm-tests.sh.

Usage: check_reports.py REPORT... [--ranks N] [--threads N] [--backend B] [--n N]

Every report must parse, carry the expected fields (and match
docs/report.schema.json when python3-jsonschema is installed), and every run
in it must be verified. The options add checks on provenance (ranks, threads), on the
backend of every run and on the problem size n. Prints one line per problem
and exits 1 when there is any. Standard library only.
"""

import argparse
import json
import os
import sys

try:  # the report schema (docs/report.schema.json) when python3-jsonschema is installed (setup-debian.sh does)
    import jsonschema  # noqa: F401
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "e2e"))
    import report_schema
except ImportError:
    report_schema = None

TOP = {"mmapp": ["version", "git"],
       "provenance": ["host", "kokkos_version", "backend", "device", "threads", "ranks", "date"]}
RUN = ["kernel", "dtype", "m", "n", "k", "backend", "time_s", "phases_s", "gflops",
       "pct_of_vendor", "verified", "rel_error", "checksum"]
TIME = ["min", "median", "max"]


def check(path, args):
    problems = []
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError) as e:
        return [f"cannot read: {e}"]
    if report_schema is not None and "schema_version" in doc:
        problems += [f"schema: {p}" for p in report_schema.problems(doc)]
    for section, keys in TOP.items():
        sec = doc.get(section)
        if not isinstance(sec, dict):
            problems.append(f"no '{section}' object")
            continue
        problems += [f"{section}.{k} missing" for k in keys if k not in sec]
    for key in ("deck", "runs", "ranks"):
        if key not in doc:
            problems.append(f"'{key}' missing")
    prov = doc.get("provenance") or {}
    runs = doc.get("runs") or []
    if not runs:
        problems.append("no runs")
    for i, run in enumerate(runs):
        where = f"runs[{i}] ({run.get('kernel')}, {run.get('dtype')})"
        problems += [f"{where}.{k} missing" for k in RUN if k not in run]
        t = run.get("time_s") or {}
        problems += [f"{where}.time_s.{k} missing" for k in TIME if k not in t]
        if not (isinstance(t.get("median"), (int, float)) and t["median"] > 0):
            problems.append(f"{where}: time_s.median is not > 0: {t.get('median')}")
        if run.get("verified") is not True:
            problems.append(f"{where}: verified is {run.get('verified')!r} (rel_error {run.get('rel_error')})")
        if args.backend and run.get("backend") != args.backend:
            problems.append(f"{where}: backend {run.get('backend')!r}, expected {args.backend!r}")
        if args.n and run.get("n") != args.n:
            problems.append(f"{where}: n = {run.get('n')}, expected {args.n}")
    if args.ranks is not None:
        if prov.get("ranks") != args.ranks:
            problems.append(f"provenance.ranks = {prov.get('ranks')}, expected {args.ranks}"
                            " (a launcher that starts one-rank MPI jobs?)")
        if len(doc.get("ranks") or []) != args.ranks:
            problems.append(f"'ranks' lists {len(doc.get('ranks') or [])} entries, expected {args.ranks}")
    if args.threads is not None and prov.get("threads") != args.threads:
        problems.append(f"provenance.threads = {prov.get('threads')}, expected {args.threads}")
    return problems


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--ranks", type=int)
    ap.add_argument("--threads", type=int)
    ap.add_argument("--backend")
    ap.add_argument("--n", type=int)
    args = ap.parse_args()
    bad = 0
    for path in args.reports:
        for p in check(path, args):
            print(f"{path}: {p}")
            bad += 1
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
