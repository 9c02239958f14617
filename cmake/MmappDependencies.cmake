# MmappDependencies.cmake — after project(): Kokkos and Kokkos Kernels
# (in-tree from MMAPP_KOKKOS_SOURCE_DIR, or installed via Kokkos_ROOT), then
# the system libraries. Everything is consumed as imported targets.

if(MMAPP_KOKKOS_SOURCE_DIR)
  # Kokkos Kernels: BLAS only, no default ETI (mmapp instantiates what it uses),
  # vendor BLAS as TPLs: OpenBLAS on the host, cuBLAS with CUDA.
  set(KokkosKernels_ENABLED_COMPONENTS BLAS CACHE STRING "")
  set(KokkosKernels_ADD_DEFAULT_ETI OFF CACHE BOOL "")
  set(KokkosKernels_ENABLE_TESTS OFF CACHE BOOL "")
  set(KokkosKernels_ENABLE_EXAMPLES OFF CACHE BOOL "")
  set(KokkosKernels_ENABLE_TPL_BLAS ${MMAPP_ENABLE_HOST_BLAS} CACHE BOOL "")
  set(KokkosKernels_ENABLE_TPL_CUBLAS ${Kokkos_ENABLE_CUDA} CACHE BOOL "")
  set(KokkosKernels_ENABLE_TPL_CUSPARSE OFF CACHE BOOL "")
  set(KokkosKernels_ENABLE_TPL_LAPACK OFF CACHE BOOL "")
  # Kokkos Kernels 3.4 takes library *names* here and searches for them.
  set(BLAS_LIBRARIES openblas CACHE STRING "Host BLAS library name(s) for Kokkos Kernels")
  # Without this, Kokkos Kernels enables Fortran only to detect the BLAS symbol
  # mangling (and fails where no Fortran compiler is installed, as on the GPU
  # image). OpenBLAS on Linux x86-64 exports lower case with a trailing underscore.
  set(F77_BLAS_MANGLE "(name,NAME) name ## _" CACHE STRING "Fortran BLAS symbol mangling")
  add_subdirectory("${MMAPP_KOKKOS_SOURCE_DIR}/kokkos" "${CMAKE_BINARY_DIR}/_deps/kokkos-build")
  add_subdirectory("${MMAPP_KOKKOS_SOURCE_DIR}/kokkos-kernels" "${CMAKE_BINARY_DIR}/_deps/kokkos-kernels-build")
else()
  find_package(Kokkos REQUIRED)
  find_package(KokkosKernels REQUIRED)
  message(STATUS "mmapp: using installed Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
endif()

find_package(MPI REQUIRED COMPONENTS CXX)
find_package(yaml-cpp REQUIRED)
find_package(CLI11 REQUIRED)
find_package(fmt REQUIRED)
find_package(nlohmann_json 3.10 REQUIRED)
# xxHash: header-only (XXH_INLINE_ALL), so the GPU image needs only the header.
find_path(MMAPP_XXHASH_INCLUDE_DIR xxhash.h REQUIRED)
add_library(mmapp_xxhash INTERFACE)
target_include_directories(mmapp_xxhash SYSTEM INTERFACE "${MMAPP_XXHASH_INCLUDE_DIR}")
target_compile_definitions(mmapp_xxhash INTERFACE XXH_INLINE_ALL)
# yaml-cpp 0.7 (Debian) exports `yaml-cpp`, 0.8 (GPU image) `yaml-cpp::yaml-cpp`.
if(TARGET yaml-cpp::yaml-cpp)
  set(MMAPP_YAML_TARGET yaml-cpp::yaml-cpp)
else()
  set(MMAPP_YAML_TARGET yaml-cpp)
endif()
