#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""One table from mmapp JSON reports (mmapp --report FILE): the project's
table tool (scripts/analysis/plot_reports.py --table calls it with --detail).

Usage:
  summarize.py REPORT_OR_DIR... [--csv FILE] [--compare FIELD] [--strict] [--detail]
               [--floor DTYPE=PCT ...] [--min-side N]

A folder stands for every *.json and *.json.gz file in it. Each run of each report is one
row: kernel, math (the math path the run used: simt, dmma or 3xtf32 on
tensor cores, vendor; "-" in reports before 2.1.0), backend, dtype, m, n, k, median ms, CV (the coefficient of
variation of its repetitions, "noisy" above the report's threshold),
GFLOP/s, % of vendor ("*": the vendor's own run was noisy), err vs fp64
(only when some run has it: the report's accuracy.worst_error, the worst
element's |C - C64| / (|A||B|) against an FP64 reference, from decks with
verify.accuracy: true, schema 2.2.0; "inf" for a non-finite C), verified. Runs
that did not finish (error, abandoned) have no times ("-"). --detail adds
the tile and why it ran (selection), and lists the `tile: auto` candidates
of each report. --compare backend prints one row per (kernel, dtype, m, n, k)
with a column group per backend and the GFLOP/s ratio of the last backend to
the first. --csv writes every row, with more columns (min/max/mean/stddev
time, samples, status, rel. error, err vs fp64 and its row, ranks, threads, host, device, compiler,
schema version, report file). --strict exits 1 when a report is unreadable
or a run is not verified (and, with --floor, when a run is under its
floor); otherwise the exit code is 1 only when no run was found at all.

--floor DTYPE=PCT (repeatable; e.g. --floor float=80 --floor double=70,
issue 21's floors) adds, after the table, one line per (report, dtype): how
many `tiled` runs the deck left to the default choice (the shape rule's;
not a deck's `tile:` nor `tile: auto`) have a % of vendor, the lowest with
its shape, the median, and how many are under PCT; then every run under its
floor, furthest under (its % / PCT) first. Only shapes with min(M, N) >= --min-side (default 64) are held to a
floor; the others are counted apart (GEMV-like shapes are compared with the
path they had, not with a floor).

Fields are those of docs/report.schema.json (schema_version 2.x). Legacy
reports (no schema_version: mmapp 0.1.0, before 2.0.0) are read too, without
the fields they lack (CV "-"), and counted in the last line. Standard
library only.
"""

import argparse
import csv
import glob
import gzip
import json
import os
import statistics
import sys

COLUMNS = [  # (key, header, format)
    ("kernel", "kernel", "{}"),
    ("math", "math", "{}"),
    ("backend", "backend", "{}"),
    ("dtype", "dtype", "{}"),
    ("m", "m", "{}"),
    ("n", "n", "{}"),
    ("k", "k", "{}"),
    ("median_ms", "median ms", "{:.3f}"),
    ("cv_text", "CV", "{}"),
    ("gflops", "GFLOP/s", "{:.1f}"),
    ("pct_text", "% vendor", "{}"),
    ("verified", "verified", "{}"),
]
ACCURACY = ("err_text", "err vs fp64", "{}")  # before "verified", when some run has accuracy
DETAIL = [("tile", "tile", "{}"), ("selection", "selection", "{}")]  # --detail: after the kernel
LEFT = 4  # left-aligned columns of the plain table: kernel, math, backend, dtype
CSV_KEYS = ["kernel", "math", "tile", "backend", "dtype", "m", "n", "k", "status", "median_ms", "min_ms", "max_ms",
            "mean_ms", "stddev_ms", "cv", "samples", "noisy", "noise_threshold", "until_stable", "gflops",
            "pct_of_vendor", "vendor_noisy", "verified", "rel_error", "err_vs_fp64", "err_row", "ranks", "threads", "host", "device",
            "compiler", "mmapp_version", "git", "schema_version", "selection", "report"]
SIZE_KEY = ("kernel", "dtype", "m", "n", "k")


def report_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(glob.glob(os.path.join(p, "*.json")) + glob.glob(os.path.join(p, "*.json.gz"))))
        else:
            files.append(p)
    return files


def ms(time_s, key):
    v = (time_s or {}).get(key)
    return None if v is None else 1e3 * v


def load(path):
    """The parsed report (gzip-compressed where the name ends in .gz, as
    docs/results/ keeps them); raises ValueError/OSError when unusable."""
    with (gzip.open(path, "rt") if path.endswith(".gz") else open(path)) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise ValueError("no 'runs' list")
    return doc


def rows_of(path, doc=None):
    """The rows of one report (see docs/report.schema.json for the fields);
    raises ValueError/OSError when unusable."""
    doc = doc if doc is not None else load(path)
    prov = doc.get("provenance") or {}
    app = doc.get("mmapp") or {}
    compiler = ((doc.get("build") or {}).get("compiler") or {})
    rows = []
    for run in doc["runs"]:
        t = run.get("time_s") if run.get("status", "ok") == "ok" else None  # legacy reports: times of unfinished runs
        noise = run.get("noise") or {}
        cv = (t or {}).get("cv")
        pct = run.get("pct_of_vendor")
        acc = run.get("accuracy")  # schema 2.2.0; null or absent: not measured
        err = None if not acc else acc.get("worst_error")  # null in a measured figure: infinite
        rows.append({
            "kernel": run.get("kernel"),
            "tile": run.get("tile") or "",
            "selection": run.get("selection") or "",
            "math": run.get("math") or "",
            "backend": run.get("backend", prov.get("backend")),
            "dtype": run.get("dtype"),
            "m": run.get("m"), "n": run.get("n"), "k": run.get("k"),
            "status": run.get("status", "ok"),
            "median_ms": ms(t, "median"),
            "min_ms": ms(t, "min"),
            "max_ms": ms(t, "max"),
            "mean_ms": ms(t, "mean"),
            "stddev_ms": ms(t, "stddev"),
            "cv": cv,
            "samples": (t or {}).get("count"),
            "noisy": noise.get("noisy"),
            "noise_threshold": noise.get("cv_threshold"),
            "cv_text": None if cv is None else f"{100 * cv:.1f}%" + (" noisy" if noise.get("noisy") else ""),
            "until_stable": (run.get("until_stable") or {}).get("outcome"),
            "gflops": run.get("gflops") if t is not None else None,
            "pct_of_vendor": pct,
            "vendor_noisy": run.get("vendor_noisy"),
            "pct_text": None if pct is None else f"{pct:.1f}" + ("*" if run.get("vendor_noisy") else ""),
            "verified": run.get("verified"),
            "rel_error": run.get("rel_error"),
            "err_vs_fp64": err if err is not None or not acc else float("inf"),
            "err_row": None if not acc else acc.get("worst_row"),
            "err_text": None if not acc else ("inf" if err is None else f"{err:.1e}"),
            "ranks": prov.get("ranks"), "threads": prov.get("threads"),
            "host": prov.get("host"), "device": prov.get("device"),
            "compiler": f"{compiler.get('id', '')} {compiler.get('version', '')}".strip() or None,
            "mmapp_version": app.get("version"), "git": app.get("git"),
            "schema_version": doc.get("schema_version"),
            "report": path,
        })
    return rows


def autotune_lines(path, doc):
    """--detail: each `tile: auto` run's candidates, fastest first."""
    for run in doc["runs"]:
        if not run.get("autotune"):
            continue
        flop = 2.0 * run["m"] * run["n"] * run["k"]
        cands = sorted((c for c in run["autotune"] if c.get("median_s")), key=lambda c: c["median_s"])
        print(f"{path}: tile: auto, {run['kernel']} {run['dtype']} {run['m']}x{run['n']}x{run['k']}: "
              f"{len(cands)} candidate(s) timed (median of 2, not verified; the chosen one is, in its row)")
        for c in cands:
            print(f"   {c['tile']:<44} {c['median_s'] * 1e3:10.3f} ms {flop / c['median_s'] / 1e9:10.1f} GFLOP/s"
                  + ("  <- chosen" if c.get("chosen") else ""))


def cell(value, fmt="{}"):
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "NO"
    try:
        return fmt.format(value)
    except (ValueError, TypeError):
        return str(value)


def print_table(headers, lines, left, out=sys.stdout):
    """Columns before index `left` are text (left-aligned), the rest numbers."""
    widths = [max(len(h), *(len(r[i]) for r in lines)) if lines else len(h)
              for i, h in enumerate(headers)]
    def fmt(row):
        return "  ".join(c.rjust(w) if i >= left else c.ljust(w)
                         for i, (c, w) in enumerate(zip(row, widths))).rstrip()
    print(fmt(headers), file=out)
    print("  ".join("-" * w for w in widths), file=out)
    for r in lines:
        print(fmt(r), file=out)


def plain_table(rows, detail=False):
    cols = COLUMNS[:1] + DETAIL + COLUMNS[1:] if detail else COLUMNS
    if any(r["err_text"] is not None for r in rows):
        cols = cols[:-1] + [ACCURACY] + cols[-1:]
    sel = 57
    def fmt(r, k, f):
        v = r[k]
        if k == "selection" and v and len(v) > sel + 3:
            v = v[:sel] + "..."
        return cell(v or ("-" if k in ("tile", "selection", "math") else v), f)
    print_table([h for _, h, _ in cols], [[fmt(r, k, f) for k, _, f in cols] for r in rows],
                left=LEFT + (len(DETAIL) if detail else 0))
    if any(r["vendor_noisy"] for r in rows):
        print("*: the vendor's own run was noisy (its CV above the report's threshold)")


def parse_floors(specs):
    """--floor's DTYPE=PCT strings as {dtype: pct}; raises ValueError naming a bad one."""
    floors = {}
    for spec in specs or []:
        dtype, sep, pct = spec.partition("=")
        try:
            value = float(pct)
        except ValueError:
            value = None
        if not sep or not dtype or value is None or not 0 < value <= 1000:
            raise ValueError(f"--floor: expected DTYPE=PCT (e.g. float=80), got '{spec}'")
        floors[dtype] = value
    return floors


def is_default_choice(r, kernel="tiled"):
    """A finished run of `kernel` whose variant the default chose (the shape
    rule's or the backend's), not a deck's `tile:` or `tile: auto`."""
    sel = r["selection"] or ""
    return r["kernel"] == kernel and r["status"] == "ok" and sel != "deck" and not sel.startswith("tile: auto")


def floor_table(rows, floors, min_side):
    """--floor: per (report, dtype), the default `tiled` runs' % of vendor
    against the dtype's floor; returns the runs under their floor."""
    groups = {}
    for r in rows:
        if r["dtype"] in floors and is_default_choice(r) and r["pct_of_vendor"] is not None:
            groups.setdefault((os.path.basename(r["report"]), r["dtype"]), []).append(r)
    print()
    print(f"floors: `tiled` as chosen by default, % of vendor in the same run, min(M, N) >= {min_side}: "
          + ", ".join(f"{d} {p:g}" for d, p in floors.items()))
    lines, under = [], []
    for (report, dtype), runs in groups.items():
        held = [r for r in runs if min(r["m"], r["n"]) >= min_side]
        low = min(held, key=lambda r: r["pct_of_vendor"]) if held else None
        below = [r for r in held if r["pct_of_vendor"] < floors[dtype]]
        under += below
        median = statistics.median(r["pct_of_vendor"] for r in held) if held else None
        lines.append([report, dtype, str(len(held)),
                      cell(low and low["pct_of_vendor"], "{:.1f}"),
                      f"{low['m']} x {low['n']} x {low['k']}" if low else "-",
                      cell(median, "{:.1f}"), str(len(below)), str(len(runs) - len(held))])
    print_table(["report", "dtype", "runs", "lowest", "lowest shape", "median", "under", f"min(M, N) < {min_side}"],
                lines, left=2)
    if under:
        print("under the floor:")
        for r in sorted(under, key=lambda r: r["pct_of_vendor"] / floors[r["dtype"]]):  # furthest under first
            print(f"  {os.path.basename(r['report'])}: {r['dtype']} {r['m']} x {r['n']} x {r['k']}: "
                  f"{r['pct_text']} % of vendor ({r['median_ms']:.3f} ms, floor {floors[r['dtype']]:g}); {r['selection']}")
    return under


def compare_table(rows, field):
    values = []
    groups = {}
    for r in rows:
        if r[field] not in values:
            values.append(r[field])
        groups.setdefault(tuple(r[k] for k in SIZE_KEY), {})[r[field]] = r
    headers = list(SIZE_KEY)
    for v in values:
        headers += [f"{v} ms", f"{v} GFLOP/s"]
    ratio = len(values) >= 2
    if ratio:
        headers.append(f"{values[-1]}/{values[0]}")
    headers.append("verified")
    lines = []
    for key, by_value in groups.items():
        line = [cell(x) for x in key]
        for v in values:
            r = by_value.get(v, {})
            line += [cell(r.get("median_ms"), "{:.3f}"), cell(r.get("gflops"), "{:.1f}")]
        if ratio:
            first = by_value.get(values[0], {}).get("gflops")
            last = by_value.get(values[-1], {}).get("gflops")
            line.append(cell(last / first, "{:.2f}x") if first and last else "-")
        flags = [r.get("verified") for r in by_value.values()]
        line.append(cell(all(f is True for f in flags)) if None not in flags else "-")
        lines.append(line)
    print_table(headers, lines, left=2)


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", help="report files or folders of them")
    ap.add_argument("--csv", metavar="FILE", help="also write all rows as CSV")
    ap.add_argument("--compare", metavar="FIELD",
                    help="one row per problem, a column group per value of FIELD (e.g. backend)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 on an unreadable report, a run that is not verified or (--floor) one under its floor")
    ap.add_argument("--detail", action="store_true",
                    help="add the tile and selection columns and the tile: auto candidates")
    ap.add_argument("--floor", action="append", metavar="DTYPE=PCT",
                    help="list the default tiled runs against a floor, %% of vendor (repeatable)")
    ap.add_argument("--min-side", type=int, default=64, metavar="N",
                    help="hold only shapes with min(M, N) >= N to a floor (default 64)")
    args = ap.parse_args(argv)
    try:
        floors = parse_floors(args.floor)
    except ValueError as e:
        ap.error(str(e))

    rows, bad, legacy = [], 0, 0
    files = report_files(args.reports)
    for path in files:
        try:
            doc = load(path)
            rows.extend(rows_of(path, doc))
            legacy += "schema_version" not in doc
            if args.detail:
                autotune_lines(path, doc)
        except (OSError, ValueError) as e:  # json.JSONDecodeError is a ValueError
            print(f"summarize: cannot use {path}: {e}", file=sys.stderr)
            bad += 1
    if not rows:
        print(f"summarize: no runs found in {len(files)} report file(s)", file=sys.stderr)
        return 1

    if args.compare:
        if args.compare not in rows[0]:
            ap.error(f"--compare: unknown field '{args.compare}'")
        compare_table(rows, args.compare)
    else:
        plain_table(rows, args.detail)
    unverified = sum(1 for r in rows if r["verified"] is not True)
    noisy = sum(1 for r in rows if r["noisy"])
    print(f"{len(rows)} runs from {len(files) - bad} report(s); {unverified} not verified; {noisy} noisy"
          + (f"; {legacy} legacy report(s) (no schema_version, before 2.0.0)" if legacy else "")
          + (f"; {bad} unreadable report(s)" if bad else ""))

    under = floor_table(rows, floors, args.min_side) if floors else []

    if args.csv:
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=CSV_KEYS, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    if args.strict and (bad or unverified or under):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
