# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# MmappKokkosSource.cmake — included BEFORE project() by the top-level
# CMakeLists.txt, because with the CUDA backend the C++ compiler itself
# (Kokkos' nvcc_wrapper) comes from the Kokkos sources.
#
# Unless Kokkos_ROOT is given (an installed Kokkos is then used and nothing is
# downloaded), this:
#   1. finds the pristine Kokkos/Kokkos Kernels 3.4.01 sources in the cache
#      (MMAPP_CACHE_DIR, default $ENV{MMAPP_CACHE_DIR}, else
#      ${XDG_CACHE_HOME:-~/.cache}/mmapp), fetching them once with
#      cmake/fetch-kokkos-source.sh (Debian source package trilinos 13.2.0-4),
#      or unpacks MMAPP_KOKKOS_SOURCE_ARCHIVE (scripts/setup/pack-offline-deps.sh);
#   2. copies them into the build tree and applies cmake/patches-kokkos-3.4.01.patch
#      idempotently (already applied: nothing to do; not applicable: fatal error);
#   3. sets MMAPP_KOKKOS_SOURCE_DIR (holds kokkos/ and kokkos-kernels/) and, when
#      Kokkos_ENABLE_CUDA is ON and no compiler was chosen, CMAKE_CXX_COMPILER to
#      the patched nvcc_wrapper.

if(Kokkos_ROOT OR DEFINED ENV{Kokkos_ROOT})
  set(MMAPP_KOKKOS_SOURCE_DIR "" CACHE INTERNAL "")
  return()
endif()

set(_mmapp_default_cache "$ENV{MMAPP_CACHE_DIR}")
if(NOT _mmapp_default_cache)
  if(DEFINED ENV{XDG_CACHE_HOME} AND NOT "$ENV{XDG_CACHE_HOME}" STREQUAL "")
    set(_mmapp_default_cache "$ENV{XDG_CACHE_HOME}/mmapp")
  else()
    set(_mmapp_default_cache "$ENV{HOME}/.cache/mmapp")
  endif()
endif()
set(MMAPP_CACHE_DIR "${_mmapp_default_cache}" CACHE PATH
    "Where the pristine Kokkos 3.4.01 sources are cached (outside the build tree)")
set(MMAPP_KOKKOS_SOURCE_ARCHIVE "" CACHE FILEPATH
    "Optional .tar.gz of kokkos-3.4.01/{kokkos,kokkos-kernels} (for machines with no package archive)")

set(_mmapp_pristine "${MMAPP_CACHE_DIR}/kokkos-3.4.01")
set(_mmapp_stamp
    "${_mmapp_pristine}/.mmapp-source-0ddb47784ba7b8a6b9a07a4822b33be508feb4ccd54301b2a5d10c9e54524b90")

if(EXISTS "${_mmapp_stamp}")
  message(STATUS "mmapp: Kokkos 3.4.01 sources from the cache ${_mmapp_pristine} (nothing downloaded)")
else()
  if(MMAPP_KOKKOS_SOURCE_ARCHIVE)
    message(STATUS "mmapp: unpacking Kokkos sources from ${MMAPP_KOKKOS_SOURCE_ARCHIVE}")
    file(MAKE_DIRECTORY "${MMAPP_CACHE_DIR}")
    execute_process(COMMAND ${CMAKE_COMMAND} -E tar xzf "${MMAPP_KOKKOS_SOURCE_ARCHIVE}"
                    WORKING_DIRECTORY "${MMAPP_CACHE_DIR}" RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0 OR NOT EXISTS "${_mmapp_stamp}")
      message(FATAL_ERROR "mmapp: ${MMAPP_KOKKOS_SOURCE_ARCHIVE} is not an archive made by "
                          "scripts/setup/pack-offline-deps.sh (no kokkos-3.4.01/.mmapp-source-* stamp)")
    endif()
  else()
    execute_process(COMMAND bash "${CMAKE_CURRENT_LIST_DIR}/fetch-kokkos-source.sh" "${MMAPP_CACHE_DIR}"
                    RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0)
      message(FATAL_ERROR "mmapp: could not obtain the Kokkos 3.4.01 sources (see the message above)")
    endif()
  endif()
endif()

# A patched copy in the build tree; the cache stays pristine.
set(MMAPP_KOKKOS_SOURCE_DIR "${CMAKE_BINARY_DIR}/_deps/kokkos-3.4.01" CACHE INTERNAL "")
set(_mmapp_patch "${CMAKE_CURRENT_LIST_DIR}/patches-kokkos-3.4.01.patch")
# The copy remembers which patch it got (its SHA-256); a build tree patched
# by another version of the file starts again from the pristine sources.
file(SHA256 "${_mmapp_patch}" _mmapp_patch_sha)
set(_mmapp_patch_stamp "${MMAPP_KOKKOS_SOURCE_DIR}/mmapp-patch.sha256")
if(EXISTS "${MMAPP_KOKKOS_SOURCE_DIR}/kokkos/CMakeLists.txt")
  set(_mmapp_stamped "")
  if(EXISTS "${_mmapp_patch_stamp}")
    file(READ "${_mmapp_patch_stamp}" _mmapp_stamped)
  endif()
  if(NOT _mmapp_stamped STREQUAL _mmapp_patch_sha)
    message(STATUS "mmapp: ${_mmapp_patch} changed: copying the pristine Kokkos sources again")
    file(REMOVE_RECURSE "${MMAPP_KOKKOS_SOURCE_DIR}")
  endif()
endif()
if(NOT EXISTS "${MMAPP_KOKKOS_SOURCE_DIR}/kokkos/CMakeLists.txt")
  file(MAKE_DIRECTORY "${CMAKE_BINARY_DIR}/_deps")
  file(COPY "${_mmapp_pristine}/kokkos" "${_mmapp_pristine}/kokkos-kernels"
       DESTINATION "${MMAPP_KOKKOS_SOURCE_DIR}")
endif()
find_program(MMAPP_PATCH_EXECUTABLE patch)
if(NOT MMAPP_PATCH_EXECUTABLE)
  message(FATAL_ERROR "mmapp: the 'patch' program is needed (apt-get install patch)")
endif()
execute_process(COMMAND "${MMAPP_PATCH_EXECUTABLE}" -p1 -R --dry-run --force --silent -i "${_mmapp_patch}"
                WORKING_DIRECTORY "${MMAPP_KOKKOS_SOURCE_DIR}" RESULT_VARIABLE _applied
                OUTPUT_QUIET ERROR_QUIET)
if(_applied EQUAL 0)
  message(STATUS "mmapp: Kokkos patches already applied in ${MMAPP_KOKKOS_SOURCE_DIR}")
else()
  execute_process(COMMAND "${MMAPP_PATCH_EXECUTABLE}" -p1 --forward --dry-run --silent -i "${_mmapp_patch}"
                  WORKING_DIRECTORY "${MMAPP_KOKKOS_SOURCE_DIR}" RESULT_VARIABLE _ok
                  OUTPUT_VARIABLE _out ERROR_VARIABLE _out)
  if(NOT _ok EQUAL 0)
    message(FATAL_ERROR "mmapp: ${_mmapp_patch} no longer applies to ${MMAPP_KOKKOS_SOURCE_DIR}:\n${_out}\n"
                        "Delete ${CMAKE_BINARY_DIR}/_deps to start from the pristine sources, "
                        "or update the patch for this Kokkos version.")
  endif()
  execute_process(COMMAND "${MMAPP_PATCH_EXECUTABLE}" -p1 --forward --silent -i "${_mmapp_patch}"
                  WORKING_DIRECTORY "${MMAPP_KOKKOS_SOURCE_DIR}" RESULT_VARIABLE _ok)
  if(NOT _ok EQUAL 0)
    message(FATAL_ERROR "mmapp: applying ${_mmapp_patch} failed")
  endif()
  message(STATUS "mmapp: applied ${_mmapp_patch}")
endif()
file(WRITE "${_mmapp_patch_stamp}" "${_mmapp_patch_sha}")

if(Kokkos_ENABLE_CUDA AND NOT CMAKE_CXX_COMPILER AND NOT DEFINED ENV{CXX})
  set(CMAKE_CXX_COMPILER "${MMAPP_KOKKOS_SOURCE_DIR}/kokkos/bin/nvcc_wrapper" CACHE FILEPATH
      "Kokkos 3.4 compiles CUDA through nvcc_wrapper" FORCE)
endif()
