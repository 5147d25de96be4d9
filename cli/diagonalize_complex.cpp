#include "cli/diagonalize_complex.hpp"

#include <cstdio>
#include <string>
#include <variant>

#include "cli/atomic_output.hpp"
#include "cli/progress.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_complex.hpp"

namespace tensordiag::cli {

bool runs_complex(const DiagonalizeArguments& arguments, runtime::Dtype file_dtype) {
  return runtime::is_complex(file_dtype) || (!arguments.dtype.empty() && runtime::is_complex(runtime::parse_dtype(arguments.dtype)));
}

runtime::Dtype complex_run_dtype(const DiagonalizeArguments& arguments, runtime::Dtype file_dtype) {
  if (arguments.dtype.empty()) return file_dtype;
  const runtime::Dtype dtype = runtime::parse_dtype(arguments.dtype);
  if (!runtime::is_complex(dtype))
    throw user_error(arguments.input + " holds " + std::string(runtime::to_string(file_dtype)) + " data; --dtype " +
                     arguments.dtype + " would drop the imaginary parts: use complex64 or complex128");
  return dtype;
}

int run_diagonalize_complex(const DiagonalizeArguments& arguments, const runtime::TensorShape& shape) {
  const runtime::Dtype dtype = complex_run_dtype(arguments, shape.dtype);
  runtime::Options options = run_options(arguments);
  options.on_sweep = sweep_progress(arguments.quiet, options.max_sweeps);
  runtime::AnyComplexTensor tensor =
      runtime::is_complex(shape.dtype)
          ? runtime::read_complex_tensor(arguments.input, options.structure)
          : runtime::convert_to_complex(runtime::read_tensor(arguments.input, options.structure), dtype);
  if (runtime::dtype_of(tensor) != dtype) tensor = runtime::convert(tensor, dtype);
  const runtime::ReportInput input{arguments.input, shape.dtype};
  AtomicOutput output(arguments.out);
  const std::string summary = std::visit(
      [&](const auto& typed) { return stage_result(output, runtime::diagonalize_complex(typed, options), options, input); },
      tensor);
  output.commit();
  if (!arguments.quiet)
    std::printf("%s\nwrote core.npy, factor_1.npy .. factor_%d.npy and report.json in %s\n", summary.c_str(),
                shape.order, arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
