#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The host ISA dispatch against builds for one ISA, from the reports of
scripts/bench/host-isa.sh.

    scripts/analysis/host_isa.py OUT_DIR ROUNDS

Reads OUT_DIR/{portable,portable-avx2,native,v3}-{1..ROUNDS}.json (the
portable build dispatching by the CPU, the same with MMAPP_HOST_ISA=avx2,
the openmp-native build and a MMAPP_HOST_ARCH=x86-64-v3 build; `tiled` and
`vendor`, float and double, N = 2048 and 4096) and prints, per dtype and N,
the median GFLOP/s of each configuration over the rounds, the median of the
per-round ratios portable / native and portable-avx2 / v3 for `tiled` (with
their range), and `tiled` / vendor of each. Fails (assertion) on a run that
did not verify, and when portable-avx2 or v3 did not run the x86-64-v3 path
or portable ran another level than native's (the report's host_isa).
"""
import json
import statistics
import sys

CONFIGS = ("portable", "portable-avx2", "native", "v3")


def main():
    out, rounds = sys.argv[1], int(sys.argv[2])
    rate = {}  # (config, kernel, dtype, n) -> [GFLOP/s per round]
    isa = {}
    for c in CONFIGS:
        for r in range(1, rounds + 1):
            rep = json.load(open(f"{out}/{c}-{r}.json"))
            p = rep["provenance"]
            isa[c] = (p.get("host_isa", "?"), p.get("host_isa_chosen_by", "?"))
            for run in rep["runs"]:
                assert run["verified"], f"{c} round {r}: {run['kernel']} {run['dtype']} N={run['n']} not verified"
                rate.setdefault((c, run["kernel"], run["dtype"], run["n"]), []).append(run["gflops"])
    for c in CONFIGS:
        print(f"{c:14} host ISA {isa[c][0]} ({isa[c][1]})")
    assert isa["portable-avx2"][0] == "x86-64-v3", isa
    assert isa["v3"][0] == "x86-64-v3", isa
    assert isa["portable"][0] == isa["native"][0], ("the dispatch took another level than native's", isa)
    print()
    print(f"{'dtype':6} {'N':>5} | " + " ".join(f"{c + ' tiled':>19}" for c in CONFIGS) +
          f" | {'portable/native':>22} {'avx2/v3':>22} | tiled/vendor: " + " ".join(CONFIGS))
    keys = sorted({(d, n) for (_, k, d, n) in rate if k == "tiled"})
    for d, n in keys:
        med = {c: statistics.median(rate[(c, "tiled", d, n)]) for c in CONFIGS}

        def ratio(a, b):
            rs = [x / y for x, y in zip(rate[(a, "tiled", d, n)], rate[(b, "tiled", d, n)])]
            return f"{statistics.median(rs):6.1%} [{min(rs):.1%}-{max(rs):.1%}]"

        vendor = []
        for c in CONFIGS:
            v = rate.get((c, "vendor", d, n))
            vendor.append(f"{med[c] / statistics.median(v):.0%}" if v else "-")
        print(f"{d:6} {n:5} | " + " ".join(f"{med[c]:19.1f}" for c in CONFIGS) +
              f" | {ratio('portable', 'native'):>22} {ratio('portable-avx2', 'v3'):>22} | " + " ".join(vendor))


if __name__ == "__main__":
    main()
