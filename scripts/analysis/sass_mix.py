#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Opcode mix per GPU GEMM kernel, from the binary's SASS.

    cuobjdump --dump-sass MMAPP_BINARY | scripts/analysis/sass_mix.py

Reads `cuobjdump --dump-sass` on stdin and prints one row per GEMM kernel
(gemm_tiled, gemv_, splitk) with the counts of the instructions that say
how a kernel spends its issue slots: FFMA/DFMA, wide and narrow
scratch (LDS/STS) and global (LDG) accesses, barriers, and local memory
(LDL/STL: register spills), then the kernel's total instruction count.
scripts/bench/gpu-ladder.sh --sass writes it as sass-mix.txt.
"""
import collections
import re
import subprocess
import sys

KEYS = ["FFMA", "DFMA", "LDS.128", "LDS.64", "LDS", "STS", "STS.128", "LDG.E.128", "LDG.E",
        "BAR.SYNC.DEFER_BLOCKING", "LDL", "STL"]


def main():
    fun, mix, order = None, {}, []
    for line in sys.stdin:
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            fun = m.group(1) if re.search(r"gemm_tiled|gemv_|splitk", m.group(1)) else None
            if fun:
                mix[fun] = collections.Counter()
                order.append(fun)
            continue
        if fun:
            # An instruction line: /*0123*/ [@P0 | @!UP1] OPCODE...
            m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", line)
            if m:
                mix[fun][m.group(1)] += 1
    print("kernel | " + " | ".join(k.replace(".DEFER_BLOCKING", "") for k in KEYS) + " | total")
    for f in order:
        d = subprocess.run(["c++filt", f], capture_output=True, text=True).stdout.strip()
        k = re.search(r"(gemm_tiled_warp<mmapp::GpuTile<[^>]*>|gemm_tiled<[^>]*>|gemv_\w+<[^>]*>|splitk_reduce<[^>]*>)", d)
        c = mix[f]
        print((k.group(1) if k else d[:80]).replace("mmapp::", "") + " | "
              + " | ".join(str(c.get(x, 0)) for x in KEYS) + " | " + str(sum(c.values())))


if __name__ == "__main__":
    main()
