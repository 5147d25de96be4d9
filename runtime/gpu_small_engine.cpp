#include "runtime/gpu_small_engine.hpp"

#include <chrono>

#include "codegen/codegen_error.hpp"
#include "codegen/kernel_plan.hpp"
#include "runtime/cuda_device.hpp"
#include "runtime/cuda_stream.hpp"
#include "runtime/device_buffer.hpp"
#include "runtime/errors.hpp"
#include "runtime/gpu_kernels.hpp"
#include "runtime/pivot_schedule.hpp"

namespace tensordiag::runtime {

bool fits_one_block(const codegen::KernelSpec& spec) {
  codegen::KernelSpec small = spec;
  small.kind = codegen::KernelKind::small_tensor;
  try {
    codegen::plan_kernel(small);
    return true;
  } catch (const codegen::codegen_error&) {
    return false;
  }
}

template <class T>
std::vector<Result<T>> run_gpu_small_batch(const std::vector<HostTensor<T>>& tensors, const codegen::LoweredRule& rule,
                                           const StopCriteria& stop) {
  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  if (tensors.empty()) return {};
  const auto device = require_cuda_device();
  const HostTensor<T>& first = tensors.front();
  const int order = first.order(), size = first.size();
  const std::size_t batch = tensors.size(), entries = first.count();
  const std::size_t square = static_cast<std::size_t>(size) * size;
  const std::size_t rows = static_cast<std::size_t>(stop.max_sweeps) + 1;

  const GpuKernels kernels(kernel_spec_for(first, rule, codegen::KernelKind::small_tensor), device.arch(), false, true);
  const CudaStream stream;
  DeviceBuffer<T> d_tensors(batch * entries);
  for (std::size_t b = 0; b < batch; ++b) d_tensors.upload(tensors[b].data(), entries, stream.get(), b * entries);
  DeviceBuffer<T> d_factors(batch * static_cast<std::size_t>(order) * square);
  std::vector<int> schedule;
  for (const auto& group : round_robin_schedule(size))
    for (const auto [p, q] : group) schedule.insert(schedule.end(), {p, q});
  DeviceBuffer<int> d_schedule(schedule.size());
  d_schedule.upload(schedule, stream.get());
  DeviceBuffer<double> d_history(batch * rows * 3);
  DeviceBuffer<int> d_sweeps(batch), d_reasons(batch);

  GpuKernel run = kernels.small_tensor;
  run.grid.x *= static_cast<unsigned>(batch);
  const double setup = std::chrono::duration<double>(Clock::now() - start).count();
  CudaEvent before, after;
  const auto launch_start = Clock::now();
  before.record(stream.get());
  run(stream.get(), d_tensors.data(), d_factors.data(), static_cast<const int*>(d_schedule.data()), stop.max_sweeps,
      stop.tol, stop.stall_tol, static_cast<int>(stop.stall_on_trace), d_history.data(), d_sweeps.data(),
      d_reasons.data());
  after.record(stream.get());
  std::vector<T> cores(batch * entries), factors(d_factors.count());
  d_tensors.download(cores.data(), cores.size(), stream.get());
  d_factors.download(factors.data(), factors.size(), stream.get());
  const auto history = d_history.download(stream.get());
  const auto sweeps = d_sweeps.download(stream.get());
  const auto reasons = d_reasons.download(stream.get());
  const double gpu_seconds = after.seconds_since(before);
  const double wall = std::chrono::duration<double>(Clock::now() - launch_start).count();

  constexpr StopReason stop_reasons[] = {StopReason::max_sweeps, StopReason::tolerance, StopReason::stalled};
  std::vector<Result<T>> results(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    Result<T>& r = results[b];
    r.backend = Backend::cuda;
    r.device = device.name;
    r.stop_reason = stop_reasons[reasons[b]];
    r.core = HostTensor<T>(order, size, first.layout(),
                           std::vector<T>(cores.begin() + static_cast<std::ptrdiff_t>(b * entries),
                                          cores.begin() + static_cast<std::ptrdiff_t>((b + 1) * entries)));
    for (int n = 0; n < order; ++n) {
      const auto begin = factors.begin() + static_cast<std::ptrdiff_t>((b * static_cast<std::size_t>(order) + static_cast<std::size_t>(n)) * square);
      r.factors.push_back(Matrix<T>{size, std::vector<T>(begin, begin + static_cast<std::ptrdiff_t>(square))});
    }
    const double per_sweep = sweeps[b] > 0 ? gpu_seconds / sweeps[b] : 0.0;
    for (int s = 0; s <= sweeps[b]; ++s) {
      const double* row = history.data() + (b * rows + static_cast<std::size_t>(s)) * 3;
      r.history.push_back({s, row[0], row[1], row[2], s == 0 ? 0.0 : per_sweep});
    }
    r.timings.setup_seconds = setup;
    r.timings.sweeps_seconds = wall;
    r.timings.compile_seconds = kernels.report().seconds;
    r.timings.total_seconds = std::chrono::duration<double>(Clock::now() - start).count();
  }
  return results;
}

template std::vector<Result<float>> run_gpu_small_batch(const std::vector<HostTensor<float>>&, const codegen::LoweredRule&,
                                                        const StopCriteria&);
template std::vector<Result<double>> run_gpu_small_batch(const std::vector<HostTensor<double>>&, const codegen::LoweredRule&,
                                                         const StopCriteria&);

}  // namespace tensordiag::runtime
