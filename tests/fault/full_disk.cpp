// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
/* full_disk.cpp — a test-only interposer (LD_PRELOAD) that fills the disk
 * for some files only, as a full file system would: write(2) into a file
 * whose path contains MMAPP_FULL_DISK_MATCH (e.g. "/.r.json.", the report
 * writer's temporary files) succeeds until MMAPP_FULL_DISK_BYTES bytes in
 * all have gone into such files (a write that crosses the limit is cut
 * short there), then fails with ENOSPC. Other files (MPI's, the terminal)
 * are untouched, so it works under mpiexec, where RLIMIT_FSIZE would stop
 * the launcher's own files first. MMAPP_FULL_DISK_MATCH unset: the real
 * write, untouched. */
#include <dlfcn.h>
#include <unistd.h>

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>

namespace {
std::atomic<long long> g_used{0};
}

extern "C" ssize_t write(int fd, const void* buf, size_t n) {
  using write_fn = ssize_t (*)(int, const void*, size_t);
  static write_fn real = reinterpret_cast<write_fn>(dlsym(RTLD_NEXT, "write"));
  if (!real) abort();
  const char* match = getenv("MMAPP_FULL_DISK_MATCH");
  if (match && *match && fd > 2) {
    char link[64], target[4096];
    std::snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
    const ssize_t len = readlink(link, target, sizeof target - 1);
    if (len > 0) {
      target[len] = '\0';
      if (std::strstr(target, match)) {
        const char* b = getenv("MMAPP_FULL_DISK_BYTES");
        const long long limit = b ? atoll(b) : 0;
        const long long used = g_used.load();
        if (used >= limit) {
          errno = ENOSPC;
          return -1;
        }
        if (used + (long long)n > limit) n = size_t(limit - used);
        const ssize_t w = real(fd, buf, n);
        if (w > 0) g_used += w;
        return w;
      }
    }
  }
  return real(fd, buf, n);
}
