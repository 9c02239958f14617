// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// buffer_bytes.hpp — the memory a distributed GEMM (Summa, Scalapack) asks
// for beyond the blocks of A, B and C, so the runner can check need against
// what each rank has before it allocates anything.
#pragma once

namespace mmapp {

/// Bytes of buffers one rank allocates: in its execution space's memory
/// (`device`; host memory on a host backend) and in page-locked host memory
/// (`pinned`: staging buffers, a shared-memory window).
struct BufferBytes {
  double device = 0;
  double pinned = 0;
};

}  // namespace mmapp
