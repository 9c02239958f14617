#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The alpha-beta (latency-bandwidth) model of SUMMA and the row split of
docs/performance.md ("Beyond one node, on paper"): predictions from
parameters, and the model against mmapp reports.

    summa_model.py table [--sizes 32768,131072] [--gpus 8,16,32,64] [PARAMETERS]
    summa_model.py check REPORT.json... [--max-error 0.25] [PARAMETERS]
    summa_model.py fit-shared REPORT.json... [PARAMETERS]

`table`: for each problem size n and GPU count P, every p x q grid and panel
width b (--panels), the predicted time per multiply of SUMMA over NCCL (ranks
placed node by node, --gpus-per-node per node, row-major grid: a process row
or column inside one node uses NVLink's beta, one that spans nodes the
network's), the best grid and b, the speed-up over one GPU and the
efficiency (speed-up / P); also the row split with `data: local` (only the
GEMM) and its `data: scatter` bound (B broadcast and C gathered every
multiply). A markdown table on stdout.

`check`: each run of each report (a one-GPU run, the row split, SUMMA over
nccl, shared, staged) against the model with the same n, grid, panel,
transport and overlap; prints measured and predicted seconds per multiply
and the error, and exits 1 when any |error| exceeds --max-error (runs of a
transport the model does not cover are listed and skipped).

`fit-shared`: alpha and beta of the MPI-3 shared-window transport (one node,
panels through host memory) that fit the given SUMMA `shared` reports best
(least squares on the relative error, grid search).

The model, per panel t of width b (n/b panels), p x q grid, element size s:
  A's panel along a process row:    t_A = (q - 1) alpha_row + (n/p) b s / beta_row
  B's panel along a process column: t_B = (p - 1) alpha_col + b (n/q) s / beta_col
  (NCCL's pipelined ring broadcast; nccl-tests' bus bandwidth of a broadcast
  is its algorithm bandwidth, doc/PERFORMANCE.md), one after the other on one
  stream: t_c = t_A + t_B; the local GEMM t_g = 2 (n/p)(n/q) b / F(b).
  With overlap: T = t_c + (n/b) max(t_c, t_g) (the first panel is exposed);
  without: T = (n/b)(t_c + t_g).
  Host transports (one node, MPI through host memory, docs/performance.md
  "Four H200s"): staged t_c = 2 alpha_mpi + (m_A + m_B)(1/beta_mpi + 1/beta_pcie);
  shared t_c = alpha_shared + (m_A + m_B)/beta_shared.
  F(b): the local GEMM's rate against the panel width, interpolated in log b
  between measured points (--f-panel), constant beyond them. One GPU and the
  row split: 2 n^3 / F_square(n) (--f-square, measured on one H200).
Defaults: docs/performance.md, "Beyond one node, on paper" (2026-11-24) says
where each comes from. Times in seconds, bandwidths in GB/s (1e9 B/s).
"""
import argparse
import json
import math
import sys


def points(text):
    """'64:31.8,1024:49.3' -> sorted [(64.0, 31.8e12), ...] (TFLOP/s to FLOP/s)."""
    out = []
    for item in text.split(","):
        x, y = item.split(":")
        out.append((float(x), float(y) * 1e12))
    return sorted(out)


def interp_log(pts, x):
    """Piecewise-linear in log x through pts; constant beyond the ends."""
    if x <= pts[0][0]:
        return pts[0][1]
    if x >= pts[-1][0]:
        return pts[-1][1]
    for (x0, y0), (x1, y1) in zip(pts, pts[1:]):
        if x0 <= x <= x1:
            w = (math.log(x) - math.log(x0)) / (math.log(x1) - math.log(x0))
            return y0 + w * (y1 - y0)
    return pts[-1][1]


def parser():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("command", choices=("table", "check", "fit-shared"))
    ap.add_argument("reports", nargs="*")
    ap.add_argument("--sizes", default="32768,131072")
    ap.add_argument("--gpus", default="8,16,32,64")
    ap.add_argument("--panels", default="256,512,1024,2048,4096,8192")
    ap.add_argument("--dtype-bytes", type=int, default=4)
    ap.add_argument("--gpus-per-node", type=int, default=8)
    ap.add_argument("--memory-gib", type=float, default=139.0, help="device memory per GPU (H200: 139 GiB usable)")
    ap.add_argument("--beta-intra", type=float, default=360.0, help="NCCL broadcast busbw inside a node, GB/s")
    ap.add_argument("--beta-inter", type=float, default=48.0, help="NCCL busbw across nodes per GPU (its NIC), GB/s")
    ap.add_argument("--alpha-intra-us", type=float, default=5.0, help="latency per ring hop inside a node, us")
    ap.add_argument("--alpha-inter-us", type=float, default=10.0, help="latency per ring hop across nodes, us")
    ap.add_argument("--f-panel", default="64:31.8,1024:49.3",
                    help="local GEMM TFLOP/s against the panel width b (b:TFLOP/s,...)")
    ap.add_argument("--f-square", default="2048:48.82,4096:51.06,8192:50.97,16384:53.27,32768:53.22",
                    help="one GPU's GEMM TFLOP/s against square n (n:TFLOP/s,...)")
    ap.add_argument("--beta-mpi", type=float, default=6.99, help="MPI broadcast through host memory, GB/s")
    ap.add_argument("--alpha-mpi-us", type=float, default=50.0)
    ap.add_argument("--beta-pcie", type=float, default=48.8, help="pinned host<->device copies, GB/s")
    ap.add_argument("--beta-shared", type=float, default=12.2, help="shared-window transport, GB/s per panel pair")
    ap.add_argument("--alpha-shared-ms", type=float, default=1.43, help="shared-window transport, ms per panel")
    ap.add_argument("--max-error", type=float, default=0.25)
    return ap


class Model:
    def __init__(self, a):
        self.a = a
        self.f_panel = points(a.f_panel)
        self.f_square = points(a.f_square)
        self.s = a.dtype_bytes

    def F(self, b):
        return interp_log(self.f_panel, b)

    def one_gpu(self, n):
        return 2.0 * n ** 3 / interp_log(self.f_square, n)

    def row_split_local(self, n, P):
        """The row split, data: local: rows of A and C over P GPUs, B whole on each (only the GEMM)."""
        return 2.0 * math.ceil(n / P) * n * n / interp_log(self.f_square, n)

    def row_split_scatter_floor(self, n, P):
        """B broadcast from rank 0 and C gathered to it each multiply (the P GPUs across nodes
        when P > gpus per node): the communication that does not shrink with P."""
        beta = (self.a.beta_inter if P > self.a.gpus_per_node else self.a.beta_intra) * 1e9
        return n * n * self.s / beta + (P - 1) / P * n * n * self.s / beta

    def placement(self, p, q):
        """(row inside one node, column inside one node): ranks node by node, grid row-major."""
        G = self.a.gpus_per_node
        node = lambda i, j: (i * q + j) // G
        row = all(node(i, j) == node(i, 0) for i in range(p) for j in range(q))
        col = all(node(i, j) == node(0, j) for i in range(p) for j in range(q))
        return row, col

    def panel_comm(self, n, p, q, b, transport):
        s, a = self.s, self.a
        mA = (n / p) * b * s if q > 1 else 0.0
        mB = b * (n / q) * s if p > 1 else 0.0
        if transport == "nccl":
            row_in, col_in = self.placement(p, q)
            br = (a.beta_intra if row_in else a.beta_inter) * 1e9
            bc = (a.beta_intra if col_in else a.beta_inter) * 1e9
            ar = (a.alpha_intra_us if row_in else a.alpha_inter_us) * 1e-6
            ac = (a.alpha_intra_us if col_in else a.alpha_inter_us) * 1e-6
            tA = (q - 1) * ar + mA / br if q > 1 else 0.0
            tB = (p - 1) * ac + mB / bc if p > 1 else 0.0
            return tA + tB
        if transport == "shared":
            return (a.alpha_shared_ms * 1e-3 if mA + mB > 0 else 0.0) + (mA + mB) / (a.beta_shared * 1e9)
        if transport == "staged":
            return ((q > 1) + (p > 1)) * a.alpha_mpi_us * 1e-6 + (mA + mB) * (1 / (a.beta_mpi * 1e9) + 1 / (a.beta_pcie * 1e9))
        raise ValueError(transport)

    def summa(self, n, p, q, b, transport="nccl", overlap=True):
        panels = math.ceil(n / b)
        tc = self.panel_comm(n, p, q, b, transport)
        tg = 2.0 * (n / p) * (n / q) * b / self.F(b)
        if overlap:
            return tc + panels * max(tc, tg), tc, tg
        return panels * (tc + tg), tc, tg

    def summa_bytes(self, n, p, q, b):
        """Device bytes per GPU: the A, B, C blocks and three panel slots."""
        return (3 * (n / p) * (n / q) + 3 * ((n / p) * b + b * (n / q))) * self.s


def grids(P):
    return [(p, P // p) for p in range(1, P + 1) if P % p == 0]


def table(m, a):
    sizes = [int(x) for x in a.sizes.split(",")]
    gpus = [int(x) for x in a.gpus.split(",")]
    panels = [int(x) for x in a.panels.split(",")]
    G = a.gpus_per_node
    print(f"| n | GPUs (nodes x {G}) | best grid [p, q] | b | t_comm / t_gemm per panel | predicted s per multiply "
          f"| speed-up over one GPU | efficiency | square grid (b = same) efficiency | row split local: efficiency "
          f"| row split scatter: speed-up bound |")
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |")
    for n in sizes:
        t1 = m.one_gpu(n)
        for P in gpus:
            best = None
            for p, q in grids(P):
                for b in panels:
                    if m.summa_bytes(n, p, q, b) > a.memory_gib * 2 ** 30:
                        continue
                    T, tc, tg = m.summa(n, p, q, b)
                    if best is None or T < best[0] - 1e-12:
                        best = (T, p, q, b, tc, tg)
            if best is None:
                print(f"| {n} | {P} | (does not fit) | | | | | | | | |")
                continue
            T, p, q, b, tc, tg = best
            sq = min(grids(P), key=lambda g: (abs(g[0] - g[1]), -g[1]))
            Tsq = m.summa(n, sq[0], sq[1], b)[0]
            rs = m.row_split_local(n, P)
            rs_fits = (n / P * n * 2 + n * n) * m.s <= a.memory_gib * 2 ** 30
            floor = m.row_split_scatter_floor(n, P)
            nodes = math.ceil(P / G)
            print(f"| {n} | {P} ({nodes} x {min(P, G)}) | [{p}, {q}] | {b} | {tc / tg:.2f} | {T:.4f} | {t1 / T:.1f}x "
                  f"| {t1 / T / P:.1%} | [{sq[0]}, {sq[1]}]: {t1 / Tsq / P:.1%} "
                  f"| {(t1 / rs / P):.1%}" + ("" if rs_fits else " (B does not fit)") +
                  f" | {t1 / floor:.1f}x |")
    return 0


def transport_of(text):
    t = (text or "").lower()
    for name in ("nccl", "shared", "staged", "cuda-aware", "host"):
        if t.startswith(name):
            return name
    return t or "-"


def runs_of(paths):
    for path in paths:
        with open(path) as f:
            r = json.load(f)
        for run in r.get("runs", []):
            # status "ok" (older reports have none); the model's F is the vendor GEMM's
            if run.get("status", "ok") == "ok" and run.get("kernel") in ("kokkoskernels", "vendor"):
                yield path, r, run


def predict(m, run):
    """(predicted s, what) for one report run; (None, why) when the model does not cover it."""
    n = int(run["n"])
    if not (run["m"] == run["n"] == run["k"]):
        return None, "not square"
    g = run.get("grid") or {}
    P = len(run.get("ranks") or [0])
    if not g.get("p"):
        if P <= 1:
            return m.one_gpu(n), "one GPU"
        return m.row_split_local(n, P), f"row split, {P} GPUs (kernel time)"
    tr = transport_of(g.get("transfer"))
    if tr not in ("nccl", "shared", "staged"):
        return None, f"transport {tr} not modelled"
    overlap = g.get("overlap") != "none"
    T, _, _ = m.summa(n, g["p"], g["q"], g["panel"], tr, overlap)
    return T, f"SUMMA {g['p']}x{g['q']} b {g['panel']} {tr} {'overlap' if overlap else 'no overlap'}"


def check(m, a):
    worst = 0.0
    print("| report | run | measured s | predicted s | error |")
    print("| --- | --- | --- | --- | --- |")
    n_checked = 0
    for path, r, run in runs_of(a.reports):
        if run.get("dtype") not in ("float", None) and m.s == 4:
            continue
        T, what = predict(m, run)
        meas = run["time_s"]["median"]
        if T is None:
            print(f"| {path} | {run['kernel']} n {run['n']}: {what} (skipped) | {meas:.4f} | - | - |")
            continue
        err = (T - meas) / meas
        worst = max(worst, abs(err))
        n_checked += 1
        print(f"| {path} | {what}, n {run['n']} | {meas:.4f} | {T:.4f} | {err:+.1%} |")
    print(f"\n{n_checked} run(s) checked; largest |error| {worst:.1%} (limit {a.max_error:.0%})")
    return 1 if n_checked == 0 or worst > a.max_error else 0


def fit_shared(m, a):
    data = []
    for path, r, run in runs_of(a.reports):
        g = run.get("grid") or {}
        if transport_of(g.get("transfer")) == "shared" and run["m"] == run["n"] == run["k"]:
            data.append((int(run["n"]), g["p"], g["q"], g["panel"], g.get("overlap") != "none", run["time_s"]["median"]))
    if not data:
        print("fit-shared: no SUMMA shared run in the reports")
        return 1
    best = None
    for alpha_ms in [x * 0.05 for x in range(0, 101)]:
        for beta in [4 + x * 0.1 for x in range(0, 261)]:
            a.alpha_shared_ms, a.beta_shared = alpha_ms, beta
            e = sum(((m.summa(n, p, q, b, "shared", ov)[0] - t) / t) ** 2 for n, p, q, b, ov, t in data)
            if best is None or e < best[0]:
                best = (e, alpha_ms, beta)
    e, alpha_ms, beta = best
    print(f"shared window: alpha {alpha_ms:.2f} ms per panel, beta {beta:.1f} GB/s "
          f"(rms relative error {math.sqrt(e / len(data)):.1%} over {len(data)} run(s))")
    return 0


def main(argv=None):
    a = parser().parse_intermixed_args(argv)
    m = Model(a)
    if a.command == "table":
        return table(m, a)
    if not a.reports:
        print(f"summa_model.py {a.command}: give report files", file=sys.stderr)
        return 2
    return check(m, a) if a.command == "check" else fit_shared(m, a)


if __name__ == "__main__":
    sys.exit(main())
