#include "runtime/algorithm/core_figures.hpp"

#include "runtime/algorithm/skew_blocks.hpp"
#include "runtime/algorithm/verification.hpp"

namespace tensordiag::runtime {

template <class T>
CoreFigures core_figures(const HostTensor<T>& core, Structure structure) {
  if (structure == Structure::skew) {
    const SkewFigures skew = skew_figures(core);
    return {skew.off_norm2, skew.block_norm2, skew.block_sum};
  }
  return {off_norm2(core), diag_norm2(core), trace(core)};
}

template CoreFigures core_figures(const HostTensor<float>&, Structure);
template CoreFigures core_figures(const HostTensor<double>&, Structure);

}  // namespace tensordiag::runtime
