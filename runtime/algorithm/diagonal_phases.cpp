#include "runtime/algorithm/diagonal_phases.hpp"

#include <cmath>
#include <cstddef>

#include "runtime/algorithm/verification.hpp"

namespace tensordiag::runtime {

namespace {

// C[.. i@mode ..] *= factor for every entry with index i in `mode`.
template <class R>
void scale_index(HostTensor<std::complex<R>>& core, int mode, std::ptrdiff_t i, std::complex<R> factor) {
  const std::ptrdiff_t size = core.size(), stride = core.strides()[static_cast<std::size_t>(mode)];
  const auto count = static_cast<std::ptrdiff_t>(core.count());
  for (std::ptrdiff_t base = 0; base < count; base += stride * size)
    for (std::ptrdiff_t k = 0; k < stride; ++k) core.data()[base + i * stride + k] *= factor;
}

// Each index i whose C[i, .., i] is not real >= 0: w_i from that entry's phase, C[i@n] <- conj(w_i)
// C[i@n] in the modes `modes` spreads it over, U[:, i] <- w_i U[:, i]; C[i, .., i] set to its modulus
// exactly (not |w|^2-rounded). The last record's trace (now sum |C_ii|) then states the result.
template <class R, class Phase>
void fix_phases(Result<std::complex<R>>& result, int modes, Phase&& phase) {
  HostTensor<std::complex<R>>& core = result.core;
  const std::ptrdiff_t diagonal = core.diagonal_stride();
  for (std::ptrdiff_t i = 0; i < core.size(); ++i) {
    const std::complex<R> entry = core.data()[i * diagonal];
    if (entry.imag() == R(0) && !(entry.real() < R(0))) continue;
    const std::complex<R> w = phase(entry / std::abs(entry));
    for (int mode = 0; mode < modes; ++mode) scale_index(core, mode, i, std::conj(w));
    core.data()[i * diagonal] = std::complex<R>(std::abs(entry));
    Matrix<std::complex<R>>& u = result.factors.front();
    for (int row = 0; row < u.n; ++row) u(row, static_cast<int>(i)) *= w;
  }
  // The trace alone: the diagonal's N entries (core_figures would also sum off(C)^2, a pass over
  // the whole core).
  if (result.history.size() > 1) result.history.back().trace = trace(core);
}

}  // namespace

template <class R>
void fix_diagonal_phases(Result<std::complex<R>>& result) {
  fix_phases(result, 1, [](std::complex<R> unit) { return unit; });
}

template <class R>
void fix_symmetric_diagonal_phases(Result<std::complex<R>>& result) {
  const int order = result.core.order();
  fix_phases(result, order, [order](std::complex<R> unit) { return std::polar(R(1), std::arg(unit) / R(order)); });
  const Matrix<std::complex<R>> u = result.factors.front();
  result.factors.assign(static_cast<std::size_t>(order), u);
}

template void fix_diagonal_phases(Result<std::complex<float>>&);
template void fix_diagonal_phases(Result<std::complex<double>>&);
template void fix_symmetric_diagonal_phases(Result<std::complex<float>>&);
template void fix_symmetric_diagonal_phases(Result<std::complex<double>>&);

}  // namespace tensordiag::runtime
