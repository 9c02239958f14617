#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of the host ISA dispatch (kernels/host/host_isa.hpp),
run by CTest at 1 and 2 ranks:

- without MMAPP_HOST_ISA the report's provenance names the level taken
  (host_isa, one of host_isa_compiled, chosen by "cpu", or "build: ..." in
  a build of one level) and the header prints it;
- MMAPP_HOST_ISA=<level> runs `tiled` with that level's kernels (verified,
  sizes no multiple of any micro-tile) for every compiled level up to the
  one the CPU picks, by name and by alias, and a level above it is refused
  (exit 2, "does not support");
- an unknown level, or one the build did not compile, is refused with exit
  2 and a message naming MMAPP_HOST_ISA, before anything is computed (no
  report written).

Usage: test_host_isa.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N] [-k PATTERN]
"""
import json
import os
import sys

import harness
from harness import ENV, deck

ARGS = None

# Sizes no multiple of any micro-tile (MR 4, 6, 8, 14; NR 8 .. 64); both dtypes.
DECK = """
problem: {m: 67, n: 45, k: 33, dtype: [float, double]}
kernels: [tiled]
run: {warmup: 0, repetitions: 1}
"""
LEVELS = ["x86-64-v4", "x86-64-v3", "x86-64-v2", "x86-64", "generic"]
ALIASES = {"x86-64-v4": "avx512", "x86-64-v3": "avx2", "x86-64-v2": "sse4.2", "x86-64": "sse2", "generic": "generic"}


def mmapp(tmp, isa=None):
    """Runs DECK with MMAPP_HOST_ISA=isa (unset for None); returns (code, out, err, report or None)."""
    env = dict(ENV)
    env.pop("MMAPP_HOST_ISA", None)
    if isa is not None:
        env["MMAPP_HOST_ISA"] = isa
    rep = os.path.join(tmp, f"r-{isa}.json")
    code, out, err = harness.run(ARGS, [deck(tmp, DECK), "--report", rep], env=env)
    return code, out, err, (json.load(open(rep)) if os.path.exists(rep) else None)


def default_level(tmp):
    code, out, err, r = mmapp(tmp)
    assert code == 0, (code, out, err)
    return r["provenance"]


def test_default_names_the_level_taken(tmp):
    p = default_level(tmp)
    assert p["host_isa"] in p["host_isa_compiled"], p
    # "cpu", or "build: MMAPP_HOST_ARCH=..." in a build of one level
    assert p["host_isa_chosen_by"] == "cpu" or p["host_isa_chosen_by"].startswith("build: "), p
    assert all(level in LEVELS for level in p["host_isa_compiled"]), p
    code, out, err, _ = mmapp(tmp)
    assert f"host ISA {p['host_isa']} ({p['host_isa_chosen_by']})" in out, out


def test_override_runs_every_level_up_to_the_cpus(tmp):
    p = default_level(tmp)
    compiled = p["host_isa_compiled"]
    top = compiled.index(p["host_isa"])
    for i, level in enumerate(compiled):
        for name in (level, ALIASES[level]):
            code, out, err, r = mmapp(tmp, name)
            if i >= top:  # the CPU runs it
                assert code == 0, (name, code, out, err)
                assert r["provenance"]["host_isa"] == level, (name, r["provenance"])
                assert r["provenance"]["host_isa_chosen_by"] == "MMAPP_HOST_ISA=" + name, r["provenance"]
                assert f"host ISA {level} (MMAPP_HOST_ISA={name})" in out, out
                assert [x["verification"]["passed"] for x in r["runs"]] == [True, True], r["runs"]
            else:  # compiled, but above what this CPU runs
                assert code == 2, (name, code, out, err)
                assert "does not support " + level in err, err
                assert r is None


def test_unknown_or_missing_level_refused(tmp):
    p = default_level(tmp)
    missing = [level for level in LEVELS if level not in p["host_isa_compiled"]]
    for name in ["avx1024", "x86-64-v9", *missing]:
        code, out, err, r = mmapp(tmp, name)
        assert code == 2, (name, code, out, err)
        assert f"MMAPP_HOST_ISA={name}" in err, err
        assert "unknown host ISA level" in err or "no host kernels for that level" in err, err
        assert err.count("mmapp: error:") == 1, err  # one line, from rank 0
        assert r is None, name


def main():
    global ARGS
    ARGS = harness.parser().parse_args()
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
