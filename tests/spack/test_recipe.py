#!/usr/bin/env python3
# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""tests/spack/test_recipe.py SOURCE — packaging/spack/mmapp/package.py without Spack.

Spack is not installed here, so its directives and base classes are stood in
for by recording stubs (`spack.package`, `spack_repo.builtin.build_systems.*`):
the recipe is imported as Spack would import it, then checked:
  - it declares the dependencies the project's CMake finds (kokkos,
    kokkos-kernels, mpi, openblas, yaml-cpp, cli11, fmt, nlohmann-json,
    xxhash, scalapack, nccl when +nccl) and the variants nccl, native,
    scalapack (cuda and cuda_arch from CudaPackage);
  - cmake_args() for several specs maps each variant to the right -D value;
  - every MMAPP_* / Kokkos_* option it passes is one the project's CMake
    files define or read (so a renamed option fails here).
Exit 0 when all hold. What this cannot check: Spack's concretizer (`spack
spec mmapp`), which needs Spack and its builtin repository.
"""
import glob
import importlib.util
import os
import re
import sys
import types

source = sys.argv[1]
recipe = os.path.join(source, "packaging", "spack", "mmapp", "package.py")
calls = []


def directive(name):
    def record(*args, **kwargs):
        calls.append((name, args, kwargs))
    return record


class Libs(list):
    @property
    def libraries(self):
        return list(self)

    def joined(self, sep=" "):
        return sep.join(self)


class Dep:
    def __init__(self, name):
        self.prefix = f"/spack/opt/{name}"
        self.libs = Libs([f"/spack/opt/{name}/lib/lib{name}.so"])
        self.kokkos_cxx = f"/spack/opt/{name}/bin/nvcc_wrapper"


class Spec:
    def __init__(self, variants):
        self.variants = set(variants)

    def satisfies(self, s):
        return all(part in self.variants for part in s.split())

    def __getitem__(self, name):
        return Dep(name)


class CMakePackage:
    run_tests = False

    def __init__(self, spec):
        self.spec = spec

    def __getitem__(self, name):
        return Dep(name)

    @staticmethod
    def define(name, value):
        if isinstance(value, bool):
            value = "ON" if value else "OFF"
        return f"-D{name}={value}"


class CudaPackage:
    cuda_arch_values = ("80", "90")


pkg = types.ModuleType("spack.package")
for d in ("version", "variant", "depends_on", "requires", "conflicts", "license", "maintainers"):
    setattr(pkg, d, directive(d))
pkg.CMakePackage, pkg.CudaPackage = CMakePackage, CudaPackage
pkg.__all__ = [n for n in vars(pkg) if not n.startswith("_")]
sys.modules["spack"] = types.ModuleType("spack")
sys.modules["spack.package"] = pkg
for mod, attr, cls in (("spack_repo.builtin.build_systems.cmake", "CMakePackage", CMakePackage),
                       ("spack_repo.builtin.build_systems.cuda", "CudaPackage", CudaPackage)):
    parts = mod.split(".")
    for i in range(1, len(parts) + 1):
        sys.modules.setdefault(".".join(parts[:i]), types.ModuleType(".".join(parts[:i])))
    setattr(sys.modules[mod], attr, cls)

spec = importlib.util.spec_from_file_location("mmapp_recipe", recipe)
module = importlib.util.module_from_spec(spec)
spec.loader.exec_module(module)
Mmapp = module.Mmapp
errors = []

deps = {args[0].split("@")[0].split("+")[0].split("~")[0].split()[0] for n, args, _ in calls if n == "depends_on"}
for need in ("kokkos", "kokkos-kernels", "mpi", "openblas", "yaml-cpp", "cli11", "fmt", "nlohmann-json",
             "xxhash", "scalapack", "nccl", "catch2", "cmake"):
    if need not in deps:
        errors.append(f"no depends_on({need!r})")
variants = {args[0] for n, args, _ in calls if n == "variant"}
if variants != {"nccl", "native", "scalapack"}:
    errors.append(f"variants {sorted(variants)}, expected nccl, native, scalapack (+ CudaPackage's)")
if not any(n == "depends_on" and a[0] == "nccl" and k.get("when") == "+nccl" for n, a, k in calls):
    errors.append("nccl is not a dependency when +nccl")
if not any(n == "conflicts" and a[0] == "+nccl" and k.get("when") == "~cuda" for n, a, k in calls):
    errors.append("+nccl without +cuda is not a conflict")


def args_for(*variants):
    return Mmapp(Spec(variants)).cmake_args()


cases = {
    (): {"MMAPP_ENABLE_NCCL": "OFF", "MMAPP_HOST_ARCH": "", "MMAPP_ENABLE_SCALAPACK": "OFF",
         "MMAPP_ENABLE_TESTS": "OFF", "Kokkos_ROOT": "/spack/opt/kokkos",
         "MMAPP_HOST_BLAS_LIBRARY": "/spack/opt/openblas/lib/libopenblas.so"},
    ("+scalapack",): {"MMAPP_ENABLE_SCALAPACK": "ON",
                      "MMAPP_SCALAPACK_LIBRARIES": "/spack/opt/scalapack/lib/libscalapack.so"},
    ("+cuda", "+nccl", "+native"): {"MMAPP_ENABLE_NCCL": "ON", "MMAPP_HOST_ARCH": "native",
                                   "CMAKE_CXX_COMPILER": "/spack/opt/kokkos/bin/nvcc_wrapper"},
}
passed = set()
for case, want in cases.items():
    got = dict(a[2:].split("=", 1) for a in args_for(*case))
    passed.update(got)
    for k, v in want.items():
        if got.get(k) != v:
            errors.append(f"spec {' '.join(case) or '(default)'}: -D{k}={got.get(k)!r}, expected {v!r}")
    if "+cuda" not in case and "CMAKE_CXX_COMPILER" in got:
        errors.append(f"spec {case}: CMAKE_CXX_COMPILER set without +cuda")

cmake_text = ""
for f in [os.path.join(source, "CMakeLists.txt")] + glob.glob(os.path.join(source, "cmake", "*.cmake")) + \
        glob.glob(os.path.join(source, "miniapp", "CMakeLists.txt")) + glob.glob(os.path.join(source, "tests", "CMakeLists.txt")):
    cmake_text += open(f).read()
for name in sorted(passed):
    if name.startswith("MMAPP_") or name == "Kokkos_ROOT":
        if not re.search(r"\b" + re.escape(name) + r"\b", cmake_text):
            errors.append(f"-D{name} is not an option of the project's CMake files")

if errors:
    print("spack recipe: FAILED:\n  " + "\n  ".join(errors))
    sys.exit(1)
print(f"spack recipe: {len(deps)} dependencies, variants {sorted(variants)}, {len(cases)} specs mapped to "
      f"{len(passed)} CMake options, every option known to the project's CMake: OK")
