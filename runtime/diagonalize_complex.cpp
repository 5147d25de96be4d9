#include "runtime/diagonalize_complex.hpp"

#include <string>

#include "codegen/builtin_rules.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/cpu_complex_engine.hpp"

namespace tensordiag::runtime {

void check_complex_options(const Options& options) {
  if (codegen::find_builtin_rule(options.rule) && !rule_has_complex_lift(options.rule))
    throw user_error("rule '" + options.rule +
                     "' is real-only (its objective has no complex lift): complex tensors take rule max_diag");
  if (options.structure == Structure::skew)
    throw user_error("structure skew takes real tensors; complex tensors run with structure general or symmetric");
}

template <class R>
Result<std::complex<R>> diagonalize_complex(const HostTensor<std::complex<R>>& tensor, const Options& options) {
  return diagonalize(tensor, options);
}

template Result<std::complex<float>> diagonalize_complex(const HostTensor<std::complex<float>>&, const Options&);
template Result<std::complex<double>> diagonalize_complex(const HostTensor<std::complex<double>>&, const Options&);

}  // namespace tensordiag::runtime
