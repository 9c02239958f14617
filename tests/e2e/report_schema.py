#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Validates mmapp JSON reports against docs/report.schema.json (JSON Schema
draft 2020-12) with Debian's python3-jsonschema (>= 4.0; bookworm has 4.10).

Usage: report_schema.py [--schema FILE] REPORT...
"integer" is taken strictly: 67.0 is not an integer here (JSON Schema would
accept it), so byte counts and sizes written as floats fail.
Prints each problem as 'REPORT: PATH: message' and exits 1 when a report is
invalid or unreadable, 0 when every one is valid. The e2e harness
(harness.py) calls validate() on every report its tests write."""
import argparse
import json
import os
import sys

try:
    import jsonschema
except ImportError:  # a clear message rather than a traceback: the package is part of the setup
    sys.exit("report_schema.py: python3-jsonschema is missing (scripts/setup/setup-debian.sh installs it)")

SCHEMA = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs", "report.schema.json")
_validators = {}


def _strict_integer(checker, instance):
    """JSON Schema counts 67.0 as an integer; the report writes counts, sizes
    and bytes as JSON integers, so a float there (67.0) is refused."""
    return isinstance(instance, int) and not isinstance(instance, bool)


def validator(schema_path=SCHEMA):
    """The (cached) validator of `schema_path`, with "integer" meaning a JSON
    integer literal; the schema itself is checked first."""
    if schema_path not in _validators:
        with open(schema_path) as f:
            schema = json.load(f)
        base = jsonschema.Draft202012Validator
        base.check_schema(schema)
        strict = jsonschema.validators.extend(
            base, type_checker=base.TYPE_CHECKER.redefine("integer", _strict_integer))
        _validators[schema_path] = strict(schema)
    return _validators[schema_path]


def problems(doc, schema_path=SCHEMA):
    """Every schema violation of the parsed report `doc`, as 'PATH: message' strings."""
    out = []
    for e in sorted(validator(schema_path).iter_errors(doc), key=lambda e: list(map(str, e.absolute_path))):
        where = "/".join(str(p) for p in e.absolute_path) or "(top)"
        out.append(f"{where}: {e.message[:300]}")
    return out


def validate(path, schema_path=SCHEMA):
    """Raises AssertionError naming the report and its violations when `path` is invalid."""
    with open(path) as f:
        doc = json.load(f)
    found = problems(doc, schema_path)
    assert not found, f"{path} does not match {schema_path}:\n  " + "\n  ".join(found[:20])


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--schema", default=SCHEMA)
    ap.add_argument("reports", nargs="+")
    args = ap.parse_args()
    bad = 0
    for path in args.reports:
        try:
            with open(path) as f:
                doc = json.load(f)
            found = problems(doc, args.schema)
        except (OSError, ValueError) as e:
            found = [f"unreadable: {e}"]
        for p in found:
            print(f"{path}: {p}")
        bad += bool(found)
    if not bad:
        print(f"{len(args.reports)} report(s) valid against {args.schema}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
