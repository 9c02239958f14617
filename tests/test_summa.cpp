// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// test_summa.cpp — SUMMA on every p x q grid of the job's rank count (run at
// 1, 2, 3 and 4 ranks), on every enabled execution space, float and double:
//  - every kernel of the registry as the local GEMM (its default shape)
//    gives each rank's C block within Higham's deterministic bound of an
//    independent double-precision product of the same global (i, j) elements,
//    on shapes that are not multiples of p, q or the panel, and with empty
//    blocks (M = 2 or N = 1 over 3 or 4 parts);
//  - repetitions, and the two overlap modes, give bit-identical C;
//  - ScaLAPACK's p?gemm on the same blocks matches the reference (host);
//  - the 2-D Freivalds verifier passes a correct C and fails, on every
//    rank, a C with one wrong element, one NaN, a lost panel or C = 0 (the
//    counts are not multiplied by the process columns); exact checks work on
//    global indices;
//  - the streamed checksum is the hash of C in global row-major order, in
//    chunks of any size;
//  - a local GEMM that throws on one rank neither hangs the others nor
//    spoils their C;
//  - the transport rule: auto picks NCCL only where it is built, every rank
//    is a GPU rank and no two share a GPU (fake NcclFacts, any machine);
//    `transfer: nccl` is refused otherwise with the reason, and auto's note
//    says why NCCL was left out only where it was a candidate; duplicate GPU
//    ids are found; with NCCL built and distinct GPUs (the GPU node) the
//    NCCL transport is one of the paths every correctness case runs;
//  - the panel loop over a transport that logs its calls: panels posted
//    depth() ahead, then wait, GEMM (beta 0 first, 1 after), progress and
//    release for each, start and finish around; a throwing GEMM skips the
//    later GEMMs but no panel, and its error comes after finish.
#include "core/exec_spaces.hpp"
#include "parallel/grid.hpp"
#include "parallel/grid_comm.hpp"
#include "parallel/grid_io.hpp"
#include "deck/init.hpp"
#include "kernels/catalog.hpp"
#include "kernels/vendor/vendor.hpp"
#include "summa/scalapack.hpp"
#include "summa/summa.hpp"
#include "summa/transport_select.hpp"
#include "check/verify.hpp"

#include <catch2/catch_template_test_macros.hpp>
#include <catch2/catch_test_macros.hpp>

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

using namespace mmapp;

namespace {

int world_size() {
  int n = 1;
  MPI_Comm_size(MPI_COMM_WORLD, &n);
  return n;
}

/// Every p x q with p * q == n.
std::vector<GridShape> grids_of(int n) {
  std::vector<GridShape> g;
  for (int p = 1; p <= n; ++p)
    if (n % p == 0) g.push_back({p, n / p});
  return g;
}

template <class T>
const char* dtype_name() {
  return sizeof(T) == 4 ? "float" : "double";
}

struct Shape {
  long m, n, k, nb;
};

/// This rank's blocks of A, B and C for a problem on a grid, A and B filled
/// from the global generator (C left unset).
template <class Space, class T>
struct Blocks {
  GridBlocks b;
  Matrix<T, Space> A, B, C;
  Blocks(const GridComm& grid, const Shape& s, Init init = Init::random, std::uint64_t seed = 3)
      : b(grid_blocks(s.m, s.n, s.k, grid.shape(), grid.coords())),
        A("A", b.rows.size(), b.a_k.size()),
        B("B", b.b_k.size(), b.cols.size()),
        C("C", b.rows.size(), b.cols.size()) {
    fill_block<Space, T>(A, 0, b.rows.begin, b.a_k.begin, init, seed);
    fill_block<Space, T>(B, 1, b.b_k.begin, b.cols.begin, init, seed);
  }
};

/// The reference for this rank's C block, in double from the same global
/// elements (whole rows of A, whole columns of B from the generator), with
/// Higham's deterministic bound gamma_K(u) (|A||B|)_ij for any summation order.
template <class T>
struct Reference {
  std::vector<double> c, bound;
  Reference(const Shape& s, const GridBlocks& b, Init init = Init::random, std::uint64_t seed = 3) {
    const long mi = b.rows.size(), nj = b.cols.size();
    HostMatrix<T> Ar("Ar", mi, s.k), Bc("Bc", s.k, nj);
    fill_matrix<T>(Ar, 0, b.rows.begin, init, seed, 0);
    fill_matrix<T>(Bc, 1, 0, init, seed, b.cols.begin);
    const double u = std::numeric_limits<T>::epsilon() / 2;
    c.assign(size_t(mi * nj), 0.0);
    bound.assign(size_t(mi * nj), 0.0);
    for (long i = 0; i < mi; ++i)
      for (long j = 0; j < nj; ++j) {
        double sum = 0, abs = 0;
        for (long k = 0; k < s.k; ++k) sum += double(Ar(i, k)) * double(Bc(k, j)), abs += std::fabs(double(Ar(i, k)) * double(Bc(k, j)));
        c[size_t(i * nj + j)] = sum;
        bound[size_t(i * nj + j)] = gamma_n(double(s.k), u) * abs * (1 + 1e-6) + 1e-300;
      }
  }
};

/// A copy of a device matrix's elements in host memory, row-major.
template <class View>
std::vector<typename View::non_const_value_type> to_host(const View& C) {
  using T = typename View::non_const_value_type;
  std::vector<T> h(C.extent(0) * C.extent(1));
  Kokkos::deep_copy(HostMatrix<T>(h.data(), C.extent(0), C.extent(1)), C);
  return h;
}

/// Elements of this rank's block outside the reference bound (or non-finite).
template <class T>
long bad_elements(const std::vector<T>& c, const Reference<T>& ref) {
  long bad = 0;
  for (size_t e = 0; e < c.size(); ++e)
    if (!(std::fabs(double(c[e]) - ref.c[e]) <= ref.bound[e])) ++bad;
  return bad;
}

/// The panel paths a Space can use: host on host backends; staged always on a
/// GPU, cuda-aware too when Open MPI says it can; shared on both when every
/// rank is on this node (as in these tests); nccl on a GPU where NCCL is
/// built and every rank has a GPU of its own. Collective.
template <class Space>
std::vector<PanelPath> paths_for() {
  std::vector<PanelPath> p{is_host_space_v<Space> ? PanelPath::host : PanelPath::staged};
  if (!is_host_space_v<Space> && mpi_cuda_support() == 1) p.push_back(PanelPath::cuda_aware);
  if (comm_is_node_local(MPI_COMM_WORLD)) p.push_back(PanelPath::shared);
  if (nccl_facts(MPI_COMM_WORLD, !is_host_space_v<Space>).possible()) p.push_back(PanelPath::nccl);
  return p;
}

/// Every kernel's default variant.
template <class Space, class T>
std::vector<KernelVariant<Space, T>> default_variants() {
  std::vector<KernelVariant<Space, T>> v;
  for (const auto& name : kernel_names()) v.push_back(variants_named<Space, T>(name).front());
  return v;
}

template <class Space, class T>
void every_kernel_on_every_grid(const std::vector<Shape>& shapes) {
  for (const GridShape& g : grids_of(world_size()))
    for (const Shape& s : shapes) {
      const GridComm grid(MPI_COMM_WORLD, g);
      Blocks<Space, T> blk(grid, s);
      const Reference<T> ref(s, blk.b);
      const auto panels = summa_panels(s.k, g, s.nb);
      for (const auto& v : default_variants<Space, T>()) {
        std::vector<T> first;
        for (const PanelPath path : paths_for<Space>())
          for (const bool overlap : {false, true}) {
            const std::string what = std::string(Space::name()) + " " + dtype_name<T>() + " " + v.name + " grid " +
                                     std::to_string(g.p) + "x" + std::to_string(g.q) + " " + std::to_string(s.m) +
                                     "x" + std::to_string(s.n) + "x" + std::to_string(s.k) + " nb " +
                                     std::to_string(s.nb) + " " + describe(path) + (overlap ? " ibcast" : " none");
            INFO(what);
            Summa<Space, T> summa(Space{}, grid, blk.b, panels, blk.A, blk.B, blk.C, path, overlap);
            const Workspace<Space> work("work", v.workspace(blk.b.rows.size(), blk.b.cols.size(), widest_panel(panels)));
            for (int rep = 0; rep < 2; ++rep) {
              Kokkos::deep_copy(blk.C, std::numeric_limits<T>::quiet_NaN());
              summa.multiply(v.run, work);
              const auto c = to_host(blk.C);
              CHECK(bad_elements(c, ref) == 0);
              if (first.empty())
                first = c;
              else
                CHECK(c == first);  // repetitions, overlap modes and panel paths: the same bits
            }
          }
      }
    }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("summa: every kernel on every grid of the rank count matches the reference", "[summa]",
                        EnabledSpaces) {
  // Not multiples of p, q or the panel; a panel of 1; empty blocks (M = 2 over
  // 3 or 4 process rows, N = 1 over 2+ process columns, K = 2 over 3 or 4).
  const std::vector<Shape> shapes{{37, 29, 53, 8}, {2, 5, 4, 1}, {5, 1, 2, 3}, {1, 1, 1, 1}, {20, 18, 40, 64}};
  every_kernel_on_every_grid<TestType, float>(shapes);
  every_kernel_on_every_grid<TestType, double>(shapes);
}

TEMPLATE_LIST_TEST_CASE("scalapack: p?gemm on the grid's own blocks matches the reference", "[summa][scalapack]",
                        EnabledSpaces) {
  using Space = TestType;
  if constexpr (!is_host_space_v<Space>) {
    CHECK_FALSE(scalapack_unavailable_reason("cuda").empty());
    return;
  } else {
    if (!scalapack_compiled()) {
      CHECK(scalapack_unavailable_reason("openmp").find("built without ScaLAPACK") != std::string::npos);
      return;
    }
    CHECK(scalapack_unavailable_reason("openmp").empty());
    CHECK(scalapack_unavailable_reason("cuda").find("host backends only") != std::string::npos);
    for (const GridShape& g : grids_of(world_size()))
      for (const Shape& s : std::vector<Shape>{{37, 29, 53, 0}, {2, 5, 4, 0}, {5, 1, 2, 0}, {64, 64, 64, 0}}) {
        INFO("grid " << g.p << "x" << g.q << " " << s.m << "x" << s.n << "x" << s.k);
        const GridComm grid(MPI_COMM_WORLD, g);
        const ScalapackGemm pgemm(grid, s.m, s.n, s.k);
        {
          Blocks<Space, float> blk(grid, s);
          Kokkos::deep_copy(blk.C, std::numeric_limits<float>::quiet_NaN());
          pgemm.multiply(blk.A.data(), blk.B.data(), blk.C.data());
          CHECK(bad_elements(to_host(blk.C), Reference<float>(s, blk.b)) == 0);
        }
        {
          Blocks<Space, double> blk(grid, s);
          Kokkos::deep_copy(blk.C, std::numeric_limits<double>::quiet_NaN());
          pgemm.multiply(blk.A.data(), blk.B.data(), blk.C.data());
          CHECK(bad_elements(to_host(blk.C), Reference<double>(s, blk.b)) == 0);
        }
      }
  }
}

namespace {

/// The 2-D verifier's verdict on this rank's C block.
template <class Space, class T>
Verdict verdict_2d(const FreivaldsCheck<Space, T>& check, const Matrix<T, Space>& C) {
  return global_verdict(check.check(C), MPI_COMM_WORLD);
}

/// Adds `delta` to local element (i, j) of C on the rank that is `owner`.
template <class Space, class T>
void poke(const Matrix<T, Space>& C, bool owner, long i, long j, T delta, bool nan = false) {
  if (!owner) return;
  const T not_a_number = std::numeric_limits<T>::quiet_NaN();  // on the host: quiet_NaN is not a device function
  Kokkos::parallel_for(
      "test_poke", Kokkos::RangePolicy<Space>(0, 1), KOKKOS_LAMBDA(int) {
        C(i, j) = nan ? not_a_number : C(i, j) + delta;
      });
  Kokkos::fence();
}

template <class Space, class T>
void verifier_on_every_grid() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Shape s{61, 47, 300, 32};
  for (const GridShape& g : grids_of(world_size())) {
    const std::string what = std::string(Space::name()) + " " + dtype_name<T>() + " grid " + std::to_string(g.p) +
                             "x" + std::to_string(g.q);
    INFO(what);
    const GridComm grid(MPI_COMM_WORLD, g);
    Blocks<Space, T> blk(grid, s);
    const auto vendor = variants_named<Space, T>("vendor").front();
    const auto panels = summa_panels(s.k, g, s.nb);
    const Workspace<Space> work("work", 0);
    Summa<Space, T> summa(Space{}, grid, blk.b, panels, blk.A, blk.B, blk.C, paths_for<Space>().front(), true);
    summa.multiply(vendor.run, work);
    const GridPlacement where{blk.b.rows.begin, blk.b.cols.begin, blk.b.a_k.begin, blk.b.b_k.begin, s.k, s.n,
                              g.p,                g.q,              MPI_COMM_WORLD,   grid.row(),       grid.coords().pcol == 0};
    const FreivaldsCheck<Space, T> check(Space{}, blk.A, blk.B, where, ExactCheck::none, 10.0, 77);
    const Verdict good = verdict_2d(check, blk.C);
    CHECK(good.passed);
    CHECK(good.worst_ratio < 1);
    CHECK(good.rows_failed == 0);

    // The last rank (a block in the grid's last process row and column: not
    // empty for this shape) gets one element off by a typical |c|.
    const bool last = rank == world_size() - 1;
    const long li = blk.b.rows.size() / 2, lj = blk.b.cols.size() / 2;
    const T delta = T(std::sqrt(double(s.k) / 9.0));
    poke<Space, T>(blk.C, last, li, lj, delta);
    const Verdict one = verdict_2d(check, blk.C);
    CHECK_FALSE(one.passed);
    CHECK(one.rows_failed == 1);  // counted once, not once per process column
    CHECK(one.worst_ratio > 1);
    long expect_row = last ? blk.b.rows.begin + li : -1;
    MPI_Allreduce(MPI_IN_PLACE, &expect_row, 1, MPI_LONG, MPI_MAX, MPI_COMM_WORLD);
    CHECK(one.worst_row == expect_row);
    summa.multiply(vendor.run, work);  // correct again
    CHECK(verdict_2d(check, blk.C).passed);

    poke<Space, T>(blk.C, last, li, lj, T(0), true);
    const Verdict nan = verdict_2d(check, blk.C);
    CHECK_FALSE(nan.passed);
    CHECK(nan.nonfinite == 1);
    CHECK(nan.rows_failed == 1);

    // A lost panel (the last one never broadcast nor added).
    std::vector<Panel> fewer(panels.begin(), panels.end() - 1);
    Summa<Space, T> lossy(Space{}, grid, blk.b, fewer, blk.A, blk.B, blk.C, paths_for<Space>().front(), false);
    lossy.multiply(vendor.run, work);
    const Verdict lost = verdict_2d(check, blk.C);
    CHECK_FALSE(lost.passed);
    CHECK(lost.rows_failed >= 1);

    Kokkos::deep_copy(blk.C, T(0));
    CHECK_FALSE(verdict_2d(check, blk.C).passed);
  }
}

template <class Space, class T>
void exact_checks_on_every_grid() {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const GridShape& g : grids_of(world_size())) {
    INFO(Space::name() << " " << dtype_name<T>() << " grid " << g.p << "x" << g.q);
    const GridComm grid(MPI_COMM_WORLD, g);
    const auto naive = variants_named<Space, T>("naive").front();
    const Workspace<Space> work("work", 0);
    for (const Init init : {Init::closed_form, Init::ones, Init::identity}) {
      const Shape s{23, 31, init == Init::identity ? 31L : 100L, 7};
      const ExactCheck exact = init == Init::closed_form ? ExactCheck::closed_form
                               : init == Init::ones      ? ExactCheck::ones
                                                         : ExactCheck::identity;
      Blocks<Space, T> blk(grid, s, init);
      Summa<Space, T> summa(Space{}, grid, blk.b, summa_panels(s.k, g, s.nb), blk.A, blk.B, blk.C,
                            paths_for<Space>().front(), true);
      summa.multiply(naive.run, work);
      const GridPlacement where{blk.b.rows.begin, blk.b.cols.begin, blk.b.a_k.begin, blk.b.b_k.begin, s.k, s.n,
                                g.p,                g.q,              MPI_COMM_WORLD,   grid.row(),       grid.coords().pcol == 0};
      const FreivaldsCheck<Space, T> check(Space{}, blk.A, blk.B, where, exact, 10.0, 5);
      const Verdict v = verdict_2d(check, blk.C);
      CHECK(v.passed);
      CHECK(v.inexact == 0);
      // One element off by one unit in the last place on rank 0: only the exact check sees it.
      const bool mine = rank == 0 && blk.b.rows.size() > 0 && blk.b.cols.size() > 0;
      poke<Space, T>(blk.C, mine, 0, 0, T(1));
      CHECK(verdict_2d(check, blk.C).inexact == 1);
    }
  }
}

}  // namespace

TEMPLATE_LIST_TEST_CASE("summa: the 2-D verifier passes a correct C and fails faults on any rank", "[summa][verify]",
                        EnabledSpaces) {
  verifier_on_every_grid<TestType, float>();
  verifier_on_every_grid<TestType, double>();
  exact_checks_on_every_grid<TestType, float>();
}

TEMPLATE_LIST_TEST_CASE("summa: the streamed checksum is C's hash in global row-major order", "[summa]",
                        EnabledSpaces) {
  using Space = TestType;
  using T = float;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  for (const GridShape& g : grids_of(world_size()))
    for (const auto& mn : std::vector<std::pair<long, long>>{{23, 17}, {2, 9}, {9, 1}}) {
      const long M = mn.first, N = mn.second;
      INFO("grid " << g.p << "x" << g.q << " " << M << "x" << N);
      const GridComm grid(MPI_COMM_WORLD, g);
      const GridBlocks b = grid_blocks(M, N, 1, g, grid.coords());
      HostMatrix<T> h("h", b.rows.size(), b.cols.size());
      for (long i = 0; i < b.rows.size(); ++i)
        for (long j = 0; j < b.cols.size(); ++j) h(i, j) = T((b.rows.begin + i) * 100 + b.cols.begin + j);
      Matrix<T, Space> C("C", b.rows.size(), b.cols.size());
      Kokkos::deep_copy(C, h);
      std::vector<T> whole(size_t(M * N));
      for (long i = 0; i < M; ++i)
        for (long j = 0; j < N; ++j) whole[size_t(i * N + j)] = T(i * 100 + j);
      char expect[19];
      std::snprintf(expect, sizeof expect, "0x%016llx",
                    static_cast<unsigned long long>(XXH3_64bits(whole.data(), whole.size() * sizeof(T))));
      for (const long budget : {kChunkBytes, long(sizeof(T)), long(3 * N * sizeof(T))}) {  // one chunk; a row; 3 rows
        const std::string sum = grid_checksum<Space, T>(C, grid, M, N, budget);
        if (rank == 0) CHECK(sum == expect);
        else CHECK(sum.empty());
      }
    }
}

namespace {
int g_failing_rank = -1;
/// A local GEMM that throws on g_failing_rank (a vendor refusal) and is the
/// vendor kernel elsewhere.
template <class Space, class T>
void gemm_fails_on_one_rank(const Space& space, const GemmArgs<Space, T>& args) {
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  if (rank == g_failing_rank) throw std::runtime_error("test: refused on rank " + std::to_string(rank));
  gemm_vendor<Space, T>(space, args);
}
}  // namespace

TEMPLATE_LIST_TEST_CASE("summa: a local GEMM that throws on one rank neither hangs nor spoils the others",
                        "[summa]", EnabledSpaces) {
  using Space = TestType;
  using T = double;
  int rank = 0;
  MPI_Comm_rank(MPI_COMM_WORLD, &rank);
  const Shape s{30, 20, 40, 7};
  for (const GridShape& g : grids_of(world_size()))
    for (const PanelPath path : paths_for<Space>())
      for (const bool overlap : {false, true}) {
        INFO("grid " << g.p << "x" << g.q << " " << describe(path) << (overlap ? " ibcast" : " none"));
        const GridComm grid(MPI_COMM_WORLD, g);
        Blocks<Space, T> blk(grid, s);
        Summa<Space, T> summa(Space{}, grid, blk.b, summa_panels(s.k, g, s.nb), blk.A, blk.B, blk.C, path, overlap);
        g_failing_rank = world_size() - 1;
        std::string error;
        try {
          summa.multiply(&gemm_fails_on_one_rank<Space, T>, Workspace<Space>("work", 0));
        } catch (const std::exception& e) {
          error = e.what();
        }
        g_failing_rank = -1;
        if (rank == world_size() - 1) {
          CHECK(error.find("refused on rank") != std::string::npos);
        } else {
          CHECK(error.empty());
          CHECK(bad_elements(to_host(blk.C), Reference<T>(s, blk.b)) == 0);
        }
        MPI_Barrier(MPI_COMM_WORLD);  // every rank got here: nothing hangs
      }
}

TEST_CASE("summa: transfer auto picks NCCL only when built, on GPU ranks only, each with a GPU of its own", "[summa][nccl]") {
  NcclFacts yes;
  yes.built = yes.all_gpu = yes.distinct = true;
  REQUIRE(yes.usable());
  REQUIRE(yes.why_not().empty());
  // The path auto would take without NCCL on a GPU rank (this MPI, this node).
  const int aware = mpi_cuda_support();
  const PanelPath gpu_fallback = aware == 1 ? PanelPath::cuda_aware : PanelPath::shared;
  for (const bool node_local : {true, false}) {
    const PanelPath without =
        aware == 1 ? PanelPath::cuda_aware : node_local ? PanelPath::shared : PanelPath::staged;
    INFO("node_local " << node_local);
    CHECK(choose_panel_path(Transfer::automatic, true, node_local, 0, yes) == PanelPath::nccl);
    CHECK(choose_panel_path(Transfer::nccl, true, node_local, 0, yes) == PanelPath::nccl);
    // Each missing fact alone turns auto back to the MPI paths and makes `nccl` an error naming it.
    const std::vector<std::pair<NcclFacts, std::string>> missing = [&] {
      NcclFacts a = yes, b = yes, c = yes;
      a.built = false, b.all_gpu = false, c.distinct = false;
      return std::vector<std::pair<NcclFacts, std::string>>{
          {a, "built without NCCL"}, {b, "not every rank runs on a GPU"}, {c, "two ranks share one GPU"}};
    }();
    for (const auto& [facts, why] : missing) {
      INFO(why);
      CHECK_FALSE(facts.possible());
      CHECK(choose_panel_path(Transfer::automatic, true, node_local, 0, facts) == without);
      CHECK(choose_panel_path(Transfer::automatic, false, node_local, 0, facts) == PanelPath::host);
      try {
        choose_panel_path(Transfer::nccl, true, node_local, 3, facts);
        FAIL("transfer: nccl accepted without " << why);
      } catch (const std::runtime_error& e) {
        const std::string msg = e.what();
        CHECK(msg.find("parallel.decomposition.transfer: nccl, but") == 0);
        CHECK(msg.find(why) != std::string::npos);
      }
    }
    // MMAPP_NCCL=off: auto keeps to MPI, an explicit `nccl` still runs it.
    NcclFacts off = yes;
    off.disabled = true;
    CHECK(choose_panel_path(Transfer::automatic, true, node_local, 0, off) == without);
    CHECK(choose_panel_path(Transfer::nccl, true, node_local, 0, off) == PanelPath::nccl);
    // Other explicit transfers are untouched by NCCL.
    CHECK(choose_panel_path(Transfer::staged, true, node_local, 0, yes) == PanelPath::staged);
    if (node_local) CHECK(choose_panel_path(Transfer::shared, true, node_local, 0, yes) == PanelPath::shared);
  }
  CHECK(choose_panel_path(Transfer::automatic, true, true, 0) == gpu_fallback);  // no facts: no NCCL
  CHECK(std::string(describe(PanelPath::nccl)).find("nccl") == 0);
}

TEST_CASE("nccl: auto says why it leaves NCCL out only where NCCL was a candidate", "[summa][nccl]") {
  NcclFacts yes;
  yes.built = yes.all_gpu = yes.distinct = true;
  CHECK(yes.auto_declined().empty());  // taken: nothing to say
  NcclFacts shared = yes;
  shared.distinct = false;
  CHECK(shared.auto_declined().find("two ranks share one GPU") == 0);
  NcclFacts off = yes;
  off.disabled = true;
  CHECK(off.auto_declined().find("MMAPP_NCCL=off") == 0);
  // Never a candidate: no note (every CPU run and every build without NCCL would print one).
  NcclFacts unbuilt = shared, host = shared;
  unbuilt.built = false;
  host.all_gpu = false;
  CHECK(unbuilt.auto_declined().empty());
  CHECK(host.auto_declined().empty());
}

TEST_CASE("nccl: duplicate GPUs are found by their ids; the job's facts agree on every rank", "[summa][nccl]") {
  CHECK(gpu_ids_distinct({}));
  CHECK(gpu_ids_distinct({"aa", "bb", "cc"}));
  CHECK_FALSE(gpu_ids_distinct({"aa", "bb", "aa"}));
  CHECK(gpu_ids_distinct({"", ""}));  // host ranks have no id
  // On host ranks: never all_gpu; built says how this binary was configured.
  const NcclFacts host = nccl_facts(MPI_COMM_WORLD, false);
  CHECK_FALSE(host.all_gpu);
  CHECK_FALSE(host.possible());
#ifdef MMAPP_HAVE_NCCL
  CHECK(host.built);
#else
  CHECK_FALSE(host.built);
  CHECK(host.why_not().find("built without NCCL") != std::string::npos);
#endif
  // A rank's GPU id is 32 hex digits on a GPU rank, "" on a host rank.
  CHECK(this_gpu_id(false).empty());
#ifdef KOKKOS_ENABLE_CUDA
  CHECK(this_gpu_id(true).size() == 32);
  // The facts on GPU ranks: distinct exactly when the ids are (gathered independently here).
  const NcclFacts gpu = nccl_facts(MPI_COMM_WORLD, true);
  const std::string mine = this_gpu_id(true);
  std::vector<char> all(size_t(world_size()) * 32);
  MPI_Allgather(mine.data(), 32, MPI_CHAR, all.data(), 32, MPI_CHAR, MPI_COMM_WORLD);
  std::vector<std::string> ids;
  for (int r = 0; r < world_size(); ++r) ids.emplace_back(all.data() + 32 * r, 32);
  CHECK(gpu.distinct == gpu_ids_distinct(ids));
  CHECK(gpu.all_gpu);
#endif
}

TEST_CASE("summa: each transport's buffer bytes (slots x panel bytes, where they live)", "[summa]") {
  using Host = Kokkos::DefaultHostExecutionSpace;
  const long mloc = 4, nloc = 5, nb = 8;
  const double one = double(mloc * nb + nb * nloc) * sizeof(double);  // one slot of A's and B's panels
  const auto bytes = [&](PanelPath path, bool overlap) {
    const BufferBytes b = Summa<Host, double>::bytes(mloc, nloc, nb, path, overlap);
    return std::vector<double>{b.device, b.pinned};
  };
  for (const PanelPath path : {PanelPath::host, PanelPath::cuda_aware}) {
    CHECK(bytes(path, false) == std::vector<double>{one, 0});
    CHECK(bytes(path, true) == std::vector<double>{2 * one, 0});
  }
  CHECK(bytes(PanelPath::staged, false) == std::vector<double>{one, one});
  CHECK(bytes(PanelPath::staged, true) == std::vector<double>{2 * one, 2 * one});
  CHECK(bytes(PanelPath::shared, false) == std::vector<double>{0, one});  // the GEMM reads the window
  CHECK(bytes(PanelPath::shared, true) == std::vector<double>{0, 2 * one});
  CHECK(bytes(PanelPath::nccl, false) == std::vector<double>{one, 0});  // device slots only
  CHECK(bytes(PanelPath::nccl, true) == std::vector<double>{3 * one, 0});  // triple buffered
#ifdef KOKKOS_ENABLE_CUDA
  const BufferBytes gpu_shared = Summa<Kokkos::Cuda, double>::bytes(mloc, nloc, nb, PanelPath::shared, true);
  CHECK(gpu_shared.device == 3 * one);  // three slots: in the GEMM, coming down, going up
  CHECK(gpu_shared.pinned == 3 * one);
#endif
}

namespace {

using LoopSpace = Kokkos::DefaultHostExecutionSpace;
std::vector<std::string>* g_loop_log = nullptr;
int g_gemm_throws_at = -1;

/// A transport that moves nothing: it logs the loop's calls and hands out
/// the same two panels every time.
class LoggingTransport : public PanelTransport<LoopSpace, double> {
 public:
  explicit LoggingTransport(int depth) : depth_(depth), a_("a", 2, 3), b_("b", 3, 2) {}
  int depth() const override { return depth_; }
  void start() override { g_loop_log->push_back("start"); }
  void post(int t) override { g_loop_log->push_back("post " + std::to_string(t)); }
  PanelViews<LoopSpace, double> wait(int t) override {
    g_loop_log->push_back("wait " + std::to_string(t));
    return {a_, b_};
  }
  void progress(int t) override { g_loop_log->push_back("progress " + std::to_string(t)); }
  void release(int t) override { g_loop_log->push_back("release " + std::to_string(t)); }
  void finish() override { g_loop_log->push_back("finish"); }

 private:
  int depth_;
  Matrix<double, LoopSpace> a_, b_;
};

/// A local GEMM that logs its panel's beta, and throws on the panel g_gemm_throws_at.
void logging_gemm(const LoopSpace&, const GemmArgs<LoopSpace, double>& args) {
  const int t = int(std::count_if(g_loop_log->begin(), g_loop_log->end(),
                                  [](const std::string& e) { return e.rfind("gemm", 0) == 0; }));
  g_loop_log->push_back("gemm beta " + std::to_string(int(args.beta)) + " " + std::to_string(args.A.extent(0)) + "x" +
                        std::to_string(args.A.extent(1)) + "x" + std::to_string(args.B.extent(1)));
  if (t == g_gemm_throws_at) throw std::runtime_error("test: refused panel " + std::to_string(t));
}

/// The calls the loop should make for `panels` panels at `depth`, the GEMM
/// of each panel up to `last_gemm`.
std::vector<std::string> expected_loop(int panels, int depth, int last_gemm) {
  std::vector<std::string> e{"start"};
  int posted = 0;
  for (int t = 0; t < panels; ++t) {
    for (; posted < panels && posted < t + depth; ++posted) e.push_back("post " + std::to_string(posted));
    e.push_back("wait " + std::to_string(t));
    if (t <= last_gemm) e.push_back(std::string("gemm beta ") + (t == 0 ? "0" : "1") + " 2x3x2");
    e.push_back("progress " + std::to_string(t));
    e.push_back("release " + std::to_string(t));
  }
  e.push_back("finish");
  return e;
}

}  // namespace

TEST_CASE("summa: the panel loop posts depth() panels ahead, then waits, multiplies, progresses and releases",
          "[summa]") {
  std::vector<std::string> log;
  g_loop_log = &log;
  const Matrix<double, LoopSpace> C("C", 2, 2);
  // Written out once (depth 2, 4 panels), then the rule for other depths and counts.
  {
    Summa<LoopSpace, double> summa(LoopSpace{}, C, 4, std::make_unique<LoggingTransport>(2));
    summa.multiply(&logging_gemm, Workspace<LoopSpace>("work", 0));
    // clang-format off
    CHECK(log == std::vector<std::string>{
                     "start",
                     "post 0", "post 1", "wait 0", "gemm beta 0 2x3x2", "progress 0", "release 0",
                     "post 2",           "wait 1", "gemm beta 1 2x3x2", "progress 1", "release 1",
                     "post 3",           "wait 2", "gemm beta 1 2x3x2", "progress 2", "release 2",
                                         "wait 3", "gemm beta 1 2x3x2", "progress 3", "release 3",
                     "finish"});
    // clang-format on
  }
  for (const int depth : {1, 2, 3, 5})
    for (const int panels : {1, 2, 4}) {
      INFO("depth " << depth << ", " << panels << " panels");
      log.clear();
      Summa<LoopSpace, double> summa(LoopSpace{}, C, panels, std::make_unique<LoggingTransport>(depth));
      summa.multiply(&logging_gemm, Workspace<LoopSpace>("work", 0));
      CHECK(log == expected_loop(panels, depth, panels - 1));
    }
  // A GEMM that throws on panel 1: every panel still travels, the later GEMMs are skipped, the error comes last.
  log.clear();
  g_gemm_throws_at = 1;
  Summa<LoopSpace, double> summa(LoopSpace{}, C, 4, std::make_unique<LoggingTransport>(2));
  std::string error;
  try {
    summa.multiply(&logging_gemm, Workspace<LoopSpace>("work", 0));
  } catch (const std::exception& e) {
    error = e.what();
  }
  g_gemm_throws_at = -1;
  g_loop_log = nullptr;
  CHECK(error == "test: refused panel 1");
  CHECK(log == expected_loop(4, 2, 1));
}
