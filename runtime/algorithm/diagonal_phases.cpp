#include "runtime/algorithm/diagonal_phases.hpp"

#include <cmath>
#include <cstddef>

#include "runtime/algorithm/core_figures.hpp"

namespace tensordiag::runtime {

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
  // The phases change no figure but the trace (now sum |C_ii|): the last record states the result.
  if (result.history.size() > 1) result.history.back().trace = core_figures(core, Structure::general).trace;
}

template void fix_diagonal_phases(Result<std::complex<float>>&);
template void fix_diagonal_phases(Result<std::complex<double>>&);

}  // namespace tensordiag::runtime
