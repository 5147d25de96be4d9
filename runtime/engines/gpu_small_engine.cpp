#include "runtime/engines/gpu_small_engine.hpp"

#include <string>
#include <type_traits>

#include "codegen/kernel_plan.hpp"
#include "dsl/symmetric_unitary_angle.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/skew_schedule.hpp"
#include "runtime/algorithm/skew_signs.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

namespace {

// A single tensor runs on one SM in the one-block path: faster than the general path's launches
// only for the smallest with the shared-memory group step (on an H100: 512 entries 0.33-0.43 ms
// against 0.53 ms; 4096 entries 1.27 ms against 0.65 ms; bench/results/gpu_h100_2026-11-21.md).
// Batches always take it where it fits.
constexpr std::size_t one_block_single_tensor_entries = 1024;

// With the register group step (kernels_templates/register_blocks.cuh: float32 up to order 5) the
// one-block path wins further: measured on an H100 (float32, structure general, 10 sweeps;
// gpu_bench --one-block, bench/results/one_block_registers_h100_2026-11-26.md) it was faster at
// D = 3 up to N = 18 (5832 entries, 3.3x) but even at N = 16 (4096, 1.00x: the general engine's XOR
// passes), at D = 4 up to N = 8 (4096, 3.1x), at D = 5 up to N = 5 (3125, 1.6x); at D = 6 (no
// register step) N = 4 was slower (0.46x). The limits are the largest measured wins; float64,
// complex and structure symmetric (its angles stay a warp a pair) were not measured: 1024.
template <class T>
std::size_t register_step_single_tensor_entries(const HostTensor<T>& first) {
  if (!std::is_same_v<T, float>) return one_block_single_tensor_entries;
  switch (first.order()) {
    case 3: return 5832;
    case 4: return 4096;
    case 5: return 3125;
    default: return one_block_single_tensor_entries;
  }
}

// A skew run's general path takes about D times the groups (skew_schedule.hpp), each two launches,
// so the one-block path wins further: measured on an H100 (float32, 10 sweeps; gpu_bench --skew,
// bench/results/skew_gpu_h100_2026-11-26.md, before the register group step) it was faster up to
// D = 3, N = 18 (5832 entries, 1.15x) and slower from N = 20 (8000, 0.88x); at D = 4 faster at
// N = 6 (1296, 1.2x), slower at N = 8 (4096, 0.79x). The limits are the largest measured wins.
template <class T>
std::size_t single_tensor_entries(const HostTensor<T>& first, Structure structure) {
  if (structure == Structure::general) return register_step_single_tensor_entries(first);
  if (structure != Structure::skew) return one_block_single_tensor_entries;
  return first.order() == 3 ? 5832 : 1296;
}

// The one-block path keeps every sweep's record of every tensor on the device (3 doubles each,
// max_sweeps + 1 of them) until the launch ends; past this the general path, which keeps its
// history on the host, takes the run (a --max-sweeps of 2^31 - 1 asked for 48 GiB a tensor).
constexpr double one_block_history_bytes = 256.0 * (1 << 20);

// small_tensor for the run: the rule's micro-iterations, or under structure symmetric one rotation
// a pair in every mode (codegen::KernelSpec::symmetric), or under structure skew the skew order's
// groups with one rotation a pair from its block entries (codegen::KernelSpec::skew).
template <class T>
codegen::KernelSpec small_tensor_spec(const HostTensor<T>& first, const EngineRun& run) {
  codegen::KernelSpec spec = kernel_spec_for(first, run.rule, codegen::KernelKind::small_tensor);
  spec.symmetric = run.settings.structure == Structure::symmetric;
  spec.skew = run.settings.structure == Structure::skew;
  return spec;
}

// small_tensor's `schedule`: the round robin's groups, flattened; with structure skew the group
// count, each group's live pairs, then the groups padded to N / 2 pairs (skew_schedule.hpp).
std::vector<int> small_tensor_schedule(int order, int size, Structure structure) {
  std::vector<int> flat;
  if (structure != Structure::skew) {
    for (const auto& group : round_robin_schedule(size))
      for (const auto [p, q] : group) flat.insert(flat.end(), {p, q});
    return flat;
  }
  const PaddedSkewSchedule padded = padded_skew_schedule(order, size);
  flat.push_back(static_cast<int>(padded.groups.size()));
  flat.insert(flat.end(), padded.live.begin(), padded.live.end());
  for (const PivotGroup& group : padded.groups)
    for (const auto [p, q] : group) flat.insert(flat.end(), {p, q});
  return flat;
}

}  // namespace

template <class T>
std::optional<std::string> one_block_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run) {
  if constexpr (is_complex_v<T>)
    if (run.settings.structure == Structure::symmetric)
      if (first.order() > dsl::symmetric_unitary_max_order)
        return "complex symmetric tensors of order " + std::to_string(first.order()) +
               " take a step searched on the host between groups, which a one-launch run has not (its step is the "
               "closed form of orders 2 and 3)";
  if (first.order() < 3) return "a symmetric matrix (order 2) runs on the general GPU engine";
  if (run.settings.eta > 0) return "the one-block path has no pivot check";
  if (run.settings.on_sweep) return "the one-block path reports only when the whole run ends";
  if (run.settings.schedule == SweepSchedule::xor_subspaces && first.size() > 2)
    return "the one-block path runs the round robin";
  const double history_bytes = (run.settings.stop.max_sweeps + 1.0) * 3 * sizeof(double) * static_cast<double>(count);
  if (history_bytes > one_block_history_bytes)
    return "the one-block path keeps every sweep's figures on the device: " + std::to_string(count) + " x " +
           std::to_string(run.settings.stop.max_sweeps + 1LL) + " records are over its 256 MiB";
  if (const std::size_t limit = single_tensor_entries(first, run.settings.structure); count == 1 && first.count() > limit)
    return "a single tensor of over " + std::to_string(limit) + " entries runs faster on the general path";
  const codegen::PlanAttempt attempt =
      codegen::try_plan(small_tensor_spec(first, run));
  if (!attempt.plan) return attempt.refusal;
  return std::nullopt;
}

template <class T>
std::vector<Result<T>> run_gpu_small_batch(std::span<const HostTensor<T>> tensors, const EngineRun& engine_run) {
  const Stopwatch total;
  const StopCriteria& stop = engine_run.settings.stop;
  if (tensors.empty()) return {};
  const auto device = require_cuda_device();
  const HostTensor<T>& first = tensors.front();
  const int order = first.order(), size = first.size();
  const std::size_t batch = tensors.size(), entries = first.count();
  const std::size_t square = static_cast<std::size_t>(size) * size;
  const std::size_t rows = static_cast<std::size_t>(stop.max_sweeps) + 1;

  const GpuKernels<T> kernels(small_tensor_spec(first, engine_run), device.arch(), KernelSet::one_block);
  const CudaStream stream;
  DeviceBuffer<T> d_tensors(batch * entries);
  for (std::size_t b = 0; b < batch; ++b) d_tensors.upload(tensors[b].data(), entries, stream.get(), b * entries);
  DeviceBuffer<T> d_factors(batch * static_cast<std::size_t>(order) * square);
  const std::vector<int> schedule = small_tensor_schedule(order, size, engine_run.settings.structure);
  DeviceBuffer<int> d_schedule(schedule.size());
  d_schedule.upload(schedule, stream.get());
  DeviceBuffer<double> d_history(batch * rows * 3);
  DeviceBuffer<int> d_sweeps(batch), d_reasons(batch);

  auto run = kernels.small_tensor;
  run.grid.x *= static_cast<unsigned>(batch);
  const double setup = total.seconds();
  CudaEvent before, after;
  const Stopwatch launch;
  before.record(stream.get());
  run(stream.get(), d_tensors.data(), d_factors.data(), d_schedule.data(), stop.max_sweeps, stop.tol, stop.stall_tol,
      static_cast<int>(stop.stalls_on == dsl::StallFigure::trace), d_history.data(), d_sweeps.data(), d_reasons.data());
  after.record(stream.get());
  std::vector<T> cores(batch * entries), factors(d_factors.count());
  d_tensors.download(cores.data(), cores.size(), stream.get());
  d_factors.download(factors.data(), factors.size(), stream.get());
  const auto history = d_history.download(stream.get());
  const auto sweeps = d_sweeps.download(stream.get());
  const auto reasons = d_reasons.download(stream.get());
  const double gpu_seconds = after.seconds_since(before);
  const double wall = launch.seconds();

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
    r.kernels = kernels.report().kinds;
    r.timings.total_seconds = total.seconds();
    if constexpr (!is_complex_v<T>)
      if (engine_run.settings.structure == Structure::skew) {
        make_skew_blocks_nonnegative(r);
        r.schedule = to_string(SweepSchedule::round_robin);
        r.passes_per_sweep = schedule.front();  // the skew order's groups (small_tensor_schedule)
      }
  }
  return results;
}

template std::optional<std::string> one_block_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
template std::optional<std::string> one_block_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
template std::vector<Result<float>> run_gpu_small_batch(std::span<const HostTensor<float>>, const EngineRun&);
template std::vector<Result<double>> run_gpu_small_batch(std::span<const HostTensor<double>>, const EngineRun&);
template std::optional<std::string> one_block_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                       const EngineRun&);
template std::optional<std::string> one_block_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                       const EngineRun&);
template std::vector<Result<std::complex<float>>> run_gpu_small_batch(std::span<const HostTensor<std::complex<float>>>,
                                                                      const EngineRun&);
template std::vector<Result<std::complex<double>>> run_gpu_small_batch(
    std::span<const HostTensor<std::complex<double>>>, const EngineRun&);

}  // namespace tensordiag::runtime
