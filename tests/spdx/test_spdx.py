#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""tests/spdx/test_spdx.py SPDX_PY — scripts/ci/spdx.py on a fixture tree made here.

One file of every kind the script covers (C++, CMake, shell with and without a
shebang, an extensionless shell script, sbatch, Python with shebang and
encoding line, YAML, a CRLF file), one it must leave out (JSON, docs/results,
tests/fuzz), and one that already has a header: --check lists exactly the
files without one and exits 1; --fix writes the header in each file's own
comment syntax after the shebang/encoding line, keeps modes, and leaves the
rest byte for byte; a second --fix changes nothing; --check then exits 0.
"""
import os
import stat
import subprocess
import sys
import tempfile

SPDX = sys.argv[1]
H = "SPDX-License-Identifier: BSD-3-Clause"
C = "Copyright (c) 2026 The mmapp developers"

FILES = {  # path: (content, expected after --fix, or None = untouched)
    "a/k.hpp": ("#pragma once\nint f();\n", f"// {H}\n// {C}\n#pragma once\nint f();\n"),
    "a/k.cpp": ("int f() { return 1; }\n", f"// {H}\n// {C}\nint f() {{ return 1; }}\n"),
    "a/version.hpp.in": ("#define V \"@V@\"\n", f"// {H}\n// {C}\n#define V \"@V@\"\n"),
    "CMakeLists.txt": ("project(x)\n", f"# {H}\n# {C}\nproject(x)\n"),
    "cmake/X.cmake": ("set(A 1)\n", f"# {H}\n# {C}\nset(A 1)\n"),
    "s/run.sh": ("#!/usr/bin/env bash\nset -e\n", f"#!/usr/bin/env bash\n# {H}\n# {C}\nset -e\n"),
    "s/lib.sh": ("f() { :; }\n", f"# {H}\n# {C}\nf() {{ :; }}\n"),
    ".ci/run": ("#!/bin/bash\necho ci\n", f"#!/bin/bash\n# {H}\n# {C}\necho ci\n"),
    "jobs/x.sbatch": ("#!/bin/bash\n#SBATCH -n 1\n", f"#!/bin/bash\n# {H}\n# {C}\n#SBATCH -n 1\n"),
    "p/t.py": ("#!/usr/bin/python3\n# -*- coding: utf-8 -*-\nprint(1)\n",
               f"#!/usr/bin/python3\n# -*- coding: utf-8 -*-\n# {H}\n# {C}\nprint(1)\n"),
    "p/m.py": ("import os\n", f"# {H}\n# {C}\nimport os\n"),
    "inputs/d.yaml": ("problem:\n  n: 4\n", f"# {H}\n# {C}\nproblem:\n  n: 4\n"),
    "inputs/crlf.yaml": ("problem:\r\n  n: 4\r\n", f"# {H}\r\n# {C}\r\nproblem:\r\n  n: 4\r\n"),
    "a/done.hpp": (f"// {H}\n// {C}\nint g();\n", None),
    "a/data.json": ("{}\n", None),
    "docs/results/d/decks/r.yaml": ("problem: {n: 4}\n", None),
    "tests/fuzz/seeds/s.yaml": ("problem: {n: 4}\n", None),
    "README.md": ("# x\n", None),
}
EXEC = {"s/run.sh", ".ci/run", "jobs/x.sbatch", "p/t.py"}


def run(root, *args):
    return subprocess.run([sys.executable, SPDX, "--root", root, *args], capture_output=True, text=True)


def main():
    with tempfile.TemporaryDirectory() as root:
        for rel, (content, _) in FILES.items():
            path = os.path.join(root, rel)
            os.makedirs(os.path.dirname(path), exist_ok=True)
            with open(path, "w", newline="") as f:
                f.write(content)
            if rel in EXEC:
                os.chmod(path, 0o755)
        subprocess.run(["git", "init", "-q", root], check=True)
        subprocess.run(["git", "-C", root, "add", "-A"], check=True)

        r = run(root, "--check")
        listed = sorted(line.split(":")[0] for line in r.stdout.splitlines() if "no SPDX" in line)
        want = sorted(rel for rel, (_, after) in FILES.items() if after is not None)
        assert r.returncode == 1, f"--check exit {r.returncode}, expected 1\n{r.stdout}{r.stderr}"
        assert listed == want, f"--check listed {listed}\nexpected {want}"

        r = run(root, "--fix")
        assert r.returncode == 0, r.stdout + r.stderr
        for rel, (content, after) in FILES.items():
            path = os.path.join(root, rel)
            with open(path, newline="") as f:
                got = f.read()
            assert got == (content if after is None else after), f"{rel} after --fix:\n{got!r}"
            if rel in EXEC:
                assert os.stat(path).st_mode & stat.S_IXUSR, f"{rel} lost its executable bit"

        r = run(root, "--fix")
        assert r.returncode == 0 and "0 headers inserted" in r.stdout, f"second --fix: {r.stdout}"
        r = run(root, "--check")
        assert r.returncode == 0, f"--check after --fix: exit {r.returncode}\n{r.stdout}"
        r = run(root, "--check", "a/k.hpp", "a/done.hpp")  # explicit files, headers present
        assert r.returncode == 0, r.stdout
    print(f"spdx.py: check, fix, idempotence and exclusions on {len(FILES)} fixture files: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
