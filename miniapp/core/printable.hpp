// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// printable.hpp — user-given text made safe to echo in a one-line message:
// a deck value or key, a path, a flag. Used wherever mmapp quotes what the
// user wrote (deck/config.cpp, main.cpp's command line, the Kokkos flags).
// No Kokkos, no MPI: every layer may include it.
#pragma once

#include <cstddef>
#include <cstdio>
#include <string>
#include <string_view>

namespace mmapp {

/// Code points shown at most by printable() before it truncates.
inline constexpr std::size_t kMaxShownChars = 100;

/// `text` as one printable line of at most `max_chars` characters, then, when
/// longer, "...[+N bytes]" (N: the bytes left out). Escapes, so that a message
/// can neither span lines nor reorder the terminal's text:
/// - \n, \r, \t; any other C0 control character and DEL as \xHH;
/// - a byte that is not part of valid UTF-8 as \xHH;
/// - C1 controls (U+0080-U+009F) and Unicode's invisible format characters
///   that reorder or hide text (bidirectional embeddings, overrides and
///   isolates U+202A-U+202E, U+2066-U+2069, marks U+061C, U+200B-U+200F,
///   U+2028, U+2029, U+2060-U+206F, U+FEFF, U+FFF9-U+FFFB, tags
///   U+E0000-U+E007F) as \uXXXX or \UXXXXXXXX ("Trojan Source",
///   CVE-2021-42574, lists the bidirectional ones).
/// Other valid UTF-8 (accented letters, CJK) is kept as it is; a backslash is
/// kept, so applying printable() twice changes nothing more. Never throws
/// anything but std::bad_alloc.
inline std::string printable(std::string_view text, std::size_t max_chars = kMaxShownChars) {
  std::string out;
  std::size_t shown = 0, i = 0;
  const auto hex = [&out](const char* fmt, unsigned long v) {
    char buf[16];
    std::snprintf(buf, sizeof buf, fmt, v);
    out += buf;
  };
  while (i < text.size()) {
    if (shown == max_chars) {
      out += "...[+" + std::to_string(text.size() - i) + " bytes]";
      break;
    }
    const auto c = static_cast<unsigned char>(text[i]);
    ++shown;
    if (c < 0x80) {
      if (c == '\n') out += "\\n";
      else if (c == '\r') out += "\\r";
      else if (c == '\t') out += "\\t";
      else if (c < 0x20 || c == 0x7f) hex("\\x%02x", c);
      else out += static_cast<char>(c);
      ++i;
      continue;
    }
    // A UTF-8 sequence: its length, its code point, and whether it is valid
    // (no overlong form, no surrogate, <= U+10FFFF).
    const std::size_t len = c >= 0xf0 ? 4 : c >= 0xe0 ? 3 : c >= 0xc0 ? 2 : 0;
    unsigned long cp = len == 4 ? c & 0x07u : len == 3 ? c & 0x0fu : c & 0x1fu;
    bool valid = len > 0 && c < 0xf5 && i + len <= text.size();
    for (std::size_t j = 1; valid && j < len; ++j) {
      const auto cc = static_cast<unsigned char>(text[i + j]);
      valid = (cc & 0xc0) == 0x80;
      cp = (cp << 6) | (cc & 0x3fu);
    }
    if (valid)
      valid = !(len == 2 && cp < 0x80) && !(len == 3 && cp < 0x800) && !(len == 4 && cp < 0x10000) &&
              !(cp >= 0xd800 && cp <= 0xdfff) && cp <= 0x10ffff;
    if (!valid) {
      hex("\\x%02x", c);
      ++i;
      continue;
    }
    const bool hidden = (cp >= 0x80 && cp <= 0x9f) || cp == 0x061c || (cp >= 0x200b && cp <= 0x200f) ||
                        (cp >= 0x2028 && cp <= 0x202e) || (cp >= 0x2060 && cp <= 0x206f) || cp == 0xfeff ||
                        (cp >= 0xfff9 && cp <= 0xfffb) || (cp >= 0xe0000 && cp <= 0xe007f);
    if (hidden)
      hex(cp > 0xffff ? "\\U%08lx" : "\\u%04lx", cp);
    else
      out.append(text.substr(i, len));
    i += len;
  }
  return out;
}

/// printable(text) in single quotes: "'text'".
inline std::string quoted(std::string_view text, std::size_t max_chars = kMaxShownChars) {
  return "'" + printable(text, max_chars) + "'";
}

}  // namespace mmapp
