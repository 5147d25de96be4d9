#include "runtime/engines/gpu_qubit_engine.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/qubit_pivot_check.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_verification.hpp"
#include "runtime/engines/qubit_sweep.hpp"

namespace tensordiag::runtime {

namespace {

// The core: the tensor rotated in place by the accumulated rotations (chunk_pass, the pair (0, 1)
// in every mode); returns the factors.
template <class T>
std::vector<Matrix<T>> write_core(QubitState<T>& state, const GpuKernels<T>& kernels, cudaStream_t stream) {
  const QubitRotations<T> accumulated = accumulated_rotations(state, stream);
  DeviceBuffer<dsl::Givens<T>> device_rotations(accumulated.rotations.size());
  device_rotations.upload(accumulated.rotations, stream);
  DeviceBuffer<int> pair(2);
  pair.upload(std::vector<int>{0, 1}, stream);
  for (const auto& [first, count] : kernels.chunk_plan->chunks)
    kernels.chunk_pass(stream, state.values.data(), pair.data(), device_rotations.data(), first, count);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return accumulated.factors;
}

}  // namespace

template <class T>
std::optional<std::string> qubit_engine_declines(const HostTensor<T>& first, std::size_t, const EngineRun& run) {
  if (first.size() != 2) return "the qubit path takes N = 2 only";
  if (run.settings.eta > 0 && !pivot_check_accepts_every_pair(2, run.settings.eta))
    return "the qubit path takes the pivot check where it accepts every rotation of an N = 2 tensor, eta < 1.5";
  if (!std::is_same_v<T, float>)
    return "the qubit path's convergence figure resolves off(C) to about 1e-7 of ||T||: it takes float32 only";
  const codegen::PlanAttempt attempt = codegen::try_plan(kernel_spec_for(first, run.rule, codegen::KernelKind::qubit_sweep));
  if (!attempt.plan) return attempt.refusal;
  return current_device_memory_refusal(device_bytes_needed(first));  // the tensors run one at a time
}

template <class T>
Result<T> run_gpu_qubit_engine(const HostTensor<T>& tensor, const EngineRun& run) {
  const Stopwatch total;
  const auto device = require_cuda_device();
  check_device_memory(device, tensor);
  GpuKernels<T> kernels(kernel_spec_for(tensor, run.rule, codegen::KernelKind::qubit_sweep), device.arch(),
                        KernelSet::qubit);
  const CudaStream stream;
  QubitState<T> state(tensor.data(), tensor.count(), tensor.order(), kernels, stream.get());
  QubitSweep<T> sweep(state, kernels, tensor.layout() == Layout::c_order);

  // The input's figures, summed directly; ||T||^2 = off^2 + ||diag||^2 stays the core's norm.
  Result<T> result;
  result.backend = Backend::cuda;
  result.device = device.name;
  kernels.off_norm_partial(stream.get(), state.values.data(), state.partials.data(), nullptr);
  kernels.off_norm_final(stream.get(), state.partials.data(), static_cast<int>(kernels.off_norm_plan.partial_blocks),
                         state.figures.data());
  double input_figures[2];
  T corners[2];
  state.figures.download(input_figures, 2, stream.get());
  check_cuda(cudaMemcpyAsync(&corners[0], state.values.data(), sizeof(T), cudaMemcpyDeviceToHost, stream.get()),
             "cudaMemcpyAsync");
  check_cuda(cudaMemcpyAsync(&corners[1], state.values.data() + tensor.count() - 1, sizeof(T),
                             cudaMemcpyDeviceToHost, stream.get()),
             "cudaMemcpyAsync");
  stream.synchronize();
  const double off_input = std::sqrt(input_figures[0]);
  const double norm2 = input_figures[0] + input_figures[1];
  // ||T||^2 - ||diag C||^2 resolves off(C)^2 to about 5 D u ||T||^2 (u = 2^-53; the double sums of
  // 2^D terms behind ||T||^2, a and d): the figure never claims less (1.3e-7 of ||T|| at D = 30).
  const double resolution = 5.0 * tensor.order() * 0x1p-53 * norm2;
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, input_figures[1],
                                       static_cast<double>(corners[0]) + static_cast<double>(corners[1]), 0.0});
  CudaGraph graph(stream.get(), [&sweep](cudaStream_t s) { sweep.enqueue(s); });
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  CudaEvent before, after;
  result.stop_reason = run_sweeps(result.history, run.settings, [&](int n) {
    before.record(stream.get());
    graph.launch(stream.get());
    after.record(stream.get());
    stream.synchronize();
    const double a = sweep.a(), d = sweep.d();
    // off(C)^2 = ||T||^2 - ||diag C||^2: C is T rotated in exact arithmetic (qubit_sweep.cu).
    const double off2 = std::max(norm2 - (a * a + d * d), resolution);
    return SweepRecord{n, off_input > 0 ? std::sqrt(off2) / off_input : 0.0, a * a + d * d, a + d,
                       after.seconds_since(before)};
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  result.factors = write_core(state, kernels, stream.get());
  result.core = HostTensor<T>(tensor.order(), tensor.size(), tensor.layout());
  state.values.download(result.core.data(), result.core.count(), stream.get());
  stream.synchronize();
  result.timings.total_seconds = total.seconds();
  if (run.settings.verify) {
    // On the device where it has room; else diagonalize() verifies on the host.
    DeviceBuffer<T> factors(static_cast<std::size_t>(tensor.order()) * 4);
    for (int n = 0; n < tensor.order(); ++n)
      factors.upload(result.factors[n].data.data(), 4, stream.get(), static_cast<std::size_t>(n) * 4);
    result.verification =
        verify_on_device(DeviceVerificationInputs<T>{tensor, state.values, factors, state.partials, state.figures},
                         result.factors, kernels, device.arch(), stream.get());
  }
  result.timings.compile_seconds = kernels.report().seconds;
  result.kernels = kernels.report().kinds;
  if (run.settings.eta > 0) result.pivot_checks = every_pair_accepted(result.sweeps(), tensor.order());
  return result;
}

template std::optional<std::string> qubit_engine_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> qubit_engine_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template Result<float> run_gpu_qubit_engine(const HostTensor<float>&, const EngineRun&);
template Result<double> run_gpu_qubit_engine(const HostTensor<double>&, const EngineRun&);

}  // namespace tensordiag::runtime
