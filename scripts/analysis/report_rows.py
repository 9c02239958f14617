#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""One line per run of an mmapp report, for a quick look in a log.

    scripts/analysis/report_rows.py REPORT.json

Prints the device and what OpenBLAS ran on (threading, threads, bound),
then per run: kernel, tile, dtype, M x N x K, GFLOP/s, median kernel time,
% of the vendor kernel in the same run, and whether it verified.
scripts/bench/host-gpu-node.sh prints it after each host run
(jobs/summarize.py --detail, also plot_reports.py --table, is the full table).
"""
import json
import sys


def main():
    r = json.load(open(sys.argv[1]))
    b = r["provenance"].get("host_blas", {})
    print(f"  ({r['provenance']['device']}; OpenBLAS {b.get('threading')} {b.get('threads')} threads, bound={b.get('bound')})")
    for run in r["runs"]:
        if "time_s" not in run:  # an error or abandoned run (schema 2.x): no times
            print(f"  {run['kernel']:14} {run['tile']:22} {run['dtype']:6} {run['m']}x{run['n']}x{run['k']}: "
                  f"{run.get('status', '?')}")
            continue
        pv = run.get("pct_of_vendor")
        print(f"  {run['kernel']:14} {run['tile']:22} {run['dtype']:6} {run['m']}x{run['n']}x{run['k']}: "
              f"{run['gflops']:9.1f} GFLOP/s, median {run['time_s']['median'] * 1e3:9.2f} ms"
              + (f", {pv:.1f}% of vendor" if pv else "") + (", verified" if run["verified"] else ", NOT VERIFIED"))


if __name__ == "__main__":
    main()
