#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""SPDX licence headers on mmapp's source and script files.

    scripts/ci/spdx.py --check [--root DIR] [FILE ...]   list the files without a header; exit 1 if any
    scripts/ci/spdx.py --fix   [--root DIR] [FILE ...]   insert the header where it is missing

Without FILE arguments the files are those git tracks under DIR (default: the
repository holding this script) that match the rules below. The header is two
comment lines in the file's own syntax:

    // SPDX-License-Identifier: BSD-3-Clause          (C++: .cpp .hpp .h .cu .hpp.in)
    // Copyright (c) 2026 The mmapp developers
    # SPDX-License-Identifier: BSD-3-Clause           (CMake, shell, sbatch, Python, YAML, CFF)
    # Copyright (c) 2026 The mmapp developers

inserted at the top, after a shebang line (`#!...`) and, in Python, after a
PEP 263 encoding line. A file that already has `SPDX-License-Identifier:` in
its first 10 lines is left alone, so --fix is idempotent. File modes are kept.

Left out on purpose (data whose bytes or line numbers matter, or third-party
text): docs/results/ (measurement records), tests/fuzz/ (fuzzer corpora
replayed byte for byte), tests/layers/upward/ and tests/layers/clean/
(fixtures whose line numbers tests/layers/upward.expected lists), JSON (no
comment syntax), patches, Markdown and other documentation.
Exit codes: 0 ok, 1 --check found files without a header, 2 usage error.
"""
import argparse
import os
import re
import subprocess
import sys

IDENTIFIER = "BSD-3-Clause"
COPYRIGHT = "Copyright (c) 2026 The mmapp developers"
MARK = "SPDX-License-Identifier:"

EXCLUDED_PREFIXES = ("docs/results/", "tests/fuzz/", "tests/layers/upward/", "tests/layers/clean/")
CPP_SUFFIXES = (".cpp", ".hpp", ".h", ".cu", ".hpp.in", ".cpp.in", ".h.in")
HASH_SUFFIXES = (".cmake", ".sh", ".sbatch", ".py", ".yaml", ".yml", ".cff")
HASH_NAMES = ("CMakeLists.txt",)
SHELL_SHEBANG = re.compile(r"^#!.*\b(ba|z|k)?sh\b")
ENCODING = re.compile(r"^[ \t\f]*#.*?coding[:=][ \t]*[-\w.]+")


def comment_style(path, first_line):
    """'//' or '#' for a file the rules cover, None otherwise."""
    rel = path.replace(os.sep, "/")
    if rel.startswith(EXCLUDED_PREFIXES):
        return None
    name = os.path.basename(rel)
    if name.endswith(CPP_SUFFIXES):
        return "//"
    if name in HASH_NAMES or name.endswith(HASH_SUFFIXES):
        return "#"
    if "." not in name and SHELL_SHEBANG.match(first_line or ""):
        return "#"  # an extensionless shell script (.ci/run)
    return None


def first_line(path):
    try:
        with open(path, "rb") as f:
            return f.readline().decode("utf-8", "replace")
    except OSError:
        return ""


def has_header(text):
    return any(MARK in line for line in text.splitlines()[:10])


def with_header(text, style, python):
    """`text` with the header inserted after a shebang (and a Python encoding line)."""
    newline = "\r\n" if text.split("\n", 1)[0].endswith("\r") else "\n"
    lines = text.splitlines(keepends=True)
    at = 0
    if lines and lines[0].startswith("#!"):
        at = 1
    if python and len(lines) > at and at <= 1 and ENCODING.match(lines[at]):
        at += 1
    header = f"{style} {MARK} {IDENTIFIER}{newline}{style} {COPYRIGHT}{newline}"
    if at and not lines[at - 1].endswith(("\n", "\r")):
        lines[at - 1] += newline  # a shebang with no newline at the end of the file
    return "".join(lines[:at]) + header + "".join(lines[at:])


def tracked_files(root):
    out = subprocess.run(["git", "-C", root, "ls-files", "-z"], check=True, capture_output=True).stdout
    return [p for p in out.decode("utf-8", "surrogateescape").split("\0") if p]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group(required=True)
    mode.add_argument("--check", action="store_true", help="list files without a header; exit 1 if any")
    mode.add_argument("--fix", action="store_true", help="insert the header where it is missing")
    ap.add_argument("--root", default=os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))),
                    help="the repository (default: the one holding this script)")
    ap.add_argument("files", nargs="*", help="files relative to --root (default: git ls-files)")
    args = ap.parse_args()

    files = args.files or tracked_files(args.root)
    missing, fixed, covered = [], [], 0
    for rel in files:
        path = os.path.join(args.root, rel)
        if not os.path.isfile(path) or os.path.islink(path):
            continue
        style = comment_style(rel, first_line(path))
        if style is None:
            continue
        covered += 1
        with open(path, "rb") as f:
            raw = f.read()
        try:
            text = raw.decode("utf-8")
        except UnicodeDecodeError:
            print(f"spdx.py: {rel}: not UTF-8 text, skipped", file=sys.stderr)
            continue
        if has_header(text):
            continue
        if args.check:
            missing.append(rel)
            continue
        mode_bits = os.stat(path).st_mode
        with open(path, "wb") as f:
            f.write(with_header(text, style, rel.endswith(".py")).encode("utf-8"))
        os.chmod(path, mode_bits)
        fixed.append(rel)

    if args.check:
        for rel in missing:
            print(f"{rel}: no {MARK} line in its first 10 lines")
        print(f"spdx.py --check: {covered} files covered, {len(missing)} without a header"
              + (" (scripts/ci/spdx.py --fix inserts them)" if missing else ""))
        return 1 if missing else 0
    for rel in fixed:
        print(f"spdx.py --fix: {rel}")
    print(f"spdx.py --fix: {covered} files covered, {len(fixed)} headers inserted")
    return 0


if __name__ == "__main__":
    sys.exit(main())
