#include "runtime/engines/cpu_complex_symmetric_engine.hpp"

#include <string>

#include "dsl/symmetric_unitary_angle.hpp"
#include "runtime/algorithm/diagonal_phases.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/symmetric_unitary_search.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/cpu_symmetric_engine.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace tensordiag::runtime {

template <class R>
dsl::UnitaryGivens<double> complex_symmetric_rotation(const std::vector<std::complex<double>>& t) {
  if (static_cast<int>(t.size()) - 1 > dsl::symmetric_unitary_max_order) return symmetric_unitary_search(t);
  double re[dsl::symmetric_unitary_max_order + 1], im[dsl::symmetric_unitary_max_order + 1];
  for (std::size_t k = 0; k < t.size(); ++k) {
    re[k] = t[k].real();
    im[k] = t[k].imag();
  }
  dsl::UnitaryGivens<double> g;
  double be_re = 0.0, be_im = 0.0;
  dsl::symmetric_unitary_rotation_in<R>(static_cast<int>(t.size()) - 1, re, im, g.al, be_re, be_im);
  g.be = {be_re, be_im};
  return g;
}

template dsl::UnitaryGivens<double> complex_symmetric_rotation<float>(const std::vector<std::complex<double>>& t);
template dsl::UnitaryGivens<double> complex_symmetric_rotation<double>(const std::vector<std::complex<double>>& t);

namespace {

// The steps of a group's pairs from their pivot values: the closed form at orders 2 and 3 (about a
// microsecond: serial), else the searched step (milliseconds a pair far from convergence) on
// settings.threads threads.
template <class T>
std::vector<dsl::UnitaryGivens<double>> group_steps(const HostTensor<T>& core, const PivotGroup& pairs, int threads) {
  const int order = core.order();
  std::vector<std::complex<double>> values;
  std::vector<dsl::UnitaryGivens<double>> steps;
  for (const auto& pair : pairs) {
    const std::vector<std::complex<double>> t =
        symmetric_pivot_values(gather_pivot_subtensor(core.data(), core.strides(), pair), order);
    if (order > dsl::symmetric_unitary_max_order) values.insert(values.end(), t.begin(), t.end());
    else steps.push_back(complex_symmetric_rotation<typename T::value_type>(t));
  }
  return order > dsl::symmetric_unitary_max_order ? symmetric_unitary_searches(values, order, threads) : steps;
}

}  // namespace

template <class R>
Result<std::complex<R>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<R>>& tensor,
                                                         const RunSettings& settings) {
  using T = std::complex<R>;
  const PivotSchedule schedule = cpu_group_schedule(tensor.size(), settings);
  // U alone: one factor, rotated as a one-mode group by the rotation every mode got.
  Result<T> result = run_cpu_sweeps(tensor, settings, 1, schedule,
                                    [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& u) {
                                      GroupRotations<T> group(core.order(), pairs);
                                      const std::vector<dsl::UnitaryGivens<double>> steps =
                                          group_steps(core, pairs, settings.threads);
                                      for (std::size_t k = 0; k < pairs.size(); ++k)
                                        set_in_every_mode(group, k, {static_cast<R>(steps[k].al), T(steps[k].be)});
                                      apply_group_pass(core, group, settings.threads);
                                      apply_group_to_factors(u, one_mode_group(group), settings.threads);
                                    });
  fix_symmetric_diagonal_phases(result);  // and U in every factor slot
  record_group_schedule(result, tensor.size(), settings, schedule);
  return result;
}

template Result<std::complex<float>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<float>>&,
                                                                      const RunSettings&);
template Result<std::complex<double>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<double>>&,
                                                                       const RunSettings&);

}  // namespace tensordiag::runtime
