// run_grid.cpp — the case runner instantiated with the 2-D process grid, for
// every compiled backend and both dtypes.
#include "driver/grid2d.hpp"

#include "core/exec_spaces.hpp"

namespace mmapp::detail {

void run_grid_case(const Config& cfg, const ProblemSize& size, DType dt, const RankPlacement& place,
                   const std::vector<std::string>& backends, std::vector<RunRecord>& out, const DriverHooks& hooks) {
  with_backend(backends[place.rank], [&](auto space) {
    using Space = decltype(space);
    const auto run = [&](auto value) {
      Grid2D<Space, decltype(value)> d(cfg, size, place, backends);
      run_case(d, cfg, size, backends, out, hooks);
    };
    if (dt == DType::f32)
      run(float{});
    else
      run(double{});
  });
}

}  // namespace mmapp::detail
