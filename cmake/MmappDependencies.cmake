# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# MmappDependencies.cmake — after project(): Kokkos and Kokkos Kernels
# (in-tree from MMAPP_KOKKOS_SOURCE_DIR, or installed via Kokkos_ROOT), then
# the system libraries. Everything is consumed as imported targets.

# --- Host BLAS (OpenBLAS) for Kokkos Kernels and mmapp: a fallback chain ----
# OpenBLAS' threading matters: the jobs run OpenMP with OMP_PROC_BIND=spread
# OMP_PLACES=threads, which binds the main thread to one core before
# OpenBLAS starts. The pthreads build then runs on that core alone (measured
# 8x slower on a 16-core Xeon); the OpenMP build runs its threads as the same
# OpenMP team as mmapp's kernels, on the same places. So, in order:
#   1. MMAPP_HOST_BLAS_LIBRARY, when given (full path to a libopenblas*.so);
#   2. an OpenMP build of OpenBLAS: Debian/Ubuntu's libopenblas-openmp-dev
#      (<libdir>/openblas-openmp/libopenblas.so), Fedora's libopenblaso;
#   3. the default libopenblas (pthreads on Debian/Ubuntu; host_blas.cpp then
#      re-pins its threads at start, see ensure_host_blas_core).
# The choice is printed and compiled in (MMAPP_HOST_BLAS_LINKED_FLAVOUR); the
# flavour actually loaded is asked at run time (host_blas_threading()).
if(MMAPP_ENABLE_HOST_BLAS)
  set(MMAPP_HOST_BLAS_LIBRARY "" CACHE FILEPATH "Host BLAS (OpenBLAS) library to link; empty: the fallback chain")
  if(MMAPP_HOST_BLAS_LIBRARY)
    set(_blas "${MMAPP_HOST_BLAS_LIBRARY}")
    set(_flavour "given")
  else()
    find_library(MMAPP_OPENBLAS_OPENMP_LIBRARY NAMES openblas openblaso
                 PATHS /usr/lib/${CMAKE_LIBRARY_ARCHITECTURE}/openblas-openmp NO_DEFAULT_PATH)
    if(NOT MMAPP_OPENBLAS_OPENMP_LIBRARY)
      find_library(MMAPP_OPENBLAS_OPENMP_LIBRARY NAMES openblaso openblas_openmp)
    endif()
    if(MMAPP_OPENBLAS_OPENMP_LIBRARY)
      set(_blas "${MMAPP_OPENBLAS_OPENMP_LIBRARY}")
      set(_flavour "openmp")
    else()
      find_library(MMAPP_OPENBLAS_DEFAULT_LIBRARY NAMES openblas REQUIRED)
      set(_blas "${MMAPP_OPENBLAS_DEFAULT_LIBRARY}")
      set(_flavour "default")
    endif()
  endif()
  get_filename_component(_blas_real "${_blas}" REALPATH)
  message(STATUS "mmapp: host BLAS ${_blas} (${_flavour}; -> ${_blas_real})")
  # miniapp/ links MMAPP_OPENBLAS_LIBRARY (its find_library keeps a set value).
  set(MMAPP_OPENBLAS_LIBRARY "${_blas}" CACHE FILEPATH "Host BLAS linked by mmapp (set by the fallback chain)" FORCE)
  set(MMAPP_HOST_BLAS_LINKED_FLAVOUR "${_flavour}")
  # Kokkos Kernels (in-tree) searches library *names* in given directories.
  get_filename_component(_blas_dir "${_blas}" DIRECTORY)
  get_filename_component(_blas_name "${_blas}" NAME_WE)
  string(REGEX REPLACE "^lib" "" _blas_name "${_blas_name}")
  set(BLAS_LIBRARY_DIRS "${_blas_dir}" CACHE STRING "Host BLAS library folder for Kokkos Kernels" FORCE)
  set(BLAS_LIBRARIES "${_blas_name}" CACHE STRING "Host BLAS library name(s) for Kokkos Kernels" FORCE)
endif()

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
  # Without this, Kokkos Kernels enables Fortran only to detect the BLAS symbol
  # mangling (and fails where no Fortran compiler is installed, as on the GPU
  # image). OpenBLAS on Linux x86-64 exports lower case with a trailing underscore.
  set(F77_BLAS_MANGLE "(name,NAME) name ## _" CACHE STRING "Fortran BLAS symbol mangling")
  # Static (the default), they are linked into the apps: EXCLUDE_FROM_ALL keeps
  # their install rules (headers, archives, CMake packages) out of
  # `cmake --install`; shared, they are installed for the apps to load
  # (cmake/MmappInstall.cmake).
  set(_mmapp_kokkos_exclude EXCLUDE_FROM_ALL)
  if(BUILD_SHARED_LIBS)
    set(_mmapp_kokkos_exclude "")
  endif()
  add_subdirectory("${MMAPP_KOKKOS_SOURCE_DIR}/kokkos" "${CMAKE_BINARY_DIR}/_deps/kokkos-build" ${_mmapp_kokkos_exclude})
  add_subdirectory("${MMAPP_KOKKOS_SOURCE_DIR}/kokkos-kernels" "${CMAKE_BINARY_DIR}/_deps/kokkos-kernels-build"
                   ${_mmapp_kokkos_exclude})
else()
  find_package(Kokkos REQUIRED)
  find_package(KokkosKernels REQUIRED)
  message(STATUS "mmapp: using installed Kokkos ${Kokkos_VERSION} from ${Kokkos_DIR}")
  # Kokkos 5 requires C++20 (4.x: C++17). mmapp's targets follow the standard
  # the installed Kokkos needs or was built with (Kokkos_CXX_STANDARD, from its
  # package config), when that is newer than the project's C++17.
  set(_kokkos_std ${CMAKE_CXX_STANDARD})
  if(Kokkos_VERSION VERSION_GREATER_EQUAL 5.0.0)
    set(_kokkos_std 20)
  endif()
  if(Kokkos_CXX_STANDARD MATCHES "^[0-9]+$" AND Kokkos_CXX_STANDARD GREATER _kokkos_std)
    set(_kokkos_std ${Kokkos_CXX_STANDARD})
  endif()
  if(_kokkos_std GREATER CMAKE_CXX_STANDARD)
    set(CMAKE_CXX_STANDARD ${_kokkos_std})
  endif()
  message(STATUS "mmapp: C++${CMAKE_CXX_STANDARD} (Kokkos ${Kokkos_VERSION} was built with C++${Kokkos_CXX_STANDARD})")
endif()

# Sanitizers (the openmp-asan preset): mmapp and its tests only. Directory
# scope, after Kokkos' add_subdirectory: Kokkos and Kokkos Kernels are not
# instrumented (third-party; instrumenting them doubles the 2-core CI build);
# mmapp's kernels and the Kokkos headers they instantiate are, and the
# runtime intercepts every allocation (Views included) anyway.
set(MMAPP_SANITIZE "" CACHE STRING "Sanitizers for mmapp and its tests, e.g. address,undefined (empty: none)")
if(MMAPP_SANITIZE)
  set(MMAPP_SANITIZE_FLAGS -fsanitize=${MMAPP_SANITIZE} -fno-sanitize-recover=all -fno-omit-frame-pointer)
  add_compile_options(${MMAPP_SANITIZE_FLAGS})
  add_link_options(${MMAPP_SANITIZE_FLAGS})
  message(STATUS "mmapp: sanitizers ${MMAPP_SANITIZE} for mmapp and its tests (not for Kokkos)")
endif()

if(MMAPP_ENABLE_HOST_BLAS)
  # Directory scope, after Kokkos: reaches miniapp/ and tests/ only.
  add_compile_definitions(MMAPP_HOST_BLAS_LINKED_FLAVOUR="${MMAPP_HOST_BLAS_LINKED_FLAVOUR}")
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
