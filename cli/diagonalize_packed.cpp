#include "cli/diagonalize_packed.hpp"

#include <cstdio>
#include <string>
#include <variant>
#include <vector>

#include "cli/atomic_output.hpp"
#include "cli/diagonalize_batch.hpp"
#include "cli/progress.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_packed.hpp"
#include "runtime/io/npy_batch.hpp"
#include "runtime/io/npy_packed.hpp"

namespace tensordiag::cli {

namespace {

// report.json's description of a packed input file of this shape.
runtime::ReportInput packed_report_input(const DiagonalizeArguments& arguments, const runtime::PackedShape& shape) {
  runtime::ReportInput input{arguments.input, shape.dtype};
  input.order = shape.order;
  input.size = shape.size;
  input.packed = true;
  return input;
}

// `--packed D --batch`: every row of a (B, binom(N + D - 1, D)) file, written stacked as the full
// batch is: DIR/core.npy (B, binom(N + D - 1, D)), DIR/factor_n.npy (B, N, N) for n = 1..D (the
// same Q in every mode), DIR/report.json with one report per tensor.
template <class T>
std::string diagonalize_packed_batch_into(AtomicOutput& output, std::vector<runtime::PackedSymmetricTensor<T>> tensors,
                                          const runtime::Options& options, const runtime::ReportInput& input) {
  const int order = tensors.front().order();
  const auto results = runtime::diagonalize_packed_batch(tensors, options);
  std::vector<runtime::PackedSymmetricTensor<T>>().swap(tensors);  // the outputs alone while they are written
  print_notes(results.front().run.notes);
  std::vector<const runtime::PackedSymmetricTensor<T>*> cores;
  std::vector<const runtime::Matrix<T>*> factors;
  std::vector<const runtime::Result<T>*> runs;
  for (const auto& result : results) {
    cores.push_back(&result.core);
    factors.push_back(&result.run.factors.front());
    runs.push_back(&result.run);
  }
  runtime::write_packed_batch(output.stage("core.npy"), cores);
  for (int n = 0; n < order; ++n)
    runtime::write_matrix_batch(output.stage("factor_" + std::to_string(n + 1) + ".npy"), factors);
  return stage_batch_report(output, runs, options, input);
}

int run_diagonalize_packed_batch(const DiagonalizeArguments& arguments) {
  const runtime::Options options = run_options(arguments);
  // The options against the header's shape before the data is read, as for one tensor.
  runtime::PackedBatchFile file(arguments.input, arguments.packed_order);
  const auto [order, size, file_dtype] = file.shape();
  runtime::check_packed_options(order, size, options);
  const runtime::Dtype run_dtype = arguments.dtype.empty() ? file_dtype : runtime::parse_dtype(arguments.dtype);
  runtime::require_packed_dtype(run_dtype);
  runtime::AnyPackedBatch batch = file.read();
  const runtime::ReportInput input = packed_report_input(arguments, file.shape());
  AtomicOutput output(arguments.out);
  using runtime::AnyPackedTensor, runtime::PackedSymmetricTensor;
  const std::string summary =
      run_dtype == runtime::Dtype::float32
          ? diagonalize_packed_batch_into(
                output, converted_batch<PackedSymmetricTensor<float>, AnyPackedTensor>(std::move(batch)), options, input)
          : diagonalize_packed_batch_into(
                output, converted_batch<PackedSymmetricTensor<double>, AnyPackedTensor>(std::move(batch)), options, input);
  output.commit();
  if (!arguments.quiet)
    std::printf("%s\nwrote core.npy (packed, one row a tensor), factor_1.npy .. factor_%d.npy and report.json in %s\n",
                summary.c_str(), order, arguments.out.c_str());
  return 0;
}

}  // namespace

int run_diagonalize_packed(const DiagonalizeArguments& arguments) {
  if (arguments.distributed || !arguments.devices.empty())
    throw user_error("--packed runs in one process: it does not go with --distributed or --devices");
  if (arguments.batch) return run_diagonalize_packed_batch(arguments);
  runtime::Options options = run_options(arguments);
  // The options against the header's shape before the data is read (a large file takes a while)
  // and before DIR is made.
  runtime::PackedSymmetricFile file(arguments.input, arguments.packed_order);
  const auto [order, size, file_dtype] = file.shape();
  runtime::check_packed_options(order, size, options);
  runtime::AnyPackedTensor tensor = file.read();
  const runtime::Dtype run_dtype = arguments.dtype.empty() ? file_dtype : runtime::parse_dtype(arguments.dtype);
  if (run_dtype != file_dtype) tensor = runtime::convert(tensor, run_dtype);
  const runtime::ReportInput input = packed_report_input(arguments, file.shape());
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
