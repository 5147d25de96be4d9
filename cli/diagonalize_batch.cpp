#include "cli/diagonalize_batch.hpp"

#include <algorithm>
#include <complex>
#include <cstdio>
#include <string>
#include <variant>

#include "cli/atomic_output.hpp"
#include "cli/diagonalize_complex.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_batch.hpp"
#include "runtime/algorithm/report.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::cli {

namespace {

// The batch's runs, written stacked from the results (the inputs are let go first: the outputs
// are the only batch held while they are written).
template <class T>
std::string diagonalize_batch_into(AtomicOutput& output, std::vector<runtime::HostTensor<T>> tensors,
                                   const runtime::Options& options, const runtime::ReportInput& input) {
  const auto results = runtime::diagonalize_batch(tensors, options);
  std::vector<runtime::HostTensor<T>>().swap(tensors);
  print_notes(results.front().notes);
  std::vector<const runtime::HostTensor<T>*> cores;
  std::vector<std::vector<const runtime::Matrix<T>*>> factors(results.front().factors.size());
  std::vector<const runtime::Result<T>*> runs;
  for (const auto& result : results) {
    runs.push_back(&result);
    cores.push_back(&result.core);
    for (std::size_t n = 0; n < factors.size(); ++n) factors[n].push_back(&result.factors[n]);
  }
  runtime::write_tensor_batch(output.stage("core.npy"), cores);
  for (std::size_t n = 0; n < factors.size(); ++n)
    runtime::write_matrix_batch(output.stage("factor_" + std::to_string(n + 1) + ".npy"), factors[n]);
  return stage_batch_report(output, runs, options, input);
}

// A complex batch (a complex file, or a real one with --dtype complex64|complex128) in complex C.
template <class C>
std::vector<runtime::HostTensor<C>> complex_batch(const DiagonalizeArguments& arguments, runtime::Dtype file_dtype) {
  using runtime::HostTensor;
  const runtime::Structure structure = runtime::parse_structure(arguments.structure);
  if (runtime::is_complex(file_dtype))
    return converted_batch<HostTensor<C>, runtime::AnyComplexTensor>(
        runtime::read_complex_tensor_batch(arguments.input, structure));
  return converted_batch<HostTensor<C>>(runtime::read_tensor_batch(arguments.input, structure), [](const auto& t) {
    return std::get<HostTensor<C>>(runtime::convert_to_complex(runtime::AnyTensor(t), runtime::dtype_of<C>()));
  });
}

}  // namespace

template <class T>
std::string stage_batch_report(AtomicOutput& output, const std::vector<const runtime::Result<T>*>& runs,
                               const runtime::Options& options, const runtime::ReportInput& input) {
  nlohmann::ordered_json reports = nlohmann::ordered_json::array();
  int converged = 0;
  double worst_reconstruction = 0, worst_orthogonality = 0;
  for (const runtime::Result<T>* result : runs) {
    reports.push_back(runtime::make_report(*result, options, input));
    converged += result->converged();
    if (!result->verification) continue;
    worst_reconstruction = std::max(worst_reconstruction, result->verification->reconstruction_error);
    worst_orthogonality = std::max(worst_orthogonality, result->verification->orthogonality_error);
  }
  nlohmann::ordered_json report{{"batch", runs.size()}, {"tensors", std::move(reports)}};
  output.stage_text("report.json", report.dump(2) + "\n");
  char line[200];
  std::snprintf(line, sizeof line, "batch of %zu tensors on %s: %d converged; ", runs.size(),
                runs.front()->device.c_str(), converged);
  if (!options.verify) return std::string(line) + "verification skipped";
  char errors[120];
  std::snprintf(errors, sizeof errors, "largest reconstruction error %.3e, %s error %.3e", worst_reconstruction,
                runtime::is_complex_v<T> ? "unitarity" : "orthogonality", worst_orthogonality);
  return std::string(line) + errors;
}

template std::string stage_batch_report(AtomicOutput&, const std::vector<const runtime::Result<float>*>&,
                                        const runtime::Options&, const runtime::ReportInput&);
template std::string stage_batch_report(AtomicOutput&, const std::vector<const runtime::Result<double>*>&,
                                        const runtime::Options&, const runtime::ReportInput&);
template std::string stage_batch_report(AtomicOutput&, const std::vector<const runtime::Result<std::complex<float>>*>&,
                                        const runtime::Options&, const runtime::ReportInput&);
template std::string stage_batch_report(AtomicOutput&, const std::vector<const runtime::Result<std::complex<double>>*>&,
                                        const runtime::Options&, const runtime::ReportInput&);

int run_diagonalize_batch(const DiagonalizeArguments& arguments) {
  const runtime::Dtype file_dtype = runtime::NpyReader(arguments.input).dtype();  // the header alone
  const runtime::ReportInput input{arguments.input, file_dtype};
  const runtime::Options options = run_options(arguments);
  using runtime::AnyTensor, runtime::HostTensor;
  // The tensors, read and in the run's dtype, written all or nothing.
  std::string summary;
  const auto run = [&](auto&& tensors) {
    AtomicOutput output(arguments.out);
    summary = diagonalize_batch_into(output, std::move(tensors), options, input);
    output.commit();
  };
  if (runs_complex(arguments, file_dtype)) {
    // Complex tensors (unitary factors), each as diagonalize_complex runs it alone.
    if (complex_run_dtype(arguments, file_dtype) == runtime::Dtype::complex64)
      run(complex_batch<std::complex<float>>(arguments, file_dtype));
    else
      run(complex_batch<std::complex<double>>(arguments, file_dtype));
  } else {
    runtime::AnyTensorBatch batch =
        runtime::read_tensor_batch(arguments.input, runtime::parse_structure(arguments.structure));
    const runtime::Dtype dtype = arguments.dtype.empty() ? file_dtype : runtime::parse_dtype(arguments.dtype);
    if (dtype == runtime::Dtype::float32)
      run(converted_batch<HostTensor<float>, AnyTensor>(std::move(batch)));
    else
      run(converted_batch<HostTensor<double>, AnyTensor>(std::move(batch)));
  }
  if (!arguments.quiet) std::printf("%s\nwrote core.npy, factor_n.npy and report.json in %s\n", summary.c_str(), arguments.out.c_str());
  return 0;
}

}  // namespace tensordiag::cli
