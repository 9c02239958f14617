#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The host ISA dispatch against builds for one ISA, measured in flops per
CPU-second on one thread: a cross-check of scripts/bench/host-isa.sh for a
shared machine, where wall-clock rates move with the share of the CPU the
process gets (the machine of docs/performance.md, "Host ISA dispatch").

    scripts/bench/host-isa-cputime.py [--build-root build] [--rounds 2] [--n 2048] [--reps 7]

Uses the three builds of host-isa.sh (build/openmp, build/openmp-native,
build/openmp-x86-64-v3; build them with it first). For each of portable,
portable with MMAPP_HOST_ISA=avx2, native and v3 (order rotated every round)
and each dtype, runs inputs/bench/host-isa.yaml with `tiled` alone at N,
OMP_NUM_THREADS=1, once with 1 timed repetition and once with REPS, and
divides the extra repetitions' flops, 2 N^3 (REPS - 1), by the extra CPU
time of the process (user + system, getrusage of the children): setup,
fill and the warm-up cancel out; the verifier's O(N^2) work per repetition
stays in (under 0.1% at N = 2048). Prints every rate and per dtype the
median over rounds and the ratios portable / native and avx2 / v3.
CPU time still depends on what shares the core's caches; compare only
ratios from one call.
"""
import argparse
import os
import resource
import statistics
import subprocess

TOP = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--build-root", default=os.path.join(TOP, "build"))
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--n", type=int, default=2048)
    ap.add_argument("--reps", type=int, default=7)
    a = ap.parse_args()
    configs = [("portable", "openmp", None), ("portable-avx2", "openmp", "avx2"), ("native", "openmp-native", None),
               ("v3", "openmp-x86-64-v3", None)]
    env0 = dict(os.environ, OMP_NUM_THREADS="1", OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1")
    env0.pop("MMAPP_HOST_ISA", None)

    def cpu_seconds(build, isa, dtype, reps):
        env = dict(env0, **({"MMAPP_HOST_ISA": isa} if isa else {}))
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        subprocess.run([os.path.join(a.build_root, build, "miniapp", "mmapp"), os.path.join(TOP, "inputs/bench/host-isa.yaml"),
                        "--set", f"problem.sizes=[{a.n}]", "--set", f"problem.dtype={dtype}", "--set", "kernels=[tiled]",
                        "--set", f"run.repetitions={reps}", "--set", "run.warmup=1"],
                       env=env, check=True, capture_output=True)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)

    rates = {}
    for r in range(a.rounds):
        for i in range(len(configs)):
            name, build, isa = configs[(i + r) % len(configs)]
            for dtype in ("float", "double"):
                extra = cpu_seconds(build, isa, dtype, a.reps) - cpu_seconds(build, isa, dtype, 1)
                rate = 2 * a.n**3 * (a.reps - 1) / extra / 1e9
                rates.setdefault((name, dtype), []).append(rate)
                print(f"round {r + 1} {name:14} {dtype:6} N={a.n}: {rate:6.1f} GFLOP/s per CPU-second", flush=True)
    for dtype in ("float", "double"):
        m = {c: statistics.median(rates[(c, dtype)]) for c, _, _ in configs}
        print(f"{dtype} N={a.n}: " + " ".join(f"{c} {m[c]:.1f}" for c in m) +
              f" | portable/native {m['portable'] / m['native']:.3f}  avx2/v3 {m['portable-avx2'] / m['v3']:.3f}")


if __name__ == "__main__":
    main()
