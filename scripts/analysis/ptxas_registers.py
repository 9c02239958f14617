#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Registers and spills of every GPU GEMM kernel, from ptxas' verbose output.

    scripts/analysis/ptxas_registers.py PTXAS_LOG

PTXAS_LOG: the compiler output of a CUDA translation unit built with
-Xptxas=-v (scripts/bench/ptxas-check.sh writes it). Prints one line per
mmapp kernel (gemm_tiled_warp, gemm_tiled_mma, gemm_tiled_wgmma, gemm_tiled, gemv_*, splitk_reduce,
gemm_shared, gemm_naive) and dtype: the GpuTile / GpuMmaTile / GpuWgmmaTile (or other template)
parameters read back from the mangled name, the launch bounds, registers
per thread and spill stores/loads in bytes, sorted and without duplicates
(ptxas reports a kernel once per instantiation site).
"""
import re
import sys


def main():
    lines = open(sys.argv[1]).read().split('\n')
    rows = []
    for i, l in enumerate(lines):
        m = re.search(r"Function properties for (\S+)", l)
        if not m or 'mmapp' not in m.group(1):
            continue
        name = m.group(1)
        k = re.search(r'mmapp\d*(gemm_tiled_warp|gemm_tiled_mma|gemm_tiled_wgmma|gemm_tiled|gemv_cols|gemv_rows|gemv_dot|splitk_reduce|gemm_shared|gemm_naive)',
                      name)
        if not k:
            continue
        dtype = 'double' if re.search(r'4CudaE?dE', name) else 'float' if re.search(r'4CudaE?fE', name) else '?'
        # Template arguments from the Itanium mangling: "Li64E" (int 64) -> "64,".
        args = ''
        g = re.search(r'(?:GpuTile|GpuMmaTile|GpuWgmmaTile)I(.*?)EEENS_4Cuda', name)
        if g:
            args = re.sub(r'L[ib]', '', g.group(1)).replace('E', ',')
        else:
            g = re.search(re.escape(k.group(1)) + r'I(.*?)NS_4Cuda', name)
            if g:
                args = re.sub(r'L[ib]', '', g.group(1)).replace('E', ',').strip(',')
        lb = re.search(r'LaunchBoundsILj(\d+)ELj(\d+)', name)
        # ptxas prints the spill line and the register line right after "Function properties".
        sp = re.search(r'(\d+) bytes spill stores, (\d+) bytes spill loads', lines[i + 1])
        r = re.search(r'Used (\d+) registers', lines[i + 2])
        rows.append((k.group(1), dtype, args, f"lb {lb.group(1)}x{lb.group(2)}" if lb else "", int(r.group(1)),
                     int(sp.group(1)), int(sp.group(2))))
    print(f"{'kernel':16s} {'dtype':6s} {'GpuTile / template args':52s} {'bounds':10s} {'regs':>4s} {'spill st/ld':>11s}")
    for row in sorted(set(rows)):
        print(f"{row[0]:16s} {row[1]:6s} {row[2]:52s} {row[3]:10s} {row[4]:4d} {row[5]:5d}/{row[6]:<5d}")


if __name__ == "__main__":
    main()
