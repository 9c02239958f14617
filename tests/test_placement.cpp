// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The mmapp developers
// check_placement() with simulated placements: no GPU needed, so CI covers
// the multi-GPU error paths. Collective: runs at 1 and 2 ranks.
#include "parallel/parallel_env.hpp"

#include <catch2/catch_test_macros.hpp>
#include <catch2/matchers/catch_matchers_string.hpp>

#include <cstdlib>

using Catch::Matchers::ContainsSubstring;

namespace {
/// This rank's real placement, with a simulated GPU: `pci` is its bus id.
mmapp::RankPlacement with_gpu(const std::string& pci) {
  mmapp::RankPlacement p = mmapp::place_rank();
  p.visible_gpus = 1;
  p.device_id = 0;
  p.device_pci = pci;
  return p;
}
}  // namespace

TEST_CASE("distinct GPUs per rank are accepted", "[placement]") {
  unsetenv("SLURM_STEP_NUM_TASKS");
  const auto p = with_gpu("0000:" + std::to_string(10 + mmapp::place_rank().rank) + ":00.0");
  CHECK(mmapp::check_placement(p, true, false).empty());
}

TEST_CASE("ranks sharing one GPU are refused unless the deck allows it", "[placement]") {
  unsetenv("SLURM_STEP_NUM_TASKS");
  const auto p = with_gpu("0000:1B:00.0");
  if (p.local_size > 1) {
    const std::string why = mmapp::check_placement(p, true, false);
    CHECK_THAT(why, ContainsSubstring(std::to_string(p.local_size) + " GPU ranks") &&
                        ContainsSubstring("1 distinct GPU") && ContainsSubstring("share_devices"));
  } else {
    CHECK(mmapp::check_placement(p, true, false).empty());
  }
  CHECK(mmapp::check_placement(p, true, true).empty());
  CHECK(mmapp::check_placement(p, false, false).empty());  // host backends use no GPU
}

TEST_CASE("a cuda run on a rank without a GPU is refused", "[placement]") {
  unsetenv("SLURM_STEP_NUM_TASKS");
  mmapp::RankPlacement p = mmapp::place_rank();
  p.visible_gpus = 0;
  p.device_id = -1;
  p.device_pci.clear();
  CHECK_THAT(mmapp::check_placement(p, true, false), ContainsSubstring("no CUDA device"));
}

TEST_CASE("launcher mismatch: only a one-rank world among several srun tasks is refused", "[placement]") {
  using mmapp::slurm_launcher_mismatch;
  // srun started 4 tasks and each is a world of 1: the MPI library has no PMI.
  CHECK_THAT(slurm_launcher_mismatch(1, "4"), ContainsSubstring("1 rank") && ContainsSubstring("4 tasks") &&
                                                  ContainsSubstring("srun --mpi=pmix") && ContainsSubstring("mpirun"));
  CHECK_FALSE(slurm_launcher_mismatch(1, "2").empty());
  // Accepted: srun with a working PMI, one-task steps, no step at all (the
  // batch step, where mpirun runs: `mpirun -np 2` in a 4-task allocation).
  CHECK(slurm_launcher_mismatch(4, "4").empty());
  CHECK(slurm_launcher_mismatch(1, "1").empty());
  CHECK(slurm_launcher_mismatch(1, nullptr).empty());
  CHECK(slurm_launcher_mismatch(2, nullptr).empty());
  CHECK(slurm_launcher_mismatch(1, "").empty());
  CHECK(slurm_launcher_mismatch(1, "garbage").empty());
}

TEST_CASE("check_placement reads SLURM_STEP_NUM_TASKS, not SLURM_NTASKS", "[placement]") {
  const auto p = mmapp::place_rank();
  unsetenv("SLURM_STEP_NUM_TASKS");
  setenv("SLURM_NTASKS", std::to_string(p.size + 2).c_str(), 1);  // a bigger allocation: fine
  CHECK(mmapp::check_placement(p, false, false).empty());
  setenv("SLURM_STEP_NUM_TASKS", "3", 1);
  if (p.size == 1)
    CHECK_THAT(mmapp::check_placement(p, false, false), ContainsSubstring("SLURM_STEP_NUM_TASKS"));
  else
    CHECK(mmapp::check_placement(p, false, false).empty());
  unsetenv("SLURM_STEP_NUM_TASKS");
  unsetenv("SLURM_NTASKS");
}
