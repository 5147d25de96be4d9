#pragma once
// One group step on the CPU (DESIGN.md sections 2 and 3): the 2^D pivot subtensor of every pair is
// gathered, the rule's D micro-iterations run on it (with the optional pivot check), and all D
// modes' rotations are then applied to the tensor in one pass.
#include <vector>

#include "dsl/rule.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/algorithm/pivot_norm_bounds.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace tensordiag::runtime {

// One group step on `core`: angles from each pair's pivot subtensor, then one fused pass. With the
// pivot check, a mode's pairs are decided by the bounds on ||Lambda||_2 when they can be
// (pivot_norm_bounds.hpp: column bounds, power steps, a Cholesky test), by its exact value (an
// eigensolver) otherwise; `count`, when given, adds the checks, exact norms and tests.
template <class T, class Rule>
GroupRotations<T> group_step(HostTensor<T>& core, const PivotGroup& pairs, const Rule& rule, double eta, int threads,
                             PivotCheckCount* count = nullptr) {
  const int order = core.order();
  GroupRotations<T> group(order, pairs);
  std::vector<std::vector<T>> subtensors;
  subtensors.reserve(pairs.size());
  for (const auto& pair : pairs) subtensors.push_back(gather_pivot_subtensor(core.data(), core.strides(), pair));
  for (int mode = 0; mode < order; ++mode) {
    std::vector<bool> passes(pairs.size(), true);
    if (eta > 0) {
      const std::vector<double> lambda = pivot_lambda(core.data(), core.strides(), core.size(), mode, &group);
      const BoundsDecision decision = decide_by_bounds(lambda, core.size(), pairs, eta);
      if (count) count->add(decision);
      auto verdicts = decision.verdicts;
      if (!verdicts) {
        const double norm = skew_spectral_norm(lambda, core.size());
        verdicts.emplace();
        for (const auto& pair : pairs) verdicts->push_back(passes_pivot_check(lambda, core.size(), norm, pair, eta));
      }
      passes = *verdicts;
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (!passes[k]) continue;
      const auto g = dsl::rotation(rule, pivot_values(subtensors[k], mode));
      group.at(mode, k) = g;
      rotate_pivot_subtensor(subtensors[k], mode, g);
    }
  }
  apply_group_pass(core, group, threads);
  return group;
}

}  // namespace tensordiag::runtime
