#include "runtime/engines/gpu_packed_engine.hpp"

#include <string_view>
#include <type_traits>

#include "codegen/codegen_error.hpp"
#include "codegen/kernel_plan.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/multiset_index.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/cpu_group_schedule.hpp"
#include "runtime/engines/cpu_sweeps.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::runtime {

namespace {

// A sweep of at most this many launches is captured once as a CUDA graph and replayed (a group is
// 3 launches, or 2 + N / 2 with a launch a pair: D = 6, N = 128 would make 8382); larger ones launch
// one by one.
constexpr std::size_t max_graph_launches = 16384;

// packed_group's `symbols` of each group (kernels_templates/packed_symmetric.cu): the indices that
// are no pair's q, in increasing order, each as (index, its pair's q or -1, that pair's place in
// the group).
std::vector<int> orbit_symbols(const PivotSchedule& schedule, int size) {
  std::vector<int> out;
  for (const PivotGroup& group : schedule) {
    std::vector<int> partner(static_cast<std::size_t>(size), -1), place(static_cast<std::size_t>(size), -1);
    std::vector<bool> is_q(static_cast<std::size_t>(size), false);
    for (std::size_t k = 0; k < group.size(); ++k) {
      const auto [p, q] = group[k];
      partner[static_cast<std::size_t>(p)] = q;
      place[static_cast<std::size_t>(p)] = static_cast<int>(k);
      is_q[static_cast<std::size_t>(q)] = true;
    }
    for (int i = 0; i < size; ++i)
      if (!is_q[static_cast<std::size_t>(i)])
        out.insert(out.end(), {i, partner[static_cast<std::size_t>(i)], place[static_cast<std::size_t>(i)]});
  }
  return out;
}

}  // namespace

template <class T>
double gpu_packed_bytes_needed(int order, int size) {
  const double entries = static_cast<double>(multiset_count(size, order));
  return (entries + static_cast<double>(size) * size) * sizeof(T) + 64e6;
}

template <class T>
std::optional<std::string> gpu_packed_declines(int order, int size) {
  // What codegen takes (order D <= 12, N <= 32768 for the kernels' 32-bit matrix indices, the
  // shape's plan), asked before any device: auto then runs such a tensor on the CPU instead of
  // failing in the engine.
  try {
    const codegen::KernelSpec spec = codegen::make_kernel_spec(
        "packed_symmetric", order, size, std::is_same_v<T, float> ? "float32" : "float64", "C", "max_diag");
    if (const codegen::PlanAttempt plan = codegen::try_plan(spec); !plan.plan) return plan.refusal;
  } catch (const codegen::codegen_error& error) {
    return std::string(error.what()).substr(std::string_view("codegen_error: ").size());
  }
  const std::optional<CudaDeviceInfo> device = cuda_device();
  if (!device) return "no GPU (" + cuda_unavailable_reason() + ")";
  return device_memory_refusal(*device, gpu_packed_bytes_needed<T>(order, size));
}

template <class T>
PackedResult<T> run_gpu_packed_engine(const PackedSymmetricTensor<T>& tensor, const RunSettings& settings,
                                      const codegen::LoweredRule& rule) {
  const Stopwatch total;
  if (const auto declined = gpu_packed_declines<T>(tensor.order(), tensor.size()))
    throw user_error("the CUDA backend cannot take this packed tensor: " + *declined);
  const CudaDeviceInfo device = require_cuda_device();
  const int order = tensor.order(), size = tensor.size();
  const codegen::KernelSpec spec =
      kernel_spec_for<T>(order, size, Layout::c_order, rule, codegen::KernelKind::packed_symmetric);
  const GpuKernels<T> kernels(spec, device.arch(), KernelSet::packed);
  const codegen::PackedSymmetricPlan& plan = *kernels.packed_plan;
  const int pairs = size / 2;
  const CudaStream stream;

  DeviceBuffer<T> core(tensor.count());
  core.upload(tensor.data(), tensor.count(), stream.get());
  DeviceBuffer<T> factor(static_cast<std::size_t>(size) * size);
  factor.upload(Matrix<T>::identity(size).data.data(), factor.count(), stream.get());
  const PivotSchedule schedule = cpu_group_schedule(size, settings);
  std::vector<int> flat;
  for (const PivotGroup& group : schedule) {
    if (group.size() != static_cast<std::size_t>(pairs))
      throw internal_error("run_gpu_packed_engine: a group of " + std::to_string(group.size()) + " pairs, not N / 2");
    for (const auto [p, q] : group) flat.insert(flat.end(), {p, q});
  }
  DeviceBuffer<int> d_pairs(flat.size());
  d_pairs.upload(flat, stream.get());
  const std::vector<int> symbols = orbit_symbols(schedule, size);
  DeviceBuffer<int> d_symbols(symbols.size());
  d_symbols.upload(symbols, stream.get());
  const std::size_t symbols_per_group = static_cast<std::size_t>(3 * (size - pairs));
  DeviceBuffer<dsl::Givens<T>> rotations(static_cast<std::size_t>(pairs));
  DeviceBuffer<double> powers(static_cast<std::size_t>(pairs) * static_cast<std::size_t>(plan.powers));
  DeviceBuffer<double> partials(static_cast<std::size_t>(plan.figure_blocks));
  DeviceBuffer<double> figures(3);

  // One sweep's launches: per group its angles, its rotations (every orbit at once, or its pairs'
  // classes one pair after the other), Q.
  const std::size_t launches_per_group = plan.group_orbits ? 3 : 2 + static_cast<std::size_t>(pairs);
  const auto enqueue_sweep = [&](cudaStream_t s) {
    for (std::size_t g = 0; g < schedule.size(); ++g) {
      const int* group = d_pairs.data() + g * 2 * static_cast<std::size_t>(pairs);
      kernels.packed_angles(s, core.data(), group, rotations.data(), powers.data());
      if (plan.group_orbits)
        kernels.packed_group(s, core.data(), d_symbols.data() + g * symbols_per_group, powers.data());
      else
        for (int k = 0; k < pairs; ++k) kernels.packed_rotate(s, core.data(), group, powers.data(), k);
      kernels.packed_factor(s, factor.data(), group, rotations.data());
    }
  };
  std::optional<CudaGraph> sweep_graph;
  if (schedule.size() * launches_per_group <= max_graph_launches)
    sweep_graph.emplace(stream.get(), enqueue_sweep);

  PackedResult<T> out;
  Result<T>& result = out.run;
  result.backend = Backend::cuda;
  result.device = device.name;
  // sweep_core's passes: the whole sweep is one step here (the graph, or its launches).
  const std::vector<int> one_step{0};
  sweep_core(
      core, result, settings, one_step, total,
      [&](DeviceBuffer<T>& c) {
        kernels.packed_figures(stream.get(), c.data(), partials.data());
        kernels.packed_figures_final(stream.get(), c.data(), partials.data(), figures.data());
        const std::vector<double> f = figures.download(stream.get());
        return CoreFigures{f[0], f[1], f[2]};
      },
      [&](DeviceBuffer<T>&, int) {
        if (sweep_graph) sweep_graph->launch(stream.get());
        else enqueue_sweep(stream.get());
      });

  std::vector<T> values(tensor.count());
  core.download(values.data(), values.size(), stream.get());
  out.core = PackedSymmetricTensor<T>(order, size, std::move(values));
  Matrix<T> q{size, std::vector<T>(factor.count())};
  factor.download(q.data.data(), q.data.size(), stream.get());
  stream.synchronize();
  result.factors.assign(static_cast<std::size_t>(order), q);
  result.kernels = kernels.report().kinds;
  result.timings.compile_seconds = kernels.report().seconds;
  record_group_schedule(result, size, settings, schedule);
  return out;
}

template double gpu_packed_bytes_needed<float>(int, int);
template double gpu_packed_bytes_needed<double>(int, int);
template std::optional<std::string> gpu_packed_declines<float>(int, int);
template std::optional<std::string> gpu_packed_declines<double>(int, int);
template PackedResult<float> run_gpu_packed_engine(const PackedSymmetricTensor<float>&, const RunSettings&,
                                                   const codegen::LoweredRule&);
template PackedResult<double> run_gpu_packed_engine(const PackedSymmetricTensor<double>&, const RunSettings&,
                                                    const codegen::LoweredRule&);

}  // namespace tensordiag::runtime
