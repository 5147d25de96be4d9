#include "runtime/distributed/gpu_qubit_ranks.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "dsl/givens.hpp"
#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/qubit_pivot_check.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_agreement.hpp"
#include "runtime/distributed/slab_figures.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/qubit_sweep.hpp"

namespace tensordiag::runtime {

namespace {

// chunk_pass of `kernels` over `values` with `rotations` (one (c, s) a logical mode of their spec),
// the chunks of memory modes `chunks` picks (all of them, or those from memory mode 0).
template <class T>
void rotate_chunks(const GpuKernels<T>& kernels, T* values, const std::vector<dsl::Givens<T>>& rotations,
                   bool first_chunk_only, cudaStream_t stream) {
  DeviceBuffer<dsl::Givens<T>> device_rotations(rotations.size());
  device_rotations.upload(rotations, stream);
  DeviceBuffer<int> pair(2);
  pair.upload(std::vector<int>{0, 1}, stream);
  for (const auto& [first, count] : kernels.chunk_plan->chunks)
    if (!first_chunk_only || first == 0)
      kernels.chunk_pass(stream, values, pair.data(), device_rotations.data(), first, count);
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
}

// The core on P = 2^k ranks from the accumulated rotations. Rank r's slab (the entries whose k
// slowest memory indices spell r) is first rotated in the other D - k modes, as an order D - k
// tensor of the same layout. Then for each split mode, with bit b of the rank number its index:
// the rank whose bit b is 0 swaps its second half with the first half of its partner (bit b set):
// each holds [x, y], x of index 0 and y of index 1 of that mode, for half of the rest; as an order
// D - k tensor, [x, y]'s slowest memory mode is the split mode, whose rotation mixes them (the
// other modes' rotations the identity: exact); then the same swap puts every entry back on its
// rank. Rotations of different modes commute, so the order of the split modes is free. Adds the
// swaps' bytes and seconds to `distribution`.
template <class T>
void write_core_on_ranks(T* values, std::size_t slab_entries, const QubitRotations<T>& accumulated, int order,
                         Layout layout, const codegen::LoweredRule& rule, const std::string& arch,
                         DeviceCommunicator& comm, DistributionFigures& distribution) {
  const cudaStream_t stream = comm.stream();
  const int split = std::countr_zero(static_cast<unsigned>(comm.size()));  // k
  const int local_order = order - split;
  // The logical mode of rank bit b: the slowest memory modes are 0, 1, .. in C order (mode 0 the
  // rank's top bit), D - 1, D - 2, .. in Fortran order.
  const auto mode_of_bit = [&](int b) { return layout == Layout::c_order ? split - 1 - b : order - split + b; };
  GpuKernels<T> kernels(kernel_spec_for<T>(local_order, 2, layout, rule, codegen::KernelKind::chunk_pass), arch,
                        KernelSet::chunk);
  std::vector<dsl::Givens<T>> rest;
  for (int n = 0; n < order; ++n) {
    const bool is_split = layout == Layout::c_order ? n < split : n >= order - split;
    if (!is_split) rest.push_back(accumulated.rotations[static_cast<std::size_t>(n)]);
  }
  rotate_chunks(kernels, values, rest, false, stream);

  const std::size_t half = slab_entries / 2;
  for (int b = 0; b < split; ++b) {
    const int partner = comm.rank() ^ (1 << b);
    const bool low_side = (comm.rank() & (1 << b)) == 0;
    T* const traded = values + (low_side ? half : 0);
    const auto swap = [&] {
      const Stopwatch clock;
      comm.swap_device_rows({traded}, half * sizeof(T), partner);
      comm.wait();
      distribution.exchange_seconds += clock.seconds();
      distribution.bytes_sent += half * sizeof(T);
    };
    swap();
    // [x, y] as an order D - k tensor: its slowest memory mode is logical mode 0 in C order, D - k - 1 in F.
    std::vector<dsl::Givens<T>> mixing(static_cast<std::size_t>(local_order), dsl::Givens<T>{T(1), T(0)});
    mixing[layout == Layout::c_order ? 0 : static_cast<std::size_t>(local_order - 1)] =
        accumulated.rotations[static_cast<std::size_t>(mode_of_bit(b))];
    rotate_chunks(kernels, values, mixing, true, stream);
    swap();
  }
}

}  // namespace

void check_qubit_ranks(int order, int ranks) {
  if (ranks < 1 || !std::has_single_bit(static_cast<unsigned>(ranks)))
    throw user_error("an N = 2 tensor spreads over a power of two of GPU ranks (1, 2, 4, ..), not " +
                     std::to_string(ranks));
  if (order < 1 || order - std::countr_zero(static_cast<unsigned>(ranks)) < 1)
    throw user_error("an N = 2 tensor of order " + std::to_string(order) + " has too few entries for " +
                     std::to_string(ranks) + " GPU ranks");
}

template <class T>
DistributedResult<T> run_gpu_qubit_ranks(Slab<T> slab, const codegen::LoweredRule& rule, const RunSettings& asked,
                                         DeviceCommunicator& comm) {
  const Stopwatch total;
  RunSettings settings = asked;
  const int ranks = comm.size();
  check_qubit_ranks(slab.order, ranks);
  if (settings.eta > 0 && !pivot_check_accepts_every_pair(2, settings.eta))
    throw user_error("the N = 2 path on GPU ranks takes the pivot check where it accepts every rotation, eta < 1.5 "
                     "(eta = " + std::to_string(settings.eta) + ")");
  check_cuda(cudaSetDevice(comm.device()), "cudaSetDevice");
  const std::optional<CudaDeviceInfo> device = cuda_device(comm.device());
  if (!device) throw user_error("GPU rank " + std::to_string(comm.rank()) + ": " + cuda_unavailable_reason());
  const int order = slab.order;
  const codegen::KernelSpec spec = kernel_spec_for<T>(order, 2, slab.layout, rule, codegen::KernelKind::qubit_sweep);
  if (const codegen::PlanAttempt attempt = codegen::try_plan(spec); !attempt.plan)
    throw user_error("GPU ranks for an N = 2 tensor: " + attempt.refusal);
  const std::size_t entries = slab.rows().size() * slab.row_length();
  // The slab, the reductions' arrays and the two staging buffers of the core's swaps.
  fit_slab_and_staging(comm, *device, static_cast<double>(entries * sizeof(T)) + 64.0 * (1 << 20));
  GpuKernels<T> kernels(spec, device->arch(), KernelSet::qubit);
  const cudaStream_t stream = comm.stream();

  DistributedResult<T> out;
  Result<T>& result = out.run;
  result.backend = Backend::cuda;
  result.device = device->name;
  result.schedule = to_string(SweepSchedule::round_robin);
  result.passes_per_sweep = 1;
  decide_stops_together(settings, comm);

  // The input's figures on the host; ||T||^2 = off^2 + ||diag||^2 stays the core's norm.
  const SlabFigures input = slab_figures(slab, comm);
  const double off_input = std::sqrt(input.off_norm2);
  const double norm2 = input.off_norm2 + input.diag_norm2;
  // As the one-GPU qubit engine: ||T||^2 - ||diag C||^2 resolves off(C)^2 to about 5 D u ||T||^2.
  const double resolution = 5.0 * order * 0x1p-53 * norm2;
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, input.diag_norm2, input.trace, 0.0});
  QubitState<T> state(slab.values.data(), entries, order, kernels, stream);
  comm.wait();
  std::vector<T>().swap(slab.values);

  // The rows of the reductions' high index this slab holds: the split mode is the top memory bit.
  const int rows = 1 << (order - state.plan.low_bits);
  if (rows < ranks)
    throw user_error("an N = 2 tensor of order " + std::to_string(order) + " spreads over at most " +
                     std::to_string(rows) + " GPU ranks (the rows of its sweep's reductions), not " +
                     std::to_string(ranks));
  const QubitRows held{comm.rank() * (rows / ranks), rows / ranks};
  typename QubitSweep<T>::Combine combine;
  if (ranks > 1) combine = [&comm](double* values, std::size_t count) { comm.sum_on_device(values, count); };
  QubitSweep<T> sweep(state, kernels, slab.layout == Layout::c_order, held, combine);
  result.timings.setup_seconds = total.seconds();

  DistributionFigures& distribution = out.distribution;
  distribution.ranks = ranks;
  distribution.transport = comm.description();
  distribution.stages_per_sweep = 1;
  // The two reductions summed a sweep: a ring all-reduce sends 2 (P - 1) / P of its size from
  // each of the P ranks.
  distribution.bytes_per_sweep =
      static_cast<std::size_t>(state.plan.small_high_doubles + state.plan.partial_doubles) * sizeof(double) * 2 *
      static_cast<std::size_t>(ranks - 1);

  const Stopwatch sweeps;
  CudaEvent before, after;
  result.stop_reason = run_sweeps(result.history, settings, [&](int n) {
    stop_if_cancelled(settings.cancelled);
    before.record(stream);
    sweep.enqueue(stream);
    after.record(stream);
    comm.wait();
    const double a = sweep.a(), d = sweep.d();
    // off(C)^2 = ||T||^2 - ||diag C||^2: C is T rotated in exact arithmetic (qubit_sweep.cu).
    const double off2 = std::max(norm2 - (a * a + d * d), resolution);
    return SweepRecord{n, off_input > 0 ? std::sqrt(off2) / off_input : 0.0, a * a + d * d, a + d,
                       after.seconds_since(before)};
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  const QubitRotations<T> accumulated = accumulated_rotations(state, stream);
  if (ranks == 1) {
    rotate_chunks(kernels, state.values.data(), accumulated.rotations, false, stream);
  } else {
    write_core_on_ranks(state.values.data(), entries, accumulated, order, slab.layout, rule, device->arch(), comm,
                        distribution);
  }
  result.factors = accumulated.factors;
  slab.values.resize(entries);
  state.values.download(slab.values.data(), entries, stream);
  comm.wait();
  result.timings.total_seconds = total.seconds();
  result.timings.compile_seconds = kernels.report().seconds;
  result.kernels = kernels.report().kinds;
  if (settings.eta > 0) result.pivot_checks = every_pair_accepted(result.sweeps(), order);
  out.core = std::move(slab);
  return out;
}

template DistributedResult<float> run_gpu_qubit_ranks(Slab<float>, const codegen::LoweredRule&, const RunSettings&,
                                                      DeviceCommunicator&);
template DistributedResult<double> run_gpu_qubit_ranks(Slab<double>, const codegen::LoweredRule&, const RunSettings&,
                                                       DeviceCommunicator&);

}  // namespace tensordiag::runtime
