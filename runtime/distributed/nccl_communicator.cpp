#include "runtime/distributed/nccl_communicator.hpp"

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <string>
#include <thread>

#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/cuda_stream.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/cuda/nccl_library.hpp"
#include "runtime/engines/device_memory.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::runtime {

namespace {

// How long a wait may take before the other ranks count as lost.
std::chrono::seconds collective_timeout() {
  if (const char* text = std::getenv("TENSORDIAG_COLLECTIVE_TIMEOUT"); text && *text) {
    char* end = nullptr;
    const long seconds = std::strtol(text, &end, 10);
    if (*end != '\0' || seconds <= 0)
      throw user_error(std::string("TENSORDIAG_COLLECTIVE_TIMEOUT must be a positive number of seconds, not '") + text +
                       "'");
    return std::chrono::seconds(seconds);
  }
  return std::chrono::seconds(300);
}

std::string nccl_version() {
  int version = 0;
  nccl().get_version(&version);
  return std::to_string(version / 10000) + "." + std::to_string(version / 100 % 100) + "." + std::to_string(version % 100);
}

class NcclRank final : public DeviceCommunicator {
public:
  // `launcher` null: the ranks share this process (and host).
  NcclRank(ncclComm_t comm, int rank, int ranks, int device, std::unique_ptr<Communicator> launcher)
      : device_(made_current(device)), comm_(comm), rank_(rank), ranks_(ranks), launcher_(std::move(launcher)),
        timeout_(collective_timeout()), staging_bytes_(least_row_swap_staging_bytes()), scratch_(65536),
        pinned_(std::make_unique<PinnedBuffer<unsigned char>>(65536)) {}
  // Ranks of one process are let go by one thread, one after the other, and ncclCommDestroy
  // finalizes, which may wait for the other ranks (NCCL asks several to be destroyed in a group or
  // each from its own thread); ncclCommAbort frees the rank's resources alone, and every operation
  // has completed by then (the stream is idle).
  ~NcclRank() override {
    cudaSetDevice(device_);
    if (aborted_) return;
    cudaStreamSynchronize(stream_.get());
    if (launcher_) nccl().comm_destroy(comm_);
    else nccl().comm_abort(comm_);
  }

  int rank() const override { return rank_; }
  int size() const override { return ranks_; }
  int device() const override { return device_; }
  cudaStream_t stream() const override { return stream_.get(); }
  int ranks_on_this_host() const override { return launcher_ ? launcher_->ranks_on_this_host() : ranks_; }
  int rank_on_this_host() const override { return launcher_ ? launcher_->rank_on_this_host() : rank_; }
  std::string description() const override {
    const std::string library = "NCCL " + nccl_version();
    if (!launcher_) return library + ", " + std::to_string(ranks_) + " GPUs in one process";
    return library + ", " + std::to_string(ranks_) + " GPUs, started by " + launcher_->description();
  }

  // The host collectives pass through pinned memory, so that every copy is asynchronous and the
  // only wait is wait(), with its time-out (a copy to pageable memory would block without one).
  void sum_parts(std::vector<double>& values) override {
    make_current();
    if (values.empty()) return;
    const std::size_t bytes = values.size() * sizeof(double);
    auto* device = static_cast<double*>(to_device(values.data(), bytes));
    sum_on_device(device, values.size());
    from_device(values.data(), device, bytes);
  }

  std::vector<double> gather_all(double value) override {
    make_current();
    auto* device = static_cast<double*>(to_device(&value, sizeof value, (static_cast<std::size_t>(ranks_) + 1) * sizeof value));
    check_nccl(nccl().all_gather(device, device + 1, 1, ncclFloat64, comm_, stream()), "ncclAllGather");
    std::vector<double> all(static_cast<std::size_t>(ranks_));
    from_device(all.data(), device + 1, all.size() * sizeof(double));
    return all;
  }

  void broadcast(std::string& text, int root) override {
    make_current();
    unsigned long long length = text.size();
    auto* device_length = static_cast<unsigned long long*>(to_device(&length, sizeof length));
    check_nccl(nccl().broadcast(device_length, device_length, 1, ncclUint64, root, comm_, stream()), "ncclBroadcast");
    from_device(&length, device_length, sizeof length);
    text.resize(static_cast<std::size_t>(length));
    if (length == 0) return;
    auto* bytes = static_cast<char*>(to_device(text.data(), text.size()));
    check_nccl(nccl().broadcast(bytes, bytes, text.size(), ncclChar, root, comm_, stream()), "ncclBroadcast");
    from_device(text.data(), bytes, text.size());
  }

  void exchange_rows(const void*, const std::vector<std::size_t>&, void*, const std::vector<std::size_t>&,
                     std::size_t) override {
    throw internal_error("GPU ranks exchange rows in device memory (swap_device_rows)");
  }
  void swap_rows(const std::vector<void*>&, std::size_t, int) override {
    throw internal_error("GPU ranks swap rows in device memory (swap_device_rows)");
  }

  void sum_on_device(float* values, std::size_t count) override {
    make_current();
    check_nccl(nccl().all_reduce(values, values, count, ncclFloat32, ncclSum, comm_, stream()), "ncclAllReduce");
  }
  void sum_on_device(double* values, std::size_t count) override {
    make_current();
    check_nccl(nccl().all_reduce(values, values, count, ncclFloat64, ncclSum, comm_, stream()), "ncclAllReduce");
  }

  void swap_device_rows(const std::vector<void*>& rows, std::size_t row_bytes, int partner) override {
    std::vector<RowTrade> trades;
    for (void* row : rows) trades.push_back({row, partner, row, partner});
    trade_rows(trades, row_bytes);
  }
  void swap_device_rows(const std::vector<void*>& rows, const std::vector<cudaEvent_t>& ready, std::size_t row_bytes,
                        int partner, cudaEvent_t landed) override {
    if (ready.size() != rows.size()) throw internal_error("swap_device_rows: an event a row");
    std::vector<RowTrade> trades;
    for (std::size_t j = 0; j < rows.size(); ++j) trades.push_back({rows[j], partner, rows[j], partner, ready[j]});
    trade_rows(trades, row_bytes, exchanges_.get(), landed);
  }

  void sum_beside_swaps(float* values, std::size_t count, cudaEvent_t ready, cudaEvent_t summed) override {
    all_reduce_beside_swaps(values, count, ncclFloat32, ready, summed);
  }
  void sum_beside_swaps(double* values, std::size_t count, cudaEvent_t ready, cudaEvent_t summed) override {
    all_reduce_beside_swaps(values, count, ncclFloat64, ready, summed);
  }

  void set_staging_bytes(std::size_t bytes) override { staging_bytes_ = bytes; }
  void move_device_row(const void* send, int to, void* receive, int from, std::size_t row_bytes) override {
    trade_rows({{send, to, receive, from}}, row_bytes);
  }

  void wait() override {
    make_current();
    const auto deadline = std::chrono::steady_clock::now() + timeout_;
    for (;;) {
      const cudaError_t state = cudaStreamQuery(stream());
      if (state == cudaSuccess) return;
      if (state != cudaErrorNotReady) check_cuda(state, "cudaStreamQuery");
      ncclResult_t failure = ncclSuccess;
      nccl().comm_get_async_error(comm_, &failure);
      if (failure != ncclSuccess && failure != ncclInProgress) {
        abort();
        throw user_error(std::string("NCCL failed: ") + nccl().get_error_string(failure));
      }
      if (std::chrono::steady_clock::now() > deadline) {
        abort();
        throw user_error("no answer from the other ranks within " + std::to_string(timeout_.count()) +
                         " s (a rank was lost or stopped; TENSORDIAG_COLLECTIVE_TIMEOUT sets the time-out); nothing written");
      }
      std::this_thread::sleep_for(std::chrono::microseconds(20));
    }
  }

private:
  // A row sent from `send` to rank `to` (-1: none) while one from rank `from` (-1: none) arrives at
  // `receive`, which may be `send`.
  struct RowTrade {
    const void* send;
    int to;
    void* receive;
    int from;
    cudaEvent_t ready = nullptr;  // the send waits for it (null: stream()'s order is enough)
  };

  void all_reduce_beside_swaps(void* values, std::size_t count, ncclDataType_t type, cudaEvent_t ready,
                               cudaEvent_t summed) {
    make_current();
    check_cuda(cudaStreamWaitEvent(exchanges_.get(), ready, 0), "cudaStreamWaitEvent");
    check_nccl(nccl().all_reduce(values, values, count, type, ncclSum, comm_, exchanges_.get()), "ncclAllReduce");
    check_cuda(cudaEventRecord(summed, exchanges_.get()), "cudaEventRecord");
  }

  // The trades one after the other, chunk by chunk: chunk k is sent from its row and received into
  // staging k % 2 (one NCCL group), then copied to its place on the copy stream while chunk k + 1
  // moves, so a row received into the slot it was sent from lands after it has left. The NCCL calls
  // go to `on`: stream(), or the exchange stream, which then waits for each trade's `ready`. Then
  // stream() waits for the copies, or with `landed` the copy stream records it instead.
  void trade_rows(const std::vector<RowTrade>& trades, std::size_t row_bytes, cudaStream_t on = nullptr,
                  cudaEvent_t landed = nullptr) {
    make_current();
    if (on == nullptr) on = stream();
    const std::size_t chunk = std::min(row_bytes, staging_bytes_);
    for (auto& buffer : staging_)
      if (buffer.count() < chunk) buffer = DeviceBuffer<unsigned char>(chunk);
    std::size_t k = 0;
    for (const RowTrade& trade : trades)
      for (std::size_t at = 0; at < row_bytes; at += chunk, ++k) {
        const std::size_t bytes = std::min(chunk, row_bytes - at);
        unsigned char* staging = staging_[k % 2].data();
        if (at == 0 && trade.ready) check_cuda(cudaStreamWaitEvent(on, trade.ready, 0), "cudaStreamWaitEvent");
        // Staging k % 2 is free once the copy of the chunk before out of it is done: chunk k - 2, or
        // an earlier call's (stream() need not have waited for that one).
        if (k >= 2 || copies_pending_[k % 2])
          check_cuda(cudaStreamWaitEvent(on, copied_[k % 2].get(), 0), "cudaStreamWaitEvent");
        check_nccl(nccl().group_start(), "ncclGroupStart");
        if (trade.to >= 0)
          check_nccl(nccl().send(static_cast<const unsigned char*>(trade.send) + at, bytes, ncclUint8, trade.to, comm_, on),
                     "ncclSend");
        if (trade.from >= 0) check_nccl(nccl().recv(staging, bytes, ncclUint8, trade.from, comm_, on), "ncclRecv");
        check_nccl(nccl().group_end(), "ncclGroupEnd");
        received_[k % 2].record(on);
        check_cuda(cudaStreamWaitEvent(copies_.get(), received_[k % 2].get(), 0), "cudaStreamWaitEvent");
        if (trade.from >= 0)
          check_cuda(cudaMemcpyAsync(static_cast<unsigned char*>(trade.receive) + at, staging, bytes,
                                     cudaMemcpyDeviceToDevice, copies_.get()),
                     "cudaMemcpyAsync");
        copied_[k % 2].record(copies_.get());
        copies_pending_[k % 2] = true;
      }
    if (landed) {
      check_cuda(cudaEventRecord(landed, copies_.get()), "cudaEventRecord");
      return;
    }
    // What follows on the stream reads the rows: it waits for the last copies.
    for (std::size_t j = 0; j < std::min<std::size_t>(k, 2); ++j)
      check_cuda(cudaStreamWaitEvent(stream(), copied_[j].get(), 0), "cudaStreamWaitEvent");
  }

  // The rank's device, for whichever thread calls (a thread a rank, or the process's only one).
  void make_current() const { check_cuda(cudaSetDevice(device_), "cudaSetDevice"); }

  // `bytes` of `data` in the device scratch (of at least `room` bytes), through the pinned buffer.
  void* to_device(const void* data, std::size_t bytes, std::size_t room = 0) {
    room = std::max({room, bytes, std::size_t{4096}});
    if (scratch_.count() < room) scratch_ = DeviceBuffer<unsigned char>(room);
    if (!pinned_ || pinned_->count() < room) pinned_ = std::make_unique<PinnedBuffer<unsigned char>>(room);
    std::memcpy(pinned_->data(), data, bytes);
    check_cuda(cudaMemcpyAsync(scratch_.data(), pinned_->data(), bytes, cudaMemcpyHostToDevice, stream()),
               "cudaMemcpyAsync");
    return scratch_.data();
  }
  // `bytes` of the device's `device` into `data`, once the stream has reached them (wait()).
  void from_device(void* data, const void* device, std::size_t bytes) {
    check_cuda(cudaMemcpyAsync(pinned_->data(), device, bytes, cudaMemcpyDeviceToHost, stream()), "cudaMemcpyAsync");
    wait();
    std::memcpy(data, pinned_->data(), bytes);
  }

  void abort() {
    if (aborted_) return;
    aborted_ = true;
    nccl().comm_abort(comm_);
  }

  // The device first: the streams, events and buffers below are made on it.
  static int made_current(int device) {
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    return device;
  }

  int device_;
  ncclComm_t comm_;
  int rank_, ranks_;
  std::unique_ptr<Communicator> launcher_;
  std::chrono::seconds timeout_;
  // A row swap moves its rows through two staging buffers of this many bytes: one receives while
  // the other is copied into the slab (on a second stream), so the copy hides behind NCCL.
  std::size_t staging_bytes_;
  CudaStream stream_;
  // The staging copies, and the overlapped swaps' NCCL calls, at the device's highest priority:
  // beside a pass their few blocks take the first multiprocessors its blocks free.
  CudaStream copies_{CudaStream::highest_priority};
  CudaStream exchanges_{CudaStream::highest_priority};
  DeviceBuffer<unsigned char> scratch_;
  std::unique_ptr<PinnedBuffer<unsigned char>> pinned_;
  DeviceBuffer<unsigned char> staging_[2];
  CudaEvent received_[2], copied_[2];
  bool copies_pending_[2] = {false, false};  // copied_[i] recorded: a later trade into staging i waits for it
  bool aborted_ = false;
};

int device_count() {
  int count = 0;
  if (cudaGetDeviceCount(&count) != cudaSuccess) {
    cudaGetLastError();
    throw user_error("GPU ranks need CUDA devices: " + cuda_unavailable_reason());
  }
  return count;
}

}  // namespace

std::size_t least_row_swap_staging_bytes() {
  const int mib = exchange_staging_mib_from_environment();
  return static_cast<std::size_t>(mib < 0 ? 128 : mib) << 20;
}

void fit_slab_and_staging(DeviceCommunicator& comm, const CudaDeviceInfo& device, double held_bytes) {
  if (const auto refusal =
          device_memory_refusal(device, held_bytes + 2.0 * static_cast<double>(least_row_swap_staging_bytes())))
    throw user_error("GPU rank " + std::to_string(comm.rank()) + ": the slab does not fit: " + *refusal);
  comm.set_staging_bytes(row_swap_staging_bytes(static_cast<double>(device.free_memory) - held_bytes));
}

std::size_t row_swap_staging_bytes(double spare_bytes) {
  constexpr std::size_t wide = std::size_t{512} << 20;
  if (exchange_staging_mib_from_environment() < 0 && 2.0 * static_cast<double>(wide) <= spare_bytes) return wide;
  return least_row_swap_staging_bytes();
}

std::vector<std::unique_ptr<DeviceCommunicator>> nccl_ranks_in_process(const std::vector<int>& devices) {
  const int count = device_count();
  for (std::size_t r = 0; r < devices.size(); ++r) {
    if (devices[r] < 0 || devices[r] >= count)
      throw user_error("there is no CUDA device " + std::to_string(devices[r]) + " (this machine has " +
                       std::to_string(count) + ")");
    if (std::count(devices.begin(), devices.end(), devices[r]) > 1)
      throw user_error("CUDA device " + std::to_string(devices[r]) + " is named twice: one rank a device");
  }
  std::vector<ncclComm_t> comms(devices.size());
  check_nccl(nccl().comm_init_all(comms.data(), static_cast<int>(devices.size()), devices.data()), "ncclCommInitAll");
  std::vector<std::unique_ptr<DeviceCommunicator>> ranks;
  for (std::size_t r = 0; r < devices.size(); ++r)
    ranks.push_back(std::make_unique<NcclRank>(comms[r], static_cast<int>(r), static_cast<int>(devices.size()),
                                               devices[r], nullptr));
  return ranks;
}

std::unique_ptr<DeviceCommunicator> nccl_rank_over(std::unique_ptr<Communicator> launcher) {
  std::string id_bytes;
  int device = 0;
  on_every_rank(*launcher, [&] {
    device = launcher->rank_on_this_host() % device_count();
    check_cuda(cudaSetDevice(device), "cudaSetDevice");
    if (launcher->rank() != 0) return;
    ncclUniqueId id;
    check_nccl(nccl().get_unique_id(&id), "ncclGetUniqueId");
    id_bytes.assign(id.internal, sizeof id.internal);
  });
  launcher->broadcast(id_bytes, 0);
  ncclUniqueId id;
  std::memcpy(id.internal, id_bytes.data(), sizeof id.internal);
  ncclComm_t comm = nullptr;
  const int rank = launcher->rank(), ranks = launcher->size();
  on_every_rank(*launcher,
                [&] { check_nccl(nccl().comm_init_rank(&comm, ranks, id, rank), "ncclCommInitRank"); });
  return std::make_unique<NcclRank>(comm, rank, ranks, device, std::move(launcher));
}

}  // namespace tensordiag::runtime
