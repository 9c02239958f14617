// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// gcc_pr108599.cpp — configure-time probe for GCC bug 108599 (x86 backend,
// GCC 12 before the fix): a 256-bit integer constant whose upper half is zero,
// e.g. the four longs {1, 1, 0, 0}, is materialised as a vpbroadcastq of its
// low element, i.e. as {1, 1, 1, 1}. GCC's fix (testcase
// gcc.target/i386/pr108599.c) makes ix86_convert_const_wide_int_to_broadcast
// refuse constants with fewer stored words than the mode; that function
// returns early when the tuning flag inter_unit_moves_to_vec is off, which is
// the workaround mmapp applies (cmake/MmappHostArch.cmake).
// Exit status 0: correct code; 1: the miscompile.
#include <vector>

struct S {
  unsigned long long a, b, c, d;
};

__attribute__((noipa)) int check(unsigned long long x, unsigned long long y, unsigned long long z,
                                 unsigned long long w, const S s) {
  return s.a != x || s.b != y || s.c != z || s.d != w;
}

__attribute__((noipa)) int check_vector(const std::vector<long>& v) {
  return v.size() != 4 || v[0] != 1 || v[1] != 1 || v[2] != 0 || v[3] != 0;
}

int main() {
  int bad = check(16, 16, 0, 0, S{16, 16, 0, 0});
  const std::vector<long> v{1, 1, 0, 0};  // the constant seen wrong in mmapp's decomposition test
  bad |= check_vector(v);
  return bad;
}
