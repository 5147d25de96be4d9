#include "runtime/distributed/gpu_slab_engine.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
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
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/overlapped_change.hpp"
#include "runtime/distributed/rank_agreement.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/distributed/row_moves.hpp"
#include "runtime/distributed/slab_figures.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::runtime {

namespace {

// A rank's slab in device memory: `capacity` slots of one row each; slot t holds index holds[t]
// of the slowest memory mode (-1: free). The kernels find the rows through the table `rows`.
template <class T>
class DeviceSlab {
public:
  // `launches`: the most launches an overlapped change cuts a pass into (the tables of launch_tables(),
  // gather_tables() and arrival_tables()).
  DeviceSlab(const Slab<T>& host, std::size_t capacity, std::size_t launches, cudaStream_t stream)
      : size_(static_cast<std::size_t>(host.size)), length_(host.row_length()), block_(length_ / size_),
        values_(capacity * length_), rows_(2 * size_), launch_rows_(launches * 2 * size_),
        arrival_rows_(launches * 2 * size_), gather_rows_(launches * 2 * size_), holds_(capacity, -1) {
    const std::vector<int>& mine = host.rows();
    values_.upload(host.values.data(), mine.size() * length_, stream);
    std::copy(mine.begin(), mine.end(), holds_.begin());
    upload_table(stream);
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
    upload_table(comm.stream());
    return sent;
  }

  // swap_to by the plan of an overlapped change of `group`: each row's pieces leave once their
  // launch's event in `launched` has happened. A piece is the row's blocks of N^(D-2) entries at its
  // indices of the second memory mode. `landed` null: the trades partner by partner (me ^ k), and
  // stream() waits for every piece. Else (a pipelined change) piece by piece, each to every partner,
  // and stream() does not wait: (*landed)[k - 1][i] is recorded once partner me ^ k's piece i has
  // landed (left unrecorded where none came), and `after_piece(i)` runs once piece i's trades are
  // called, on every rank whether it trades or not (what it enqueues may be collective). Returns the
  // bytes sent.
  std::size_t swap_to(const OverlappedChange& change, const PivotGroup& group, const std::vector<CudaEvent>& launched,
                      DeviceCommunicator& comm, std::vector<std::vector<CudaEvent>>* landed = nullptr,
                      const std::function<void(int)>& after_piece = {}) {
    std::vector<std::vector<int>> indices;  // of each piece
    for (int piece = 0; piece < change.pieces; ++piece)
      indices.push_back(representative_indices(group, representatives_of_piece(change, piece), static_cast<int>(size_)));
    // The trades of one call to partner me ^ (k + 1): the row pieces of change.sent[k] that `take` holds.
    std::size_t sent = 0;
    const auto trade = [&](std::size_t k, const auto& take, cudaEvent_t landing) {
      std::vector<void*> blocks;
      std::vector<cudaEvent_t> ready;
      for (const RowPiece& piece : change.sent[k]) {
        if (!take(piece)) continue;
        T* row = slot(slot_of(piece.row));
        for (const int index : indices[static_cast<std::size_t>(piece.piece)]) {
          blocks.push_back(row + static_cast<std::size_t>(index) * block_);
          ready.push_back(launched[static_cast<std::size_t>(piece.piece)].get());  // launch i writes piece i
        }
      }
      comm.swap_device_rows(blocks, ready, block_ * sizeof(T), comm.rank() ^ static_cast<int>(k + 1), landing);
      sent += blocks.size() * block_ * sizeof(T);
    };
    if (!landed) {
      for (std::size_t k = 0; k < change.sent.size(); ++k)
        if (!change.sent[k].empty()) trade(k, [](const RowPiece&) { return true; }, nullptr);
    } else {
      for (int piece = 0; piece < change.pieces; ++piece) {
        for (std::size_t k = 0; k < change.sent.size(); ++k)
          if (!change.sent[k].empty())
            trade(k, [piece](const RowPiece& p) { return p.piece == piece; },
                  (*landed)[k][static_cast<std::size_t>(piece)].get());
        if (after_piece) after_piece(piece);
      }
    }
    holds_ = holds_after(change);
    upload_table(comm.stream());
    return sent;
  }

  // A rows table for each launch of an overlapped change's pass before it (group_pass's `rows`):
  // its rows mapped, the others -1, then its piece's representatives of the second memory mode;
  // table l at launch_tables() + 2 l N.
  const int* launch_tables(const OverlappedChange& change, cudaStream_t stream) {
    const auto representatives = [&](int piece) { return representatives_of_piece(change, piece); };
    return upload_launch_tables(tables_of_launches(change, representatives), launch_rows_, stream);
  }

  // For a pipelined change, the tables of pivot_subtensors after each launch of the pass before it:
  // the launch's rows mapped, the others -1, then a flag for each index of the second memory mode
  // that the launch's piece holds (all of them for the staying rows' launch); table l at
  // gather_tables() + 2 l N.
  const int* gather_tables(const OverlappedChange& change, const PivotGroup& group, cudaStream_t stream) {
    const auto indices = [&](int piece) {
      return representative_indices(group, representatives_of_piece(change, piece), static_cast<int>(size_));
    };
    return upload_launch_tables(tables_of_launches(change, indices), gather_rows_, stream);
  }

  // What each slot holds once `change` is done: a row received lands where the row traded for it was.
  std::vector<int> holds_after(const OverlappedChange& change) const {
    std::vector<int> holds = holds_;
    for (std::size_t k = 0; k < change.sent.size(); ++k)
      for (std::size_t j = 0; j < change.sent[k].size(); ++j)
        if (change.sent[k][j].piece == 0)
          holds[static_cast<std::size_t>(slot_of(change.sent[k][j].row))] = change.received[k][j].row;
    return holds;
  }

  // A rows table for each launch of a pipelined change's pass after it, made before the change: every
  // row this rank holds after it (their slots, where the arriving ones land), then the launch's
  // representatives of the second memory mode; table l at arrival_tables() + 2 l N.
  const int* arrival_tables(const OverlappedChange& change, cudaStream_t stream) {
    const std::vector<int> holds = holds_after(change);
    std::vector<int> tables(change.pipelined.size() * 2 * size_, 0);
    for (std::size_t l = 0; l < change.pipelined.size(); ++l) {
      int* table = tables.data() + l * 2 * size_;
      std::fill(table, table + size_, -1);
      for (std::size_t t = 0; t < holds.size(); ++t)
        if (holds[t] >= 0) table[holds[t]] = static_cast<int>(t);
      for (const int r : change.pipelined[l].representatives) table[size_ + static_cast<std::size_t>(r)] = 1;
    }
    return upload_launch_tables(tables, arrival_rows_, stream);
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
    upload_table(comm.stream());
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

  // A table of 2N for each launch of the pass before `change`: the launch's rows mapped to their
  // slots, the others -1, then N flags, set at `flagged(piece)` of the launch's piece (all of them
  // for the staying rows' launch, piece -1).
  template <class Flagged>
  std::vector<int> tables_of_launches(const OverlappedChange& change, const Flagged& flagged) const {
    std::vector<int> tables(change.launches.size() * 2 * size_, 0);
    for (std::size_t l = 0; l < change.launches.size(); ++l) {
      int* table = tables.data() + l * 2 * size_;
      std::fill(table, table + size_, -1);
      for (const int index : change.launches[l].rows) table[index] = slot_of(index);
      if (change.launches[l].piece < 0) std::fill(table + size_, table + 2 * size_, 1);
      else
        for (const int at : flagged(change.launches[l].piece)) table[size_ + static_cast<std::size_t>(at)] = 1;
    }
    return tables;
  }

  const int* upload_launch_tables(const std::vector<int>& tables, DeviceBuffer<int>& buffer, cudaStream_t stream) {
    if (buffer.count() < tables.size()) throw internal_error("DeviceSlab: more launches than planned");
    buffer.upload(tables, stream);
    return buffer.data();
  }

  // The rows table of the whole slab: each held index's slot, then every representative of the
  // second memory mode (group_pass's `rows`).
  void upload_table(cudaStream_t stream) {
    table_.assign(2 * size_, 1);
    std::fill(table_.begin(), table_.begin() + static_cast<std::ptrdiff_t>(size_), -1);
    for (std::size_t t = 0; t < holds_.size(); ++t)
      if (holds_[t] >= 0) table_[static_cast<std::size_t>(holds_[t])] = static_cast<int>(t);
    // From pageable memory: the copy is staged before the call returns, so table_ may change after.
    rows_.upload(table_, stream);
  }

  std::size_t size_;    // N
  std::size_t length_;  // a row's entries, N^(D-1)
  std::size_t block_;   // N^(D-2): one index of the second memory mode within a row
  DeviceBuffer<T> values_;
  DeviceBuffer<int> rows_;
  DeviceBuffer<int> launch_rows_, arrival_rows_, gather_rows_;
  std::vector<int> holds_;
  std::vector<int> table_;
};

// Makes `stream` wait until piece `piece` of `change` has landed from every partner that sends this
// rank pieces (a pipelined change's `landed` events).
void wait_for_landing(cudaStream_t stream, const OverlappedChange& change,
                      const std::vector<std::vector<CudaEvent>>& landed, int piece) {
  for (std::size_t partner = 0; partner < landed.size(); ++partner)
    if (!change.sent[partner].empty())
      check_cuda(cudaStreamWaitEvent(stream, landed[partner][static_cast<std::size_t>(piece)].get(), 0),
                 "cudaStreamWaitEvent");
}

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
  // Where a pivot subtensor is over a warp's shared memory the angles take the split kernels, and
  // where group_pass's tile does not fit the pass takes chunk_pass_slab (small N, large D), each
  // reading the slab through its rows table as pivot_angles and group_pass do. The pivot check
  // needs the one-warp subtensor: GpuKernels refuses it with the split angles, as on one GPU.
  GpuKernels<T> kernels(base, device->arch(), checked ? KernelSet::general_with_pivot_check : KernelSet::general);
  if (checked && !kernels.lambda_norm_plan)
    throw user_error("the pivot check on GPU ranks takes ||Lambda||_2 on the device, N <= 1024; N = " +
                     std::to_string(slab.size) + ": use CPU ranks, or eta = 0");

  const std::size_t capacity = schedule.most_rows();
  fit_slab_and_staging(comm, *device, static_cast<double>(capacity * slab.row_length() * sizeof(T)) + 64.0 * (1 << 20));

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
  // Overlapped changes (overlapped_change.hpp): the leaving rows in `pieces` pieces, a launch each,
  // then one launch of the rows that stay.
  const int pieces_asked = exchange_pieces_from_environment();
  const int pieces = pieces_asked < 0 ? 4 : pieces_asked;
  const std::size_t most_launches = static_cast<std::size_t>(std::min(pieces, (slab.size + 1) / 2)) + 1;
  DeviceSlab<T> device_slab(slab, capacity, most_launches, stream);
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
  // The sweep's last pass writes the figures' partials, a set a launch where it is cut; the chunked
  // pass sums none, and off_norm_partial reads the slab once more after the sweep.
  const bool chunked = kernels.chunk_plan.has_value();
  DeviceBuffer<double> partials(std::max(most_launches * static_cast<std::size_t>(kernels.group_pass_plan.partial_doubles),
                                         static_cast<std::size_t>(kernels.off_norm_plan.partial_doubles)));
  DeviceBuffer<double> split_partials(kernels.split_plan ? static_cast<std::size_t>(kernels.split_plan->partial_doubles) : 0);
  DeviceBuffer<double> figures(2);
  std::optional<SlabPivotCheck<T>> check;
  if (checked) check.emplace(kernels, slab.order, slab.size, settings.eta, stream);
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
  std::size_t diagonal_count = 0;  // the sweep's diagonal entries copied into `diagonal` so far
  // Enqueues the copies of the diagonal entries (i, .., i) of rows `indices`, which this rank holds.
  const auto copy_diagonal = [&](const std::vector<int>& indices) {
    for (const int index : indices)
      check_cuda(cudaMemcpyAsync(&diagonal[diagonal_count++],
                                 device_slab.values() + *device_slab.diagonal_offset(index, diagonal_stride), sizeof(T),
                                 cudaMemcpyDeviceToHost, stream),
                 "cudaMemcpyAsync");
  };
  // An event after each launch of the pass before an overlapped change, and each change's time
  // from its first launch's end to its last piece's arrival, read once a wait has passed both: a
  // pipelined change at a sweep's end is still under way at the sweep's last wait, so its events
  // (parity, stage) alternate between sweeps and are read at the next one's.
  std::vector<CudaEvent> launched(most_launches);
  std::vector<CudaEvent> change_begun[2], change_done[2];
  for (int parity = 0; parity < 2; ++parity) {
    change_begun[parity] = std::vector<CudaEvent>(schedule.stages.size());
    change_done[parity] = std::vector<CudaEvent>(schedule.stages.size());
  }
  std::vector<std::pair<int, std::size_t>> untimed_changes;
  const auto time_changes = [&] {
    for (const auto& [parity, s] : untimed_changes)
      distribution.exchange_seconds += change_done[parity][s].seconds_since(change_begun[parity][s]);
    untimed_changes.clear();
  };
  const long long pass_blocks = kernels.group_pass_plan.pass_blocks;
  const auto pass_launch = [&](long long blocks, const int* group_pairs, dsl::Givens<T>* group_rotations,
                               double* figure_sums, const int* rows) {
    kernels.group_pass(dim3(static_cast<unsigned>(blocks)), stream, device_slab.values(), group_pairs,
                       group_rotations, factors.data(), figure_sums, rows);
  };

  // Pipelined changes (overlapped_change.hpp): the next group's pivot subtensors, summed over the
  // ranks beside the swaps, and an event a partner and piece for its landing. Not with the pivot
  // check (its angles need the whole rows), the split angles or the chunked pass.
  const bool pipelining = pieces > 0 && exchange_pipeline_from_environment() != 0 && !checked && !chunked &&
                          !kernels.split_plan && comm.size() > 1;
  DeviceBuffer<T> subtensors(pipelining ? pairs_per_group << slab.order : 0);
  CudaEvent gathered, summed;
  std::vector<std::vector<CudaEvent>> landed(pipelining ? static_cast<std::size_t>(comm.size() - 1) : 0);
  for (auto& events : landed) events = std::vector<CudaEvent>(most_launches);
  bool ran_during_change = false;  // the next stage's first group ran with the pipelined change before it

  const Stopwatch sweeps;
  CudaEvent before, after;
  // The sweep's record: the partials of its last pass (`figure_blocks` sets of them) summed over the
  // ranks, and the trace of the diagonal entries copied so far. Waits for the stream.
  const auto sweep_record = [&](int sweep, long long figure_blocks) {
    kernels.off_norm_final(stream, partials.data(), static_cast<int>(figure_blocks), figures.data());
    comm.sum_on_device(figures.data(), 2);
    after.record(stream);
    check_cuda(cudaMemcpyAsync(sums.data(), figures.data(), 2 * sizeof(double), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync");
    comm.wait();
    time_changes();
    double trace_part = 0;
    for (std::size_t t = 0; t < diagonal_count; ++t) trace_part += static_cast<double>(diagonal[t]);
    diagonal_count = 0;
    const double trace = sum_over_ranks(comm, trace_part);
    return SweepRecord{sweep, off_input > 0 ? std::sqrt(sums[0]) / off_input : 0.0, sums[1], trace,
                       after.seconds_since(before)};
  };
  result.stop_reason = run_sweeps(result.history, settings, [&](int sweep, const GoesOn& goes_on) {
    // A sweep whose first pass ran with the change before it began there (sweep_record's caller
    // recorded `before` then).
    if (!ran_during_change) before.record(stream);
    const int parity = sweep % 2;
    std::size_t g = 0;
    long long figure_blocks = pass_blocks;  // the partials the sweep's last pass wrote
    std::optional<SweepRecord> decided;     // the record, where the change at the sweep's end asked goes_on
    for (std::size_t s = 0; s < schedule.stages.size(); ++s) {
      const DistributedStage& stage = schedule.stages[s];
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
      // The stage after this one: the next, or at the sweep's end the first, whose layout is the
      // next sweep's if one may follow. A change to its layout that swaps in place overlaps this
      // stage's last pass.
      const bool sweep_end = s + 1 == schedule.stages.size();
      const DistributedStage& following = schedule.stages[sweep_end ? 0 : s + 1];
      const SlabLayout* next = !sweep_end || sweep < settings.stop.max_sweeps ? &following.layout : nullptr;
      const bool overlapped = pieces > 0 && !chunked && next && next->rows != stage.layout.rows &&
                              swaps_in_place(stage.layout, *next);
      for (std::size_t k = 0; k < stage.groups.size(); ++k, ++g) {
        const int* group_pairs = pairs.data() + g * 2 * pairs_per_group;
        dsl::Givens<T>* group_rotations = rotations.data() + g * rotations_per_group;
        double* figure_sums = g + 1 < groups.size() ? nullptr : partials.data();  // the sweep's last pass sums the figures
        if (k == 0 && ran_during_change) {
          ran_during_change = false;  // its angles and pass went with the change before this stage
          continue;
        }
        if (check) {
          check->angles(device_slab.values(), device_slab.rows(), group_pairs, group_rotations, comm);
        } else {
          if (kernels.split_plan)
            kernels.split_angles(stream, device_slab.values(), group_pairs, group_rotations, split_partials.data(),
                                 device_slab.rows());
          else
            kernels.pivot_angles(stream, device_slab.values(), group_pairs, group_rotations, device_slab.rows());
          comm.sum_on_device(reinterpret_cast<T*>(group_rotations), 2 * rotations_per_group);
        }
        if (chunked) {
          for (const auto& [first, count] : kernels.chunk_plan->chunks)
            kernels.chunk_pass_slab(stream, device_slab.values(), group_pairs, group_rotations, first, count,
                                    device_slab.rows());
          kernels.group_factors(stream, group_pairs, group_rotations, factors.data());
          continue;
        }
        if (!overlapped || k + 1 < stage.groups.size()) {
          pass_launch(pass_blocks + kernels.group_pass_plan.factor_blocks, group_pairs, group_rotations, figure_sums,
                      device_slab.rows());
          continue;
        }
        // The stage's last pass in launches, the factors with the first; the rows leave as they are
        // done. Pipelined where the following stage has a second group (its first group's pass then
        // is not also the last before a change) and the angles are pivot_angles'. At the sweep's
        // end that group is the next sweep's first: its pass runs only once this sweep's record,
        // taken from this pass's figures before its rows leave, says that sweep runs.
        const bool pipelines = pipelining && following.groups.size() >= 2;
        const PivotGroup* next_group = pipelines ? &following.groups.front() : nullptr;
        OverlappedChange change = overlapped_change(stage.groups[k], stage.layout, *next, comm.rank(), pieces, next_group);
        const bool decides_early = sweep_end && !change.pipelined.empty();
        const int* tables = device_slab.launch_tables(change, stream);
        // Pipelined: after each launch, the next group's pivot entries it wrote, before they leave.
        const std::size_t next_g = sweep_end ? 0 : g + 1;
        const int* next_pairs = pairs.data() + next_g * 2 * pairs_per_group;
        dsl::Givens<T>* next_rotations = rotations.data() + next_g * rotations_per_group;
        const int* gather_tables = nullptr;
        const int* arrival_tables = nullptr;
        if (!change.pipelined.empty()) {
          gather_tables = device_slab.gather_tables(change, stage.groups[k], stream);
          arrival_tables = device_slab.arrival_tables(change, stream);
          check_cuda(cudaMemsetAsync(subtensors.data(), 0, subtensors.bytes(), stream), "cudaMemsetAsync");
        }
        for (std::size_t l = 0; l < change.launches.size(); ++l) {
          const long long blocks = pass_blocks + (l == 0 ? kernels.group_pass_plan.factor_blocks : 0);
          pass_launch(blocks, group_pairs, group_rotations,
                      figure_sums ? figure_sums + 2 * static_cast<long long>(l) * pass_blocks : nullptr,
                      tables + 2 * l * static_cast<std::size_t>(slab.size));
          if (gather_tables)
            kernels.pivot_subtensors(stream, device_slab.values(), next_pairs, subtensors.data(),
                                     gather_tables + 2 * l * static_cast<std::size_t>(slab.size));
          // The trace's entries too, before the rows leave (the sweep's record is taken mid-change).
          if (decides_early) copy_diagonal(diagonal_rows_of_launch(change, stage.groups[k], l, slab.size));
          launched[l].record(stream);
          if (l == 0) change_begun[parity][s].record(stream);
        }
        if (figure_sums) figure_blocks = static_cast<long long>(change.launches.size()) * pass_blocks;
        if (change.pipelined.empty()) {
          distribution.bytes_sent += device_slab.swap_to(change, stage.groups[k], launched, comm);
          change_done[parity][s].record(stream);
        } else {
          // The next group's pass runs during the change, each launch once the pieces it reads have
          // landed. Its angles come first: its pivot subtensors as this rank's rows held them (each
          // launch's gather above), summed over the ranks beside the pieces once the first launch's
          // have been sent (the sum waits for this pass's end, the pieces after it for the sum).
          gathered.record(stream);
          bool goes = true;  // the next group's pass runs (at the sweep's end: the next sweep does)
          std::size_t next_launch = 0;
          distribution.bytes_sent += device_slab.swap_to(change, stage.groups[k], launched, comm, &landed, [&](int piece) {
            if (piece == change.pipelined.front().after_piece) {
              if (decides_early) {
                decided = sweep_record(sweep, figure_blocks);
                goes = goes_on(*decided);
                if (goes) before.record(stream);  // the next sweep begins with this pass
              }
              if (!goes) return;
              comm.sum_beside_swaps(subtensors.data(), subtensors.count(), gathered.get(), summed.get());
              check_cuda(cudaStreamWaitEvent(stream, summed.get(), 0), "cudaStreamWaitEvent");
              kernels.gathered_angles(stream, subtensors.data(), next_rotations);
            }
            for (; goes && next_launch < change.pipelined.size() && change.pipelined[next_launch].after_piece == piece;
                 ++next_launch) {
              wait_for_landing(stream, change, landed, piece);
              if (next_launch + 1 == change.pipelined.size()) change_done[parity][s].record(stream);  // every piece has landed
              pass_launch(pass_blocks + (next_launch == 0 ? kernels.group_pass_plan.factor_blocks : 0), next_pairs,
                          next_rotations, nullptr, arrival_tables + 2 * next_launch * static_cast<std::size_t>(slab.size));
            }
          });
          if (goes) {
            ran_during_change = true;
            ++distribution.pipelined_changes;
          } else {
            // The run stops: the pass is not run, and what follows reads the rows once they have landed.
            for (int piece = 0; piece < change.pieces; ++piece) wait_for_landing(stream, change, landed, piece);
            change_done[parity][s].record(stream);
          }
        }
        untimed_changes.emplace_back(parity, s);
        ++distribution.overlapped_changes;
        slab.held = *next;
      }
    }
    if (decided) return *decided;
    if (chunked) {
      kernels.off_norm_partial(stream, device_slab.values(), partials.data(), device_slab.rows());
      figure_blocks = kernels.off_norm_plan.partial_blocks;
    }
    copy_diagonal(slab.rows());  // the trace: the diagonal entries of the rows this rank holds
    return sweep_record(sweep, figure_blocks);
  });
  result.timings.sweeps_seconds = sweeps.seconds();

  device_slab.download(slab, stream);
  const std::vector<T> all_factors = factors.download(stream);
  comm.wait();
  time_changes();  // a change at the last sweep's end, which its record did not wait for
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
