# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
"""Spack recipe for mmapp, a performance-portable dense GEMM mini-app on Kokkos.

Use from a checkout (mmapp has no public release archive yet):

    spack repo add packaging/spack
    spack spec mmapp                                   # what would be built
    cd /path/to/mmapp && spack dev-build mmapp@=main   # build this checkout
    # or in an environment: spack develop --path /path/to/mmapp mmapp@=main
    # or set the clone to fetch from, in packages.yaml:
    #   packages: {mmapp: {package_attributes: {git: "https://your.host/mmapp.git"}}}

The variants map to the project's CMake options (CMakeLists.txt,
cmake/*.cmake, miniapp/CMakeLists.txt):
    +cuda cuda_arch=<sm>  Kokkos' CUDA backend (the build uses Spack's Kokkos
                          through Kokkos_ROOT and its compiler, nvcc_wrapper)
    +nccl                 MMAPP_ENABLE_NCCL=ON (GPU ranks' communication; CUDA only)
    +native               MMAPP_HOST_ARCH=native (host code for the build machine's CPU)
    +scalapack            MMAPP_ENABLE_SCALAPACK=ON (the `scalapack` kernel of grid decks)
Kokkos Kernels uses OpenBLAS (OpenMP threading, as the project's own build
prefers) on the host and cuBLAS with CUDA; mmapp links the same OpenBLAS
(MMAPP_HOST_BLAS_LIBRARY). Tests (Catch2 v3) build only with `spack install --test=root`.
"""
try:  # Spack 1.0 and later: build systems live in the builtin repository
    from spack_repo.builtin.build_systems.cmake import CMakePackage
    from spack_repo.builtin.build_systems.cuda import CudaPackage
except ImportError:  # older Spack: spack.package exports them
    pass

from spack.package import *  # noqa: F401,F403


class Mmapp(CMakePackage, CudaPackage):
    """mmapp computes C = A x B (dense, row-major, float or double) with
    portable Kokkos kernels on the OpenMP and CUDA backends, over MPI ranks by
    rows or on a SUMMA process grid, verifies every repetition independently
    and measures each kernel against the vendor GEMM (cuBLAS, OpenBLAS)."""

    license("BSD-3-Clause")

    version("main", branch="main")

    variant("nccl", default=False, description="NCCL for GPU ranks' communication (MMAPP_ENABLE_NCCL)")
    variant("native", default=False, description="Host code for the build machine's CPU (MMAPP_HOST_ARCH=native)")
    variant("scalapack", default=True, description="ScaLAPACK p?gemm as the process grid's yardstick")

    depends_on("cxx", type="build")
    depends_on("cmake@3.21:", type="build")

    # Kokkos 3.4 through 4.x (the API both share; Kokkos 5 builds as C++20);
    # OpenMP for the host ranks, Serial besides.
    depends_on("kokkos@3.4: +openmp")
    depends_on("kokkos-kernels@3.4: +blas")
    depends_on("kokkos-kernels+cublas", when="+cuda")
    depends_on("kokkos~cuda", when="~cuda")
    for _arch in CudaPackage.cuda_arch_values:
        depends_on(f"kokkos+cuda+wrapper cuda_arch={_arch}", when=f"+cuda cuda_arch={_arch}")
        depends_on(f"nccl cuda_arch={_arch}", when=f"+nccl cuda_arch={_arch}")
    requires("^kokkos+cuda_lambda", when="+cuda ^kokkos@:4")
    conflicts("cuda_arch=none", when="+cuda", msg="+cuda needs a cuda_arch, e.g. cuda_arch=90 (H100, H200)")
    conflicts("+nccl", when="~cuda", msg="NCCL carries GPU ranks' data: +nccl needs +cuda")

    depends_on("mpi")
    depends_on("openblas threads=openmp")
    depends_on("yaml-cpp")
    depends_on("cli11")
    depends_on("fmt")
    depends_on("nlohmann-json@3.10:")
    depends_on("xxhash")  # header-only use (XXH_INLINE_ALL)
    depends_on("scalapack", when="+scalapack")
    depends_on("nccl", when="+nccl")
    depends_on("catch2@3:", type="test")

    def cmake_args(self):
        spec = self.spec
        args = [
            # An installed Kokkos: nothing is downloaded (cmake/MmappKokkosSource.cmake).
            self.define("Kokkos_ROOT", spec["kokkos"].prefix),
            self.define("MMAPP_ENABLE_TESTS", self.run_tests),
            self.define("MMAPP_ENABLE_HOST_BLAS", True),
            self.define("MMAPP_HOST_BLAS_LIBRARY", spec["openblas"].libs.libraries[0]),
            self.define("MMAPP_HOST_ARCH", "native" if spec.satisfies("+native") else ""),
            self.define("MMAPP_ENABLE_NCCL", "ON" if spec.satisfies("+nccl") else "OFF"),
            self.define("MMAPP_ENABLE_SCALAPACK", "ON" if spec.satisfies("+scalapack") else "OFF"),
        ]
        if spec.satisfies("+scalapack"):
            args.append(self.define("MMAPP_SCALAPACK_LIBRARIES", spec["scalapack"].libs.joined(";")))
        if spec.satisfies("+cuda"):
            # Kokkos' CUDA backend compiles through the compiler Kokkos was built with.
            args.append(self.define("CMAKE_CXX_COMPILER", self["kokkos"].kokkos_cxx))
        return args
