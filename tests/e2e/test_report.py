#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""End-to-end tests of the report file (run by CTest at 1 and 2 ranks).

What mmapp refuses as a report path, up front (exit 2, naming --report or
output.report, before anything is computed, on every rank alike, nothing
left behind); what it writes (a new file's mode from the umask, an old
file's mode kept, a missing directory created, links at the temporary names
never followed, a deck name that is not UTF-8 escaped); a disk that fills
mid-run (a clear error naming the path, exit 3, the last complete report
kept, no temporary file left); two runs sharing one report path while a
reader parses it (never a partial file).

Usage: test_report.py --mmapp BIN --mpiexec MPIEXEC --source DIR [--np N]
                      [--full-disk-lib LIB] [-k PATTERN]
Prints 'N passed, N failed' and exits 1 on any failure.
"""
import json
import os
import stat
import subprocess
import sys
import threading
import time

import harness
from harness import ENV, deck

ARGS = None

TINY = """
problem: {n: 24, dtype: float}
kernels: [naive, vendor]
run: {warmup: 0, repetitions: 1}
"""

# A deck that takes minutes: a refusal must come before it runs.
SLOW = "problem: {n: 4000}\nkernels: [naive]\n"


def mmapp(*args, np=None, timeout=300, env=None):
    """Runs mmapp under mpiexec; returns (exit code, stdout, stderr)."""
    return harness.run(ARGS, list(args), np=np, timeout=timeout, env=env)


def refused(tmp, report, why, via="--report"):
    """Runs the slow deck with `report` (by --report, or the deck's
    output.report): exit 2 within 60 s, the message names `via` and `why`,
    and the folder holds what it held before."""
    if via == "--report":
        d, args = deck(tmp, SLOW, "slow.yaml"), ["--report", report]
    else:
        d, args = deck(tmp, SLOW + f"output: {{report: {json.dumps(report)}}}\n", "slow.yaml"), []
    before = sorted(os.listdir(tmp))
    t0 = time.time()
    code, out, err = mmapp(d, *args, timeout=120)
    assert code == 2, (report, code, out, err)
    assert time.time() - t0 < 60, "the deck ran before the report path was checked"
    assert via in err and why in err, (via, why, err)
    assert err.count("mmapp: error:") == 1, err  # one line, from rank 0
    assert sorted(os.listdir(tmp)) == before, (before, os.listdir(tmp))
    return err


def test_devices_refused_up_front_and_left_alone(tmp):
    for dev in ("/dev/null", "/dev/full", "/dev/zero"):
        if not os.path.exists(dev):
            continue
        st = os.lstat(dev)
        refused(tmp, dev, "is a character device, not a regular file")
        after = os.lstat(dev)
        assert stat.S_ISCHR(after.st_mode) and after.st_rdev == st.st_rdev and after.st_ino == st.st_ino, dev
    refused(tmp, "/dev/null", "is a character device", via="output.report")
    refused(tmp, "/dev/stdout", "/dev/stdout")


def test_fifo_socket_directory_and_link_refused(tmp):
    import socket
    fifo = os.path.join(tmp, "fifo")
    os.mkfifo(fifo)
    refused(tmp, fifo, "is a FIFO")  # never opened: no hang
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(os.path.join(tmp, "sock"))
    refused(tmp, os.path.join(tmp, "sock"), "is a socket")
    sock.close()
    refused(tmp, tmp, "is a directory")
    refused(tmp, tmp + "/", "names a directory")
    victim = os.path.join(tmp, "victim.txt")
    with open(victim, "w") as f:
        f.write("victim\n")
    os.symlink("victim.txt", os.path.join(tmp, "link.json"))
    refused(tmp, os.path.join(tmp, "link.json"), "is a symbolic link")
    refused(tmp, os.path.join(tmp, "link.json"), "is a symbolic link", via="output.report")
    assert open(victim).read() == "victim\n"
    refused(tmp, os.path.join(victim, "r.json"), "is not a directory")


def test_long_names_refused_up_front(tmp):
    refused(tmp, os.path.join(tmp, "n" * 256), "longer than the 255")
    refused(tmp, os.path.join(tmp, *(["abc"] * 1100), "r.json"), "the path is")


def test_read_only_directory_refused(tmp):
    ro = os.path.join(tmp, "ro")
    os.mkdir(ro, 0o555)
    if os.geteuid() == 0:
        print("  (skipped the read-only directory: root writes anywhere)")
        return
    refused(tmp, os.path.join(ro, "r.json"), "not writable")
    refused(tmp, os.path.join(ro, "sub", "r.json"), "cannot be created")
    assert os.listdir(ro) == []


def test_missing_directory_created(tmp):
    rep = os.path.join(tmp, "results", "deep", "r.json")
    code, out, err = mmapp(deck(tmp, TINY), "--report", rep)
    assert code == 0, (code, err)
    r = json.load(open(rep))
    assert r["complete"] is True and len(r["runs"]) == 2
    assert os.listdir(os.path.dirname(rep)) == ["r.json"]


def test_modes_new_and_kept(tmp):
    d = deck(tmp, TINY)
    new = os.path.join(tmp, "new.json")
    code, out, err = mmapp(d, "--report", new, env=dict(ENV))
    assert code == 0, (code, err)
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(os.stat(new).st_mode) == 0o666 & ~umask, oct(os.stat(new).st_mode)
    old = os.path.join(tmp, "old.json")
    for mode in (0o444, 0o640):
        with open(old, "w") as f:
            f.write("old\n")
        os.chmod(old, mode)
        code, out, err = mmapp(d, "--report", old)
        assert code == 0, (mode, code, err)
        assert stat.S_IMODE(os.stat(old).st_mode) == mode, (oct(mode), oct(os.stat(old).st_mode))
        assert json.load(open(old))["complete"] is True
    assert sorted(os.listdir(tmp)) == ["deck.yaml", "new.json", "old.json"], os.listdir(tmp)


def test_links_at_temporary_names_not_followed(tmp):
    victim = os.path.join(tmp, "victim.txt")
    with open(victim, "w") as f:
        f.write("victim\n")
    links = ["r.json.partial", "r.json.tmp", ".r.json.tmp", ".r.json.partial"]
    for name in links:
        os.symlink("victim.txt", os.path.join(tmp, name))
    code, out, err = mmapp(deck(tmp, TINY), "--report", os.path.join(tmp, "r.json"))
    assert code == 0, (code, err)
    assert open(victim).read() == "victim\n"
    assert json.load(open(os.path.join(tmp, "r.json")))["complete"] is True
    assert sorted(os.listdir(tmp)) == sorted(links + ["deck.yaml", "r.json", "victim.txt"]), os.listdir(tmp)
    assert all(os.path.islink(os.path.join(tmp, n)) for n in links)


def test_deck_name_not_utf8(tmp):
    """A deck whose file name is not UTF-8: the report is written, the name
    escaped (\\xhh), no exception, exit 0."""
    name = os.path.join(os.fsencode(tmp), b"d\xff\xfe.yaml")
    with open(name, "w") as f:
        f.write(TINY)
    rep = os.path.join(tmp, "r.json")
    cmd = harness.command(ARGS, [os.fsdecode(name), "--report", rep])
    p = subprocess.run(cmd, capture_output=True, env=ENV, timeout=300)
    assert p.returncode == 0, (p.returncode, p.stderr)
    r = json.load(open(rep, encoding="utf-8"))
    # Each invalid byte as \xhh, as Python's backslashreplace writes it.
    assert r["deck"]["path"] == name.decode("utf-8", "backslashreplace"), r["deck"]["path"]
    assert r["deck"]["path"].endswith("d\\xff\\xfe.yaml"), r["deck"]["path"]
    assert r["complete"] is True and len(r["runs"]) == 2
    # The same name given as the report's directory: named escaped in the error.
    bad = os.path.join(os.fsencode(tmp), b"d\xff\xfe.yaml", b"r.json")
    p = subprocess.run(harness.command(ARGS, [os.fsdecode(name), "--report", os.fsdecode(bad)]),
                       capture_output=True, env=ENV, timeout=300)
    assert p.returncode == 2 and b"d\\xff\\xfe.yaml" in p.stderr and b"is not a directory" in p.stderr, p.stderr


SWEEP = """
problem: {{sizes: [{sizes}], dtype: float}}
kernels: [naive]
run: {{warmup: 0, repetitions: 1}}
verify: {{enabled: true}}
"""


def test_disk_full_mid_run(tmp):
    """The report's file system fills after the first rewrites: a warning
    naming the path while the runs go on, an error at the end, exit 3; the
    file is the last complete report ("complete": false) and no temporary
    file is left. (tests/fault/full_disk.cpp: write(2) into the report's
    temporary files fails with ENOSPC after a byte budget.)"""
    if not ARGS.full_disk_lib:
        print("  (skipped: no --full-disk-lib)")
        return
    d = deck(tmp, SWEEP.format(sizes=", ".join(str(16 + i) for i in range(8))))
    rep = os.path.join(tmp, "r.json")
    code, out, err = mmapp(d, "--report", rep)
    assert code == 0, (code, err)
    size = os.path.getsize(rep)  # the whole report; the first rewrites are smaller
    env = dict(ENV, LD_PRELOAD=ARGS.full_disk_lib, MMAPP_FULL_DISK_MATCH="/.r.json.",
               MMAPP_FULL_DISK_BYTES=str(size))
    os.remove(rep)
    code, out, err = mmapp(d, "--report", rep, env=env)
    assert code == 3, (code, out, err)
    assert "mmapp: warning: --report '" + rep + "'" in err and "No space left on device" in err, err
    assert err.count("mmapp: warning:") == 1, err
    assert "mmapp: error: --report '" + rep + "'" in err, err
    r = json.load(open(rep))
    assert r["complete"] is False and 1 <= len(r["runs"]) < 8, (r["complete"], len(r["runs"]))
    assert sorted(os.listdir(tmp)) == ["deck.yaml", "r.json"], os.listdir(tmp)
    # Full from the start: every rewrite fails, no report file at all, exit 3.
    os.remove(rep)
    code, out, err = mmapp(d, "--report", rep, env=dict(env, MMAPP_FULL_DISK_BYTES="0"))
    assert code == 3 and "No space left on device" in err, (code, err)
    assert sorted(os.listdir(tmp)) == ["deck.yaml"], os.listdir(tmp)


RACE_RUNS = 100


def test_two_runs_share_a_report_path(tmp):
    """Two mmapp runs rewrite one report after each of their runs while a
    reader parses it in a loop: every read is a whole JSON report; the last
    complete writer wins; nothing else is left in the folder."""
    rep = os.path.join(tmp, "shared.json")
    decks = [deck(tmp, SWEEP.format(sizes=", ".join(str(8 + (i + w) % 30) for i in range(RACE_RUNS))), f"d{w}.yaml")
             for w in range(2)]
    procs = [subprocess.Popen(harness.command(ARGS, [d, "--report", rep]), stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, env=ENV) for d in decks]
    reads, bad = 0, []
    stop = threading.Event()

    def reader():
        nonlocal reads
        while not stop.is_set():
            try:
                with open(rep, "rb") as f:
                    text = f.read()
            except FileNotFoundError:
                continue
            reads += 1
            try:
                json.loads(text)
            except ValueError as e:
                bad.append((len(text), str(e)))

    t = threading.Thread(target=reader)
    t.start()
    try:
        results = [p.communicate(timeout=600) for p in procs]
    finally:
        stop.set()
        t.join()
    for p, (out, err) in zip(procs, results):
        assert p.returncode == 0, (p.returncode, err)
    assert reads > 0
    assert not bad, f"{len(bad)} of {reads} reads were not whole JSON: {bad[:3]}"
    r = json.load(open(rep))
    assert r["complete"] is True and len(r["runs"]) == RACE_RUNS
    assert sorted(os.listdir(tmp)) == ["d0.yaml", "d1.yaml", "shared.json"], os.listdir(tmp)
    print(f"  ({reads} reads, all whole)")


def main():
    global ARGS
    ap = harness.parser()
    ap.add_argument("--full-disk-lib", default="", help="the LD_PRELOAD library of tests/fault/full_disk.cpp")
    ARGS = ap.parse_args()
    return harness.run_tests(globals(), ARGS.k, ARGS.shard)


if __name__ == "__main__":
    sys.exit(main())
