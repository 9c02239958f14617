#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""README's commands run: every command in README.md's ```bash / ```sh blocks
either runs on this CPU machine and must exit 0, or is on the explicit SKIP
list below with the reason; a command on neither list fails the test (so a new
README command is classified by whoever adds it).

    scripts/ci/readme-commands.py --build BUILD_DIR [--source DIR] [--readme FILE]
        [--mpiexec mpiexec] [--mpiexec-flags "--oversubscribe"] [--timeout 180] [--list]

How a command runs: in a temporary copy of the checkout's inputs/, jobs/,
scripts/ and docs/ (so nothing the commands write lands in the checkout),
where build/<preset> links to BUILD_DIR for every preset a command names
(GPU presets are skipped, so the build under test stands in for openmp,
openmp-native, ...), with HOME set to the temporary folder, through
`bash -c`, one logical line (backslash continuations joined) at a time, in
README order (a later command may read an earlier one's report). Sizes are
shrunk: an mmapp invocation (the last command of its line) gets
`--set problem.sizes=[48] --set run.warmup=0 --set run.repetitions=1`
appended (a later --set wins, so the deck's own sizes are replaced), and
mmapp-fma-peak gets `--seconds 0.02 --repetitions 1` in place of its own;
`mpirun` is replaced by --mpiexec with --mpiexec-flags. The build stands in
for the host preset a command names: a build with CUDA gets `--backend openmp`
appended to each mmapp and mmapp-fma-peak command, and a build without
ScaLAPACK skips (saying so) the commands whose deck names the `scalapack`
kernel (both read from BUILD_DIR/CMakeCache.txt); where python3 cannot
import matplotlib (a GPU node's image), the plotting commands are skipped,
saying so (CI installs it, so they run there). Each command has
--timeout seconds. Exit 0 when every runnable command exited 0, 1 otherwise
(each failure with its output), 2 on a usage error.
"""
import argparse
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile

# (pattern searched in the logical line, reason): never run here.
SKIP = [
    (r"^scripts/run-default\.sh\b", "sets up the machine with apt and builds the native preset"),
    (r"^scripts/ci/run-tests\.sh\b", "the whole test suite, this test included"),
    (r"^cmake --preset|^cmake --build|^cmake -B ", "a build: the test runs against a finished build"),
    (r"\bbuild/cuda(-native)?/", "a CUDA build and a GPU"),
    (r"^scripts/bench/gpu-node\.sh\b", "a GPU node"),
    (r"^spack\b", "needs Spack and its network access"),
    (r"^git clone\b", "network access"),
    (r"^make -C ~/kokkos-tools\b", "needs the kokkos-tools clone (network)"),
    (r"^KOKKOS_PROFILE_LIBRARY=", "needs the kokkos-tools connector built from its clone"),
    (r"^sbatch\b|jobs/submit\.sh\b", "submits to Slurm (tests/slurm runs the job scripts)"),
    (r"^(sudo )?apt(-get)? ", "installs system packages"),
]
# (pattern, kind): what may run here. Every command that is not skipped must match one.
RUN = [
    (r"(^|[\s/])mmapp-fma-peak(\s|$)", "fma-peak"),
    (r"(^|[\s/])miniapp/mmapp(\s|$)", "mmapp"),
    (r"^cmake --install build/", "plain"),
    (r"^(python3 )?(scripts/analysis/[\w-]+\.py|jobs/summarize\.py)\b", "plain"),
]
SHRINK_MMAPP = ["--set", "problem.sizes=[48]", "--set", "run.warmup=0", "--set", "run.repetitions=1"]
SHRINK_PEAK = ["--seconds", "0.02", "--repetitions", "1"]
GPU_PRESETS = ("cuda", "cuda-native")


def commands(readme):
    """(line number, logical command) of every ```bash/```sh block, continuations joined."""
    out, in_block, pending, start = [], False, "", 0
    with open(readme) as f:
        for no, line in enumerate(f, 1):
            stripped = line.rstrip("\n")
            if not in_block:
                if re.match(r"^```(bash|sh|shell)\s*$", stripped):
                    in_block = True
                continue
            if stripped.startswith("```"):
                in_block = False
                continue
            if not pending:
                start = no
                if not stripped.strip() or stripped.lstrip().startswith("#"):
                    continue
            if stripped.endswith("\\"):
                pending += stripped[:-1] + " "
                continue
            out.append((start, (pending + stripped).strip()))
            pending = ""
    return out


def classify(cmd):
    """('skip', reason) or ('run', kind) or ('unknown', '')."""
    for pat, reason in SKIP:
        if re.search(pat, cmd):
            return "skip", reason
    for pat, kind in RUN:
        if re.search(pat, cmd):
            return "run", kind
    return "unknown", ""


def build_features(build):
    """(has CUDA, has ScaLAPACK) of the build, from its CMakeCache.txt (and, for an
    installed Kokkos, whose options are not cached, mmapp-fma-peak --help's backends)."""
    cache = {}
    try:
        with open(os.path.join(build, "CMakeCache.txt")) as f:
            for line in f:
                m = re.match(r"^([\w-]+):[A-Z]+=(.*)$", line.rstrip("\n"))
                if m:
                    cache[m.group(1)] = m.group(2)
    except OSError:
        pass
    cuda = cache.get("Kokkos_ENABLE_CUDA", "").upper() in ("ON", "TRUE", "1")
    if "Kokkos_ENABLE_CUDA" not in cache:
        peak = os.path.join(build, "miniapp", "mmapp-fma-peak")
        try:
            cuda = "cuda" in subprocess.run([peak, "--help"], capture_output=True, text=True, timeout=60).stdout
        except (OSError, subprocess.TimeoutExpired):
            pass
    lib = cache.get("MMAPP_SCALAPACK_LIBRARIES") or cache.get("MMAPP_SCALAPACK_LIBRARY", "")
    scalapack = cache.get("MMAPP_ENABLE_SCALAPACK", "AUTO") != "OFF" and bool(lib) and not lib.endswith("NOTFOUND")
    return cuda, scalapack


def deck_names_scalapack(cmd, work):
    """True when the command's deck (its first *.yaml argument) names the scalapack kernel."""
    for word in shlex.split(cmd.split("#", 1)[0]):
        if word.endswith((".yaml", ".yml")):
            try:
                with open(os.path.join(work, word)) as f:
                    return re.search(r"^\s*-\s*(name:\s*)?scalapack\b", f.read(), re.M) is not None
            except OSError:
                return False
    return False


def shrink(cmd, kind, mpiexec, host_backend=False):
    """The command as run: mpirun replaced, sizes shrunk (see the module docstring)."""
    if mpiexec:
        cmd = re.sub(r"(^|&&\s*|;\s*)mpirun\b", lambda m: m.group(1) + mpiexec, cmd)
    if kind == "plain":
        return cmd
    # The program must be the last command of the line, so that appended options reach it.
    tail = re.split(r"&&|\|\||;|\|", cmd)[-1]
    prog = "mmapp-fma-peak" if kind == "fma-peak" else "miniapp/mmapp"
    if prog not in tail:
        raise ValueError(f"{prog} is not the last command of the line, so its sizes cannot be shrunk")
    code = cmd.split("#", 1)[0].rstrip()  # a trailing comment would swallow the options
    backend = ["--backend", "openmp"] if host_backend else []
    if kind == "fma-peak":
        code = re.sub(r"\s--(seconds|repetitions|backend)[ =]\S+", "", code)
        return code + " " + " ".join(SHRINK_PEAK + backend)
    return code + " " + " ".join(shlex.quote(a) for a in SHRINK_MMAPP + backend)


def main():
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--build", help="the build under test (holds miniapp/mmapp)")
    ap.add_argument("--source", default=here, help="the checkout (default: the one holding this script)")
    ap.add_argument("--readme", help="default: SOURCE/README.md")
    ap.add_argument("--mpiexec", default="mpiexec")
    ap.add_argument("--mpiexec-flags", default="--oversubscribe")
    ap.add_argument("--timeout", type=float, default=180.0, help="seconds per command")
    ap.add_argument("--list", action="store_true", help="print each command's class and exit")
    args = ap.parse_args()
    readme = args.readme or os.path.join(args.source, "README.md")
    name = os.path.basename(readme)
    cmds = commands(readme)
    if not cmds:
        print(f"readme-commands: no ```bash/```sh commands in {readme}", file=sys.stderr)
        return 1

    plan, unknown = [], []
    for no, cmd in cmds:
        cls, why = classify(cmd)
        if cls == "unknown":
            unknown.append((no, cmd))
        plan.append((no, cmd, cls, why))
    if args.list:
        for no, cmd, cls, why in plan:
            print(f"{name}:{no}: {cls:7} {why:50.50} {cmd}")
        return 0
    if not args.build:
        ap.error("--build is required (unless --list)")
    build = os.path.abspath(args.build)
    has_cuda, has_scalapack = build_features(build)

    failures = []
    for no, cmd in unknown:
        failures.append(f"{readme}:{no}: not classified: add it to RUN or, with the reason, to SKIP in "
                        f"scripts/ci/readme-commands.py:\n    {cmd}")
    mpiexec = " ".join([shlex.quote(args.mpiexec)] + shlex.split(args.mpiexec_flags))
    with tempfile.TemporaryDirectory(prefix="mmapp-readme-") as work:
        for d in ("inputs", "jobs", "scripts", "docs"):
            shutil.copytree(os.path.join(args.source, d), os.path.join(work, d), symlinks=True)
        presets = set()
        for _, cmd, cls, _ in plan:
            if cls == "run":
                presets.update(re.findall(r"\bbuild/([\w.-]+)", cmd))
        os.makedirs(os.path.join(work, "build"))
        for p in presets - set(GPU_PRESETS):
            os.symlink(build, os.path.join(work, "build", p))
        env = dict(os.environ, HOME=work, OMP_NUM_THREADS=os.environ.get("OMP_NUM_THREADS", "1"),
                   OMP_PROC_BIND=os.environ.get("OMP_PROC_BIND", "false"),
                   OMPI_ALLOW_RUN_AS_ROOT="1", OMPI_ALLOW_RUN_AS_ROOT_CONFIRM="1",
                   OMPI_MCA_rmaps_base_oversubscribe="1")
        # The interpreter plot_reports.py's shebang names (/usr/bin/python3), not necessarily this one.
        with open(os.path.join(args.source, "scripts", "analysis", "plot_reports.py")) as f:
            plot_python = shlex.split(f.readline()[2:])
        has_matplotlib = subprocess.run([*plot_python, "-c", "import matplotlib"], env=env,
                                        capture_output=True).returncode == 0
        ran = skipped = 0
        for no, cmd, cls, why in plan:
            if cls == "skip":
                skipped += 1
                print(f"readme-commands: {name}:{no}: skip ({why}): {cmd}")
                continue
            if cls != "run":
                continue
            if why == "mmapp" and not has_scalapack and deck_names_scalapack(cmd, work):
                skipped += 1
                print(f"readme-commands: {name}:{no}: skip (its deck runs the scalapack kernel; "
                      f"this build has no ScaLAPACK): {cmd}")
                continue
            if "plot_reports.py" in cmd and "--table" not in cmd and not has_matplotlib:
                skipped += 1
                print(f"readme-commands: {name}:{no}: skip (plots need matplotlib, which python3 here "
                      f"cannot import; setup-debian.sh installs it): {cmd}")
                continue
            try:
                run = shrink(cmd, why, mpiexec, host_backend=has_cuda)
            except ValueError as e:
                failures.append(f"{readme}:{no}: {e}:\n    {cmd}")
                continue
            print(f"readme-commands: {name}:{no}: run: {run}", flush=True)
            try:
                p = subprocess.run(["bash", "-c", run], cwd=work, env=env, capture_output=True, text=True,
                                   timeout=args.timeout)
                rc, out = p.returncode, p.stdout + p.stderr
            except subprocess.TimeoutExpired as e:
                rc, out = "timeout", (e.stdout or b"").decode(errors="replace") + (e.stderr or b"").decode(
                    errors="replace")
            ran += 1
            if rc != 0:
                failures.append(f"{readme}:{no}: exit {rc} :\n    {run}\n"
                                + "\n".join("    | " + line for line in out.strip().splitlines()[-25:]))
    for f in failures:
        print("readme-commands: FAILED: " + f, file=sys.stderr)
    print(f"readme-commands: {ran} run, {skipped} skipped (reasons above), {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
