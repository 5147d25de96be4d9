#include "runtime/engines/cpu_complex_engine.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dsl/builtin_rules.hpp"
#include "dsl/hermitian_form.hpp"
#include "runtime/algorithm/complex_pivot_check.hpp"
#include "runtime/algorithm/diagonal_phases.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_corners.hpp"

namespace tensordiag::runtime {

bool rule_has_complex_lift(std::string_view name) {
  bool lifts = false;
  dsl::with_builtin_rule(name, [&lifts](const auto& rule) {
    lifts = dsl::has_hermitian_lift<std::remove_cvref_t<decltype(rule)>>;
  });
  return lifts;
}

namespace {

// The rotation max_diag's complex lift picks for the pivot entries v.
template <class R>
dsl::UnitaryGivens<R> lifted_max_diag_rotation(const dsl::PivotValues<std::complex<R>>& v) {
  static constexpr auto terms = dsl::complex_rule_terms(dsl::rules::max_diag);
  return dsl::unitary_rotation(dsl::hermitian_form(terms, v));
}

}  // namespace

template <class R>
dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<R>>& core, int mode, int p, int q) {
  const std::ptrdiff_t diagonal = core.diagonal_stride(), stride = core.strides()[static_cast<std::size_t>(mode)];
  const std::complex<R>* c = core.data();
  // DESIGN.md section 2's pivot entries: a = C_{p..p}, b = C_{p->q,n}, d = C_{q..q}, e = C_{q->p,n}.
  return lifted_max_diag_rotation(dsl::PivotValues<std::complex<double>>{
      c[p * diagonal], c[p * diagonal + (q - p) * stride], c[q * diagonal], c[q * diagonal + (p - q) * stride]});
}

template <class R>
void rotate_complex_rows(HostTensor<std::complex<R>>& core, int mode, int p, int q, const dsl::UnitaryGivens<R>& g) {
  if (g.al != std::abs(g.al) || !std::isfinite(g.al)) throw internal_error("rotate_complex_rows: al must be real >= 0");
  GroupRotations<std::complex<R>> one(core.order(), PivotGroup{{p, q}});
  one.at(mode, 0) = g;
  apply_group_pass(core, one, 1);
}

namespace {

// Every mode's rotation of pair k, as the sequential micro-iterations pick them, from the pair's
// pivot subtensor alone (the other pairs of the group never touch it), read where each mode needs
// it (pivot_corners.hpp).
template <class R>
void subtensor_rotations(const HostTensor<std::complex<R>>& core, std::size_t k, int threads,
                         GroupRotations<std::complex<R>>& group) {
  PivotCorners<std::complex<R>> corners(core.data(), IndexOffsets(core.strides()), group.pairs[k], threads);
  for (int n = 0; n < core.order(); ++n) {
    group.at(n, k) = lifted_max_diag_rotation(corners.at(n));
    corners.rotate(n, group.at(n, k));
  }
}

// One group. Without the pivot check: every mode's rotations from the pairs' pivot subtensors,
// then one fused pass over the core (engines/group_pass.hpp). With it (its Lambda needs the whole
// core as the earlier modes left it): mode by mode, a pass each.
template <class R>
void complex_group_step(HostTensor<std::complex<R>>& core, const PivotGroup& pairs,
                        std::vector<Matrix<std::complex<R>>>& factors, const RunSettings& settings) {
  using T = std::complex<R>;
  const int size = core.size();
  const int team = settings.threads > 0 ? settings.threads : omp_get_max_threads();
  if (settings.eta <= 0) {
    GroupRotations<T> group(core.order(), pairs);
    for (std::size_t k = 0; k < pairs.size(); ++k) subtensor_rotations(core, k, team, group);
    apply_group_pass(core, group, team);
    apply_group_to_factors(factors, group, team);
    return;
  }
  for (int mode = 0; mode < core.order(); ++mode) {
    std::vector<std::complex<double>> lambda;
    double norm = 0.0;
    if (settings.eta > 0) {
      lambda = complex_pivot_lambda(core, mode);
      norm = skew_hermitian_norm(lambda, size);
    }
    GroupRotations<T> one_mode(core.order(), pairs);
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto [p, q] = pairs[k];
      const bool passes =
          settings.eta <= 0 || 2.0 * std::abs(lambda[static_cast<std::size_t>(p) * size + q]) >= settings.eta * norm;
      if (!passes) continue;
      const dsl::UnitaryGivens<double> g = complex_pair_rotation(core, mode, p, q);
      one_mode.at(mode, k) = {static_cast<R>(g.al), std::complex<R>(g.be)};
    }
    apply_group_pass(core, one_mode, team);
    apply_group_to_factors(factors, one_mode, team);
  }
}

}  // namespace

template <class R>
Result<std::complex<R>> run_cpu_complex_engine(const HostTensor<std::complex<R>>& tensor, const RunSettings& settings) {
  using T = std::complex<R>;
  const PivotSchedule schedule = cpu_group_schedule(tensor.size(), settings);
  Result<T> result = run_cpu_sweeps(tensor, settings, tensor.order(), schedule,
                                    [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& factors) {
                                      complex_group_step(core, pairs, factors, settings);
                                    });
  fix_diagonal_phases(result);
  record_group_schedule(result, tensor.size(), settings, schedule);
  return result;
}

template dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<float>>&, int, int, int);
template dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<double>>&, int, int, int);
template void rotate_complex_rows(HostTensor<std::complex<float>>&, int, int, int, const dsl::UnitaryGivens<float>&);
template void rotate_complex_rows(HostTensor<std::complex<double>>&, int, int, int, const dsl::UnitaryGivens<double>&);
template Result<std::complex<float>> run_cpu_complex_engine(const HostTensor<std::complex<float>>&, const RunSettings&);
template Result<std::complex<double>> run_cpu_complex_engine(const HostTensor<std::complex<double>>&,
                                                             const RunSettings&);

}  // namespace tensordiag::runtime
