// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// report_file.cpp — implementation of report_file.hpp (see there for the contracts).
#include "report/report_file.hpp"

#include "core/printable.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <climits>
#include <cstring>
#include <filesystem>
#include <random>
#include <stdexcept>

namespace mmapp {

namespace {

/// Length of the valid UTF-8 sequence at s[i], or 0 when the byte there
/// starts none (RFC 3629, Table 3-7 of the Unicode Standard).
size_t utf8_sequence(std::string_view s, size_t i) {
  const auto b = [&](size_t j) { return j < s.size() ? static_cast<unsigned char>(s[j]) : 0u; };
  const unsigned c = b(i);
  const auto cont = [&](size_t j, unsigned lo = 0x80, unsigned hi = 0xBF) { return b(j) >= lo && b(j) <= hi; };
  if (c < 0x80) return 1;
  if (c >= 0xC2 && c <= 0xDF) return cont(i + 1) ? 2 : 0;
  if (c >= 0xE0 && c <= 0xEF) {
    const unsigned lo = c == 0xE0 ? 0xA0 : 0x80, hi = c == 0xED ? 0x9F : 0xBF;  // no overlongs, no surrogates
    return cont(i + 1, lo, hi) && cont(i + 2) ? 3 : 0;
  }
  if (c >= 0xF0 && c <= 0xF4) {
    const unsigned lo = c == 0xF0 ? 0x90 : 0x80, hi = c == 0xF4 ? 0x8F : 0xBF;  // no overlongs, <= U+10FFFF
    return cont(i + 1, lo, hi) && cont(i + 2) && cont(i + 3) ? 4 : 0;
  }
  return 0;
}

/// A path split at its last '/': the directory ("." when none, "/" for the
/// root) and the last component (empty when the path ends in '/').
struct SplitPath {
  std::string dir, base;
};
SplitPath split_path(const std::string& path) {
  const size_t slash = path.find_last_of('/');
  if (slash == std::string::npos) return {".", path};
  return {slash == 0 ? "/" : path.substr(0, slash), path.substr(slash + 1)};
}

std::string errno_text(int err) {
  return std::strerror(err);
}

/// The file system's longest name in `dir` (NAME_MAX when it does not say).
size_t name_max(const std::string& dir) {
  errno = 0;
  const long n = ::pathconf(dir.c_str(), _PC_NAME_MAX);
  return n > 0 ? size_t(n) : size_t(NAME_MAX);
}

/// What a non-regular file is, for messages.
const char* kind_of(mode_t m) {
  if (S_ISDIR(m)) return "a directory";
  if (S_ISLNK(m)) return "a symbolic link";
  if (S_ISCHR(m)) return "a character device";
  if (S_ISBLK(m)) return "a block device";
  if (S_ISFIFO(m)) return "a FIFO";
  if (S_ISSOCK(m)) return "a socket";
  return "not a regular file";
}

std::string default_suffix() {
  thread_local std::mt19937_64 gen(std::random_device{}() ^ (std::uint64_t(::getpid()) << 32) ^
                                   std::uint64_t(reinterpret_cast<std::uintptr_t>(&gen)));
  static const char digits[] = "abcdefghijklmnopqrstuvwxyz0123456789";
  std::string s(8, 'a');
  for (auto& c : s) c = digits[gen() % 36];
  return s;
}

/// An exclusively created temporary file beside the target; closes and
/// removes it on destruction unless released (after the rename).
struct TempFile {
  int fd = -1;
  std::string name;
  bool keep = false;
  TempFile() = default;
  TempFile(const TempFile&) = delete;
  TempFile& operator=(const TempFile&) = delete;
  ~TempFile() {
    const int saved = errno;
    if (fd >= 0) ::close(fd);
    if (!name.empty() && !keep) ::unlink(name.c_str());
    errno = saved;
  }
};

/// Creates ".BASE.XXXXXXXX.tmp" in `dir` with O_CREAT | O_EXCL | O_NOFOLLOW
/// (mode 0666 & ~umask), drawing another name while one exists (a file, a
/// link, another writer's). BASE is cut so the name fits the file system.
/// Returns false with errno set on any other failure.
bool create_temp(const std::string& dir, const std::string& base, const FileOps& ops, TempFile& t) {
  const size_t room = name_max(dir);
  const std::string stem = base.substr(0, room > 14 ? room - 14 : 1);  // "." + stem + "." + 8 + ".tmp"
  const std::string prefix = (dir == "/" ? std::string("/") : dir + "/") + "." + stem + ".";
  for (int attempt = 0; attempt < 1000; ++attempt) {
    const std::string name = prefix + (ops.random_suffix ? ops.random_suffix() : default_suffix()) + ".tmp";
    const int fd = ::open(name.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
    if (fd >= 0) {
      t.fd = fd, t.name = name;
      return true;
    }
    if (errno != EEXIST && errno != ELOOP && errno != EINTR) return false;
  }
  errno = EEXIST;
  return false;
}

}  // namespace

bool is_valid_utf8(std::string_view text) {
  for (size_t i = 0; i < text.size();) {
    const size_t n = utf8_sequence(text, i);
    if (n == 0) return false;
    i += n;
  }
  return true;
}

std::string escape_invalid_utf8(std::string_view text) {
  if (is_valid_utf8(text)) return std::string(text);
  static const char hex[] = "0123456789abcdef";
  std::string out;
  out.reserve(text.size() + 16);
  for (size_t i = 0; i < text.size();) {
    if (const size_t n = utf8_sequence(text, i)) {
      out.append(text.substr(i, n));
      i += n;
    } else {
      const auto c = static_cast<unsigned char>(text[i++]);
      out += "\\x";
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::string check_report_target(const std::string& path, const std::string& what) {
  if (path.empty()) return "";
  const std::string shown = what + " " + mmapp::quoted(path);
  const auto [dir, base] = split_path(path);
  if (base.empty() || base == "." || base == "..") return shown + ": names a directory; give the path of a file";
  if (base.size() > NAME_MAX)
    return shown + ": the file name is " + std::to_string(base.size()) + " bytes, longer than the " +
           std::to_string(NAME_MAX) + " a file name may have";
  if (path.size() >= PATH_MAX)
    return shown + ": the path is " + std::to_string(path.size()) + " bytes, longer than the " +
           std::to_string(PATH_MAX - 1) + " a path may have";

  struct stat st {};
  if (::lstat(path.c_str(), &st) == 0) {
    if (S_ISLNK(st.st_mode)) {
      struct stat to {};
      if (::stat(path.c_str(), &to) == 0 && !S_ISREG(to.st_mode))
        return shown + ": is a symbolic link to " + kind_of(to.st_mode) +
               ", not a regular file; give the path of a file";
      return shown +
             ": is a symbolic link; give the path of the file itself (the report replaces its file by "
             "renaming and does not write through links)";
    }
    if (!S_ISREG(st.st_mode))
      return shown + ": is " + kind_of(st.st_mode) + ", not a regular file; give the path of a file";
  } else if (errno != ENOENT && errno != ENOTDIR) {
    return shown + ": cannot be examined: " + errno_text(errno);
  }
  const bool exists = S_ISREG(st.st_mode);

  // The directory: created when missing (mkdir -p), then a trial file in it.
  struct stat dst {};
  if (::stat(dir.c_str(), &dst) != 0) {
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (ec || ::stat(dir.c_str(), &dst) != 0)
      return shown + ": its directory " + mmapp::quoted(dir) +
             " does not exist and cannot be created: " + (ec ? ec.message() : errno_text(errno));
  }
  if (!S_ISDIR(dst.st_mode)) return shown + ": " + mmapp::quoted(dir) + " is not a directory";
  // In a sticky directory (/tmp), only the owner of a file (or of the
  // directory) may rename over it (rename(2), EPERM).
  const uid_t me = ::geteuid();
  if (exists && (dst.st_mode & S_ISVTX) && me != 0 && st.st_uid != me && dst.st_uid != me)
    return shown + ": belongs to another user (uid " + std::to_string(st.st_uid) + ") in the sticky directory " +
           mmapp::quoted(dir) + ", where only its owner may replace it";
  if (const size_t most = name_max(dir); base.size() > most)
    return shown + ": the file name is " + std::to_string(base.size()) + " bytes, longer than the " +
           std::to_string(most) + " its file system allows";
  TempFile trial;
  if (!create_temp(dir, base, {}, trial))
    return shown + ": its directory " + mmapp::quoted(dir) +
           " is not writable: cannot create a file there: " + errno_text(errno);
  return "";  // trial's destructor removes the file
}

void replace_file_atomically(const std::string& path, std::string_view text, const std::string& what,
                             const FileOps& ops) {
  const std::string shown = what + " " + mmapp::quoted(path);
  const auto fail = [&](const std::string& step, int err) {
    throw std::runtime_error(shown + ": " + step + ": " + errno_text(err) + "; the report there is left as it was");
  };
  const auto [dir, base] = split_path(path);
  struct stat st {};
  bool existed = false;
  if (::lstat(path.c_str(), &st) == 0) {
    if (!S_ISREG(st.st_mode))
      throw std::runtime_error(shown + ": is " + std::string(kind_of(st.st_mode)) +
                               " now, not a regular file; the report is not written there");
    existed = true;
  } else if (errno != ENOENT) {
    fail("cannot examine the report's path", errno);
  }

  TempFile t;
  if (!create_temp(dir, base, ops, t)) fail("cannot create a temporary file beside it", errno);
  if (existed) {  // keep the owner (where permitted) and the mode; chown first: it may clear set-id bits
    if (st.st_uid != ::geteuid() || st.st_gid != ::getegid()) (void)!::fchown(t.fd, st.st_uid, st.st_gid);
    if (::fchmod(t.fd, st.st_mode & 07777) != 0) fail("cannot give the temporary file the report's mode", errno);
  }
  const char* p = text.data();
  size_t left = text.size();
  while (left > 0) {
    const size_t chunk = std::min<size_t>(left, size_t(1) << 30);
    const ssize_t w = ops.write ? ops.write(t.fd, p, chunk) : ::write(t.fd, p, chunk);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) fail("cannot write the report", w < 0 ? errno : EIO);
    p += w, left -= size_t(w);
  }
  if ((ops.fsync ? ops.fsync(t.fd) : ::fsync(t.fd)) != 0) fail("cannot flush the report to disk (fsync)", errno);
  const int fd = t.fd;
  t.fd = -1;
  if (::close(fd) != 0) fail("cannot close the report", errno);
  if (::lstat(path.c_str(), &st) == 0 && !S_ISREG(st.st_mode))
    throw std::runtime_error(shown + ": is " + std::string(kind_of(st.st_mode)) +
                             " now, not a regular file; the report is not written there");
  if (::rename(t.name.c_str(), path.c_str()) != 0) fail("cannot rename the report into place", errno);
  t.keep = true;
  // The rename itself is durable once the directory is synced; file systems
  // that cannot sync a directory say EINVAL (nothing to do there).
  const int dfd = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (dfd >= 0) {
    const int rc = ops.fsync ? ops.fsync(dfd) : ::fsync(dfd);
    const int err = errno;
    ::close(dfd);
    if (rc != 0 && err != EINVAL && err != ENOTSUP)
      throw std::runtime_error(
          shown + ": the report was renamed into place but its directory could not be synced: " + errno_text(err));
  }
}

}  // namespace mmapp
