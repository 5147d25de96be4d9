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
#include "runtime/gpu_kernels.hpp"
#include "runtime/gpu_small_engine.hpp"
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

std::string_view to_string(PivotNorm norm) {
  switch (norm) {
    case PivotNorm::automatic: return "auto";
    case PivotNorm::device: return "device";
    case PivotNorm::cusolver: return "cusolver";
  }
  return "?";
}

PivotNorm parse_pivot_norm(std::string_view name) {
  if (name == "auto") return PivotNorm::automatic;
  if (name == "device") return PivotNorm::device;
  if (name == "cusolver") return PivotNorm::cusolver;
  throw user_error("unknown pivot norm '" + std::string(name) + "': use auto, device or cusolver");
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

// The shape checks every input gets (files, NumPy arrays, C++ tensors), then finiteness.
template <class T>
void check_input(const HostTensor<T>& tensor) {
  check_tensor_shape(std::vector<std::size_t>(static_cast<std::size_t>(tensor.order()),
                                              static_cast<std::size_t>(tensor.size())));
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

// What every run needs settled first: valid options, the stop criteria for the dtype, and the
// backend (auto takes the GPU when there is one, with a note when it cannot; cuda insists on it).
struct RunPlan {
  StopCriteria stop;
  bool on_gpu;
  std::vector<std::string> notes;
};

template <class T>
RunPlan plan_run(const Options& options) {
  check_options(options);
  if (!dsl::with_builtin_rule(options.rule, [](const auto&) {}))
    throw user_error("unknown rule '" + options.rule + "': use max_diag or max_trace");
  constexpr bool single = std::is_same_v<T, float>;
  RunPlan plan{StopCriteria{options.max_sweeps, options.tol.value_or(single ? 1e-5 : 1e-12),
                            options.stall_tol.value_or(single ? 1e-6 : 1e-13), options.rule == "max_trace"},
               options.backend == Backend::cuda, {}};
  if (options.backend == Backend::automatic) {
    plan.on_gpu = cuda_device().has_value();
    if (!plan.on_gpu) plan.notes.push_back("no GPU (" + cuda_unavailable_reason() + "): running on the CPU");
  }
  return plan;
}

template <class T>
void describe_run(Result<T>& result, const Options& options, const RunPlan& plan) {
  result.notes = plan.notes;
  result.rule = options.rule;
  result.eta = options.eta;
  result.tol = plan.stop.tol;
  result.stall_tol = plan.stop.stall_tol;
}

// The one-block GPU kernel serves runs without the pivot check and without a per-sweep callback
// (it reports only when the whole run is done) whose tensor fits one block's shared memory.
template <class T>
bool one_block_serves(const HostTensor<T>& tensor, const Options& options) {
  return options.eta == 0 && !options.on_sweep &&
         fits_one_block(kernel_spec_for(tensor, codegen::lower_builtin_rule(options.rule), codegen::KernelKind::small_tensor));
}

}  // namespace

// A single tensor runs on one SM in the one-block path: faster than the general path's launches
// only for the smallest (on an H100: 512 entries 0.33-0.43 ms against 0.53 ms; 4096 entries 1.27
// ms against 0.65 ms; bench/results/gpu_h100_2026-11-21.md). Batches always take it.
constexpr std::size_t one_block_single_tensor_entries = 1024;

template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options) {
  const RunPlan plan = plan_run<T>(options);
  check_input(tensor);
  Result<T> result;
  if (plan.on_gpu && tensor.count() <= one_block_single_tensor_entries && one_block_serves(tensor, options)) {
    result = std::move(run_gpu_small_batch(std::vector<HostTensor<T>>{tensor}, codegen::lower_builtin_rule(options.rule),
                                           plan.stop)
                           .front());
  } else if (plan.on_gpu) {
    result = run_gpu_engine(tensor, codegen::lower_builtin_rule(options.rule),
                            GpuRunSettings{plan.stop, options.eta, options.on_sweep, options.pivot_norm});
  } else {
    const CpuRunSettings settings{plan.stop, options.eta, options.threads > 0 ? options.threads : omp_get_max_threads(),
                                  options.on_sweep};
    dsl::with_builtin_rule(options.rule, [&](const auto& rule) { result = run_cpu_engine(tensor, rule, settings); });
    result.device = cpu_model_name() + " (" + std::to_string(settings.threads) + " threads)";
  }
  describe_run(result, options, plan);
  return result;
}

template <class T>
std::vector<Result<T>> diagonalize_batch(const std::vector<HostTensor<T>>& tensors, const Options& options) {
  const RunPlan plan = plan_run<T>(options);
  for (const auto& tensor : tensors) {
    check_input(tensor);
    if (tensor.order() != tensors.front().order() || tensor.size() != tensors.front().size() ||
        tensor.layout() != tensors.front().layout())
      throw user_error("a batch holds tensors of one shape and layout");
  }
  std::vector<Result<T>> results;
  if (!tensors.empty() && plan.on_gpu && one_block_serves(tensors.front(), options)) {
    results = run_gpu_small_batch(tensors, codegen::lower_builtin_rule(options.rule), plan.stop);
    for (auto& result : results) describe_run(result, options, plan);
  } else {
    Options one = options;
    one.backend = plan.on_gpu ? Backend::cuda : Backend::cpu;
    for (const auto& tensor : tensors) {
      results.push_back(diagonalize(tensor, one));
      results.back().notes = plan.notes;
    }
  }
  return results;
}

template Result<float> diagonalize(const HostTensor<float>&, const Options&);
template Result<double> diagonalize(const HostTensor<double>&, const Options&);
template std::vector<Result<float>> diagonalize_batch(const std::vector<HostTensor<float>>&, const Options&);
template std::vector<Result<double>> diagonalize_batch(const std::vector<HostTensor<double>>&, const Options&);

}  // namespace tensordiag::runtime
