#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The host vendor yardstick bound against unbound, from the reports of
scripts/bench/host-yardstick.sh.

    scripts/analysis/host_yardstick.py OUT_DIR ROUNDS

Reads OUT_DIR/yardstick-{bound,unbound}-{1..ROUNDS}.json (OpenBLAS through
Kokkos Kernels, with and without the jobs' OpenMP binding) and prints each
round's GFLOP/s per dtype with what the report says OpenBLAS ran on
(threading, threads, CPUs, bound), then per dtype and N the median rate of
each mode and bound / unbound: about 1 when the vendor runs on the
kernels' cores (README, "The host BLAS and its threads"). Fails (assertion)
on a run that did not verify: its rate would mean nothing.
"""
import json
import statistics
import sys


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    rates = {}
    for mode in ("bound", "unbound"):
        for r in range(1, rounds + 1):
            rep = json.load(open(f"{out}/yardstick-{mode}-{r}.json"))
            blas = rep["provenance"].get("host_blas", {})
            for run in rep["runs"]:
                assert run["verified"], f"{mode} round {r}: {run['dtype']} not verified"
                rates.setdefault((run["dtype"], run["n"]), {}).setdefault(mode, []).append(run["gflops"])
            print(f"{mode:8} round {r}: OpenBLAS {blas.get('threading')} {blas.get('threads')} threads on "
                  f"{blas.get('cpus')} CPUs, bound={blas.get('bound')}: " +
                  ", ".join(f"{run['dtype']} {run['gflops']:.1f}" for run in rep["runs"]) + " GFLOP/s")
    for (dtype, n), m in sorted(rates.items()):
        b, u = statistics.median(m["bound"]), statistics.median(m["unbound"])
        print(f"{dtype:6} N = {n}: bound {b:.1f} GFLOP/s, unbound {u:.1f} GFLOP/s, bound / unbound = {b / u:.2f}")


if __name__ == "__main__":
    main()
