#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Checks that no include in miniapp/ goes from a lower layer to a higher one.

    scripts/ci/check-layers.py [--root DIR]

The layers, lowest first (LAYERS below is the one place that says so; the
README's "Code map" describes it):

    core < kernels < deck < parallel < check < summa < report < driver < app

A file's layer is its folder under the root (default: miniapp/ of this
checkout): miniapp/core/..., miniapp/kernels/... (any subfolder: portable,
host, gpu, vendor), ..., miniapp/driver/...; a file directly in miniapp/
(main.cpp, fma_peak.cpp) is the app. A file may include headers of its own
layer and of lower layers only.

Reads every `#include "..."` and `#include <...>` of the C++ sources
(*.hpp, *.cpp, *.h, *.cc, *.cu, *.cuh and templates *.in) under the root. An
include names a project file when it resolves, as the compiler would, next to
the including file (quotes only) or under the root, or to a template FILE.in
there (core/version.hpp is generated from core/version.hpp.in); a quoted
include that resolves nowhere but starts with a layer's folder counts as
that layer. Other includes (Kokkos, MPI, the standard library) are not the
project's and are skipped.

Exit 0 with a one-line summary when every include goes to the same or a
lower layer. Exit 1, listing each offence as
    FILE:LINE: LAYER -> LAYER ("INCLUDE")
for an upward include, and as
    FILE: unknown folder 'NAME' (layers: ...)
for a source file in a folder that is no layer. Exit 2 on a bad argument.
No dependencies beyond Python 3.
"""
import argparse
import os
import re
import sys

# Lowest first. "app" is the files directly in the root.
LAYERS = ["core", "kernels", "deck", "parallel", "check", "summa", "report", "driver", "app"]
RANK = {name: i for i, name in enumerate(LAYERS)}
SOURCES = (".hpp", ".cpp", ".h", ".cc", ".cu", ".cuh", ".in")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')


def layer_of(rel):
    """The layer of a path relative to the root, or None for an unknown folder."""
    parts = rel.split("/")
    if len(parts) == 1:
        return "app"
    return parts[0] if parts[0] in RANK and parts[0] != "app" else None


def resolve(root, including_dir, target, quoted):
    """The included file's path relative to the root, or None if it is not the project's."""
    bases = ([including_dir] if quoted else []) + [root]
    for base in bases:
        for cand in (target, target + ".in"):
            path = os.path.normpath(os.path.join(base, cand))
            if os.path.isfile(path):
                rel = os.path.relpath(path, root)
                if not rel.startswith(".."):
                    return rel
    first = target.split("/")[0]
    if quoted and "/" in target and first in RANK:
        return target  # a generated or not yet written header of that layer
    return None


def main():
    default_root = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "miniapp"))
    ap = argparse.ArgumentParser(description="Fails on an include from a lower layer to a higher one.")
    ap.add_argument("--root", default=default_root, help="the source tree to check (default: %(default)s)")
    args = ap.parse_args()
    root = os.path.abspath(args.root)
    if not os.path.isdir(root):
        print(f"check-layers: no folder {args.root}", file=sys.stderr)
        return 2
    shown = os.path.relpath(root) if not os.path.relpath(root).startswith("..") else root

    problems, files, edges = [], 0, 0
    for dirpath, dirnames, filenames in os.walk(root):
        dirnames.sort()
        for name in sorted(filenames):
            if not name.endswith(SOURCES):
                continue
            path = os.path.join(dirpath, name)
            rel = os.path.relpath(path, root).replace(os.sep, "/")
            files += 1
            src = layer_of(rel)
            if src is None:
                problems.append(f"{shown}/{rel}: unknown folder '{rel.split('/')[0]}' (layers: {', '.join(LAYERS)})")
                continue
            with open(path, encoding="utf-8", errors="replace") as f:
                for lineno, line in enumerate(f, 1):
                    m = INCLUDE.match(line)
                    if not m:
                        continue
                    target = resolve(root, dirpath, m.group(2), m.group(1) == '"')
                    if target is None:
                        continue
                    dst = layer_of(target.replace(os.sep, "/"))
                    if dst is None:
                        continue  # the included file's own folder is reported when it is scanned
                    edges += 1
                    if RANK[dst] > RANK[src]:
                        problems.append(f'{shown}/{rel}:{lineno}: {src} -> {dst} ("{m.group(2)}")')

    order = " < ".join(LAYERS)
    if problems:
        print("\n".join(problems))
        print(f"check-layers: {len(problems)} problem(s) in {shown} (an include may go to the same or a lower "
              f"layer only: {order})")
        return 1
    print(f"check-layers: {files} files, {edges} project includes in {shown}, none upward ({order})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
