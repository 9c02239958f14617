#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""The whole SASS, raw encodings included, of mmapp's GEMM kernels whose
demangled name matches a regex.

    cuobjdump --dump-sass MMAPP_BINARY | scripts/analysis/sass_dump.py REGEX

Reads `cuobjdump --dump-sass` on stdin and copies every line of each
function whose demangled name (c++filt) names a GEMM kernel (gemm_tiled,
gemv_, splitk) and matches REGEX (Python syntax), under a "Function : NAME"
line with the demangled name. The raw encodings carry the control bits
(stall counts, barriers, reuse flags) that the opcode mix (sass_mix.py)
leaves out. scripts/bench/gpu-ladder.sh --sass-dump writes it gzipped.
"""
import re
import subprocess
import sys


def main():
    want = re.compile(sys.argv[1])
    keep = False
    for line in sys.stdin:
        m = re.match(r"\s*Function : (\S+)", line)
        if m:
            d = subprocess.run(["c++filt", m.group(1)], capture_output=True, text=True).stdout.strip()
            keep = bool(re.search(r"gemm_tiled|gemv_|splitk", d)) and bool(want.search(d))
            if keep:
                print("Function : " + d)
            continue
        if keep:
            sys.stdout.write(line)


if __name__ == "__main__":
    main()
