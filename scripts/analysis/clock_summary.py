#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The GPU's SM clock, power and temperature while each phase of a call ran.

    scripts/analysis/clock_summary.py PHASES CLOCKS

PHASES: lines "YYYY/MM/DD HH:MM:SS start|end NAME" (scripts/bench/gpu-ladder.sh
writes one pair per phase: the multiply-add ceiling, each deck).
CLOCKS: `nvidia-smi --query-gpu=timestamp,clocks.sm,power.draw,temperature.gpu
--format=csv,noheader,nounits` samples.
Prints, per phase, one comment line with the median and lowest SM clock, the
highest power and temperature over the samples taken while it ran, counting
only samples at or above 1 GHz (the kernels' own; idle gaps between launches
drop the clock), so a figure can be read against the clock it ran at.
"""
import datetime
import statistics
import sys


def ts(s):
    return datetime.datetime.strptime(s.strip()[:19], "%Y/%m/%d %H:%M:%S")


def main():
    phases, start = [], {}
    for line in open(sys.argv[1]):
        d, t, what, name = line.split()
        if what == "start":
            start[name] = ts(d + " " + t)
        else:
            phases.append((name, start[name], ts(d + " " + t)))
    rows = []
    for line in open(sys.argv[2]):
        f = [x.strip() for x in line.split(",")]
        try:
            rows.append((ts(f[0].replace("-", "/")), float(f[1]), float(f[2]), float(f[3])))
        except (ValueError, IndexError):
            pass  # a header, a cut line, or "[N/A]"
    for name, a, b in phases:
        busy = [r for r in rows if a <= r[0] <= b and r[1] >= 1000]
        if busy:
            print(f"# clocks while {name} ran: SM clock median {statistics.median(r[1] for r in busy):.0f} MHz "
                  f"(min {min(r[1] for r in busy):.0f}), power max {max(r[2] for r in busy):.0f} W, "
                  f"temperature max {max(r[3] for r in busy):.0f} C, {len(busy)} samples")


if __name__ == "__main__":
    main()
