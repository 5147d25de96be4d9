#include "runtime/gpu_engine.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <optional>

#include "codegen/kernel_plan.hpp"
#include "runtime/cuda_device.hpp"
#include "runtime/cuda_stream.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/errors.hpp"
#include "runtime/gpu_kernels.hpp"
#include "runtime/lambda_norm_cusolver.hpp"
#include "runtime/pivot_schedule.hpp"

namespace tensordiag::runtime {

namespace {

using Clock = std::chrono::steady_clock;

double seconds_between(Clock::time_point start, Clock::time_point end) {
  return std::chrono::duration<double>(end - start).count();
}

std::string gib(double bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.2f GiB", bytes / (1024.0 * 1024.0 * 1024.0));
  return text;
}

// Everything a run keeps on the device, allocated and filled once.
template <class T>
struct DeviceState {
  DeviceBuffer<T> tensor;
  DeviceBuffer<T> factors;         // D row-major N x N matrices
  DeviceBuffer<int> pairs;         // every group of the schedule, flattened
  DeviceBuffer<dsl::Givens<T>> rotations;  // per group: (c, s) of every mode and pair
  DeviceBuffer<double> partials;   // the figures' first stage: off_norm_partial or the last group_pass
  DeviceBuffer<double> figures;    // (off^2, ||diag||^2)
  DeviceBuffer<double> lambda;     // pivot check: Lambda of one mode
  DeviceBuffer<T> workspace;       // pivot check: the pairs' subtensors between modes
};

}  // namespace

template <class T>
Result<T> run_gpu_engine(const HostTensor<T>& tensor, const codegen::LoweredRule& rule, const GpuRunSettings& settings) {
  const auto start = Clock::now();
  const auto device = require_cuda_device();

  const int order = tensor.order(), size = tensor.size();
  const auto schedule = round_robin_schedule(size);
  const std::size_t groups = schedule.size();
  const std::size_t pairs_per_group = static_cast<std::size_t>(size / 2);
  const bool checked = settings.eta > 0;
  const std::size_t subtensor = std::size_t{1} << order;

  // The tensor and its few companions must fit next to what is already in use.
  const double needed = static_cast<double>(tensor.count() * sizeof(T)) +
                        static_cast<double>(order) * size * size * sizeof(T) + (64 << 20);
  if (needed > static_cast<double>(device.free_memory))
    throw user_error("the tensor needs " + gib(needed) + " on the GPU, but " + device.name + " has " +
                     gib(static_cast<double>(device.free_memory)) + " free");

  const GpuKernels kernels(kernel_spec_for(tensor, rule, codegen::KernelKind::group_pass), device.arch(), checked, false);
  const CudaStream stream;
  DeviceState<T> d{DeviceBuffer<T>(tensor.count()),
                   DeviceBuffer<T>(static_cast<std::size_t>(order) * size * size),
                   DeviceBuffer<int>(groups * 2 * pairs_per_group),
                   DeviceBuffer<dsl::Givens<T>>(groups * static_cast<std::size_t>(order) * pairs_per_group),
                   DeviceBuffer<double>(2 * static_cast<std::size_t>(
                                                std::max(kernels.off_norm_partial_blocks, kernels.pass_figure_blocks))),
                   DeviceBuffer<double>(2),
                   DeviceBuffer<double>(checked ? static_cast<std::size_t>(size) * size : 0),
                   DeviceBuffer<T>(checked ? pairs_per_group * subtensor : 0)};
  d.tensor.upload(tensor.data(), tensor.count(), stream.get());
  std::vector<T> identities;
  for (int n = 0; n < order; ++n) {
    const auto m = Matrix<T>::identity(size);
    identities.insert(identities.end(), m.data.begin(), m.data.end());
  }
  d.factors.upload(identities, stream.get());
  std::vector<int> flat_pairs;
  for (const auto& group : schedule)
    for (const auto [p, q] : group) flat_pairs.insert(flat_pairs.end(), {p, q});
  d.pairs.upload(flat_pairs, stream.get());
  if (settings.pivot_norm == PivotNorm::device && checked && !kernels.has_lambda_norm)
    throw user_error("the on-device pivot norm takes N <= 1024; use --pivot-norm cusolver or auto");
  const bool device_norm = checked && kernels.has_lambda_norm && settings.pivot_norm != PivotNorm::cusolver;
  std::optional<LambdaNormCusolver> cusolver_norm;
  if (checked && !device_norm) cusolver_norm.emplace(size);
  DeviceBuffer<double> lanczos_basis(
      device_norm ? static_cast<std::size_t>(codegen::lambda_norm_steps(size) + 1) * static_cast<std::size_t>(size) : 0);
  DeviceBuffer<double> device_lambda_norm(device_norm ? 1 : 0);

  PinnedBuffer<double> figures(2);
  PinnedBuffer<T> diagonal(static_cast<std::size_t>(size));
  const std::size_t diagonal_pitch = static_cast<std::size_t>(tensor.diagonal_stride()) * sizeof(T);

  // The convergence figures: off(C)^2 from the reduction of `count` partial sums (off_norm_partial's
  // for the input, the sweep's last group_pass's after a sweep), the diagonal itself by a strided copy.
  T* tensor_data = d.tensor.data();
  auto enqueue_figures = [&](cudaStream_t s, long long count) {
    const double* partials = d.partials.data();
    double* out = d.figures.data();
    kernels.off_norm_final(s, partials, static_cast<int>(count), out);
    check_cuda(cudaMemcpyAsync(figures.data(), out, 2 * sizeof(double), cudaMemcpyDeviceToHost, s), "cudaMemcpyAsync");
    check_cuda(cudaMemcpy2DAsync(diagonal.data(), sizeof(T), tensor_data, diagonal_pitch, sizeof(T),
                                 static_cast<std::size_t>(size), cudaMemcpyDeviceToHost, s),
               "cudaMemcpy2DAsync (diagonal)");
  };
  auto enqueue_sweep = [&](cudaStream_t s) {
    T* factors = d.factors.data();
    for (std::size_t g = 0; g < groups; ++g) {
      const int* pairs = d.pairs.data() + g * 2 * pairs_per_group;
      dsl::Givens<T>* rotations = d.rotations.data() + g * static_cast<std::size_t>(order) * pairs_per_group;
      if (!checked) {
        kernels.pivot_angles(s, tensor_data, pairs, rotations);
      } else {
        double* lambda = d.lambda.data();
        T* workspace = d.workspace.data();
        for (int mode = 0; mode < order; ++mode) {
          kernels.pivot_check_gather(s, tensor_data, pairs, rotations, mode, lambda);
          double* norm = nullptr;
          if (device_norm) {
            norm = device_lambda_norm.data();
            double* basis = lanczos_basis.data();
            kernels.lambda_norm(s, static_cast<const double*>(lambda), basis, norm);
          } else {
            cusolver_norm->enqueue(s, lambda);
            norm = cusolver_norm->norm();
          }
          kernels.pivot_angles_mode(s, tensor_data, pairs, rotations, workspace, mode, static_cast<const double*>(lambda),
                                    static_cast<const double*>(norm), settings.eta);
        }
      }
      // The sweep's last pass also sums the convergence figures.
      double* partials = g + 1 < groups ? nullptr : d.partials.data();
      kernels.group_pass(s, tensor_data, pairs, rotations, factors, partials);
    }
    enqueue_figures(s, kernels.pass_figure_blocks);
  };

  auto record_of = [&](int sweep, double off_input, double seconds) {
    double diag2 = 0, trace = 0;
    for (int i = 0; i < size; ++i) {
      const double x = static_cast<double>(diagonal[static_cast<std::size_t>(i)]);
      diag2 += x * x;
      trace += x;
    }
    const double off_rel = off_input > 0 ? std::sqrt(figures[0]) / off_input : 0.0;
    return SweepRecord{sweep, off_rel, diag2, trace, seconds};
  };

  Result<T> result;
  result.backend = Backend::cuda;
  result.device = device.name;
  kernels.off_norm_partial(stream.get(), static_cast<const T*>(tensor_data), d.partials.data());
  enqueue_figures(stream.get(), kernels.off_norm_partial_blocks);
  stream.synchronize();
  const double off_input = std::sqrt(figures[0]);
  result.history.push_back(record_of(0, off_input, 0.0));
  // cuSOLVER is not captured: on its path the sweep's work is enqueued directly.
  std::optional<CudaGraph> graph;
  if (!cusolver_norm) graph.emplace(stream.get(), enqueue_sweep);
  result.timings.setup_seconds = seconds_between(start, Clock::now());

  const auto sweeps_start = Clock::now();
  CudaEvent before, after;
  if (off_input == 0) {
    result.stop_reason = StopReason::tolerance;
  } else {
    for (int sweep = 1;; ++sweep) {
      before.record(stream.get());
      if (graph) graph->launch(stream.get());
      else enqueue_sweep(stream.get());
      after.record(stream.get());
      stream.synchronize();
      result.history.push_back(record_of(sweep, off_input, after.seconds_since(before)));
      const bool stop_asked = settings.on_sweep && settings.on_sweep(result.history.back());
      if (const auto reason = stop_reason_after(result.history, settings.stop, stop_asked)) {
        result.stop_reason = *reason;
        break;
      }
    }
  }
  result.timings.sweeps_seconds = seconds_between(sweeps_start, Clock::now());

  result.core = HostTensor<T>(order, size, tensor.layout());
  d.tensor.download(result.core.data(), result.core.count(), stream.get());
  std::vector<T> factors(d.factors.count());
  d.factors.download(factors.data(), factors.size(), stream.get());
  stream.synchronize();
  const std::size_t square = static_cast<std::size_t>(size) * size;
  for (int n = 0; n < order; ++n)
    result.factors.push_back(
        Matrix<T>{size, std::vector<T>(factors.begin() + static_cast<std::ptrdiff_t>(n * square),
                                       factors.begin() + static_cast<std::ptrdiff_t>((n + 1) * square))});
  result.timings.compile_seconds = kernels.report().seconds;
  result.timings.total_seconds = seconds_between(start, Clock::now());
  return result;
}

template Result<float> run_gpu_engine(const HostTensor<float>&, const codegen::LoweredRule&, const GpuRunSettings&);
template Result<double> run_gpu_engine(const HostTensor<double>&, const codegen::LoweredRule&, const GpuRunSettings&);

}  // namespace tensordiag::runtime
