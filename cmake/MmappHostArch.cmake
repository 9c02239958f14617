# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# MmappHostArch.cmake — which host instruction set the build targets, applied
# the same way to every translation unit this project compiles (Kokkos, Kokkos
# Kernels, mmapp, the tests), as Kokkos' own Kokkos_ARCH_<CPU> options do.
# Included by miniapp/CMakeLists.txt after Kokkos exists.
#
# Two ways to choose, never both:
#   - Kokkos' convention: -DKokkos_ARCH_SKX=ON (Intel AVX-512), _ZEN3, _HSW, ...
#     (Kokkos 3.4's list: cmake/kokkos_arch.cmake; 4.x adds NATIVE, ICX, SPR,
#     ZEN4, ...). Kokkos puts the -march flags on Kokkos::kokkos, so every
#     consumer gets them; mmapp adds nothing but the GCC workaround below.
#   - MMAPP_HOST_ARCH: "" (default: the compiler's default target, portable:
#     x86-64 baseline with GCC), "native" (-march=native: this machine's CPU,
#     the binary may die with SIGILL on another), or any -march value
#     (skylake-avx512, znver3, x86-64-v3, ...).
#     With the in-tree Kokkos the flags go on kokkoscore PUBLIC (as
#     Kokkos_ARCH_* would); with an installed Kokkos (Kokkos_ROOT) only on
#     mmapp_core, with a warning, since the installed library cannot be rebuilt.
#
# GCC bug 108599 (x86 backend, GCC 12 before its fix; Debian bookworm's
# 12.2.0 has it): with AVX2+ and tuning for AVX-512 (e.g. -march=native on an
# AVX-512 CPU) a 256-bit integer constant whose upper half is zero is
# materialised as a broadcast of its low word ({1, 1, 0, 0} becomes
# {1, 1, 1, 1}). cmake/checks/gcc_pr108599.cpp probes for it at configure
# time; when present, -mtune-ctrl=^inter_unit_moves_to_vec turns off the
# precondition of the faulty transformation (GCC's
# ix86_convert_const_wide_int_to_broadcast returns early without it) and is
# added wherever an architecture flag is, and only then.
#
# Sets MMAPP_HOST_ARCH_FLAGS (the list applied) and MMAPP_HOST_ARCH_SUMMARY
# (one line for messages), and defines mmapp_apply_host_arch(<target>) for the
# installed-Kokkos case.

set(MMAPP_HOST_ARCH "" CACHE STRING
    "Host ISA for everything compiled here: empty (portable, compiler default), native, or a -march value")
if(DEFINED MMAPP_NATIVE)
  message(WARNING "mmapp: MMAPP_NATIVE is gone (the default build is portable now); "
                  "use -DMMAPP_HOST_ARCH=native or the openmp-native / cuda-native presets. Ignoring it.")
  unset(MMAPP_NATIVE CACHE)
endif()

# Kokkos' host architectures (3.4 and 4.x names); GPU architectures are not host ISAs.
set(_mmapp_kokkos_host_arch_names
    AMDAVX ARMV80 ARMV81 ARMV8_THUNDERX ARMV8_THUNDERX2 A64FX ARMV9_GRACE WSM SNB HSW BDW SKL SKX ICL ICX SPR
    KNC KNL BGQ POWER7 POWER8 POWER9 ZEN ZEN2 ZEN3 ZEN4 ZEN5 NATIVE RISCV_SG2042 RISCV_RVA22V)
set(_mmapp_kokkos_host_arch "")
if(MMAPP_KOKKOS_SOURCE_DIR)
  foreach(_a IN LISTS _mmapp_kokkos_host_arch_names)
    if(Kokkos_ARCH_${_a})
      list(APPEND _mmapp_kokkos_host_arch ${_a})
    endif()
  endforeach()
else()
  foreach(_a IN LISTS Kokkos_ARCH)  # an installed Kokkos exports the list of its architectures
    if(_a IN_LIST _mmapp_kokkos_host_arch_names)
      list(APPEND _mmapp_kokkos_host_arch ${_a})
    endif()
  endforeach()
endif()

if(_mmapp_kokkos_host_arch AND NOT MMAPP_HOST_ARCH STREQUAL "")
  message(FATAL_ERROR "mmapp: both Kokkos_ARCH_${_mmapp_kokkos_host_arch} and MMAPP_HOST_ARCH=${MMAPP_HOST_ARCH} "
                      "choose the host ISA; give one of them (two -march flags would disagree).")
endif()

set(MMAPP_HOST_ARCH_FLAGS "")
if(MMAPP_HOST_ARCH STREQUAL "")
  if(_mmapp_kokkos_host_arch)
    set(MMAPP_HOST_ARCH_SUMMARY "Kokkos_ARCH_${_mmapp_kokkos_host_arch} (Kokkos' flags)")
  else()
    set(MMAPP_HOST_ARCH_SUMMARY "portable (the compiler's default target)")
  endif()
else()
  set(MMAPP_HOST_ARCH_FLAGS -march=${MMAPP_HOST_ARCH})
  set(MMAPP_HOST_ARCH_SUMMARY "-march=${MMAPP_HOST_ARCH} (MMAPP_HOST_ARCH)")
endif()

# The compiler that compiles host code: nvcc_wrapper (which CMake identifies
# as GNU, having asked g++ through it) hands it to g++ unless
# NVCC_WRAPPER_DEFAULT_COMPILER names another.
get_filename_component(_mmapp_cxx_name "${CMAKE_CXX_COMPILER}" NAME)
if((CMAKE_CXX_COMPILER_ID STREQUAL "GNU" OR CMAKE_CXX_COMPILER_ID MATCHES "Clang")
   AND NOT _mmapp_cxx_name MATCHES "nvcc")
  set(_mmapp_host_cxx "${CMAKE_CXX_COMPILER}")
else()
  set(_mmapp_host_cxx "$ENV{NVCC_WRAPPER_DEFAULT_COMPILER}")
  if(NOT _mmapp_host_cxx)
    set(_mmapp_host_cxx g++)
  endif()
endif()
execute_process(COMMAND ${_mmapp_host_cxx} -dumpfullversion OUTPUT_VARIABLE _mmapp_host_cxx_version
                OUTPUT_STRIP_TRAILING_WHITESPACE ERROR_QUIET)
execute_process(COMMAND ${_mmapp_host_cxx} --version OUTPUT_VARIABLE _mmapp_host_cxx_banner ERROR_QUIET)
set(_mmapp_host_is_gcc OFF)
if(_mmapp_host_cxx_banner MATCHES "Free Software Foundation" AND NOT _mmapp_host_cxx_banner MATCHES "clang")
  set(_mmapp_host_is_gcc ON)
endif()

# Compiles cmake/checks/gcc_pr108599.cpp with FLAGS and runs it: RESULT is
# "ok", "bug" (the miscompile), "norun" (built, but this CPU cannot run it) or
# "nobuild" (the compiler rejected FLAGS: OUTPUT has its message).
function(_mmapp_probe_pr108599 RESULT OUTPUT)
  set(_dir "${CMAKE_BINARY_DIR}/mmapp-checks")
  file(MAKE_DIRECTORY "${_dir}")
  string(MD5 _tag "${ARGN}")
  set(_exe "${_dir}/gcc_pr108599-${_tag}")
  execute_process(COMMAND ${_mmapp_host_cxx} -std=c++17 ${ARGN}
                          "${PROJECT_SOURCE_DIR}/cmake/checks/gcc_pr108599.cpp" -o "${_exe}"
                  RESULT_VARIABLE _rc OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _rc EQUAL 0)
    set(${RESULT} nobuild PARENT_SCOPE)
    set(${OUTPUT} "${_out}" PARENT_SCOPE)
    return()
  endif()
  execute_process(COMMAND "${_exe}" RESULT_VARIABLE _rc OUTPUT_QUIET ERROR_QUIET)
  if(_rc EQUAL 0)
    set(${RESULT} ok PARENT_SCOPE)
  elseif(_rc EQUAL 1)
    set(${RESULT} bug PARENT_SCOPE)
  else()
    set(${RESULT} norun PARENT_SCOPE)  # SIGILL: the flags target a CPU this one is not
  endif()
  set(${OUTPUT} "" PARENT_SCOPE)
endfunction()

if(MMAPP_HOST_ARCH_FLAGS)
  _mmapp_probe_pr108599(_probe _probe_out -O2 ${MMAPP_HOST_ARCH_FLAGS})
  if(_probe STREQUAL "nobuild")
    message(FATAL_ERROR "mmapp: the host compiler (${_mmapp_host_cxx}) rejects ${MMAPP_HOST_ARCH_FLAGS}:\n${_probe_out}")
  endif()
endif()

# The workaround, when the compiler has the bug and an ISA beyond the default is asked for.
set(MMAPP_HOST_ARCH_WORKAROUND "")
if(_mmapp_host_is_gcc AND (MMAPP_HOST_ARCH_FLAGS OR _mmapp_kokkos_host_arch))
  # The bug's own trigger (GCC's testcase flags) tests the compiler, whatever
  # CPU this is, as long as it runs AVX2.
  _mmapp_probe_pr108599(_compiler_probe _out -O2 -mavx2 -mtune=skylake-avx512)
  if(_compiler_probe STREQUAL "bug" OR (_compiler_probe STREQUAL "norun" AND _mmapp_host_cxx_version VERSION_LESS 13
                                         AND NOT _mmapp_host_cxx_version VERSION_LESS 12))
    set(MMAPP_HOST_ARCH_WORKAROUND -mtune-ctrl=^inter_unit_moves_to_vec)
    _mmapp_probe_pr108599(_fixed _out -O2 -mavx2 -mtune=skylake-avx512 ${MMAPP_HOST_ARCH_WORKAROUND})
    if(_fixed STREQUAL "bug")
      message(FATAL_ERROR "mmapp: GCC ${_mmapp_host_cxx_version} miscompiles cmake/checks/gcc_pr108599.cpp (GCC bug "
                          "108599) even with ${MMAPP_HOST_ARCH_WORKAROUND}; build portable (MMAPP_HOST_ARCH=\"\") "
                          "or with GCC >= 13.")
    endif()
    list(APPEND MMAPP_HOST_ARCH_FLAGS ${MMAPP_HOST_ARCH_WORKAROUND})
    string(APPEND MMAPP_HOST_ARCH_SUMMARY
           "; GCC ${_mmapp_host_cxx_version} has GCC bug 108599 (probe: ${_compiler_probe}): + ${MMAPP_HOST_ARCH_WORKAROUND}")
  endif()
endif()
if(MMAPP_HOST_ARCH_FLAGS)
  # Checked with the flags actually used, where this CPU can run them.
  _mmapp_probe_pr108599(_final _out -O2 ${MMAPP_HOST_ARCH_FLAGS})
  if(_final STREQUAL "bug")
    message(FATAL_ERROR "mmapp: cmake/checks/gcc_pr108599.cpp is miscompiled with ${MMAPP_HOST_ARCH_FLAGS}")
  endif()
endif()

# In-tree Kokkos: the flags go where Kokkos_ARCH_* would put them, PUBLIC on
# kokkoscore, so Kokkos, Kokkos Kernels and every consumer agree.
if(MMAPP_KOKKOS_SOURCE_DIR AND MMAPP_HOST_ARCH_FLAGS)
  target_compile_options(kokkoscore PUBLIC $<$<COMPILE_LANGUAGE:CXX>:${MMAPP_HOST_ARCH_FLAGS}>)
endif()
message(STATUS "mmapp: host ISA: ${MMAPP_HOST_ARCH_SUMMARY}")

# Installed Kokkos: only mmapp's own code can follow MMAPP_HOST_ARCH.
function(mmapp_apply_host_arch target)
  if(NOT MMAPP_KOKKOS_SOURCE_DIR AND MMAPP_HOST_ARCH_FLAGS)
    target_compile_options(${target} PUBLIC $<$<COMPILE_LANGUAGE:CXX>:${MMAPP_HOST_ARCH_FLAGS}>)
    if(NOT MMAPP_HOST_ARCH STREQUAL "")
      message(WARNING "mmapp: the installed Kokkos was not built with MMAPP_HOST_ARCH=${MMAPP_HOST_ARCH}; only mmapp's "
                      "code gets ${MMAPP_HOST_ARCH_FLAGS}. Build Kokkos with Kokkos_ARCH_<CPU> instead to keep one ISA.")
    endif()
  endif()
endfunction()
