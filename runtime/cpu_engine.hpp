#pragma once
// The CPU engine: the sweeps of DESIGN.md section 2 with the fused group step of section 3.
// Per group: the 2^D pivot subtensor of every pair is gathered, the rule's D micro-iterations run
// on it (with the optional pivot check), and all D modes' rotations are then applied to the tensor
// in one pass. Templated on the rule so a rule written in the DSL runs as it is.
#include <chrono>
#include <cmath>

#include "dsl/rule.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/group_pass.hpp"
#include "runtime/pivot_check.hpp"
#include "runtime/pivot_subtensor.hpp"
#include "runtime/stop_criteria.hpp"
#include "runtime/verification.hpp"

namespace tensordiag::runtime {

struct CpuRunSettings {
  StopCriteria stop;
  double eta = 0.0;
  int threads = 0;
  std::function<bool(const SweepRecord&)> on_sweep;
};

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

inline double seconds_since(std::chrono::steady_clock::time_point start) {
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

template <class T, class Rule>
Result<T> run_cpu_engine(const HostTensor<T>& tensor, const Rule& rule, const CpuRunSettings& settings) {
  const auto start = std::chrono::steady_clock::now();
  Result<T> result;
  result.backend = Backend::cpu;
  result.core = tensor;
  result.factors.assign(static_cast<std::size_t>(tensor.order()), Matrix<T>::identity(tensor.size()));
  const auto schedule = round_robin_schedule(tensor.size());
  const double off_input = std::sqrt(off_norm2(tensor));
  auto relative_off = [off_input](double off2) { return off_input > 0 ? std::sqrt(off2) / off_input : 0.0; };
  result.history.push_back({0, relative_off(off_input * off_input), diag_norm2(tensor), trace(tensor), 0.0});
  result.timings.setup_seconds = seconds_since(start);

  const auto sweeps_start = std::chrono::steady_clock::now();
  if (off_input == 0) {
    result.stop_reason = StopReason::tolerance;  // already diagonal
  } else {
    for (int sweep = 1;; ++sweep) {
      const auto sweep_start = std::chrono::steady_clock::now();
      for (const auto& pairs : schedule) {
        const auto group = group_step(result.core, pairs, rule, settings.eta, settings.threads);
        apply_group_to_factors(result.factors, group);
      }
      result.history.push_back(
          {sweep, relative_off(off_norm2(result.core)), diag_norm2(result.core), trace(result.core), 0.0});
      result.history.back().seconds = seconds_since(sweep_start);
      const bool stop_asked = settings.on_sweep && settings.on_sweep(result.history.back());
      if (const auto reason = stop_reason_after(result.history, settings.stop, stop_asked)) {
        result.stop_reason = *reason;
        break;
      }
    }
  }
  result.timings.sweeps_seconds = seconds_since(sweeps_start);
  result.timings.total_seconds = seconds_since(start);
  return result;
}

}  // namespace tensordiag::runtime
