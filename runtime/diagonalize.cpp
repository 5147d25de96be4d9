#include "runtime/diagonalize.hpp"

#include <omp.h>

#include <cmath>
#include <fstream>
#include <string>

#include "dsl/builtin_rules.hpp"
#include "codegen/lowered_rule.hpp"
#include "runtime/cpu_engine.hpp"
#include "runtime/cuda_device.hpp"
#include "runtime/gpu_engine.hpp"
#include "runtime/errors.hpp"

namespace tensordiag::runtime {

std::string_view to_string(Backend backend) {
  switch (backend) {
    case Backend::automatic: return "auto";
    case Backend::cpu: return "cpu";
    case Backend::cuda: return "cuda";
  }
  return "?";
}

std::string_view to_string(StopReason reason) {
  switch (reason) {
    case StopReason::max_sweeps: return "max_sweeps";
    case StopReason::tolerance: return "tolerance";
    case StopReason::stalled: return "stalled";
    case StopReason::callback: return "callback";
  }
  return "?";
}

Backend parse_backend(std::string_view name) {
  if (name == "auto") return Backend::automatic;
  if (name == "cpu") return Backend::cpu;
  if (name == "cuda") return Backend::cuda;
  throw user_error("unknown backend '" + std::string(name) + "': use auto, cpu or cuda");
}

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

template <class T>
void check_input(const HostTensor<T>& tensor) {
  if (tensor.order() == 2)
    throw user_error("order 2 is a matrix: its diagonalization by orthogonal factors is the SVD "
                     "(numpy.linalg.svd); tensordiag needs order >= 3");
  if (tensor.order() < 3)
    throw user_error("order " + std::to_string(tensor.order()) + " is not a tensor: tensordiag needs order >= 3");
  if (tensor.size() < 2) throw user_error("size " + std::to_string(tensor.size()) + " is trivial: tensordiag needs size >= 2");
  for (std::size_t i = 0; i < tensor.count(); ++i)
    if (!std::isfinite(tensor.values()[i]))
      throw user_error("the tensor contains NaN or Inf at flat index " + std::to_string(i));
}

void check_options(const Options& options) {
  if (options.max_sweeps < 1) throw user_error("max_sweeps must be at least 1");
  if (!(options.eta >= 0) || !std::isfinite(options.eta)) throw user_error("eta must be a finite number >= 0");
  if (options.tol && !(*options.tol > 0)) throw user_error("tol must be > 0");
  if (options.stall_tol && !(*options.stall_tol >= 0)) throw user_error("stall_tol must be >= 0");
  if (options.threads < 0) throw user_error("threads must be >= 0");
}

}  // namespace

template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options) {
  check_options(options);
  check_input(tensor);
  if (!dsl::with_builtin_rule(options.rule, [](const auto&) {}))
    throw user_error("unknown rule '" + options.rule + "': use max_diag or max_trace");

  constexpr bool single = std::is_same_v<T, float>;
  const StopCriteria stop{options.max_sweeps, options.tol.value_or(single ? 1e-5 : 1e-12),
                          options.stall_tol.value_or(single ? 1e-6 : 1e-13), options.rule == "max_trace"};

  // auto takes the GPU when there is one; cuda insists on it.
  std::vector<std::string> notes;
  bool on_gpu = options.backend == Backend::cuda;
  if (options.backend == Backend::automatic) {
    on_gpu = cuda_device().has_value();
    if (!on_gpu) notes.push_back("no GPU (" + cuda_unavailable_reason() + "): running on the CPU");
  }

  Result<T> result;
  if (on_gpu) {
    result = run_gpu_engine(tensor, codegen::lower_builtin_rule(options.rule), GpuRunSettings{stop, options.eta, options.on_sweep});
  } else {
    const CpuRunSettings settings{stop, options.eta, options.threads > 0 ? options.threads : omp_get_max_threads(),
                                  options.on_sweep};
    dsl::with_builtin_rule(options.rule, [&](const auto& rule) { result = run_cpu_engine(tensor, rule, settings); });
    result.device = cpu_model_name() + " (" + std::to_string(settings.threads) + " threads)";
  }
  result.notes = std::move(notes);
  result.rule = options.rule;
  result.eta = options.eta;
  result.tol = stop.tol;
  result.stall_tol = stop.stall_tol;
  return result;
}

template Result<float> diagonalize(const HostTensor<float>&, const Options&);
template Result<double> diagonalize(const HostTensor<double>&, const Options&);

}  // namespace tensordiag::runtime
