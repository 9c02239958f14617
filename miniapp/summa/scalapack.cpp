// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// scalapack.cpp — implementation of scalapack.hpp (see there for the mapping).
#include "summa/scalapack.hpp"

#include "kernels/vendor/host_blas.hpp"
#include "parallel/grid_comm.hpp"

#include <algorithm>
#include <stdexcept>

#ifdef MMAPP_HAVE_SCALAPACK
extern "C" {
int Csys2blacs_handle(MPI_Comm comm);
void Cfree_blacs_system_handle(int handle);
void Cblacs_gridinit(int* ctxt, const char* order, int nprow, int npcol);
void Cblacs_gridinfo(int ctxt, int* nprow, int* npcol, int* myrow, int* mycol);
void Cblacs_gridexit(int ctxt);
int numroc_(const int* n, const int* nb, const int* iproc, const int* isrcproc, const int* nprocs);
void descinit_(int* desc, const int* m, const int* n, const int* mb, const int* nb, const int* irsrc,
               const int* icsrc, const int* ictxt, const int* lld, int* info);
void psgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const float* alpha,
             const float* a, const int* ia, const int* ja, const int* desca, const float* b, const int* ib,
             const int* jb, const int* descb, const float* beta, float* c, const int* ic, const int* jc,
             const int* descc);
void pdgemm_(const char* transa, const char* transb, const int* m, const int* n, const int* k, const double* alpha,
             const double* a, const int* ia, const int* ja, const int* desca, const double* b, const int* ib,
             const int* jb, const int* descb, const double* beta, double* c, const int* ic, const int* jc,
             const int* descc);
}
#endif

namespace mmapp {

bool scalapack_compiled() {
#ifdef MMAPP_HAVE_SCALAPACK
  return true;
#else
  return false;
#endif
}

std::string scalapack_unavailable_reason(const std::string& backend) {
  if (!scalapack_compiled())
    return "this binary was built without ScaLAPACK (install libscalapack-openmpi-dev, or give "
           "-DMMAPP_SCALAPACK_LIBRARIES, and configure again)";
  if (backend == "cuda")
    return "ScaLAPACK runs on host backends only (serial, openmp), and this rank's backend is cuda";
  return "";
}

#ifdef MMAPP_HAVE_SCALAPACK

namespace {
/// A descriptor for a rows x cols global matrix in blocks mb x nb on the
/// context, whose local part on this process is loc_rows x loc_cols.
void describe_matrix(int* desc, long rows, long cols, int mb, int nb, int ctxt, int myrow, int mycol, int nprow,
                     int npcol, long loc_rows, long loc_cols, const char* what) {
  const int r = int(rows), c = int(cols), zero = 0;
  const int lr = numroc_(&r, &mb, &myrow, &zero, &nprow), lc = numroc_(&c, &nb, &mycol, &zero, &npcol);
  if (lr != loc_rows || lc != loc_cols)
    throw std::runtime_error(std::string("ScaLAPACK: numroc gives a ") + std::to_string(lr) + " x " +
                             std::to_string(lc) + " local block of " + what + ", mmapp's is " +
                             std::to_string(loc_rows) + " x " + std::to_string(loc_cols));
  const int lld = std::max(1, lr);
  int info = 0;
  descinit_(desc, &r, &c, &mb, &nb, &zero, &zero, &ctxt, &lld, &info);
  if (info != 0)
    throw std::runtime_error(std::string("ScaLAPACK: descinit refused the descriptor of ") + what + " (INFO = " +
                             std::to_string(info) + ")");
}
}  // namespace

ScalapackGemm::ScalapackGemm(const GridComm& grid, long m, long n, long k) : m_(int(m)), n_(int(n)), k_(int(k)) {
  const GridShape& g = grid.shape();
  sys_ = Csys2blacs_handle(grid.world());
  ctxt_ = sys_;
  Cblacs_gridinit(&ctxt_, "C", g.q, g.p);  // transposed grid: q x p
  int nprow = 0, npcol = 0, myrow = -1, mycol = -1;
  Cblacs_gridinfo(ctxt_, &nprow, &npcol, &myrow, &mycol);
  const GridCoords& c = grid.coords();
  if (nprow != g.q || npcol != g.p || myrow != c.pcol || mycol != c.prow)
    throw std::runtime_error("ScaLAPACK: BLACS placed rank " + std::to_string(grid.rank()) + " at (" +
                             std::to_string(myrow) + ", " + std::to_string(mycol) + ") of " +
                             std::to_string(nprow) + " x " + std::to_string(npcol) + ", expected (" +
                             std::to_string(c.pcol) + ", " + std::to_string(c.prow) + ")");
  const GridBlocks b = grid_blocks(m, n, k, g, c);
  const int bk_q = int(block_size(k, g.q)), bm_p = int(block_size(m, g.p)), bn_q = int(block_size(n, g.q)),
            bk_p = int(block_size(k, g.p));
  describe_matrix(desc_a_, k, m, bk_q, bm_p, ctxt_, myrow, mycol, nprow, npcol, b.a_k.size(), b.rows.size(), "A^T");
  describe_matrix(desc_b_, n, k, bn_q, bk_p, ctxt_, myrow, mycol, nprow, npcol, b.cols.size(), b.b_k.size(), "B^T");
  describe_matrix(desc_c_, n, m, bn_q, bm_p, ctxt_, myrow, mycol, nprow, npcol, b.cols.size(), b.rows.size(), "C^T");
}

ScalapackGemm::~ScalapackGemm() {
  if (ctxt_ >= 0) Cblacs_gridexit(ctxt_);
  if (sys_ >= 0) Cfree_blacs_system_handle(sys_);
}

void ScalapackGemm::multiply(const float* A, const float* B, float* C) const {
  const float one = 1, zero = 0;
  const int i1 = 1;
  const HostBlasCallScope on_the_kernels_cores;
  psgemm_("N", "N", &n_, &m_, &k_, &one, B, &i1, &i1, desc_b_, A, &i1, &i1, desc_a_, &zero, C, &i1, &i1, desc_c_);
}

void ScalapackGemm::multiply(const double* A, const double* B, double* C) const {
  const double one = 1, zero = 0;
  const int i1 = 1;
  const HostBlasCallScope on_the_kernels_cores;
  pdgemm_("N", "N", &n_, &m_, &k_, &one, B, &i1, &i1, desc_b_, A, &i1, &i1, desc_a_, &zero, C, &i1, &i1, desc_c_);
}

#else

ScalapackGemm::ScalapackGemm(const GridComm&, long m, long n, long k) : m_(int(m)), n_(int(n)), k_(int(k)) {
  throw std::runtime_error("scalapack: " + scalapack_unavailable_reason("openmp"));
}
ScalapackGemm::~ScalapackGemm() = default;
void ScalapackGemm::multiply(const float*, const float*, float*) const {}
void ScalapackGemm::multiply(const double*, const double*, double*) const {}

#endif

}  // namespace mmapp
