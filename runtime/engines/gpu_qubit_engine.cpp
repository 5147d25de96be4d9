#include "runtime/engines/gpu_qubit_engine.hpp"

#include <algorithm>
#include <climits>
#include <cmath>
#include <complex>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/diagonal_phases.hpp"
#include "runtime/algorithm/hosvd_start.hpp"
#include "runtime/algorithm/qubit_pivot_check.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_hosvd_start.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/gpu_verification.hpp"
#include "runtime/engines/qubit_sweep.hpp"

namespace tensordiag::runtime {

namespace {

// The core: the tensor rotated in place by the accumulated rotations (chunk_pass, the pair (0, 1)
// in every mode); returns them (qubit_sweep.hpp: a complex core still owes its phases).
template <class T>
QubitRotations<T> write_core(QubitState<T>& state, const GpuKernels<T>& kernels, cudaStream_t stream) {
  QubitRotations<T> accumulated = accumulated_rotations(state, stream);
  DeviceBuffer<dsl::Givens<T>> device_rotations(accumulated.rotations.size());
  device_rotations.upload(accumulated.rotations, stream);
  DeviceBuffer<int> pair(2);
  pair.upload(std::vector<int>{0, 1}, stream);
  for (const auto& [first, count] : kernels.chunk_plan->chunks)
    kernels.chunk_pass(stream, state.values.data(), pair.data(), device_rotations.data(), first, count);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return accumulated;
}

// C <- C' x_n diag(w_n, conj(w_n)) for every mode n (qubit_sweep.hpp): each entry times the product
// of its indices' phases, taken from two tables over the low and the high half of the offset's bits
// (at N = 2 mode n's stride is 2^bit).
template <class R>
void apply_mode_phases(HostTensor<std::complex<R>>& core, const std::vector<std::complex<double>>& phases) {
  const int order = core.order();
  std::vector<std::complex<double>> phase_of_bit(static_cast<std::size_t>(order));
  for (std::size_t n = 0; n < phase_of_bit.size(); ++n) {
    int bit = 0;
    while ((std::ptrdiff_t{1} << bit) < core.strides()[n]) ++bit;
    phase_of_bit[static_cast<std::size_t>(bit)] = phases[n];
  }
  const auto table = [&phase_of_bit](int first_bit, int bits) {
    std::vector<std::complex<double>> products(std::size_t{1} << bits);
    for (std::size_t k = 0; k < products.size(); ++k) {
      std::complex<double> w = 1.0;
      for (int b = 0; b < bits; ++b) {
        const std::complex<double> phase = phase_of_bit[static_cast<std::size_t>(first_bit + b)];
        w *= ((k >> b) & 1) ? std::conj(phase) : phase;
      }
      products[k] = w;
    }
    return products;
  };
  const int low_bits = order / 2;
  const std::vector<std::complex<double>> low = table(0, low_bits), high = table(low_bits, order - low_bits);
  const auto rows = static_cast<std::ptrdiff_t>(high.size());
  std::complex<R>* const entries = core.data();
#pragma omp parallel for schedule(static)
  for (std::ptrdiff_t row = 0; row < rows; ++row) {
    std::complex<R>* const line = entries + row * static_cast<std::ptrdiff_t>(low.size());
    for (std::size_t k = 0; k < low.size(); ++k)
      line[k] = std::complex<R>(std::complex<double>(line[k]) * (high[static_cast<std::size_t>(row)] * low[k]));
  }
}

// The figures of the tensor the state holds, summed directly (off_norm), and its two diagonal entries.
struct ValueFigures {
  double off2, diag2, trace;
};
template <class T>
ValueFigures value_figures(QubitState<T>& state, const GpuKernels<T>& kernels, cudaStream_t stream) {
  kernels.off_norm_partial(stream, state.values.data(), state.partials.data(), nullptr);
  kernels.off_norm_final(stream, state.partials.data(), static_cast<int>(kernels.off_norm_plan.partial_blocks),
                         state.figures.data());
  double sums[2];
  T corners[2];  // [0..0] and [1..1]
  state.figures.download(sums, 2, stream);
  check_cuda(cudaMemcpyAsync(&corners[0], state.values.data(), sizeof(T), cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync");
  check_cuda(cudaMemcpyAsync(&corners[1], state.values.data() + state.values.count() - 1, sizeof(T),
                             cudaMemcpyDeviceToHost, stream),
             "cudaMemcpyAsync");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  return {sums[0], sums[1], static_cast<double>(real_part(corners[0])) + static_cast<double>(real_part(corners[1]))};
}

// The HOSVD start (Init::hosvd; algorithm/hosvd_start.hpp): the state's values become
// T' = T x_n Q_n^T (Q_n^H for a complex T), which the sweeps then rotate; returns the Q_n, by which the
// factors are multiplied at the end. On the device (gpu_hosvd_start.hpp: cuBLAS Gram matrices,
// cuSOLVER's eigenvectors, the mode products) where the tensor has fewer than 2^31 entries
// (cuBLAS's int sizes) and a second copy fits beside it; else on the host, T' uploaded.
template <class T>
std::vector<Matrix<T>> start_from_hosvd(const HostTensor<T>& tensor, const EngineRun& run, QubitState<T>& state,
                                        cudaStream_t stream, Result<T>& result) {
  result.hosvd_start = true;
  const bool on_device =
      tensor.count() <= static_cast<std::size_t>(INT_MAX) &&
      !current_device_memory_refusal(gpu_hosvd_start_bytes(tensor.order(), tensor.size(), sizeof(T)));
  if (on_device) {
    GpuHosvdStart<T> start = gpu_hosvd_start(state.values.data(), tensor.order(), tensor.size(), tensor.strides(),
                                             Structure::general, stream);
    result.hosvd_on_device = true;
    result.timings.init_seconds = start.seconds;
    return std::move(start.bases);
  }
  HosvdStart<T> start = hosvd_start(tensor, run.settings.threads, Structure::general);
  state.values.upload(start.rotated.data(), start.rotated.count(), stream);
  result.timings.init_seconds = start.seconds;
  return std::move(start.bases);
}

}  // namespace

template <class T>
std::optional<std::string> qubit_engine_declines(const HostTensor<T>& first, std::size_t, const EngineRun& run) {
  if (first.size() != 2) return "the qubit path takes N = 2 only";
  if (run.settings.eta > 0 && !pivot_check_accepts_every_pair(2, run.settings.eta))
    return "the qubit path takes the pivot check where it accepts every rotation of an N = 2 tensor, eta < 1.5";
  if (!std::is_same_v<real_t<T>, float>)
    return "the qubit path's convergence figure resolves off(C) to about 1e-7 of ||T||: it takes float32 and "
           "complex64 only";
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

  // The input's figures, summed directly; ||T||^2 = off^2 + ||diag||^2 stays the core's norm. From
  // the HOSVD start, T' is the tensor rotated (its norm, its rounding), and sweep 0 shows its
  // figures against off(T).
  Result<T> result;
  result.backend = Backend::cuda;
  result.device = device.name;
  const ValueFigures input = value_figures(state, kernels, stream.get());
  const double off_input = std::sqrt(input.off2);
  std::vector<Matrix<T>> bases;
  if (run.settings.init == Init::hosvd) bases = start_from_hosvd(tensor, run, state, stream.get(), result);
  const ValueFigures start = bases.empty() ? input : value_figures(state, kernels, stream.get());
  const double norm2 = start.off2 + start.diag2;
  // ||T||^2 - ||diag C||^2 resolves off(C)^2 to about 5 D u ||T||^2 (u = 2^-53; the double sums of
  // 2^D terms behind ||T||^2, a and d): the figure never claims less (1.3e-7 of ||T|| at D = 30).
  const double resolution = 5.0 * tensor.order() * 0x1p-53 * norm2;
  result.history.push_back(
      SweepRecord{0, off_input > 0 ? std::sqrt(start.off2) / off_input : 0.0, start.diag2, start.trace, 0.0});
  CudaGraph graph(stream.get(), [&sweep](cudaStream_t s) { sweep.enqueue(s); });
  result.timings.setup_seconds = total.seconds();

  const Stopwatch sweeps;
  CudaEvent before, after;
  result.stop_reason = run_sweeps(result.history, run.settings, [&](int n) {
    before.record(stream.get());
    graph.launch(stream.get());
    after.record(stream.get());
    stream.synchronize();
    const wide_t<T> a = sweep.a(), d = sweep.d();
    const double diag2 = abs2(a) + abs2(d);
    // off(C)^2 = ||T||^2 - ||diag C||^2: C is T rotated in exact arithmetic (qubit_sweep.cu).
    const double off2 = std::max(norm2 - diag2, resolution);
    return SweepRecord{n, off_input > 0 ? std::sqrt(off2) / off_input : 0.0, diag2, real_part(a) + real_part(d),
                       after.seconds_since(before)};
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  QubitRotations<T> accumulated = write_core(state, kernels, stream.get());
  result.factors = std::move(accumulated.factors);
  if (!bases.empty()) compose_with_bases(result.factors, bases);  // M_n = Q_n M'_n
  result.core = HostTensor<T>(tensor.order(), tensor.size(), tensor.layout());
  state.values.download(result.core.data(), result.core.count(), stream.get());
  stream.synchronize();
  // A complex core takes its modes' phases, then the diagonal's (diagonal_phases.hpp), on the host;
  // where it is verified, the core goes back to the device as it will be written.
  if constexpr (is_complex_v<T>) {
    apply_mode_phases(result.core, accumulated.phases);
    fix_complex_phases(result, Structure::general);
    if (run.settings.verify) state.values.upload(result.core.data(), result.core.count(), stream.get());
  }
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
template std::optional<std::string> qubit_engine_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                          const EngineRun&);
template std::optional<std::string> qubit_engine_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                          const EngineRun&);
template Result<std::complex<float>> run_gpu_qubit_engine(const HostTensor<std::complex<float>>&, const EngineRun&);
template Result<std::complex<double>> run_gpu_qubit_engine(const HostTensor<std::complex<double>>&, const EngineRun&);

}  // namespace tensordiag::runtime
