#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Guards the host ISA dispatch against ODR merging (cmake/MmappHostIsa.cmake):
every symbol that an ISA level's object file (kernels/host/isa_kernels.cpp
compiled with -march=x86-64-vN) defines for the linker must lie in that
level's namespace mmapp::host::<ns>. An inline function or template of any
other namespace (Kokkos, std, mmapp's own) defined there as a weak symbol
could be the copy the linker keeps for the whole program, and an AVX-512 copy
would then run on every CPU.

    check_isa_symbols.py NS=OBJECT [NS=OBJECT ...]

Exit 0 when every object defines its level's `table` and nothing outside its
namespace; 1 with the offending symbols otherwise; 77 (skipped) without nm.
"""
import shutil
import subprocess
import sys


def main():
    nm = shutil.which("nm")
    if not nm:
        print("nm not found: skipped")
        return 77
    bad = 0
    for arg in sys.argv[1:]:
        ns, obj = arg.split("=", 1)
        prefix = f"_ZN5mmapp4host{len(ns)}{ns}"  # mangled mmapp::host::<ns>:: (Itanium C++ ABI)
        out = subprocess.run([nm, "--defined-only", obj], capture_output=True, text=True, check=True).stdout
        defined = []
        for line in out.splitlines():
            parts = line.split(None, 2)
            if len(parts) < 3:
                continue
            kind, name = parts[1], parts[2]
            if kind in "bdrt" or name.startswith("."):  # local to the object: invisible to the linker
                continue
            defined.append(name)
        outside = [n for n in defined if not n.startswith(prefix)]
        has_table = any(n == prefix + "5tableE" for n in defined)
        print(f"{ns}: {len(defined)} external symbol(s), {len(outside)} outside mmapp::host::{ns}, "
              f"table {'found' if has_table else 'MISSING'}")
        for n in outside:
            shown = subprocess.run(["c++filt", n], capture_output=True, text=True).stdout.strip() if shutil.which("c++filt") else n
            print(f"  outside: {shown}")
        bad += len(outside) + (0 if has_table else 1)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
