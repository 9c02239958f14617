#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Compares the checksums of C (XXH3-64 of its bytes, the reports' `checksum`)
of two mmapp JSON reports run by run: the evidence that a refactoring left
every kernel's result bit for bit as it was. Runs are matched by (kernel,
dtype, m, n, k, tile); runs of one report that the other lacks are listed.

Usage: scripts/analysis/compare_checksums.py BEFORE.json AFTER.json
Exit status: 0 when every matched run has the same checksum and every run
has a partner, 1 otherwise, 2 on unreadable input.
"""
import json
import sys


def runs_by_key(path):
    """{(kernel, dtype, m, n, k, tile): checksum} of the report at `path`."""
    with open(path, encoding="utf-8") as f:
        report = json.load(f)
    out = {}
    for run in report.get("runs", []):
        kernel = "vendor" if run["kernel"] == "kokkoskernels" else run["kernel"]
        key = (kernel, run["dtype"], run["m"], run["n"], run["k"], run.get("tile", ""))
        out[key] = run.get("checksum", "")
    return out


def main(argv):
    if len(argv) != 3:
        print(__doc__.strip().split("\n\n")[1], file=sys.stderr)
        return 2
    try:
        before, after = runs_by_key(argv[1]), runs_by_key(argv[2])
    except (OSError, ValueError, KeyError) as e:
        print(f"compare_checksums: {e}", file=sys.stderr)
        return 2
    same = differ = 0
    for key in sorted(set(before) | set(after), key=str):
        name = "{} {} {}x{}x{} {}".format(*key).rstrip()
        if key not in after or key not in before:
            print(f"only in {'before' if key in before else 'after'}: {name}")
            differ += 1
        elif not before[key] or before[key] != after[key]:
            print(f"DIFFERENT {name}: {before[key] or '(none)'} -> {after[key] or '(none)'}")
            differ += 1
        else:
            same += 1
    print(f"{same} run(s) with equal checksums, {differ} different or unmatched")
    return 0 if differ == 0 and same > 0 else 1


if __name__ == "__main__":
    sys.exit(main(sys.argv))
