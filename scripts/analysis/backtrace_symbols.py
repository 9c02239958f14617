#!/usr/bin/python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Names the functions of a crash backtrace that Open MPI printed for a binary
built without debug information (a GPU node's Release build).

Open MPI's signal handler prints one line per frame, e.g.

    [vm:09144] [ 1] /work/main/build/cuda/tests/mmapp_tests(+0x4dca16)[0x5611ac455a16]

where +0x4dca16 is the offset in the position-independent executable. This
script maps every such offset of BINARY to the symbol that contains it, from
`nm -C -n --defined-only BINARY` (binutils), and with --disasm N prints the N
instructions before the one holding the first frame's address (marked =>)
and three after (objdump): the faulting instruction when that frame is the
interrupted one. The build must be the one that crashed (the same commit,
compiler and flags give the same offsets).

    scripts/analysis/backtrace_symbols.py BINARY LOG [--disasm 24]

Output: one line per frame of BINARY, "frame offset symbol+delta". Exit 1
when LOG has no frame of BINARY, 2 on a missing file or tool.
"""
import argparse
import bisect
import os
import re
import shutil
import subprocess
import sys


def symbols(binary):
    """(addresses, names) of BINARY's defined symbols, sorted by address (nm -n)."""
    out = subprocess.run(["nm", "-C", "-n", "--defined-only", binary], check=True, capture_output=True,
                         text=True).stdout
    addrs, names = [], []
    for line in out.splitlines():
        parts = line.split(" ", 2)
        if len(parts) == 3 and re.fullmatch(r"[0-9a-fA-F]+", parts[0]) and parts[1] in "tTwW":
            addrs.append(int(parts[0], 16))
            names.append(parts[2])
    return addrs, names


def frames(log_text, binary):
    """(frame number, offset) for each frame of BINARY's name in LOG ("name(+0xOFF)")."""
    name = re.escape(os.path.basename(binary))
    pat = re.compile(r"\[\s*(\d+)\]\s+\S*?" + name + r"\(\+0x([0-9a-fA-F]+)\)")
    return [(int(m.group(1)), int(m.group(2), 16)) for m in pat.finditer(log_text)]


def locate(addrs, names, offset):
    """The symbol containing offset, as "name+0xdelta", or "?" below the first symbol."""
    i = bisect.bisect_right(addrs, offset) - 1
    return "?" if i < 0 else f"{names[i]}+{offset - addrs[i]:#x}"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary")
    ap.add_argument("log")
    ap.add_argument("--disasm", type=int, default=0, metavar="N",
                    help="instructions to print before the first frame's address (objdump)")
    args = ap.parse_args()
    for tool in ["nm"] + (["objdump"] if args.disasm else []):
        if shutil.which(tool) is None:
            print(f"backtrace_symbols: {tool} (binutils) is not installed", file=sys.stderr)
            return 2
    for path in (args.binary, args.log):
        if not os.path.isfile(path):
            print(f"backtrace_symbols: no such file: {path}", file=sys.stderr)
            return 2
    with open(args.log, errors="replace") as f:
        found = frames(f.read(), args.binary)
    if not found:
        print(f"backtrace_symbols: no frame of {os.path.basename(args.binary)} in {args.log}", file=sys.stderr)
        return 1
    addrs, names = symbols(args.binary)
    for frame, offset in found:
        print(f"[{frame:2d}] {offset:#x} {locate(addrs, names, offset)}")
    if args.disasm:
        first = found[0][1]
        out = subprocess.run(["objdump", "-d", "-C", "--no-show-raw-insn", f"--start-address={max(0, first - 8 * args.disasm):#x}",
                              f"--stop-address={first + 24:#x}", args.binary], check=True, capture_output=True,
                             text=True).stdout
        insns = [l for l in out.splitlines() if re.match(r"\s+[0-9a-f]+:\t", l)]
        # The instruction holding the address: the last one that starts at or before it.
        at = max([i for i, l in enumerate(insns) if int(l.split(":")[0], 16) <= first], default=0)
        for i in range(max(0, at - args.disasm), min(len(insns), at + 4)):
            print(("=>" if i == at else "  ") + insns[i])
    return 0


if __name__ == "__main__":
    sys.exit(main())
