#pragma once
// The one-rank reference of a distributed run: the CPU engine's sweeps (cpu_sweeps.hpp) over the
// distributed schedule's groups in its order, one group step each, on the whole tensor; and the
// comparison of a rank's slab with it. Both sides do the same roundings, so they agree bit for bit.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "dsl/builtin_rules.hpp"
#include "runtime/distributed/distributed_result.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/subspace_step.hpp"

namespace tensordiag::testing {

// `sweeps` sweeps exactly (no tolerance or stall stop), as the distributed run under test is asked.
template <class T>
runtime::Result<T> one_rank_reference(const runtime::HostTensor<T>& tensor, const std::vector<runtime::PivotGroup>& groups,
                                      const std::string& rule_name, double eta, int sweeps) {
  runtime::RunSettings settings;
  settings.stop = runtime::StopCriteria{sweeps, 0.0, -1.0};
  settings.eta = eta;
  settings.threads = 1;
  std::vector<runtime::SweepPass> passes(groups.begin(), groups.end());
  std::optional<runtime::Result<T>> result;
  dsl::with_builtin_rule(rule_name, [&](const auto& rule) {
    result = runtime::run_cpu_sweeps(tensor, settings, tensor.order(), passes,
                                     [&](runtime::HostTensor<T>& core, const runtime::SweepPass& pass,
                                         std::vector<runtime::Matrix<T>>& factors) {
                                       runtime::sweep_pass(core, factors, pass, rule, eta, 1);
                                     });
  });
  REQUIRE(result);
  return std::move(*result);
}

// The rank's rows of the core and its factors equal the reference's exactly; the figures agree to
// the order of their additions.
template <class T>
void check_equal_to_reference(const runtime::DistributedResult<T>& got, const runtime::Result<T>& reference) {
  const runtime::Slab<T>& slab = got.core;
  const std::size_t length = slab.row_length();
  std::size_t differing = 0;
  for (std::size_t t = 0; t < slab.rows().size(); ++t) {
    const T* expected = reference.core.data() + static_cast<std::size_t>(slab.rows()[t]) * length;
    for (std::size_t k = 0; k < length; ++k) differing += slab.row(t)[k] == expected[k] ? 0 : 1;
  }
  CHECK(differing == 0);
  REQUIRE(got.run.factors.size() == reference.factors.size());
  for (std::size_t n = 0; n < reference.factors.size(); ++n) CHECK(got.run.factors[n].data == reference.factors[n].data);
  REQUIRE(got.run.history.size() == reference.history.size());
  for (std::size_t s = 0; s < reference.history.size(); ++s)
    CHECK(got.run.history[s].off_rel == doctest::Approx(reference.history[s].off_rel).epsilon(1e-12));
}

}  // namespace tensordiag::testing
