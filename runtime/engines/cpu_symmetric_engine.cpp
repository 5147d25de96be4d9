#include "runtime/engines/cpu_symmetric_engine.hpp"

#include <omp.h>

#include <bit>
#include <cmath>

#include "runtime/algorithm/stop_criteria.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace tensordiag::runtime {

template <class T>
std::vector<double> symmetric_pivot_values(const std::vector<T>& subtensor, int order) {
  std::vector<double> t(static_cast<std::size_t>(order) + 1, 0.0);
  std::vector<double> count(t.size(), 0.0);
  for (std::size_t bits = 0; bits < subtensor.size(); ++bits) {
    const auto k = static_cast<std::size_t>(std::popcount(bits));
    t[k] += subtensor[bits];
    count[k] += 1.0;
  }
  for (std::size_t k = 0; k < t.size(); ++k) t[k] /= count[k];
  return t;
}

template <class T>
GroupRotations<T> symmetric_group_step(HostTensor<T>& core, const PivotGroup& pairs, int threads) {
  const int order = core.order();
  GroupRotations<T> group(order, pairs);
  // The pairs' angles are independent (disjoint pivot subtensors), and each costs a companion
  // eigenproblem of size 2D: for D = 3 and N ~ 100 they take as long as the pass.
  const int angle_threads = threads > 0 ? threads : omp_get_max_threads();
#pragma omp parallel for num_threads(angle_threads) schedule(dynamic)
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto t = symmetric_pivot_values(gather_pivot_subtensor(core.data(), core.strides(), pairs[k]), order);
    const dsl::Givens<double> g = best_symmetric_rotation(t).rotation;
    for (int mode = 0; mode < order; ++mode) group.at(mode, k) = {static_cast<T>(g.c), static_cast<T>(g.s)};
  }
  apply_group_pass(core, group, threads);
  return group;
}

template <class T>
Result<T> run_cpu_symmetric_engine(const HostTensor<T>& tensor, const RunSettings& settings) {
  const Stopwatch total;
  Result<T> result;
  result.backend = Backend::cpu;
  result.core = tensor;
  // Q alone: one factor, rotated as a one-mode group.
  std::vector<Matrix<T>> q(1, Matrix<T>::identity(tensor.size()));
  const auto schedule = round_robin_schedule(tensor.size());
  const double off_input = std::sqrt(off_norm2(tensor));
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, diag_norm2(tensor), trace(tensor), 0.0});
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep) {
    const Stopwatch this_sweep;
    for (const auto& pairs : schedule) {
      stop_if_cancelled(settings.cancelled);
      const GroupRotations<T> group = symmetric_group_step(result.core, pairs, settings.threads);
      GroupRotations<T> factor_group(1, pairs);
      for (std::size_t k = 0; k < pairs.size(); ++k) factor_group.at(0, k) = group.at(0, k);
      apply_group_to_factors(q, factor_group);
    }
    const double off_rel = off_input > 0 ? std::sqrt(off_norm2(result.core)) / off_input : 0.0;
    return SweepRecord{sweep, off_rel, diag_norm2(result.core), trace(result.core), this_sweep.seconds()};
  });
  result.factors.assign(static_cast<std::size_t>(tensor.order()), q.front());
  result.timings.sweeps_seconds = sweeps.seconds();
  result.timings.total_seconds = total.seconds();
  return result;
}

template std::vector<double> symmetric_pivot_values(const std::vector<float>&, int);
template std::vector<double> symmetric_pivot_values(const std::vector<double>&, int);
template GroupRotations<float> symmetric_group_step(HostTensor<float>&, const PivotGroup&, int);
template GroupRotations<double> symmetric_group_step(HostTensor<double>&, const PivotGroup&, int);
template Result<float> run_cpu_symmetric_engine(const HostTensor<float>&, const RunSettings&);
template Result<double> run_cpu_symmetric_engine(const HostTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
