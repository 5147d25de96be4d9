#include "runtime/diagonalize.hpp"

#include "runtime/diagonalize_complex.hpp"

#include <cmath>
#include <span>
#include <string>

#include "codegen/builtin_rules.hpp"
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/algorithm/symmetry_check.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/device_memory_meter.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/engine.hpp"
#include "runtime/engines/gpu_engine.hpp"
#include "runtime/engines/gpu_hosvd_start.hpp"
#include "runtime/run_from_hosvd.hpp"
#include "runtime/run_plan.hpp"

namespace tensordiag::runtime {

namespace {

// The shape checks every input gets (files, NumPy arrays, C++ tensors), then finiteness, then
// the structure the options claim.
template <class T>
void check_input(const HostTensor<T>& tensor, Structure structure) {
  check_shape_and_values(tensor, structure);
  check_structure(tensor, structure);
}

// The first engine of the plan's backend, in table order, that takes these tensors. When every GPU
// engine declines, auto runs on the CPU with a note saying why, and cuda is a user_error: both
// quote the last engine's reason (the general engine's, the one that takes the most).
template <class T>
const Engine<T>& choose_engine(const HostTensor<T>& first, std::size_t count, RunPlan& plan) {
  std::string reason;
  for (const Engine<T>& engine : engines<T>()) {
    if (engine.backend != plan.backend) continue;
    const auto declined = engine.declines(first, count, plan.run);
    if (!declined) return engine;
    reason = *declined;
  }
  if (plan.backend == Backend::cuda && plan.asked == Backend::automatic) {
    plan.backend = Backend::cpu;
    plan.notes.push_back("the GPU engine cannot take this tensor (" + reason + "): running on the CPU");
    return choose_engine(first, count, plan);
  }
  if (plan.backend == Backend::cuda) throw user_error("the CUDA backend cannot take this tensor: " + reason);
  throw internal_error("no " + std::string(to_string(plan.backend)) + " engine takes the run: " + reason);
}

// diagonalize() and diagonalize_batch(), without copying a single tensor into a batch.
template <class T>
std::vector<Result<T>> run_batch(std::span<const HostTensor<T>> tensors, const Options& options) {
  if constexpr (is_complex_v<T>) check_complex_options(options);
  RunPlan plan = plan_run<T>(options);
  for (const auto& tensor : tensors) {
    check_input(tensor, options.structure);
    if (tensor.order() != tensors.front().order() || tensor.size() != tensors.front().size() ||
        tensor.layout() != tensors.front().layout())
      throw user_error("a batch holds tensors of one shape and layout");
  }
  if (tensors.empty()) return {};
  if (options.schedule == SweepSchedule::xor_subspaces && !has_xor_schedule(tensors.front().size()))
    throw user_error("the xor schedule takes N a power of two (N = " + std::to_string(tensors.front().size()) +
                     "): use --schedule round-robin or auto");
  const Engine<T>& engine = choose_engine(tensors.front(), tensors.size(), plan);
  stop_if_cancelled(options.cancelled);
  std::vector<Result<T>> results;
  DeviceMemoryMeter::reset_peak();
  // A GPU engine that starts from the HOSVD itself takes the host's start for a small tensor, where
  // the device start's library loads cost more than the host's whole start (host_hosvd_start_pays).
  const bool host_start =
      options.init == Init::hosvd &&
      (!engine.starts_from_hosvd || host_hosvd_start_pays(tensors.front().count() * sizeof(T)));
  if (host_start)
    for (const HostTensor<T>& tensor : tensors) results.push_back(run_from_hosvd(tensor, plan, [&engine](const HostTensor<T>& rotated, const EngineRun& run) {
        return std::move(engine.run(std::span<const HostTensor<T>>(&rotated, 1), run).front());
      }));
  else
    results = engine.run(tensors, plan.run);
  const std::size_t device_peak = DeviceMemoryMeter::peak();
  for (std::size_t b = 0; b < results.size(); ++b) {
    if (plan.backend == Backend::cuda) results[b].device_memory_peak_bytes = device_peak;
    describe_run(results[b], options, plan, engine.name);
    // Options::verify holds whichever engine ran: the general GPU engine verifies on the device,
    // where its data lives (when one more tensor fits there); every other result is checked
    // here, on the host.
    if (options.verify && !results[b].verification) results[b].verification = verify(tensors[b], results[b]);
  }
  return results;
}

}  // namespace

template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options) {
  // Moved out of the batch: a copy of the result would hold the core twice for a moment.
  return std::move(run_batch(std::span<const HostTensor<T>>(&tensor, 1), options).front());
}

template <class T>
std::vector<Result<T>> diagonalize_batch(const std::vector<HostTensor<T>>& tensors, const Options& options) {
  return run_batch(std::span<const HostTensor<T>>(tensors), options);
}

template <class T>
DeviceResult<T> diagonalize_on_device(const TensorView<T>& tensor, const Options& options) {
  if (tensor.memory() != Memory::cuda) throw internal_error("diagonalize_on_device: the tensor is in host memory");
  if (options.backend == Backend::cpu)
    throw user_error("backend cpu takes tensors in host memory, and this one is in CUDA device memory: use backend "
                     "cuda or auto, or copy it to the host first");
  check_tensor_shape(std::vector<std::size_t>(static_cast<std::size_t>(tensor.order()),
                                              static_cast<std::size_t>(tensor.size())));
  // The symmetry check (symmetry_check.hpp) reads the tensor on the host; skew runs on the CPU.
  if (options.structure != Structure::general)
    throw user_error("structure " + std::string(to_string(options.structure)) +
                     " takes tensors in host memory (the structure check runs there); copy the tensor to the host "
                     "first");
  Options on_gpu = options;
  on_gpu.backend = Backend::cuda;
  const RunPlan plan = plan_run<T>(on_gpu);
  stop_if_cancelled(options.cancelled);
  DeviceMemoryMeter::reset_peak();
  DeviceResult<T> result = run_gpu_engine_on_device(tensor, plan.run);
  result.run.device_memory_peak_bytes = DeviceMemoryMeter::peak();
  describe_run(result.run, options, plan, "cuda");
  return result;
}

void check_device_room(int order, int size, Dtype dtype, const Options& options) {
  if (options.backend != Backend::cuda) return;
  const std::size_t scalar_bytes = dtype_bytes(dtype);
  if (const auto refusal = current_device_memory_refusal(device_bytes_needed(order, size, scalar_bytes)))
    throw user_error("the CUDA backend cannot take this tensor: " + *refusal);
}

template Result<float> diagonalize(const HostTensor<float>&, const Options&);
template Result<double> diagonalize(const HostTensor<double>&, const Options&);
template Result<std::complex<float>> diagonalize(const HostTensor<std::complex<float>>&, const Options&);
template Result<std::complex<double>> diagonalize(const HostTensor<std::complex<double>>&, const Options&);
template std::vector<Result<float>> diagonalize_batch(const std::vector<HostTensor<float>>&, const Options&);
template std::vector<Result<double>> diagonalize_batch(const std::vector<HostTensor<double>>&, const Options&);
template std::vector<Result<std::complex<float>>> diagonalize_batch(const std::vector<HostTensor<std::complex<float>>>&,
                                                                    const Options&);
template std::vector<Result<std::complex<double>>> diagonalize_batch(const std::vector<HostTensor<std::complex<double>>>&,
                                                                     const Options&);
template DeviceResult<float> diagonalize_on_device(const TensorView<float>&, const Options&);
template DeviceResult<double> diagonalize_on_device(const TensorView<double>&, const Options&);

}  // namespace tensordiag::runtime
