// The pipelined group steps (kernels_templates/pipelined_group_steps.cuh): the one-block engine's
// sweeps and the XOR passes' angles with each group's rotations beside the next group's angles
// give the results of one group after another bit for bit (TENSORDIAG_PIPELINED_GROUPS 1, which
// pipelines both kernels at D <= 5, against 0), at even and odd N, both rules, float32 and float64.
// (Unset, only the one-block engine at D = 3 pipelines.)
#include <doctest/doctest.h>

#include <string>
#include <tuple>
#include <type_traits>

#include "random_tensor.hpp"
#include "scoped_environment.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

// The run under TENSORDIAG_PIPELINED_GROUPS = `pipelined` (3 sweeps, no stop before).
template <class T>
Result<T> run_with(const HostTensor<T>& tensor, Options options, const char* pipelined) {
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_PIPELINED_GROUPS", pipelined);
  options.backend = Backend::cuda;
  options.max_sweeps = 3;
  options.tol = 1e-300;
  options.stall_tol = 0;
  return diagonalize(tensor, options);
}

template <class T>
void check_pipelined_equals_one_group_after_another(int order, int size, const char* rule, SweepSchedule schedule,
                                                    const std::string& engine) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(std::string(rule));
  CAPTURE(sizeof(T));
  const HostTensor<T> tensor = random_tensor<T>(order, size, 900u + static_cast<unsigned>(10 * order + size));
  Options options;
  options.rule = rule;
  options.schedule = schedule;
  const Result<T> apart = run_with(tensor, options, "0");
  const Result<T> pipelined = run_with(tensor, options, "1");
  REQUIRE(apart.engine == engine);
  REQUIRE(pipelined.engine == engine);
  if (schedule == SweepSchedule::xor_subspaces) REQUIRE(pipelined.schedule == "xor");
  REQUIRE(pipelined.sweeps() == apart.sweeps());
  CHECK(pipelined.core.values() == apart.core.values());
  for (std::size_t n = 0; n < apart.factors.size(); ++n) CHECK(pipelined.factors[n].data == apart.factors[n].data);
  for (std::size_t s = 0; s < apart.history.size(); ++s) CHECK(pipelined.history[s].off_rel == apart.history[s].off_rel);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("pipelined group steps: the one-block engine's core, factors and figures bit for bit those of "
                     "one group after another",
                     T, float, double) {
    // 3 x 8: one angle warp, three rotating; 3 x 7 and 4 x 5: odd N (an index left out of each
    // group); 3 x 10: two angle warps (40 lanes); 4 x 4: D = 4, one warp each. float32 only (the
    // one-block engine takes float64 up to 1024 entries): 3 x 16, two angle warps of eight. (At
    // D = 5 the one-block engine's warps, one a pair, are all angle warps: it never pipelines.)
    for (const auto& [order, size, rule] : {std::tuple{3, 8, "max_diag"}, {3, 7, "max_diag"}, {4, 5, "max_trace"},
                                            {4, 4, "max_diag"}, {3, 10, "max_trace"}})
      check_pipelined_equals_one_group_after_another<T>(order, size, rule, SweepSchedule::automatic, "cuda_one_block");
    if constexpr (std::is_same_v<T, float>)
      check_pipelined_equals_one_group_after_another<T>(3, 16, "max_diag", SweepSchedule::automatic, "cuda_one_block");
  }

  TEST_CASE_TEMPLATE("pipelined group steps: the XOR passes' angles give the core and factors bit for bit those of "
                     "one group after another",
                     T, float, double) {
    // Cells of 8 at D = 3 (7 groups a pass), of 4 at D = 4 (3 groups), of 4 at D = 5 under 1.
    for (const auto& [order, size, rule] : {std::tuple{3, 64, "max_diag"}, {3, 32, "max_trace"}, {4, 16, "max_diag"}})
      check_pipelined_equals_one_group_after_another<T>(order, size, rule, SweepSchedule::xor_subspaces, "cuda");
    if constexpr (std::is_same_v<T, float>)
      check_pipelined_equals_one_group_after_another<T>(5, 16, "max_diag", SweepSchedule::xor_subspaces, "cuda");
  }
}
