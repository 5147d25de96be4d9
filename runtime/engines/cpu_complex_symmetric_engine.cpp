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

dsl::UnitaryGivens<double> complex_symmetric_rotation(const std::vector<std::complex<double>>& t) {
  if (static_cast<int>(t.size()) - 1 > dsl::symmetric_unitary_max_order) return symmetric_unitary_search(t);
  double re[dsl::symmetric_unitary_max_order + 1], im[dsl::symmetric_unitary_max_order + 1];
  for (std::size_t k = 0; k < t.size(); ++k) {
    re[k] = t[k].real();
    im[k] = t[k].imag();
  }
  dsl::UnitaryGivens<double> g;
  double be_re = 0.0, be_im = 0.0;
  dsl::symmetric_unitary_rotation(static_cast<int>(t.size()) - 1, re, im, g.al, be_re, be_im);
  g.be = {be_re, be_im};
  return g;
}

template <class R>
Result<std::complex<R>> run_cpu_complex_symmetric_engine(const HostTensor<std::complex<R>>& tensor,
                                                         const RunSettings& settings) {
  using T = std::complex<R>;
  const PivotSchedule schedule = cpu_group_schedule(tensor.size(), settings);
  // U alone: one factor, rotated as a one-mode group by the rotation every mode got. The pairs'
  // rotations (a 3 x 3 eigenproblem at orders 2 and 3, symmetric_unitary_search above): serial.
  Result<T> result = run_cpu_sweeps(tensor, settings, 1, schedule,
                                    [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& u) {
                                      GroupRotations<T> group(core.order(), pairs);
                                      for (std::size_t k = 0; k < pairs.size(); ++k) {
                                        const dsl::UnitaryGivens<double> g = complex_symmetric_rotation(
                                            symmetric_pivot_values(
                                                gather_pivot_subtensor(core.data(), core.strides(), pairs[k]),
                                                core.order()));
                                        set_in_every_mode(group, k, {static_cast<R>(g.al), T(g.be)});
                                      }
                                      apply_group_pass(core, group, settings.threads);
                                      apply_group_to_factors(u, one_mode_group(group));
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
