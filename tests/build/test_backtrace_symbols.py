#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""scripts/analysis/backtrace_symbols.py against a real binary of this build:
an Open MPI backtrace whose frames sit at known offsets (main's address from
nm, plus a delta) must come back as main+delta, with the frame numbers; the
instruction holding the address is marked in the disassembly; a log without
a frame of the binary exits 1, a missing binary 2.

    test_backtrace_symbols.py SOURCE_DIR BINARY

Exit 0 when all hold, 1 otherwise, 77 (skipped) without nm or objdump.
"""
import os
import shutil
import subprocess
import sys
import tempfile


def main():
    if not shutil.which("nm") or not shutil.which("objdump"):
        print("nm or objdump not found: skipped")
        return 77
    source, binary = sys.argv[1], sys.argv[2]
    tool = [sys.executable, os.path.join(source, "scripts/analysis/backtrace_symbols.py")]
    nm = subprocess.run(["nm", "-n", "--defined-only", binary], check=True, capture_output=True, text=True).stdout
    main_at = next(int(l.split()[0], 16) for l in nm.splitlines() if l.split()[-1:] == ["main"])
    name = os.path.basename(binary)
    bad = []
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "crash.log")
        with open(log, "w") as f:
            f.write("[vm:09144] *** Process received signal ***\n"
                    "[vm:09144] [ 0] /lib/x86_64-linux-gnu/libc.so.6(+0x45330)[0x7fcda3c45330]\n"
                    f"[vm:09144] [ 1] /somewhere/else/{name}(+{main_at + 0x9:#x})[0x5611ac455a16]\n"
                    f"[vm:09144] [12] /somewhere/else/{name}(+{main_at:#x})[0x5611ac08bd35]\n")
        r = subprocess.run(tool + [binary, log, "--disasm", "2"], capture_output=True, text=True)
        lines = r.stdout.splitlines()
        if r.returncode != 0 or len(lines) < 3:
            bad.append(f"rc {r.returncode}, output {r.stdout!r} {r.stderr!r}")
        else:
            if lines[0] != f"[ 1] {main_at + 0x9:#x} main+0x9":
                bad.append(f"frame 1: {lines[0]!r}")
            if lines[1] != f"[12] {main_at:#x} main+0x0":
                bad.append(f"frame 12: {lines[1]!r}")
            marked = [l for l in lines[2:] if l.startswith("=>")]
            if len(marked) != 1 or not main_at <= int(marked[0][2:].split(":")[0], 16) <= main_at + 0x9:
                bad.append(f"marked instruction: {marked!r}")
        empty = os.path.join(tmp, "empty.log")
        open(empty, "w").write("no frames here\n")
        r = subprocess.run(tool + [binary, empty], capture_output=True, text=True)
        if r.returncode != 1:
            bad.append(f"a log without frames: rc {r.returncode}")
        r = subprocess.run(tool + [os.path.join(tmp, name), log], capture_output=True, text=True)
        if r.returncode != 2:
            bad.append(f"a missing binary: rc {r.returncode}")
    for b in bad:
        print("backtrace_symbols:", b)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
