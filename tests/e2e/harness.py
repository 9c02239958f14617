# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""What the end-to-end test scripts (test_cli.py, test_summa.py) share: the
environment mpiexec runs mmapp in, the mpiexec command line, deck files, the
command-line options and the runner that calls every test_* function.

A test is a function test_NAME(tmp) of its script, given a fresh temporary
folder; it passes when it returns and fails when it raises (assert). After
it returns, every mmapp report left in its folder (a *.json file with a
"runs" list) must match docs/report.schema.json (report_schema.py), and
run() validates the report of each mmapp run (--report FILE) as soon as it
ends, so every report the e2e tests write is validated."""
import argparse
import json
import os
import subprocess
import tempfile
import textwrap
import time
import traceback

import report_schema

# OpenMP threads per rank: MMAPP_TEST_OMP_THREADS (CTest sets it; default 1).
# No binding (OMPI_MCA_hwloc_base_binding_policy=none): Open MPI would bind
# rank i of every mpiexec to core i, so tests run at once would share cores
# (tests/CMakeLists.txt, MMAPP_TEST_ENV_BASE).
ENV = dict(os.environ, OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
           OMPI_MCA_rmaps_base_oversubscribe="1", OMPI_MCA_hwloc_base_binding_policy="none",
           OMP_NUM_THREADS=os.environ.get("MMAPP_TEST_OMP_THREADS", "1"), OMP_PROC_BIND="false",
           OMP_WAIT_POLICY="passive")


def command(args, mmapp_args, np=None):
    """The mpiexec command line for mmapp with `mmapp_args` (`args`: the parsed options).

    Ranks may share a GPU (a one-GPU node runs the multi-rank tests too); the
    refusal without that key is tested in test_placement.cpp."""
    share = ["--set", "parallel.share_devices=true"] if any(str(a).endswith(".yaml") for a in mmapp_args) else []
    return [args.mpiexec, "-n", str(np or args.np), "--oversubscribe", args.mmapp, *mmapp_args, *share]


def run(args, mmapp_args, np=None, timeout=300, env=None):
    """Runs mmapp under mpiexec; returns (exit code, stdout, stderr). A report
    it wrote (--report FILE) is validated against the schema at once, so one
    that a later run of the same test overwrites is checked too."""
    p = subprocess.run(command(args, mmapp_args, np=np), capture_output=True, text=True, env=env or ENV,
                       timeout=timeout)
    args_list = list(mmapp_args)
    if "--report" in args_list[:-1]:
        validate_if_report(args_list[args_list.index("--report") + 1])
    return p.returncode, p.stdout, p.stderr


def validate_if_report(path):
    """Validates `path` against the schema when it is an mmapp report (a JSON
    file with a "runs" list; not a folder, a missing file or some other file
    a test left there); raises AssertionError when invalid. Returns whether it
    was a report."""
    if not os.path.isfile(path):
        return False
    try:
        with open(path) as f:
            doc = json.load(f)
    except (OSError, ValueError):
        return False  # not a report (tests write broken files on purpose)
    if not (isinstance(doc, dict) and isinstance(doc.get("runs"), list)):
        return False
    report_schema.validate(path)
    return True


def deck(tmp, text, name="deck.yaml"):
    """Writes `text` (dedented) to tmp/name; returns the path."""
    path = os.path.join(tmp, name)
    with open(path, "w") as f:
        f.write(textwrap.dedent(text))
    return path


def parser():
    """The options every script takes: --mmapp, --mpiexec, --source, --np, -k (a name filter)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--mmapp", required=True)
    ap.add_argument("--mpiexec", required=True)
    ap.add_argument("--source", required=True)
    ap.add_argument("--np", type=int, default=1)
    ap.add_argument("-k", default="", help="run only the tests whose name contains this")
    ap.add_argument("--shard", default="",
                    help="run only this shard of the script's tests (its SHARDS; 'rest': the tests in no shard)")
    return ap


def in_shard(name, shards, shard):
    """Whether test `name` belongs to `shard` of `shards` (a script's SHARDS: shard name -> substrings
    of test names; CTest runs each shard as a test of its own, so long tests run side by side). The
    shard "rest" holds every test that no substring names, so a new test is never left out; "" is
    every test. Raises SystemExit on an unknown shard."""
    if not shard:
        return True
    if shard == "rest":
        return not any(part in name for parts in shards.values() for part in parts)
    if shard not in shards:
        raise SystemExit(f"--shard {shard}: unknown (known: {', '.join([*shards, 'rest'])})")
    return any(part in name for part in shards[shard])


def validate_reports(folder):
    """Validates every mmapp report under `folder` (*.json with a "runs"
    list) against the schema; raises AssertionError on the first invalid one.
    Returns how many were checked."""
    n = 0
    for root, _, files in os.walk(folder):
        for name in sorted(files):
            if name.endswith(".json"):
                n += validate_if_report(os.path.join(root, name))
    return n


def run_tests(namespace, pattern, shard=""):
    """Calls every test_* function of `namespace` (a script's globals()) whose
    name contains `pattern` and that is in `shard` of the script's SHARDS
    (in_shard), in name order, each in a fresh temporary folder.
    Prints PASS/FAIL per test with its wall time (to balance CTest's shards
    of a script, e.g. e2e_robust's) and 'N passed, N failed'; returns the exit
    code: 1 on any failure or when nothing ran."""
    shards = namespace.get("SHARDS", {})
    tests = [(n, f) for n, f in sorted(namespace.items())
             if n.startswith("test_") and pattern in n and in_shard(n, shards, shard)]
    passed = failed = 0
    for name, fn in tests:
        t0 = time.monotonic()
        with tempfile.TemporaryDirectory() as tmp:
            try:
                fn(tmp)
                n = validate_reports(tmp)
                passed += 1
                valid = f", {n} report(s) valid against the schema" if n else ""
                print(f"PASS {name} ({time.monotonic() - t0:.1f} s{valid})", flush=True)
            except Exception:
                failed += 1
                print(f"FAIL {name} ({time.monotonic() - t0:.1f} s)", flush=True)
                traceback.print_exc()
    print(f"{passed} passed, {failed} failed")
    return 1 if failed or not passed else 0
