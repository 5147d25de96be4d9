#include "runtime/distributed/gpu_slab_engine.hpp"

#include <algorithm>
#include <cmath>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "dsl/givens.hpp"
#include "runtime/algorithm/cancellation.hpp"
#include "runtime/algorithm/sweep_loop.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/distributed/gpu_slab_pivot_check.hpp"
#include "runtime/distributed/rank_agreement.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/distributed/row_moves.hpp"
#include "runtime/distributed/slab_figures.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

namespace {

template <class T>
void check_kernels_serve_slabs(const GpuKernels<T>& kernels, const codegen::KernelSpec& base) {
  if (kernels.split_plan || kernels.chunk_plan)
    throw user_error("GPU ranks run the one-warp pivot subtensor and the one-tile group pass; N = " +
                     std::to_string(base.size) + ", D = " + std::to_string(base.order) +
                     " needs the split or chunked kernels, not built for slabs yet: use CPU ranks");
}

// A rank's slab in device memory: `capacity` slots of one row each; slot t holds index holds[t]
// of the slowest memory mode (-1: free). The kernels find the rows through the table `rows`.
template <class T>
class DeviceSlab {
public:
  DeviceSlab(const Slab<T>& host, std::size_t capacity, cudaStream_t stream)
      : length_(host.row_length()), values_(capacity * length_), rows_(static_cast<std::size_t>(host.size)),
        holds_(capacity, -1) {
    const std::vector<int>& mine = host.rows();
    values_.upload(host.values.data(), mine.size() * length_, stream);
    std::copy(mine.begin(), mine.end(), holds_.begin());
    upload_table(host.size, stream);
  }

  T* values() { return values_.data(); }
  const int* rows() const { return rows_.data(); }
  std::size_t row_length() const { return length_; }

  // The slot index `index` lives in (-1: a free slot), or -1.
  int slot_of(int index) const {
    const auto at = std::find(holds_.begin(), holds_.end(), index);
    return at == holds_.end() ? -1 : static_cast<int>(at - holds_.begin());
  }
  // Index (i, .., i)'s entry, which lives in row i, if this slab holds it: its offset.
  std::optional<std::size_t> diagonal_offset(int index, std::size_t within_row_stride) const {
    const int slot = slot_of(index);
    if (slot < 0) return std::nullopt;
    return static_cast<std::size_t>(slot) * length_ + static_cast<std::size_t>(index) * within_row_stride;
  }

  // Trades rows with every partner so that this rank holds `next`'s rows (row_exchange.hpp's
  // in-place swap; @pre swaps_in_place(now, next)): the row sent from slot t is replaced by the
  // partner's row for this rank, both sides in ascending order of index. Returns the bytes sent.
  std::size_t swap_to(const SlabLayout& now, const SlabLayout& next, int me, DeviceCommunicator& comm) {
    std::size_t sent = 0;
    for (int k = 1; k < comm.size(); ++k) {
      const int partner = me ^ k;
      std::vector<std::pair<int, std::size_t>> outgoing;  // (index, slot), ascending by index
      for (std::size_t t = 0; t < holds_.size(); ++t)
        if (holds_[t] >= 0 && next.owner(holds_[t]) == partner) outgoing.emplace_back(holds_[t], t);
      std::sort(outgoing.begin(), outgoing.end());
      std::vector<int> incoming;
      for (const int index : now.rows[static_cast<std::size_t>(partner)])
        if (next.owner(index) == me) incoming.push_back(index);
      if (incoming.size() != outgoing.size()) throw internal_error("DeviceSlab::swap_to: an unbalanced change");
      if (outgoing.empty()) continue;
      std::vector<void*> places;
      for (const auto& [index, slot] : outgoing) places.push_back(values_.data() + slot * length_);
      comm.swap_device_rows(places, length_ * sizeof(T), partner);
      for (std::size_t j = 0; j < outgoing.size(); ++j) holds_[outgoing[j].second] = incoming[j];
      sent += outgoing.size() * length_ * sizeof(T);
    }
    upload_table(static_cast<int>(rows_.count()), comm.stream());
    return sent;
  }

  // Makes this rank hold `next`'s rows by the single-row moves of row_moves.hpp (any change: odd N,
  // ranks not a power of two, unequal trades): a row received lands in the slot of the row sent in
  // the same step, else in a free slot. Returns the bytes sent.
  std::size_t move_to(const SlabLayout& now, const SlabLayout& next, int me, DeviceCommunicator& comm) {
    std::size_t sent = 0;
    for (const RowMoveStep& step : row_move_steps(now, next)) {
      const auto out = std::find_if(step.begin(), step.end(), [me](const RowMove& m) { return m.from == me; });
      const auto in = std::find_if(step.begin(), step.end(), [me](const RowMove& m) { return m.to == me; });
      if (out == step.end() && in == step.end()) continue;
      const int sent_slot = out == step.end() ? -1 : slot_of(out->index);
      const int received_slot = in == step.end() ? -1 : sent_slot >= 0 ? sent_slot : slot_of(-1);
      if ((out != step.end() && sent_slot < 0) || (in != step.end() && received_slot < 0))
        throw internal_error("DeviceSlab::move_to: a row to send is not here, or no slot is free");
      comm.move_device_row(sent_slot >= 0 ? slot(sent_slot) : nullptr, out == step.end() ? -1 : out->to,
                           received_slot >= 0 ? slot(received_slot) : nullptr, in == step.end() ? -1 : in->from,
                           length_ * sizeof(T));
      if (sent_slot >= 0) {
        holds_[static_cast<std::size_t>(sent_slot)] = -1;
        sent += length_ * sizeof(T);
      }
      if (received_slot >= 0) holds_[static_cast<std::size_t>(received_slot)] = in->index;
    }
    upload_table(static_cast<int>(rows_.count()), comm.stream());
    return sent;
  }

  // The rows of `host`'s layout, in its order, into host.values.
  void download(Slab<T>& host, cudaStream_t stream) {
    const std::vector<int>& mine = host.rows();
    host.values.resize(std::max(host.values.size(), mine.size() * length_));
    for (std::size_t t = 0; t < mine.size(); ++t)
      check_cuda(cudaMemcpyAsync(host.row(t), values_.data() + static_cast<std::size_t>(slot_of(mine[t])) * length_,
                                 length_ * sizeof(T), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync (slab)");
  }

private:
  T* slot(int t) { return values_.data() + static_cast<std::size_t>(t) * length_; }

  void upload_table(int size, cudaStream_t stream) {
    table_.assign(static_cast<std::size_t>(size), -1);
    for (std::size_t t = 0; t < holds_.size(); ++t)
      if (holds_[t] >= 0) table_[static_cast<std::size_t>(holds_[t])] = static_cast<int>(t);
    // From pageable memory: the copy is staged before the call returns, so table_ may change after.
    rows_.upload(table_, stream);
  }

  std::size_t length_;
  DeviceBuffer<T> values_;
  DeviceBuffer<int> rows_;
  std::vector<int> holds_;
  std::vector<int> table_;
};

// Entry (i, .., i) of row i is at i times the sum of the other modes' strides within the row.
std::size_t diagonal_stride_within_row(int order, int size) {
  std::size_t stride = 0, power = 1;
  for (int n = 0; n < order - 1; ++n, power *= static_cast<std::size_t>(size)) stride += power;
  return stride;
}

}  // namespace

template <class T>
DistributedResult<T> run_gpu_slab_engine(Slab<T> slab, const DistributedSchedule& schedule,
                                         const codegen::LoweredRule& rule, const RunSettings& asked,
                                         DeviceCommunicator& comm) {
  const Stopwatch total;
  RunSettings settings = asked;
  check_cuda(cudaSetDevice(comm.device()), "cudaSetDevice");
  const std::optional<CudaDeviceInfo> device = cuda_device(comm.device());
  if (!device) throw user_error("GPU rank " + std::to_string(comm.rank()) + ": " + cuda_unavailable_reason());

  const codegen::KernelSpec base =
      kernel_spec_for<T>(slab.order, slab.size, slab.layout, rule, codegen::KernelKind::group_pass);
  const bool checked = settings.eta > 0;
  GpuKernels<T> kernels(base, device->arch(), checked ? KernelSet::general_with_pivot_check : KernelSet::general);
  check_kernels_serve_slabs(kernels, base);
  if (checked && !kernels.lambda_norm_plan)
    throw user_error("the pivot check on GPU ranks takes ||Lambda||_2 on the device, N <= 1024; N = " +
                     std::to_string(slab.size) + ": use CPU ranks, or eta = 0");

  const std::size_t capacity = schedule.most_rows();
  const double bytes = static_cast<double>(capacity * slab.row_length() * sizeof(T)) + 2.0 * 128 * (1 << 20) +
                       64.0 * (1 << 20);
  if (const auto refusal = device_memory_refusal(*device, bytes))
    throw user_error("GPU rank " + std::to_string(comm.rank()) + ": the slab does not fit: " + *refusal);

  cudaStream_t stream = comm.stream();
  DistributedResult<T> out;
  Result<T>& result = out.run;
  result.backend = Backend::cuda;
  result.device = device->name;
  result.schedule = to_string(schedule.kind);
  decide_stops_together(settings, comm);

  // The input's figures on the host, then the slab to the device (its host copy let go meanwhile).
  const SlabFigures input = slab_figures(slab, comm);
  const double off_input = std::sqrt(input.off_norm2);
  result.history.push_back(SweepRecord{0, off_input > 0 ? 1.0 : 0.0, input.diag_norm2, input.trace, 0.0});
  DeviceSlab<T> device_slab(slab, capacity, stream);
  comm.wait();
  std::vector<T>().swap(slab.values);

  const std::vector<PivotGroup> groups = schedule.groups();
  result.passes_per_sweep = static_cast<int>(groups.size());
  const std::size_t pairs_per_group = static_cast<std::size_t>(slab.size / 2);
  std::vector<int> flat_pairs;
  for (const PivotGroup& group : groups)
    for (const auto [p, q] : group) flat_pairs.insert(flat_pairs.end(), {p, q});
  DeviceBuffer<int> pairs(flat_pairs.size());
  pairs.upload(flat_pairs, stream);
  const std::size_t rotations_per_group = static_cast<std::size_t>(slab.order) * pairs_per_group;
  DeviceBuffer<dsl::Givens<T>> rotations(groups.size() * rotations_per_group);
  DeviceBuffer<T> factors(static_cast<std::size_t>(slab.order) * slab.size * slab.size);
  {
    std::vector<T> identities;
    for (int n = 0; n < slab.order; ++n) {
      const auto m = Matrix<T>::identity(slab.size);
      identities.insert(identities.end(), m.data.begin(), m.data.end());
    }
    factors.upload(identities, stream);
    comm.wait();
  }
  DeviceBuffer<double> partials(static_cast<std::size_t>(kernels.group_pass_plan.partial_doubles));
  DeviceBuffer<double> figures(2);
  std::optional<SlabPivotCheck<T>> check;
  if (checked) check.emplace(kernels, slab.order, slab.size, slab.sliced_mode(), settings.eta, stream);
  const std::size_t diagonal_stride = diagonal_stride_within_row(slab.order, slab.size);
  result.timings.setup_seconds = total.seconds();

  DistributionFigures& distribution = out.distribution;
  distribution.ranks = comm.size();
  distribution.transport = comm.description();
  distribution.stages_per_sweep = static_cast<int>(schedule.stages.size());
  distribution.bytes_per_sweep = schedule.rows_moved_per_sweep() * slab.row_length() * sizeof(T);

  // Pinned, so that the copies are asynchronous and the only wait is comm.wait(), with its time-out.
  PinnedBuffer<double> sums(2);
  PinnedBuffer<T> diagonal(capacity);
  const Stopwatch sweeps;
  CudaEvent before, after;
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep) {
    before.record(stream);
    std::size_t g = 0;
    for (const DistributedStage& stage : schedule.stages) {
      if (slab.held.rows != stage.layout.rows) {
        comm.wait();  // the stage before is done: the exchange's time is its own
        const Stopwatch exchange;
        distribution.bytes_sent += swaps_in_place(slab.held, stage.layout)
                                       ? device_slab.swap_to(slab.held, stage.layout, comm.rank(), comm)
                                       : device_slab.move_to(slab.held, stage.layout, comm.rank(), comm);
        comm.wait();
        distribution.exchange_seconds += exchange.seconds();
        slab.held = stage.layout;
      }
      stop_if_cancelled(settings.cancelled);
      for (std::size_t k = 0; k < stage.groups.size(); ++k, ++g) {
        const int* group_pairs = pairs.data() + g * 2 * pairs_per_group;
        dsl::Givens<T>* group_rotations = rotations.data() + g * rotations_per_group;
        if (check) {
          check->angles(device_slab.values(), device_slab.rows(), group_pairs, group_rotations, comm);
        } else {
          kernels.pivot_angles(stream, device_slab.values(), group_pairs, group_rotations, device_slab.rows());
          comm.sum_on_device(reinterpret_cast<T*>(group_rotations), 2 * rotations_per_group);
        }
        double* figure_sums = g + 1 < groups.size() ? nullptr : partials.data();  // the sweep's last pass sums the figures
        kernels.group_pass(stream, device_slab.values(), group_pairs, group_rotations, factors.data(), figure_sums,
                           device_slab.rows());
      }
    }
    kernels.off_norm_final(stream, partials.data(), static_cast<int>(kernels.group_pass_plan.pass_blocks),
                           figures.data());
    comm.sum_on_device(figures.data(), 2);
    after.record(stream);
    check_cuda(cudaMemcpyAsync(sums.data(), figures.data(), 2 * sizeof(double), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync");
    // The trace: the diagonal entries of the rows this rank holds.
    for (std::size_t t = 0; t < slab.rows().size(); ++t) {
      const auto at = device_slab.diagonal_offset(slab.rows()[t], diagonal_stride);
      check_cuda(cudaMemcpyAsync(&diagonal[t], device_slab.values() + *at, sizeof(T), cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync");
    }
    comm.wait();
    double trace_part = 0;
    for (std::size_t t = 0; t < slab.rows().size(); ++t) trace_part += static_cast<double>(diagonal[t]);
    const double trace = sum_over_ranks(comm, trace_part);
    return SweepRecord{sweep, off_input > 0 ? std::sqrt(sums[0]) / off_input : 0.0, sums[1], trace,
                       after.seconds_since(before)};
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  device_slab.download(slab, stream);
  const std::vector<T> all_factors = factors.download(stream);
  comm.wait();
  const std::size_t square = static_cast<std::size_t>(slab.size) * slab.size;
  for (int n = 0; n < slab.order; ++n) {
    const auto begin = all_factors.begin() + static_cast<std::ptrdiff_t>(static_cast<std::size_t>(n) * square);
    result.factors.push_back(Matrix<T>{slab.size, std::vector<T>(begin, begin + static_cast<std::ptrdiff_t>(square))});
  }
  if (check) {
    // A check a mode of a group a sweep; the bounds decided those not counted as exact.
    PivotCheckCount& checks = result.pivot_checks.emplace();
    checks.checks = static_cast<long long>(result.sweeps()) * static_cast<long long>(groups.size()) * slab.order;
    checks.exact_norms = check->exact_norms(stream);
  }
  result.timings.total_seconds = total.seconds();
  result.timings.compile_seconds = kernels.report().seconds;
  result.kernels = kernels.report().kinds;
  out.core = std::move(slab);
  return out;
}

template DistributedResult<float> run_gpu_slab_engine(Slab<float>, const DistributedSchedule&,
                                                      const codegen::LoweredRule&, const RunSettings&,
                                                      DeviceCommunicator&);
template DistributedResult<double> run_gpu_slab_engine(Slab<double>, const DistributedSchedule&,
                                                       const codegen::LoweredRule&, const RunSettings&,
                                                       DeviceCommunicator&);

}  // namespace tensordiag::runtime
