// vendor.hpp — the vendor reference: KokkosBlas::gemm from Kokkos Kernels,
// which calls cuBLAS on CUDA and the host BLAS (OpenBLAS) on the host when
// those TPLs are enabled (they are in both presets). It is both the speed
// yardstick and the correctness oracle. FLOPs: 2*M*N*K.
#pragma once

#include "types.hpp"

#include <KokkosBlas3_gemm.hpp>

namespace mmapp {

/// C = 1 * A * B + 0 * C through KokkosBlas::gemm ("N", "N"), row-major
/// views (Kokkos Kernels swaps operands for LayoutRight before calling the
/// column-major BLAS). cuBLAS runs in its default math mode (plain FP32/FP64,
/// no TF32; see set_vendor_plain_math()). Asynchronous on CUDA.
template <class Space, class T>
void gemm_vendor(const Space& /*space*/, const ConstMatrix<T, Space>& A, const ConstMatrix<T, Space>& B,
                 const Matrix<T, Space>& C) {
  KokkosBlas::gemm("N", "N", T(1), A, B, T(0), C);
}

}  // namespace mmapp
