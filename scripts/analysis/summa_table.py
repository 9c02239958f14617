#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""One table of the process-grid (SUMMA) runs of scripts/bench/summa-gpu.sh.

    scripts/analysis/summa_table.py OUT_DIR

Reads every OUT_DIR/LABEL.rc (mpirun's exit status) and LABEL.json (the
report, when the run wrote one) and prints one row per run: label, kernel,
decomposition (grid p x q or rows), panel transfer (the row split: how B and
C travel, "mpi" or "nccl") and overlap, panel width,
median time, TFLOP/s, the slowest rank's broadcast and local-GEMM time per
multiply, the largest rank's device memory, and the verdict; a run without a
report shows its exit status.
"""
import glob
import json
import os
import sys

HEAD = ["run", "kernel", "decomp", "transfer", "overlap", "panel", "median s", "TFLOP/s", "bcast s", "gemm s",
        "dev GiB", "check"]


def rows_of(out):
    rows = []
    for path in sorted(glob.glob(os.path.join(out, "*.rc"))):
        label = os.path.basename(path)[:-3]
        rc = open(path).read().strip()
        rep = os.path.join(out, label + ".json")
        if not os.path.exists(rep):
            rows.append([label, "-", "-", "-", "-", "-", "-", "-", "-", "-", "-", f"exit {rc}, no report"])
            continue
        r = json.load(open(rep))
        for run in r["runs"]:
            g = run.get("grid")
            ranks = run.get("ranks") or []

            def worst(phase):
                v = [x["phases_s"].get(phase) for x in ranks if phase in x.get("phases_s", {})]
                return f"{max(v):.3f}" if v else "-"

            mem = max((x.get("memory_bytes", {}).get("device", 0) for x in ranks), default=0)
            decomp = f"grid {g['p']}x{g['q']}" if g else "rows"
            transfer = (g or {}).get("transfer") or run.get("transport", "-")
            ok = run["status"] == "ok"
            rows.append([label, run["kernel"], decomp,
                         transfer.replace("staged through pinned host memory", "staged")
                         .replace("shared: an MPI shared-memory window (one node)", "shared")
                         .replace("nccl: device to device (NCCL)", "nccl"),
                         (g or {}).get("overlap", "-") or "-", str((g or {}).get("panel", "-")),
                         f"{run['time_s']['median']:.4f}" if ok else "-",
                         f"{run['gflops'] / 1000:.1f}" if ok else "-",
                         worst("summa_comm"), worst("summa_gemm"), f"{mem / 2**30:.1f}" if mem else "-",
                         ("PASS" if run["verified"] else "FAIL") if ok else run["status"]])
    return rows


def main():
    rows = rows_of(sys.argv[1])
    w = [max(len(str(x[i])) for x in rows + [HEAD]) for i in range(len(HEAD))]
    print("  ".join(h.ljust(w[i]) for i, h in enumerate(HEAD)))
    for x in rows:
        print("  ".join(str(c).ljust(w[i]) for i, c in enumerate(x)))
    print("(bcast s / gemm s: the slowest rank's mean per multiply; dev GiB: the largest rank's device memory)")


if __name__ == "__main__":
    main()
