#include "cli/diagonalize_packed.hpp"

#include <cstdio>
#include <string>
#include <variant>

#include "cli/atomic_output.hpp"
#include "cli/progress.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_packed.hpp"
#include "runtime/io/npy_packed.hpp"

namespace tensordiag::cli {

int run_diagonalize_packed(const DiagonalizeArguments& arguments) {
  if (arguments.batch || arguments.distributed || !arguments.devices.empty())
    throw user_error("--packed runs one tensor in one process: it does not go with --batch, --distributed or --devices");
  runtime::Options options = run_options(arguments);
  // The options against the header's shape before the data is read (a large file takes a while)
  // and before DIR is made.
  runtime::PackedSymmetricFile file(arguments.input, arguments.packed_order);
  const auto [order, size, file_dtype] = file.shape();
  runtime::check_packed_options(order, size, options);
  runtime::AnyPackedTensor tensor = file.read();
  const runtime::Dtype run_dtype = arguments.dtype.empty() ? file_dtype : runtime::parse_dtype(arguments.dtype);
  if (run_dtype != file_dtype) tensor = runtime::convert(tensor, run_dtype);
  runtime::ReportInput input{arguments.input, file_dtype};
  input.order = order;
  input.size = size;
  input.packed = true;
  AtomicOutput output(arguments.out);
  options.on_sweep = sweep_progress(arguments.quiet, options.max_sweeps);
  const std::string summary = std::visit(
      [&](const auto& typed) {
        const auto result = runtime::diagonalize_packed(typed, options);
        runtime::write_packed_symmetric(output.stage("core.npy"), result.core);
        return stage_factors_and_report(output, result.run, options, input);
      },
      tensor);
  output.commit();
  if (!arguments.quiet)
    std::printf("%s\nwrote core.npy (packed), factor_1.npy .. factor_%d.npy and report.json in %s\n", summary.c_str(),
                order, arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
