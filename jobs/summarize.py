#!/usr/bin/env python3
"""One table from mmapp JSON reports (mmapp --report FILE).

Usage:
  summarize.py REPORT_OR_DIR... [--csv FILE] [--compare FIELD] [--strict]

A folder stands for every *.json file in it. Each run of each report is one
row: kernel, backend, dtype, m, n, k, median ms, GFLOP/s, % of vendor,
verified. --compare backend prints one row per (kernel, dtype, m, n, k) with a
column group per backend and the GFLOP/s ratio of the last backend to the
first. --csv writes every row, with more columns (min/max time, rel. error,
ranks, threads, host, device, report file). --strict exits 1 when a report is
unreadable or a run is not verified; otherwise the exit code is 1 only when no
run was found at all. Standard library only.
"""

import argparse
import csv
import glob
import json
import os
import sys

COLUMNS = [  # (key, header, format)
    ("kernel", "kernel", "{}"),
    ("backend", "backend", "{}"),
    ("dtype", "dtype", "{}"),
    ("m", "m", "{}"),
    ("n", "n", "{}"),
    ("k", "k", "{}"),
    ("median_ms", "median ms", "{:.3f}"),
    ("gflops", "GFLOP/s", "{:.1f}"),
    ("pct_of_vendor", "% vendor", "{:.1f}"),
    ("verified", "verified", "{}"),
]
CSV_EXTRA = ["min_ms", "max_ms", "rel_error", "ranks", "threads", "host", "device",
             "mmapp_version", "git", "report"]
SIZE_KEY = ("kernel", "dtype", "m", "n", "k")


def report_files(paths):
    files = []
    for p in paths:
        if os.path.isdir(p):
            files.extend(sorted(glob.glob(os.path.join(p, "*.json"))))
        else:
            files.append(p)
    return files


def ms(time_s, key):
    v = (time_s or {}).get(key)
    return None if v is None else 1e3 * v


def rows_of(path):
    """The rows of one report; raises ValueError/OSError when unusable."""
    with open(path) as f:
        doc = json.load(f)
    if not isinstance(doc, dict) or not isinstance(doc.get("runs"), list):
        raise ValueError("no 'runs' list")
    prov = doc.get("provenance") or {}
    app = doc.get("mmapp") or {}
    rows = []
    for run in doc["runs"]:
        rows.append({
            "kernel": run.get("kernel"),
            "backend": run.get("backend", prov.get("backend")),
            "dtype": run.get("dtype"),
            "m": run.get("m"), "n": run.get("n"), "k": run.get("k"),
            "median_ms": ms(run.get("time_s"), "median"),
            "min_ms": ms(run.get("time_s"), "min"),
            "max_ms": ms(run.get("time_s"), "max"),
            "gflops": run.get("gflops"),
            "pct_of_vendor": run.get("pct_of_vendor"),
            "verified": run.get("verified"),
            "rel_error": run.get("rel_error"),
            "ranks": prov.get("ranks"), "threads": prov.get("threads"),
            "host": prov.get("host"), "device": prov.get("device"),
            "mmapp_version": app.get("version"), "git": app.get("git"),
            "report": path,
        })
    return rows


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


def plain_table(rows):
    print_table([h for _, h, _ in COLUMNS],
                [[cell(r[k], f) for k, _, f in COLUMNS] for r in rows], left=3)


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


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("reports", nargs="+", help="report files or folders of them")
    ap.add_argument("--csv", metavar="FILE", help="also write all rows as CSV")
    ap.add_argument("--compare", metavar="FIELD",
                    help="one row per problem, a column group per value of FIELD (e.g. backend)")
    ap.add_argument("--strict", action="store_true",
                    help="exit 1 on an unreadable report or a run that is not verified")
    args = ap.parse_args()

    rows, bad = [], 0
    files = report_files(args.reports)
    for path in files:
        try:
            rows.extend(rows_of(path))
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
        plain_table(rows)
    unverified = sum(1 for r in rows if r["verified"] is not True)
    print(f"{len(rows)} runs from {len(files) - bad} report(s); {unverified} not verified"
          + (f"; {bad} unreadable report(s)" if bad else ""))

    if args.csv:
        keys = [k for k, _, _ in COLUMNS] + CSV_EXTRA
        with open(args.csv, "w", newline="") as f:
            w = csv.DictWriter(f, fieldnames=keys, extrasaction="ignore")
            w.writeheader()
            w.writerows(rows)
    if args.strict and (bad or unverified):
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
