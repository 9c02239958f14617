# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# MmappHostIsa.cmake — the host micro-kernels compiled once per ISA level, for
# the run-time dispatch of miniapp/kernels/host/host_isa.hpp (OpenBLAS's
# DYNAMIC_ARCH, BLIS's multi-configuration builds). Included by
# miniapp/CMakeLists.txt after MmappHostArch.cmake.
#
# - Portable build on x86-64 (MMAPP_HOST_ARCH empty, no Kokkos_ARCH_<CPU>):
#   miniapp/kernels/host/isa_kernels.cpp is compiled four times, as the
#   OBJECT libraries mmapp_host_isa_<level>, with -march=x86-64-v4,
#   -march=x86-64-v3, -march=x86-64-v2 and -march=x86-64, each into its own
#   namespace (MMAPP_HOST_ISA_NS=isa_x86_64_vN), so that no inline function
#   compiled for one ISA can stand in for another's at link time. Those
#   objects do not link Kokkos: they hold only the hot loops. A level the
#   compiler rejects is left out, with a message.
# - MMAPP_HOST_ARCH or Kokkos_ARCH_<CPU> given: one level, compiled with the
#   build's own flags (namespace isa_build); no dispatch.
# - Not x86-64 (aarch64, ppc64le): one level, "generic", the compiler's default.
# The GCC 108599 workaround of MmappHostArch.cmake goes on the AVX2 and
# AVX-512 levels when the compiler has the bug.
#
# Defines mmapp_add_host_isa_kernels(<target>): adds the objects and the
# dispatcher (kernels/host/host_isa.cpp) to <target>, and generates
# kernels/host/host_isa_config.hpp (the list of levels) in the binary dir.
# Sets MMAPP_HOST_ISA_LEVELS (the levels, highest first).

set(MMAPP_HOST_ISA_LEVELS "")
set(_mmapp_isa_dir "${CMAKE_CURRENT_LIST_DIR}/../miniapp")
set(_mmapp_isa_xlist "")
set(MMAPP_HOST_ISA_FIXED_BY "")

function(_mmapp_host_isa_object ns)  # ARGN: compile options
  set(_t mmapp_host_${ns})
  add_library(${_t} OBJECT ${_mmapp_isa_dir}/kernels/host/isa_kernels.cpp)
  target_include_directories(${_t} PRIVATE ${_mmapp_isa_dir})
  target_compile_definitions(${_t} PRIVATE MMAPP_HOST_ISA_NS=${ns})
  if(ARGN)
    target_compile_options(${_t} PRIVATE ${ARGN})
  endif()
  set_target_properties(${_t} PROPERTIES POSITION_INDEPENDENT_CODE ON)
endfunction()

if(NOT MMAPP_HOST_ARCH STREQUAL "" OR _mmapp_kokkos_host_arch)
  # One ISA for the whole build: the kernels take the flags everything else has.
  _mmapp_host_isa_object(isa_build)
  target_link_libraries(mmapp_host_isa_build PRIVATE Kokkos::kokkos)  # Kokkos_ARCH_* / in-tree MMAPP_HOST_ARCH flags
  mmapp_apply_host_arch(mmapp_host_isa_build)                          # installed Kokkos: MMAPP_HOST_ARCH flags
  if(NOT MMAPP_HOST_ARCH STREQUAL "")
    set(MMAPP_HOST_ISA_FIXED_BY "MMAPP_HOST_ARCH=${MMAPP_HOST_ARCH}")
  else()
    set(MMAPP_HOST_ISA_FIXED_BY "Kokkos_ARCH_${_mmapp_kokkos_host_arch}")
  endif()
  set(MMAPP_HOST_ISA_LEVELS build)
  set(_mmapp_isa_xlist "X(isa_build)")
elseif(CMAKE_SYSTEM_PROCESSOR MATCHES "^(x86_64|AMD64|amd64|x64)$")
  include(CheckCXXCompilerFlag)
  # The GCC 108599 workaround for the AVX2 and AVX-512 levels (MmappHostArch.cmake).
  set(_mmapp_isa_workaround "")
  if(_mmapp_host_is_gcc)
    _mmapp_probe_pr108599(_mmapp_isa_probe _out -O2 -mavx2 -mtune=skylake-avx512)
    if(_mmapp_isa_probe STREQUAL "bug" OR (_mmapp_isa_probe STREQUAL "norun" AND _mmapp_host_cxx_version VERSION_LESS 13
                                           AND NOT _mmapp_host_cxx_version VERSION_LESS 12))
      set(_mmapp_isa_workaround -mtune-ctrl=^inter_unit_moves_to_vec)
    endif()
  endif()
  foreach(_level x86-64-v4 x86-64-v3 x86-64-v2 x86-64)
    string(REPLACE "-" "_" _ns "isa_${_level}")
    string(MAKE_C_IDENTIFIER "mmapp_march_${_level}" _var)
    check_cxx_compiler_flag(-march=${_level} ${_var})
    if(NOT ${_var})
      message(STATUS "mmapp: the compiler rejects -march=${_level}: no host kernels for that level")
      continue()
    endif()
    set(_opts -march=${_level})
    if(_level MATCHES "v3|v4")
      list(APPEND _opts ${_mmapp_isa_workaround})
    endif()
    _mmapp_host_isa_object(${_ns} ${_opts})
    list(APPEND MMAPP_HOST_ISA_LEVELS ${_level})
    string(APPEND _mmapp_isa_xlist " X(${_ns})")
  endforeach()
  if(NOT MMAPP_HOST_ISA_LEVELS)
    _mmapp_host_isa_object(isa_generic)
    set(MMAPP_HOST_ISA_LEVELS generic)
    set(_mmapp_isa_xlist "X(isa_generic)")
  endif()
else()
  _mmapp_host_isa_object(isa_generic)
  set(MMAPP_HOST_ISA_LEVELS generic)
  set(_mmapp_isa_xlist "X(isa_generic)")
endif()
if(MMAPP_HOST_ISA_FIXED_BY)
  message(STATUS "mmapp: host micro-kernels: one level, as the build (${MMAPP_HOST_ISA_FIXED_BY}); no run-time dispatch")
else()
  list(JOIN MMAPP_HOST_ISA_LEVELS ", " _levels)
  message(STATUS "mmapp: host micro-kernels: dispatch at run time over ${_levels} (MMAPP_HOST_ISA overrides)")
endif()

function(mmapp_add_host_isa_kernels target)
  set(MMAPP_HOST_ISA_XLIST "${_mmapp_isa_xlist}")
  configure_file(${_mmapp_isa_dir}/kernels/host/host_isa_config.hpp.in
                 ${CMAKE_CURRENT_BINARY_DIR}/kernels/host/host_isa_config.hpp @ONLY)
  target_sources(${target} PRIVATE ${_mmapp_isa_dir}/kernels/host/host_isa.cpp)
  get_property(_targets DIRECTORY ${CMAKE_CURRENT_SOURCE_DIR} PROPERTY BUILDSYSTEM_TARGETS)
  foreach(_t IN LISTS _targets)
    if(_t MATCHES "^mmapp_host_isa_")
      target_sources(${target} PRIVATE $<TARGET_OBJECTS:${_t}>)
    endif()
  endforeach()
endfunction()
