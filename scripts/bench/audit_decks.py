#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Writes the GPU audit decks (issue 21's "every shape class" item):
inputs/bench/gpu-audit-float-1.yaml, -2.yaml and gpu-audit-double-1.yaml, -2.yaml.

    scripts/bench/audit_decks.py [--check]

The two decks of a dtype hold, between them, every M x N x K with min(M, N) >= 64 that a
GPU deck of the tensor-core rounds named (docs/results/*/round*/decks/*.yaml)
or inputs/bench/gpu-classes.yaml holds, plus AUDIT_RANDOM shapes no deck
chose, drawn log-uniform with a fixed seed (M, N 64-8192, K 16-16384, at most
2 TFLOP each: random.Random(AUDIT_SEED)). Kernels: the shape rule's `tiled`
and the vendor (cuBLAS; run with NVIDIA_TF32_OVERRIDE=0 so that SGEMM
computes in FP32), no forced tiles: the audit times what a user gets. The
shapes, sorted by M, N, K, go to the two decks in turn (even and odd places),
so each deck holds a like mix and fits one call on the GPU node.

Read the result with
    jobs/summarize.py --floor float=80 --floor double=70 REPORT.json
(issue 21's floors, % of cuBLAS in the same run). scripts/bench/tc-gpu.sh
runs decks on the GPU node and prints the floors when given these decks.

--check: exit 1 (naming the file) when a written deck differs from what this
script would write, e.g. after a new round's deck was added.
Standard library only: the decks it reads are parsed for their
`{m: M, n: N, k: K}` / `{n: N}` size entries and `dtype:` line.
"""
import argparse
import glob
import os
import random
import re
import sys

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
AUDIT_SEED = 20261202
AUDIT_RANDOM = 48
AUDIT_PARTS = 2
MIN_SIDE = 64  # issue 21: shape classes with min(M, N) >= 64 (GEMV-like shapes are held to their old path)
SIZE = re.compile(r"^\s*-\s*\{([^}]*)\}")
FIELD = re.compile(r"\b([mnk])\s*:\s*(\d+)")


def deck_shapes(path):
    """(dtypes, [(m, n, k)]) of one deck: its size entries ({n: N} is N^3,
    else {m, n, k}) and its dtype line (a name or a [list]; float, mmapp's
    default, when absent)."""
    dtypes, sizes = ["float"], []
    with open(path) as f:
        for line in f:
            s = SIZE.match(line)
            entry = dict(FIELD.findall(s.group(1))) if s else {}
            # A size entry has m, n, k and nothing else (a kernel entry has other keys).
            if "n" in entry and len(entry) == s.group(1).count(":"):
                n = int(entry["n"])
                sizes.append((int(entry.get("m", n)), n, int(entry.get("k", n))))
            d = re.match(r"^\s*dtype\s*:\s*(.+?)\s*$", line)
            if d:
                dtypes = [x.strip() for x in d.group(1).strip("[]").split(",") if x.strip()]
    return dtypes, sizes


def random_shapes(seed, count):
    """`count` log-uniform shapes (M, N 64-8192, K 16-16384), at most 2e12 FLOP each."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        m, n = (int(round(2 ** rng.uniform(6, 13))) for _ in range(2))
        k = int(round(2 ** rng.uniform(4, 14)))
        if 2.0 * m * n * k <= 2e12:
            out.append((m, n, k))
    return out


def source_decks():
    """Paths of the decks the audit collects shapes from: every round's decks
    (docs/results/*/round*/decks/*.yaml, sorted) and inputs/bench/gpu-classes.yaml."""
    decks = sorted(glob.glob(os.path.join(TOP, "docs", "results", "*", "round*", "decks", "*.yaml")))
    return decks + [os.path.join(TOP, "inputs", "bench", "gpu-classes.yaml")]


def audit_text(dtype, part, shapes, n_decks):
    """The text of audit deck `part` of `dtype`: a header saying where its
    shapes come from, `shapes` ([(m, n, k)]) as problem.sizes, `tiled` and
    the vendor, and the run's repetitions."""
    lines = [
        "# SPDX-License-Identifier: BSD-3-Clause",
        "# Copyright (c) 2026 The mmapp developers",
        f"# Written by scripts/bench/audit_decks.py (do not edit by hand): the GPU audit, {dtype}, part {part} of "
        f"{AUDIT_PARTS}.",
        f"# The parts share, every other one in M, N, K order, each M x N x K with min(M, N) >= {MIN_SIDE} of the",
        f"# {n_decks} GPU decks of the tensor-core rounds (docs/results/*/round*/decks/) and",
        f"# inputs/bench/gpu-classes.yaml, plus {AUDIT_RANDOM} shapes no deck chose (log-uniform,",
        f"# random.Random({AUDIT_SEED})): the shape rule's `tiled` against the vendor in the same run.",
        "# Run with NVIDIA_TF32_OVERRIDE=0; read with",
        "#   jobs/summarize.py --floor float=80 --floor double=70 REPORT.json",
        "problem:",
        "  sizes:",
    ]
    lines += [f"    - {{m: {m}, n: {n}, k: {k}}}" for m, n, k in shapes]
    lines += [
        f"  dtype: {dtype}",
        "  init: random",
        "kernels:",
        "  - tiled",
        "  - vendor",
        "run:",
        "  warmup: 2",
        "  repetitions: 10",
        "  until_stable: {max_cv: 0.02, max_seconds: 0.3, max_repetitions: 100}",
        "",
    ]
    return "\n".join(lines)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--check", action="store_true", help="exit 1 when a written deck is out of date")
    args = ap.parse_args(argv)
    decks = source_decks()
    shapes = {"float": set(), "double": set()}
    for path in decks:
        dtypes, sizes = deck_shapes(path)
        for dt in dtypes:
            if dt in shapes:
                shapes[dt].update(s for s in sizes if min(s[0], s[1]) >= MIN_SIDE)
    fresh = random_shapes(AUDIT_SEED, AUDIT_RANDOM)
    stale = 0
    for dtype, seen in shapes.items():
        every = sorted(seen | set(fresh))
        for part in range(1, AUDIT_PARTS + 1):
            mine = every[part - 1::AUDIT_PARTS]
            text = audit_text(dtype, part, mine, len(decks))
            path = os.path.join(TOP, "inputs", "bench", f"gpu-audit-{dtype}-{part}.yaml")
            if args.check:
                written = None
                if os.path.exists(path):
                    with open(path) as f:
                        written = f.read()
                if written != text:
                    print(f"audit_decks: {os.path.relpath(path, TOP)} is out of date: run scripts/bench/audit_decks.py",
                          file=sys.stderr)
                    stale += 1
                continue
            with open(path, "w") as f:
                f.write(text)
            print(f"audit_decks: {os.path.relpath(path, TOP)}: {len(mine)} of {len(every)} shapes "
                  f"({len(seen)} from {len(decks)} decks, {len(set(fresh) - seen)} new)")
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main())
