#include <omp.h>

#include <fstream>
#include <string>

#include "dsl/builtin_rules.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/cpu_batch.hpp"
#include "runtime/engines/cpu_engine.hpp"
#include "runtime/engines/cpu_skew_engine.hpp"
#include "runtime/engines/cpu_symmetric_engine.hpp"

namespace tensordiag::runtime {

namespace {

std::string cpu_model_name() {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line))
    if (line.rfind("model name", 0) == 0) {
      const auto colon = line.find(':');
      if (colon != std::string::npos && colon + 2 <= line.size()) return line.substr(colon + 2);
    }
  return "cpu";
}

}  // namespace

std::string cpu_device_name(int threads) {
  return cpu_model_name() + " (" + std::to_string(threads > 0 ? threads : omp_get_max_threads()) + " threads)";
}

template <class T>
std::vector<Result<T>> run_cpu_batch(std::span<const HostTensor<T>> tensors, const EngineRun& run) {
  RunSettings settings = run.settings;
  if (settings.threads <= 0) settings.threads = omp_get_max_threads();
  const std::string device = cpu_device_name(settings.threads);
  std::vector<Result<T>> results;
  for (const HostTensor<T>& tensor : tensors) {
    if (settings.structure != Structure::general) {
      results.push_back(settings.structure == Structure::symmetric ? run_cpu_symmetric_engine(tensor, settings)
                                                                   : run_cpu_skew_engine(tensor, settings));
      results.back().device = device;
      continue;
    }
    const bool known = dsl::with_builtin_rule(run.rule.name, [&](const auto& rule) {
      results.push_back(run_cpu_engine(tensor, rule, settings));
    });
    if (!known) throw internal_error("the CPU engine has no built-in rule '" + run.rule.name + "'");
    results.back().device = device;
  }
  return results;
}

template std::vector<Result<float>> run_cpu_batch(std::span<const HostTensor<float>>, const EngineRun&);
template std::vector<Result<double>> run_cpu_batch(std::span<const HostTensor<double>>, const EngineRun&);

}  // namespace tensordiag::runtime
