#include "runtime/engines/cpu_complex_engine.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dsl/builtin_rules.hpp"
#include "dsl/hermitian_form.hpp"
#include "runtime/algorithm/complex_pivot_check.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/cpu_sweeps.hpp"

namespace tensordiag::runtime {

bool rule_has_complex_lift(std::string_view name) {
  bool lifts = false;
  dsl::with_builtin_rule(name, [&lifts](const auto& rule) {
    lifts = dsl::has_hermitian_lift<std::remove_cvref_t<decltype(rule)>>;
  });
  return lifts;
}

template <class R>
dsl::UnitaryGivens<double> complex_pair_rotation(const HostTensor<std::complex<R>>& core, int mode, int p, int q) {
  const std::ptrdiff_t diagonal = core.diagonal_stride(), stride = core.strides()[static_cast<std::size_t>(mode)];
  const std::complex<R>* c = core.data();
  // DESIGN.md section 2's pivot entries: a = C_{p..p}, b = C_{p->q,n}, d = C_{q..q}, e = C_{q->p,n}.
  const dsl::PivotValues<std::complex<double>> v{c[p * diagonal], c[p * diagonal + (q - p) * stride],
                                                 c[q * diagonal], c[q * diagonal + (p - q) * stride]};
  static constexpr auto terms = dsl::complex_rule_terms(dsl::rules::max_diag);
  return dsl::unitary_rotation(dsl::hermitian_form(terms, v));
}

namespace {

// Runs x (row p) and y (row q) of `length` entries: x <- al x + conj(be) y, y <- al y - be x, al
// real, written out in real arithmetic (std::complex's product checks for NaN, which keeps the
// loop from vectorizing).
template <class R>
void rotate_runs(std::complex<R>* x, std::complex<R>* y, std::ptrdiff_t length, const dsl::UnitaryGivens<R>& g) {
  R* xs = reinterpret_cast<R*>(x);
  R* ys = reinterpret_cast<R*>(y);
  const R al = g.al, br = g.be.real(), bi = g.be.imag();
  for (std::ptrdiff_t k = 0; k < length; ++k) {
    const R xr = xs[2 * k], xi = xs[2 * k + 1], yr = ys[2 * k], yi = ys[2 * k + 1];
    xs[2 * k] = al * xr + br * yr + bi * yi;
    xs[2 * k + 1] = al * xi + br * yi - bi * yr;
    ys[2 * k] = al * yr - br * xr + bi * xi;
    ys[2 * k + 1] = al * yi - br * xi - bi * xr;
  }
}

// Every pair's rotation of `mode` in one pass: the tensor is blocks of N runs of `stride` entries
// (row i of the mode is run i of each block); a task takes a piece of the runs of one block and
// rotates it for every pair, so the block's piece is read once for the whole group.
template <class R>
void rotate_group_rows(HostTensor<std::complex<R>>& core, int mode, const PivotGroup& pairs,
                       const std::vector<dsl::UnitaryGivens<R>>& rotations, int team) {
  constexpr std::ptrdiff_t piece = 1024;
  const std::ptrdiff_t size = core.size(), stride = core.strides()[static_cast<std::size_t>(mode)];
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  const std::ptrdiff_t blocks = count / (stride * size), pieces_a_block = (stride + piece - 1) / piece;
  std::complex<R>* data = core.data();
#pragma omp parallel for num_threads(team) schedule(static) if (count >= (std::ptrdiff_t{1} << 15))
  for (std::ptrdiff_t t = 0; t < blocks * pieces_a_block; ++t) {
    const std::ptrdiff_t block = t / pieces_a_block, start = (t % pieces_a_block) * piece;
    const std::ptrdiff_t length = std::min(piece, stride - start);
    std::complex<R>* base = data + block * stride * size + start;
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (rotations[k].be == std::complex<R>(0) && rotations[k].al == R(1)) continue;
      rotate_runs(base + pairs[k].p * stride, base + pairs[k].q * stride, length, rotations[k]);
    }
  }
}

}  // namespace

template <class R>
void rotate_complex_rows(HostTensor<std::complex<R>>& core, int mode, int p, int q, const dsl::UnitaryGivens<R>& g) {
  if (g.al != std::abs(g.al) || !std::isfinite(g.al)) throw internal_error("rotate_complex_rows: al must be real >= 0");
  rotate_group_rows(core, mode, PivotGroup{{p, q}}, std::vector<dsl::UnitaryGivens<R>>{g}, 1);
}

namespace {

// U <- U G in the plane (p, q): U[:, p] <- al U[:, p] + be U[:, q], U[:, q] <- conj(al) U[:, q] - conj(be) U[:, p].
template <class R>
void rotate_complex_columns(Matrix<std::complex<R>>& u, int p, int q, const dsl::UnitaryGivens<R>& g) {
  const std::complex<R> al(g.al);
  for (int row = 0; row < u.n; ++row) {
    const std::complex<R> x = u(row, p), y = u(row, q);
    u(row, p) = al * x + g.be * y;
    u(row, q) = std::conj(al) * y - std::conj(g.be) * x;
  }
}

// One group: per mode in order, each pair's check and rotation.
template <class R>
void complex_group_step(HostTensor<std::complex<R>>& core, const PivotGroup& pairs,
                        std::vector<Matrix<std::complex<R>>>& factors, const RunSettings& settings) {
  const int size = core.size();
  const int team = settings.threads > 0 ? settings.threads : omp_get_max_threads();
  std::vector<dsl::UnitaryGivens<R>> rotations(pairs.size());
  for (int mode = 0; mode < core.order(); ++mode) {
    std::vector<std::complex<double>> lambda;
    double norm = 0.0;
    if (settings.eta > 0) {
      lambda = complex_pivot_lambda(core, mode);
      norm = skew_hermitian_norm(lambda, size);
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      const auto [p, q] = pairs[k];
      const bool passes =
          settings.eta <= 0 || 2.0 * std::abs(lambda[static_cast<std::size_t>(p) * size + q]) >= settings.eta * norm;
      const dsl::UnitaryGivens<double> g = passes ? complex_pair_rotation(core, mode, p, q) : dsl::UnitaryGivens<double>{};
      rotations[k] = {static_cast<R>(g.al), std::complex<R>(g.be)};
    }
    rotate_group_rows(core, mode, pairs, rotations, team);
    for (std::size_t k = 0; k < pairs.size(); ++k)
      rotate_complex_columns(factors[static_cast<std::size_t>(mode)], pairs[k].p, pairs[k].q, rotations[k]);
  }
}

// C_ii real and >= 0: the phase of index i moved from mode 1 of the core into column i of U_1.
template <class R>
void fix_diagonal_phases(Result<std::complex<R>>& result) {
  HostTensor<std::complex<R>>& core = result.core;
  const std::ptrdiff_t size = core.size(), stride = core.strides().front(), diagonal = core.diagonal_stride();
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  for (std::ptrdiff_t i = 0; i < size; ++i) {
    const std::complex<R> entry = core.data()[i * diagonal];
    if (entry.imag() == R(0) && !(entry.real() < R(0))) continue;
    const std::complex<R> w = entry / std::abs(entry);
    for (std::ptrdiff_t base = 0; base < count; base += stride * size)
      for (std::ptrdiff_t k = 0; k < stride; ++k) core.data()[base + i * stride + k] *= std::conj(w);
    core.data()[i * diagonal] = std::complex<R>(std::abs(entry));  // exactly real, not |w|^2-rounded
    Matrix<std::complex<R>>& u = result.factors.front();
    for (int row = 0; row < u.n; ++row) u(row, static_cast<int>(i)) *= w;
  }
}

}  // namespace

template <class R>
Result<std::complex<R>> run_cpu_complex_engine(const HostTensor<std::complex<R>>& tensor, const RunSettings& settings) {
  using T = std::complex<R>;
  Result<T> result = run_cpu_sweeps(tensor, settings, tensor.order(), round_robin_schedule(tensor.size()),
                                    [&](HostTensor<T>& core, const PivotGroup& pairs, std::vector<Matrix<T>>& factors) {
                                      complex_group_step(core, pairs, factors, settings);
                                    });
  fix_diagonal_phases(result);
  // The phases change no figure but the trace (now sum |C_ii|): the last record states the result.
  if (result.history.size() > 1) result.history.back().trace = core_figures(result.core, Structure::general).trace;
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
