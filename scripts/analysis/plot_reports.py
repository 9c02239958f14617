#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Turns mmapp JSON reports into PNG plots (matplotlib from Debian's python3-matplotlib,
hence /usr/bin/python3: scripts/setup/setup-debian.sh installs it; without it, plotting
stops with exit 2 and says how to install it, and --table still works).
Every plot's title names the device, date and git hash of the reports it draws.

    scripts/analysis/plot_reports.py --out docs/img REPORT.json [REPORT.json ...]
        [--peak-fp32 66900] [--peak-fp64 33450] [--label-peak "H200"]
    scripts/analysis/plot_reports.py --table REPORT.json [...]     (text tables only; no matplotlib needed)
    --prefix P     prefix every written file name (e.g. ladder_ for docs/img/ladder_pct_vendor_float_cuda.png)

Writes, for every (dtype, backend) present in the reports:
  gflops_<dtype>_<backend>.png  GFLOP/s against N per kernel (log-log), with
                                the vendor kernel drawn thick and the peak line;
  pct_vendor_<dtype>_<backend>.png  each kernel's percentage of the vendor GEMM
                                measured in the same run, against N;
for the problems whose `tiled` run was the shape rule's choice (decks that
name `tiled` without a tile), single-rank reports, per backend, when there
are at least two non-square ones:
  pct_vendor_shapes_<backend>.png  each problem's ("shape class's") default
                                `tiled` as % of the vendor GEMM in the same run,
                                float and double side by side;
and, when reports of the same problem at several rank counts are given:
  speedup_ranks.png             kernel throughput against ranks, relative to
                                the lowest rank count, with the ideal line.
--table is jobs/summarize.py --detail (the one table tool): the `tile: auto`
candidate timings, then one row per run (kernel, shape, why that shape,
problem, median, CV, GFLOP/s, % of the vendor kernel in the same run,
verified); a figure may be quoted only from a verified, not noisy row.
Peaks are in GFLOP/s (defaults: H200, FP32 66.9 TFLOP/s = 132 SMs x 128 lanes
x 2 x 1.98 GHz; FP64 non-tensor 33.45 TFLOP/s = 132 x 64 x 2 x 1.98 GHz).
"""
import argparse
import collections
import json
import os
import sys
import textwrap

# The vendor GEMM's kernel name in reports: `vendor`, and `kokkoskernels` before it was renamed.
VENDOR_NAMES = ("vendor", "kokkoskernels")

plt = None


def need_matplotlib():
    """Imports matplotlib (Agg) on first use, so --table runs without it; without
    matplotlib, exits 2 with what is missing and how to install it."""
    global plt
    if plt is None:
        try:
            import matplotlib

            matplotlib.use("Agg")
            import matplotlib.pyplot as pyplot
        except ImportError as e:
            print(f"plot_reports.py: plotting needs matplotlib, which {sys.executable} cannot import ({e}).\n"
                  "  Debian/Ubuntu: apt-get install python3-matplotlib (scripts/setup/setup-debian.sh installs it)\n"
                  "  elsewhere:     python3 -m pip install matplotlib\n"
                  "  --table prints the same figures as text without matplotlib.", file=sys.stderr)
            sys.exit(2)
        plt = pyplot


def stamp(reports, width=100):
    """The line(s) "device, date, git HASH" of the reports a figure draws: from
    provenance.device, the day of provenance.date and mmapp.git ("unknown" where
    absent). Several reports: each distinct device, the dates (first to last) and
    every distinct hash; wrapped at `width` characters."""
    devices, dates, gits = [], [], []
    for r in reports:
        prov = r.get("provenance", {})
        for item, seen in ((prov.get("device") or "unknown device", devices),
                           ((prov.get("date") or "unknown date")[:10], dates),
                           (r.get("mmapp", {}).get("git") or "unknown", gits)):
            if item not in seen:
                seen.append(item)
    dates.sort()
    when = dates[0] if len(dates) == 1 else f"{dates[0]} to {dates[-1]}"
    text = f"{' / '.join(devices)}, {when}, git {', '.join(gits)}"
    return "\n".join(textwrap.wrap(text, width)) or text


def table(paths):
    """--table: the project's one table tool, jobs/summarize.py --detail (every
    run with its tile, selection, median, CV, GFLOP/s, % vendor and verdict,
    and the `tile: auto` candidates). Returns its exit code."""
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "jobs"))
    import summarize

    return summarize.main(["--detail", *paths])


def shape_plot(reports, out, prefix=""):
    """% of the vendor kernel per problem ("shape class") for the shape rule's `tiled`, float and double."""
    rows = collections.defaultdict(dict)  # (backend, label) -> {(dtype, shape): pct}
    order = []
    sources = collections.defaultdict(list)  # (backend, label) -> reports drawn
    for r in reports:
        if r["provenance"]["ranks"] != 1:
            continue
        for run in r["runs"]:
            if run["kernel"] in VENDOR_NAMES or not run.get("verified") or run.get("pct_of_vendor") is None:
                continue
            if not (run.get("selection") or "").startswith("shape rule"):
                continue
            shape = f"{run['m']}x{run['n']}x{run['k']}"
            if shape not in order:
                order.append(shape)
            rows[(run["backend"], run["kernel"])][(run["dtype"], shape)] = run["pct_of_vendor"]
            if r not in sources[(run["backend"], run["kernel"])]:
                sources[(run["backend"], run["kernel"])].append(r)
    written = []
    for (backend, kernel), vals in sorted(rows.items()):
        dtypes = [d for d in ("float", "double") if any(k[0] == d for k in vals)]
        shapes = [s for s in order if any((d, s) in vals for d in dtypes)]
        if sum(1 for s in shapes if len(set(s.split("x"))) > 1) < 2:
            continue
        fig, ax = plt.subplots(figsize=(max(8, 0.9 * len(shapes) + 2), 5))
        width = 0.8 / len(dtypes)
        for i, d in enumerate(dtypes):
            xs = [j + (i - (len(dtypes) - 1) / 2) * width for j in range(len(shapes))]
            # A class measured in one dtype only gets no bar (and no "0") in the other.
            have = [(x, vals[(d, s)]) for x, s in zip(xs, shapes) if (d, s) in vals]
            ax.bar([x for x, _ in have], [min(y, 150) for _, y in have], width, label=d)
            for x, y in have:
                ax.text(x, min(y, 150) + 1, f"{y:.0f}", ha="center", fontsize=7)
        ax.axhline(100, color="black", linewidth=1.5)
        for level in (50, 40, 30):  # issue 11's bars: float / double where min(M, N) >= 64, GEMV-like
            ax.axhline(level, color="grey", linewidth=0.8, linestyle=":")
        ax.set_xticks(range(len(shapes)))
        ax.set_xticklabels(shapes, rotation=35, ha="right", fontsize=8)
        ax.set_ylabel("% of vendor (same run)")
        ax.set_ylim(0, 160)
        ax.set_title(f"mmapp `{kernel}` (shape rule's default) by shape class, {backend}\n"
                     f"{stamp(sources[(backend, kernel)])}", fontsize=10)
        ax.grid(True, axis="y", alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, os.path.join(out, f"{prefix}pct_vendor_shapes_{backend}.png"), written)
    return written


def save(fig, path, written):
    """Lays out, writes and closes a figure; records the path."""
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    written.append(path)


def label(run):
    return run["kernel"] + (f" {run['tile']}" if run.get("tile") else "")


def load(paths):
    reports = []
    for p in paths:
        with open(p) as f:
            r = json.load(f)
        r["_path"] = p
        # Only finished runs carry times and rates (schema 2.x: none for error or abandoned runs).
        r["runs"] = [x for x in r["runs"] if x.get("status", "ok") == "ok" and x.get("gflops") is not None]
        reports.append(r)
    return reports


def sweep_plots(reports, out, peaks, peak_label, prefix=""):
    groups = collections.defaultdict(lambda: collections.defaultdict(list))
    sources = collections.defaultdict(list)  # (dtype, backend) -> reports drawn
    for r in reports:
        if r["provenance"]["ranks"] != 1:
            continue
        for run in r["runs"]:
            if run["m"] != run["n"] or run["n"] != run["k"]:
                continue
            key = (run["dtype"], run["backend"])
            if any(p[0] == run["n"] for p in groups[key][label(run)]):
                continue  # the same variant twice at one size (tile: auto chose the rule's): keep the first
            groups[key][label(run)].append((run["n"], run["gflops"], run.get("pct_of_vendor")))
            if r not in sources[key]:
                sources[key].append(r)
    written = []
    for (dtype, backend), kernels in sorted(groups.items()):
        if max(len(v) for v in kernels.values()) < 2:
            continue  # a single size is a table, not a curve
        fig, ax = plt.subplots(figsize=(8, 5))
        for name, pts in sorted(kernels.items()):
            pts.sort()
            vendor = name.startswith(VENDOR_NAMES)
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", linewidth=3 if vendor else 1.5,
                    color="black" if vendor else None, label=name + (" (vendor)" if vendor else ""))
        peak = peaks.get(dtype)
        if peak and backend == "cuda":
            ax.axhline(peak, linestyle="--", color="grey")
            ax.text(0.02, peak * 1.08, f"{peak_label} {dtype} peak (no tensor cores) {peak / 1000:.1f} TFLOP/s",
                    color="grey", fontsize=8, transform=ax.get_yaxis_transform())
        ax.set_xscale("log", base=2)
        ax.set_yscale("log")
        ax.set_xlabel("N (square M = N = K)")
        ax.set_ylabel("GFLOP/s (2N^3 / median time)")
        ax.set_title(f"mmapp GEMM, {dtype}, {backend}\n{stamp(sources[(dtype, backend)])}", fontsize=10)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, os.path.join(out, f"{prefix}gflops_{dtype}_{backend}.png"), written)

        fig, ax = plt.subplots(figsize=(8, 5))
        for name, pts in sorted(kernels.items()):
            if name.startswith(VENDOR_NAMES) or any(p[2] is None for p in pts):
                continue
            line, = ax.plot([p[0] for p in pts], [min(p[2], 118) for p in pts], marker="o", label=name)
            for n, _, pct in pts:  # above the axis: capped marker with its value
                if pct > 118:
                    ax.annotate(f"{pct:.0f}%", (n, 118), textcoords="offset points", xytext=(4, -12),
                                fontsize=8, color=line.get_color())
        ax.axhline(100, color="black", linewidth=2, label="vendor = 100%")
        ax.set_xscale("log", base=2)
        ax.set_ylim(0, 120)
        ax.set_xlabel("N (square M = N = K)")
        ax.set_ylabel("% of vendor GFLOP/s (same run)")
        ax.set_title(f"mmapp kernels against the vendor GEMM, {dtype}, {backend}\n{stamp(sources[(dtype, backend)])}",
                     fontsize=10)
        ax.grid(True, alpha=0.3)
        ax.legend(fontsize=8)
        save(fig, os.path.join(out, f"{prefix}pct_vendor_{dtype}_{backend}.png"), written)
    return written


def speedup_plot(reports, out, prefix=""):
    series = collections.defaultdict(dict)
    sources = []
    for r in reports:
        ranks = r["provenance"]["ranks"]
        for run in r["runs"]:
            key = (label(run), run["dtype"], run["m"], run["n"], run["k"])
            series[key][ranks] = run["gflops"]
            if r not in sources:
                sources.append(r)
    series = {k: v for k, v in series.items() if len(v) >= 2}
    if not series:
        return []
    fig, ax = plt.subplots(figsize=(7, 5))
    top = 1
    for (name, dtype, m, n, k), pts in sorted(series.items()):
        ranks = sorted(pts)
        base = pts[ranks[0]] / ranks[0]
        ax.plot(ranks, [pts[r] / base for r in ranks], marker="o",
                label=f"{name}, {dtype}, {m}x{n}x{k}")
        top = max(top, ranks[-1])
    ax.plot([1, top], [1, top], linestyle="--", color="grey", label="ideal")
    ax.set_xlabel("MPI ranks (one GPU each)")
    ax.set_ylabel("kernel throughput relative to 1 rank")
    ax.set_title(f"mmapp multi-GPU scaling (rows of A and C split)\n{stamp(sources)}", fontsize=10)
    ax.set_xticks(range(1, top + 1))
    ax.grid(True, alpha=0.3)
    ax.legend(fontsize=8)
    written = []
    save(fig, os.path.join(out, f"{prefix}speedup_ranks.png"), written)
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("reports", nargs="+")
    ap.add_argument("--out")
    ap.add_argument("--table", action="store_true", help="print text tables instead of plotting")
    ap.add_argument("--prefix", default="", help="prefix of every written file name")
    ap.add_argument("--peak-fp32", type=float, default=66900.0)
    ap.add_argument("--peak-fp64", type=float, default=33450.0)
    ap.add_argument("--label-peak", default="H200")
    args = ap.parse_args()
    if args.table:
        return table(args.reports)
    reports = load(args.reports)
    if not args.out:
        ap.error("--out is required unless --table")
    need_matplotlib()
    os.makedirs(args.out, exist_ok=True)
    peaks = {"float": args.peak_fp32, "double": args.peak_fp64}
    written = sweep_plots(reports, args.out, peaks, args.label_peak, args.prefix)
    written += shape_plot(reports, args.out, args.prefix)
    written += speedup_plot(reports, args.out, args.prefix)
    for p in written:
        print("wrote", p)
    return 0 if written else 1


if __name__ == "__main__":
    sys.exit(main())
