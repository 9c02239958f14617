// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// report_file.hpp — the report file's mechanics, apart from its JSON: the
// up-front check of the target path (before anything is computed), the
// atomic replacement of the file (a unique temporary file beside it,
// fsync'ed, renamed over it, the directory fsync'ed), and a UTF-8-safe
// rendering of byte strings (paths, names) for JSON and messages.
//
// The policy (README "Report"): the target is a regular file or absent. A
// directory, device, FIFO or socket is refused, and so is a symbolic link:
// the report is replaced by rename(2), which would replace the link itself,
// and writing through it instead would put the temporary file in another
// directory and leave a window between resolving the link and renaming; a
// link at the report's path is as often an attack (`ln -s victim r.json`) as
// a convenience. A missing parent directory is created (like mkdir -p). An
// existing file's mode is kept; a new file gets 0666 & ~umask.
#pragma once

#include <sys/types.h>

#include <functional>
#include <string>
#include <string_view>

namespace mmapp {

/// `text` with every byte that is not part of a valid UTF-8 sequence (RFC
/// 3629: no overlong forms, no surrogates, nothing above U+10FFFF) written
/// as the four characters `\xhh` (lowercase hex); valid text is returned
/// unchanged: the same text as Python's bytes.decode("utf-8",
/// "backslashreplace"). Never throws (but std::bad_alloc). This is the
/// rendering of file names and other byte strings in the JSON report and in
/// messages.
std::string escape_invalid_utf8(std::string_view text);

/// True when `text` is valid UTF-8 in the sense of escape_invalid_utf8.
bool is_valid_utf8(std::string_view text);

/// The system calls the writer makes that can fail on a full or broken
/// disk; tests replace them to simulate ENOSPC or EIO. Each behaves like
/// the POSIX call (returns -1 and sets errno on failure).
struct FileOps {
  std::function<ssize_t(int fd, const void* buf, size_t n)> write;
  std::function<int(int fd)> fsync;
  /// The random part of a temporary file's name; tests force collisions.
  std::function<std::string()> random_suffix;
};

/// Checks, before anything is computed, that the report can be written to
/// `path`, and creates its parent directory when missing (mkdir -p, mode
/// 0777 & ~umask). `what` names where the path came from in messages
/// ("--report", or "DECK: output.report"). Proves what it can up front:
/// the path names a file (not "dir/", ".", ".."); its last component is at
/// most NAME_MAX bytes and the whole path under PATH_MAX; the target is a
/// regular file or absent (a symbolic link, directory, character or block
/// device, FIFO or socket is refused, and never opened); the directory
/// exists or can be created; a temporary file can be created (exclusively)
/// and removed there. Returns "" when fine (or `path` is empty: no report),
/// else a one-line message naming `what` and the path. Never throws but
/// std::bad_alloc; leaves nothing behind but the created directories.
std::string check_report_target(const std::string& path, const std::string& what);

/// Replaces the file at `path` with `text`, atomically: a reader sees the
/// old file or the new one, whole, never a part. The text goes to a new,
/// uniquely named temporary file created exclusively (O_CREAT | O_EXCL |
/// O_NOFOLLOW: an existing name or link is never followed, another name is
/// drawn) beside the target, named ".NAME.XXXXXXXX.tmp"; it takes the
/// existing target's mode (and owner where permitted) or 0666 & ~umask;
/// it is fsync'ed, renamed over the target, and the directory fsync'ed.
/// Two writers on one path never meet in a temporary file; the last rename
/// wins. Throws std::runtime_error naming `what` and the path with the
/// failing step and errno's text (ENOSPC, EFBIG, EIO, EACCES, ...) when any
/// step fails, or when the target has become something other than a
/// regular file; the temporary file is then removed and the target left as
/// it was. `ops` replaces write/fsync (tests); empty members use the
/// system's calls.
void replace_file_atomically(const std::string& path, std::string_view text, const std::string& what,
                             const FileOps& ops = {});

}  // namespace mmapp
