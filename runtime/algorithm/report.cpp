#include "runtime/algorithm/report.hpp"

#include <string>

#include "runtime/core/version.hpp"

namespace tensordiag::runtime {

template <class T>
nlohmann::ordered_json make_report(const Result<T>& result, const Options& options, const ReportInput& input) {
  nlohmann::ordered_json history = nlohmann::ordered_json::array();
  for (const SweepRecord& record : result.history)
    history.push_back({{"sweep", record.sweep},
                       {"off_rel", record.off_rel},
                       {"diag_norm2", record.diag_norm2},
                       {"trace", record.trace},
                       {"seconds", record.seconds}});
  const bool has_core = result.core.order() > 0;
  nlohmann::ordered_json report = {
      {"tensordiag_version", std::string(version())},
      {"input", input.path},
      {"input_dtype", std::string(to_string(input.dtype))},
      {"order", has_core ? result.core.order() : input.order},
      {"size", has_core ? result.core.size() : input.size},
      {"dtype", std::string(to_string(dtype_of<T>()))},
      {"layout", input.packed ? std::string("packed") : std::string(to_string(has_core ? result.core.layout() : input.layout))},
      {"structure", std::string(to_string(result.structure))},
      {"backend", std::string(to_string(result.backend))},
      {"engine", result.engine},
      {"schedule", result.schedule},
      {"passes_per_sweep", result.passes_per_sweep},
      {"kernels", result.kernels},
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
  };
  nlohmann::ordered_json timings = {{"setup_seconds", result.timings.setup_seconds},
                                    {"sweeps_seconds", result.timings.sweeps_seconds},
                                    {"total_seconds", result.timings.total_seconds},
                                    {"compile_seconds", result.timings.compile_seconds}};
  if (result.hosvd_start)
    report["init"] = {{"method", "hosvd"},
                      {"seconds", result.timings.init_seconds},
                      {"computed_on", result.hosvd_on_device ? "device" : "host"}};
  if (result.device_memory_peak_bytes) report["device_memory_peak_bytes"] = *result.device_memory_peak_bytes;
  if (result.pivot_checks)
    report["pivot_checks"] = {{"mode_checks", result.pivot_checks->checks},
                              {"exact_norms", result.pivot_checks->exact_norms}};
  if (result.verification) {
    report["reconstruction_error"] = result.verification->reconstruction_error;
    report["orthogonality_error"] = result.verification->orthogonality_error;
    timings["verification_seconds"] = result.verification->seconds;
  } else {
    report["verification"] = "skipped";
  }
  report["timings"] = std::move(timings);
  return report;
}

template nlohmann::ordered_json make_report(const Result<float>&, const Options&, const ReportInput&);
template nlohmann::ordered_json make_report(const Result<std::complex<float>>&, const Options&, const ReportInput&);
template nlohmann::ordered_json make_report(const Result<std::complex<double>>&, const Options&, const ReportInput&);
template nlohmann::ordered_json make_report(const Result<double>&, const Options&, const ReportInput&);

}  // namespace tensordiag::runtime
