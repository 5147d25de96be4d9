#include "runtime/algorithm/report.hpp"

#include <string>

#include "runtime/algorithm/verification.hpp"
#include "runtime/core/version.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

template <class T>
Verification verify(const HostTensor<T>& tensor, const Result<T>& result) {
  const Stopwatch stopwatch;
  Verification verification;
  verification.reconstruction_error = reconstruction_error(tensor, result.core, result.factors);
  verification.orthogonality_error = orthogonality_error(result.factors);
  verification.seconds = stopwatch.seconds();
  return verification;
}

template <class T>
nlohmann::ordered_json make_report(const Result<T>& result, const Options& options,
                                   const ReportInput& input, const Verification& verification) {
  nlohmann::ordered_json history = nlohmann::ordered_json::array();
  for (const SweepRecord& record : result.history)
    history.push_back({{"sweep", record.sweep},
                       {"off_rel", record.off_rel},
                       {"diag_norm2", record.diag_norm2},
                       {"trace", record.trace},
                       {"seconds", record.seconds}});
  return {
      {"tensordiag_version", std::string(version())},
      {"input", input.path},
      {"input_dtype", std::string(to_string(input.dtype))},
      {"order", result.core.order()},
      {"size", result.core.size()},
      {"dtype", std::string(to_string(dtype_of<T>()))},
      {"layout", std::string(to_string(result.core.layout()))},
      {"backend", std::string(to_string(result.backend))},
      {"device", result.device},
      {"rule", result.rule},
      {"eta", result.eta},
      {"tol", result.tol},
      {"stall_tol", result.stall_tol},
      {"max_sweeps", options.max_sweeps},
      {"sweeps", result.sweeps()},
      {"stop_reason", std::string(to_string(result.stop_reason))},
      {"converged", result.converged()},
      {"history", std::move(history)},
      {"reconstruction_error", verification.reconstruction_error},
      {"orthogonality_error", verification.orthogonality_error},
      {"timings",
       {{"setup_seconds", result.timings.setup_seconds},
        {"sweeps_seconds", result.timings.sweeps_seconds},
        {"total_seconds", result.timings.total_seconds},
        {"compile_seconds", result.timings.compile_seconds},
        {"verification_seconds", verification.seconds}}},
  };
}

template Verification verify(const HostTensor<float>&, const Result<float>&);
template Verification verify(const HostTensor<double>&, const Result<double>&);
template nlohmann::ordered_json make_report(const Result<float>&, const Options&,
                                            const ReportInput&, const Verification&);
template nlohmann::ordered_json make_report(const Result<double>&, const Options&,
                                            const ReportInput&, const Verification&);

}  // namespace tensordiag::runtime
