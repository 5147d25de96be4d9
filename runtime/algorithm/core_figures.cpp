#include "runtime/algorithm/core_figures.hpp"

#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::runtime {

template <class T>
CoreFigures core_figures(const HostTensor<T>& core, Structure structure) {
  if constexpr (is_complex_v<T>) {
    // A complex symmetric core's figures are the general ones; a complex core is never skew.
    if (structure == Structure::skew) throw internal_error("core_figures: a complex core is never skew");
  } else if (structure == Structure::skew) {
    const SkewFigures skew = skew_figures(core);
    return {skew.off_norm2, skew.block_norm2, skew.block_sum};
  }
  return {off_norm2(core), diag_norm2(core), trace(core)};
}

template CoreFigures core_figures(const HostTensor<float>&, Structure);
template CoreFigures core_figures(const HostTensor<double>&, Structure);
template CoreFigures core_figures(const HostTensor<std::complex<float>>&, Structure);
template CoreFigures core_figures(const HostTensor<std::complex<double>>&, Structure);

}  // namespace tensordiag::runtime
