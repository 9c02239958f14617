#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""tests/readme/test_detects.py READMECMD BUILD SOURCE MPIEXEC — scripts/ci/readme-commands.py
on tests/readme/failing.md: exit 1, the failing command reported with its exit code 2
and mmapp's message, the unclassified and the unshrinkable commands reported, the
passing one run, the GPU one skipped."""
import os
import subprocess
import sys

script, build, source, mpiexec = sys.argv[1:5]
fixture = os.path.join(os.path.dirname(os.path.abspath(__file__)), "failing.md")
p = subprocess.run([sys.executable, script, "--build", build, "--source", source, "--readme", fixture,
                    "--mpiexec", mpiexec], capture_output=True, text=True, timeout=300)
out = p.stdout + p.stderr
checks = {
    "exit code 1": p.returncode == 1,
    "the failing command, exit 2": "failing.md:14: exit 2" in out,
    "mmapp's message about the key": "problem.bogus" in out and "unknown key" in out,
    "the unclassified command": "failing.md:20: not classified" in out,
    "the unshrinkable command": "failing.md:26: miniapp/mmapp is not the last command" in out,
    "the passing command ran": "failing.md:8: run:" in out,
    "the GPU command skipped": "failing.md:32: skip (a CUDA build and a GPU)" in out,
    "the count": "1 run, 1 skipped" not in out and "2 run, 1 skipped (reasons above), 3 failed" in out,
}
bad = [k for k, ok in checks.items() if not ok]
if bad:
    print(out)
    print("readme-commands detection: FAILED:", "; ".join(bad))
    sys.exit(1)
print("readme-commands detection: the failing, unclassified and unshrinkable commands reported; OK")
