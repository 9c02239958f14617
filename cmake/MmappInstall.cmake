# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
#
# MmappInstall.cmake — what `cmake --install <build> [--prefix P]` puts in the
# prefix (GNUInstallDirs):
#   bin/mmapp, bin/mmapp-fma-peak                  the two apps
#   share/mmapp/inputs/                            the decks (inputs/bench/ too)
#   share/mmapp/jobs/                              the Slurm scripts, lib.sh, site.sh,
#                                                  summarize.py, and install-paths.sh
#                                                  (where bin/ is, for jobs/lib.sh)
#   share/mmapp/scripts/analysis/                  report tables and plots (Python)
#   share/doc/mmapp/                               README.md, LICENSE, CITATION.cff,
#                                                  CHANGELOG.md, docs/*.md, docs/img/
# docs/results/ (8 MB of the project's own measurements) stays in the source tree.
#
# Kokkos and Kokkos Kernels built in-tree are static libraries (Kokkos'
# default, BUILD_SHARED_LIBS OFF) linked into the apps, and their
# add_subdirectory is EXCLUDE_FROM_ALL (cmake/MmappDependencies.cmake), so
# their headers, archives and CMake package files are not installed: nothing
# links against mmapp (it is an application; no mmappConfig.cmake). With
# -DBUILD_SHARED_LIBS=ON the in-tree Kokkos libraries are needed at run time,
# so Kokkos' own install rules are kept and the apps find them through the
# RPATH $ORIGIN/../<libdir>.
#
# RPATH: the apps keep the link directories outside the build tree
# (INSTALL_RPATH_USE_LINK_PATH): the build links Debian's OpenMP OpenBLAS from
# <libdir>/openblas-openmp/ (cmake/MmappDependencies.cmake), which the loader
# would otherwise replace by the system-default (pthreads) libopenblas.so.0.

include(GNUInstallDirs)

set(MMAPP_INSTALL_DATADIR "${CMAKE_INSTALL_DATADIR}/mmapp" CACHE STRING
    "Where the decks, job scripts and analysis scripts go, relative to the prefix")

foreach(_app mmapp mmapp_fma_peak)
  set_target_properties(${_app} PROPERTIES INSTALL_RPATH_USE_LINK_PATH TRUE)
  if(BUILD_SHARED_LIBS)
    set_property(TARGET ${_app} APPEND PROPERTY INSTALL_RPATH "$ORIGIN/../${CMAKE_INSTALL_LIBDIR}")
  endif()
endforeach()
install(TARGETS mmapp mmapp_fma_peak RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})

install(DIRECTORY inputs/ DESTINATION ${MMAPP_INSTALL_DATADIR}/inputs)
install(DIRECTORY jobs/ DESTINATION ${MMAPP_INSTALL_DATADIR}/jobs USE_SOURCE_PERMISSIONS
        PATTERN "__pycache__" EXCLUDE)
install(DIRECTORY scripts/analysis/ DESTINATION ${MMAPP_INSTALL_DATADIR}/scripts/analysis USE_SOURCE_PERMISSIONS
        PATTERN "__pycache__" EXCLUDE)

# jobs/lib.sh sources install-paths.sh when it lies beside it: the folder of
# the installed apps, relative to jobs/ (so a relocated prefix still works).
# Computed at install time, so `cmake --install --prefix P` is honoured.
install(CODE "
  set(_jobs \"\${CMAKE_INSTALL_PREFIX}/${MMAPP_INSTALL_DATADIR}/jobs\")
  set(_bin \"${CMAKE_INSTALL_BINDIR}\")
  if(NOT IS_ABSOLUTE \"\${_bin}\")
    set(_bin \"\${CMAKE_INSTALL_PREFIX}/\${_bin}\")
  endif()
  file(RELATIVE_PATH _rel \"\${_jobs}\" \"\${_bin}\")
  message(STATUS \"Installing: \${_jobs}/install-paths.sh (bin: \${_rel})\")
  file(WRITE \"\${_jobs}/install-paths.sh\"
\"# SPDX-License-Identifier: BSD-3-Clause
# Copyright (c) 2026 The mmapp developers
# Written by cmake --install (cmake/MmappInstall.cmake); sourced by jobs/lib.sh.
# The installed apps' folder, relative to this jobs/ folder.
MMAPP_INSTALLED_BIN_REL=\${_rel}
\")
")

install(FILES README.md LICENSE CITATION.cff CHANGELOG.md DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY docs/ DESTINATION ${CMAKE_INSTALL_DOCDIR}/docs
        FILES_MATCHING PATTERN "*.md" PATTERN "*.png" PATTERN "results" EXCLUDE)
