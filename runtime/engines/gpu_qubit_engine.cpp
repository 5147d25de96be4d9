#include "runtime/engines/gpu_qubit_engine.hpp"

#include <algorithm>
#include <cmath>
#include <type_traits>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_verification.hpp"

namespace tensordiag::runtime {

namespace {

// The halves of the memory bits (qubit_sweep.cu): 0 the low bits (a row), 1 the high bits.
constexpr int low_half = 0, high_half = 1;

// What the sweeps keep on the device: the tensor as it came (the core only after write_core), the
// D accumulated rotations (c, s) in double, each half's small array and the reduction's partials.
template <class T>
struct QubitState {
  QubitState(const HostTensor<T>& input, const GpuKernels<T>& kernels, cudaStream_t stream)
      : order(input.order()),
        plan(*kernels.qubit_plan),
        values(input.count()),
        accumulated(2 * static_cast<std::size_t>(order)),
        small{DeviceBuffer<double>(static_cast<std::size_t>(plan.small_low_doubles)),
              DeviceBuffer<double>(static_cast<std::size_t>(plan.small_high_doubles))},
        partials(static_cast<std::size_t>(std::max(plan.partial_doubles, kernels.off_norm_plan.partial_doubles))),
        figures(2) {
    values.upload(input.data(), input.count(), stream);
    std::vector<double> identities;
    for (int n = 0; n < order; ++n) identities.insert(identities.end(), {1.0, 0.0});
    accumulated.upload(identities, stream);
  }

  int order;
  codegen::QubitSweepPlan plan;
  DeviceBuffer<T> values;
  DeviceBuffer<double> accumulated;
  DeviceBuffer<double> small[2];
  DeviceBuffer<double> partials;
  DeviceBuffer<double> figures;
};

// One sweep (qubit_sweep.cu, steps 1-6): the late half reduced, the early half's angles, the early
// half reduced with them, the late half's angles; then (a, d) of the new core to the host. The
// early half is the high bits in C order, the low bits in F order.
template <class T>
class QubitSweep {
public:
  QubitSweep(QubitState<T>& state, const GpuKernels<T>& kernels, bool c_order)
      : state_(state), kernels_(kernels), early_(c_order ? high_half : low_half), corners_(2) {}

  void enqueue(cudaStream_t stream) {
    for (const int half : {early_, 1 - early_}) {
      // Reduce the other half: a row reduction leaves the high half's array, a column reduction
      // the low half's partial sums.
      if (half == high_half) {
        kernels_.qubit_reduce_low(stream, state_.values.data(), state_.accumulated.data(), state_.small[high_half].data());
        settle(stream, high_half, 0);
      } else {
        kernels_.qubit_reduce_high(stream, state_.values.data(), state_.accumulated.data(), state_.partials.data());
        settle(stream, low_half, static_cast<int>(state_.plan.shares));
      }
      kernels_.qubit_angles(stream, state_.small[half].data(), state_.accumulated.data(), half, state_.figures.data());
    }
    check_cuda(cudaMemcpyAsync(corners_.data(), state_.figures.data(), 2 * sizeof(double), cudaMemcpyDeviceToHost,
                               stream),
               "cudaMemcpyAsync (corners)");
  }

  // C[p..p] and C[q..q] after the sweep enqueue() ran, once the stream has reached it.
  double a() { return corners_[0]; }
  double d() { return corners_[1]; }

private:
  // The half's accumulated rotations applied to its small array, CELL_BITS bits a launch; the
  // first launch sums `shares` partials into it (0: the array is already whole).
  void settle(cudaStream_t stream, int half, int shares) {
    const int bits = half == high_half ? state_.order - state_.plan.low_bits : state_.plan.low_bits;
    for (int first = 0; first < bits; first += state_.plan.cell_bits)
      kernels_.qubit_settle(stream, state_.partials.data(), first == 0 ? shares : 0, state_.small[half].data(),
                            state_.accumulated.data(), half, first, std::min(state_.plan.cell_bits, bits - first));
  }

  QubitState<T>& state_;
  const GpuKernels<T>& kernels_;
  int early_;
  PinnedBuffer<double> corners_;
};

// The core: the tensor rotated in place by the accumulated rotations (chunk_pass, the pair (0, 1)
// in every mode), and the factors M_n = R(Q_n)^T = [[c, -s], [s, c]] (group_factors' convention).
template <class T>
std::vector<Matrix<T>> write_core(QubitState<T>& state, const GpuKernels<T>& kernels, cudaStream_t stream) {
  std::vector<double> accumulated(state.accumulated.count());
  state.accumulated.download(accumulated.data(), accumulated.size(), stream);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  std::vector<dsl::Givens<T>> rotations;
  std::vector<Matrix<T>> factors;
  for (int n = 0; n < state.order; ++n) {
    const T c = static_cast<T>(accumulated[2 * n]), s = static_cast<T>(accumulated[2 * n + 1]);
    rotations.push_back({c, s});
    factors.push_back(Matrix<T>{2, {c, -s, s, c}});
  }
  DeviceBuffer<dsl::Givens<T>> device_rotations(rotations.size());
  device_rotations.upload(rotations, stream);
  DeviceBuffer<int> pair(2);
  pair.upload(std::vector<int>{0, 1}, stream);
  for (const auto& [first, count] : kernels.chunk_plan->chunks)
    kernels.chunk_pass(stream, state.values.data(), pair.data(), device_rotations.data(), first, count);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return factors;
}

}  // namespace

template <class T>
std::optional<std::string> qubit_engine_declines(const HostTensor<T>& first, std::size_t, const EngineRun& run) {
  if (first.size() != 2) return "the qubit path takes N = 2 only";
  if (run.settings.eta > 0) return "the qubit path has no pivot check";
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
  QubitState<T> state(tensor, kernels, stream.get());
  QubitSweep<T> sweep(state, kernels, tensor.layout() == Layout::c_order);

  // The input's figures, summed directly; ||T||^2 = off^2 + ||diag||^2 stays the core's norm.
  Result<T> result;
  result.backend = Backend::cuda;
  result.device = device.name;
  kernels.off_norm_partial(stream.get(), state.values.data(), state.partials.data());
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
  return result;
}

template std::optional<std::string> qubit_engine_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> qubit_engine_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template Result<float> run_gpu_qubit_engine(const HostTensor<float>&, const EngineRun&);
template Result<double> run_gpu_qubit_engine(const HostTensor<double>&, const EngineRun&);

}  // namespace tensordiag::runtime
