#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""A GPU rank plus a host rank against the GPU alone (inputs/bench/hetero.yaml).

    scripts/analysis/hetero_ratio.py BOTH.json ALONE.json

BOTH: the 2-rank run (CUDA + OpenMP, weights: auto); ALONE: the GPU rank
doing every row. Prints the rows each rank was given, each rank's measured
and predicted time, both kernel times and their ratio against the bar:
the job at most 5% slower than the GPU alone. scripts/bench/host-gpu-node.sh
runs both.
"""
import json
import sys


def main():
    both, alone = (json.load(open(p))["runs"][0] for p in sys.argv[1:3])
    t2, t1 = both["time_s"]["median"], alone["time_s"]["median"]
    print(f"  weights: auto: rows {both.get('rows_split')}, kernel time {t2 * 1e3:.2f} ms (verified: {both['verified']})")
    for r in both.get("ranks", []):
        print(f"    rank {r.get('rank')}: {r.get('rows')} rows, measured median {r['kernel_s']['median']}, "
              f"predicted {r.get('predicted_s')}")
    print(f"  the GPU alone: kernel time {t1 * 1e3:.2f} ms (verified: {alone['verified']})")
    print(f"  job / GPU alone = {t2 / t1:.3f} (bar: <= 1.05)")


if __name__ == "__main__":
    main()
