#pragma once
// The CPU engine: the sweeps of DESIGN.md section 2 with the fused group step of section 3.
// Per group: the 2^D pivot subtensor of every pair is gathered, the rule's D micro-iterations run
// on it (with the optional pivot check), and all D modes' rotations are then applied to the tensor
// in one pass. Templated on the rule so a rule written in the DSL runs as it is.
#include <cmath>

#include "dsl/rule.hpp"
#include "runtime/algorithm/run_settings.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/engines/pivot_subtensor.hpp"
#include "runtime/algorithm/stop_criteria.hpp"
#include "runtime/algorithm/verification.hpp"

namespace tensordiag::runtime {

// One group step on `core`: angles from each pair's pivot subtensor, then one fused pass.
template <class T, class Rule>
GroupRotations<T> group_step(HostTensor<T>& core, const PivotGroup& pairs, const Rule& rule, double eta, int threads) {
  const int order = core.order();
  GroupRotations<T> group(order, pairs);
  std::vector<std::vector<T>> subtensors;
  subtensors.reserve(pairs.size());
  for (const auto& pair : pairs) subtensors.push_back(gather_pivot_subtensor(core.data(), core.strides(), pair));
  for (int mode = 0; mode < order; ++mode) {
    std::vector<double> lambda;
    double lambda_norm = 0.0;
    if (eta > 0) {
      lambda = pivot_lambda(core.data(), core.strides(), core.size(), mode, &group);
      lambda_norm = skew_spectral_norm(lambda, core.size());
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (eta > 0 && !passes_pivot_check(lambda, core.size(), lambda_norm, pairs[k], eta)) continue;
      const auto g = dsl::rotation(rule, pivot_values(subtensors[k], mode));
      group.at(mode, k) = g;
      rotate_pivot_subtensor(subtensors[k], mode, g);
    }
  }
  apply_group_pass(core, group, threads);
  return group;
}

// The run with any DSL rule; `settings.pivot_norm` does not apply (an exact eigensolver, always).
template <class T, class Rule>
Result<T> run_cpu_engine(const HostTensor<T>& tensor, const Rule& rule, const RunSettings& settings) {
  return run_cpu_sweeps(tensor, settings, tensor.order(),
                        [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& factors) {
                          apply_group_to_factors(factors, group_step(core, pairs, rule, settings.eta, settings.threads));
                        });
}

}  // namespace tensordiag::runtime
