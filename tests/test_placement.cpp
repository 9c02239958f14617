// check_placement() with simulated placements: no GPU needed, so CI covers
// the multi-GPU error paths. Collective: runs at 1 and 2 ranks.
#include "parallel_env.hpp"

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
  unsetenv("SLURM_NTASKS");
  const auto p = with_gpu("0000:" + std::to_string(10 + mmapp::place_rank().rank) + ":00.0");
  CHECK(mmapp::check_placement(p, true, false).empty());
}

TEST_CASE("ranks sharing one GPU are refused unless the deck allows it", "[placement]") {
  unsetenv("SLURM_NTASKS");
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
  unsetenv("SLURM_NTASKS");
  mmapp::RankPlacement p = mmapp::place_rank();
  p.visible_gpus = 0;
  p.device_id = -1;
  p.device_pci.clear();
  CHECK_THAT(mmapp::check_placement(p, true, false), ContainsSubstring("no CUDA device"));
}

TEST_CASE("an MPI size that differs from SLURM_NTASKS is a launcher mismatch", "[placement]") {
  const auto p = mmapp::place_rank();
  setenv("SLURM_NTASKS", std::to_string(p.size + 1).c_str(), 1);
  CHECK_THAT(mmapp::check_placement(p, false, false), ContainsSubstring("SLURM_NTASKS"));
  setenv("SLURM_NTASKS", std::to_string(p.size).c_str(), 1);
  CHECK(mmapp::check_placement(p, false, false).empty());
  unsetenv("SLURM_NTASKS");
}
