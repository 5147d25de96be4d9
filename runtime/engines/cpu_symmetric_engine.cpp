#include "runtime/engines/cpu_symmetric_engine.hpp"

#include <omp.h>

#include <bit>

#include "runtime/algorithm/symmetric_rotation.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace tensordiag::runtime {

template <class T>
std::vector<wide_t<T>> symmetric_pivot_values(const std::vector<T>& subtensor, int order) {
  std::vector<wide_t<T>> t(static_cast<std::size_t>(order) + 1, wide_t<T>(0));
  std::vector<double> count(t.size(), 0.0);
  for (std::size_t bits = 0; bits < subtensor.size(); ++bits) {
    const auto k = static_cast<std::size_t>(std::popcount(bits));
    t[k] += wide_t<T>(subtensor[bits]);
    count[k] += 1.0;
  }
  for (std::size_t k = 0; k < t.size(); ++k) t[k] /= count[k];
  return t;
}

template <class T>
GroupRotations<T> symmetric_group_step(HostTensor<T>& core, const PivotGroup& pairs, int threads) {
  const int order = core.order();
  GroupRotations<T> group(order, pairs);
  // The pairs' angles are independent (disjoint pivot subtensors), each the kernels' maximizer
  // (symmetric_rotation.hpp: 0.09 us a pair at D = 3, 1-3 us at D = 4..8, 18 us at D = 16 on one
  // core). They run in parallel where the pass does (threaded_pass_entries, group_pass.hpp); below,
  // a parallel region per group costs more than it saves, and on a loaded machine a scheduler slice
  // per group (measured with the companion-matrix angle of ~10 us a pair: 600 ms instead of 8 ms
  // for D = 3, N = 16 on 2 busy cores; 1.9 s instead of 54 ms for N = 40). D = 2 (the closed form,
  // ~0.2 us a pair) stays serial at any size.
  const int angle_threads = threads > 0 ? threads : omp_get_max_threads();
  const bool parallel = order > 2 && pairs.size() > 1 && core.count() >= threaded_pass_entries;
#pragma omp parallel for num_threads(angle_threads) schedule(dynamic) if (parallel)
  for (std::size_t k = 0; k < pairs.size(); ++k) {
    const auto t = symmetric_pivot_values(gather_pivot_subtensor(core.data(), core.strides(), pairs[k]), order);
    const dsl::Givens<double> g = symmetric_angle_for<T>(t);
    set_in_every_mode(group, k, {static_cast<T>(g.c), static_cast<T>(g.s)});
  }
  apply_group_pass(core, group, threads);
  return group;
}

template <class T>
Result<T> run_cpu_symmetric_engine(const HostTensor<T>& tensor, const RunSettings& settings) {
  const PivotSchedule schedule = cpu_group_schedule(tensor.size(), settings);
  // Q alone: one factor, rotated as a one-mode group by the rotation every mode got.
  Result<T> result = run_cpu_sweeps(tensor, settings, 1, schedule,
                                    [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& q) {
                                      const GroupRotations<T> group = symmetric_group_step(core, pairs, settings.threads);
                                      apply_group_to_factors(q, one_mode_group(group), settings.threads);
                                    });
  const Matrix<T> q = result.factors.front();
  result.factors.assign(static_cast<std::size_t>(tensor.order()), q);
  record_group_schedule(result, tensor.size(), settings, schedule);
  return result;
}

template std::vector<double> symmetric_pivot_values(const std::vector<float>&, int);
template std::vector<double> symmetric_pivot_values(const std::vector<double>&, int);
template std::vector<std::complex<double>> symmetric_pivot_values(const std::vector<std::complex<float>>&, int);
template std::vector<std::complex<double>> symmetric_pivot_values(const std::vector<std::complex<double>>&, int);
template GroupRotations<float> symmetric_group_step(HostTensor<float>&, const PivotGroup&, int);
template GroupRotations<double> symmetric_group_step(HostTensor<double>&, const PivotGroup&, int);
template Result<float> run_cpu_symmetric_engine(const HostTensor<float>&, const RunSettings&);
template Result<double> run_cpu_symmetric_engine(const HostTensor<double>&, const RunSettings&);

}  // namespace tensordiag::runtime
