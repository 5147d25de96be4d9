#pragma once
// RAII owners for a CUDA stream, events, a captured graph and pinned host memory.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <utility>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/pinned_pool.hpp"

namespace tensordiag::runtime {

class CudaStream {
public:
  CudaStream() { check_cuda(cudaStreamCreateWithFlags(&stream_, cudaStreamNonBlocking), "cudaStreamCreate"); }
  // A stream whose blocks the scheduler takes before those of streams of lower priority.
  struct HighestPriority {};
  static constexpr HighestPriority highest_priority{};
  explicit CudaStream(HighestPriority) {
    int least = 0, greatest = 0;
    check_cuda(cudaDeviceGetStreamPriorityRange(&least, &greatest), "cudaDeviceGetStreamPriorityRange");
    check_cuda(cudaStreamCreateWithPriority(&stream_, cudaStreamNonBlocking, greatest), "cudaStreamCreateWithPriority");
  }
  ~CudaStream() { cudaStreamDestroy(stream_); }
  CudaStream(const CudaStream&) = delete;
  CudaStream& operator=(const CudaStream&) = delete;
  cudaStream_t get() const { return stream_; }
  void synchronize() const { check_cuda(cudaStreamSynchronize(stream_), "cudaStreamSynchronize"); }

private:
  cudaStream_t stream_ = nullptr;
};

class CudaEvent {
public:
  CudaEvent() { check_cuda(cudaEventCreate(&event_), "cudaEventCreate"); }
  ~CudaEvent() { cudaEventDestroy(event_); }
  CudaEvent(const CudaEvent&) = delete;
  CudaEvent& operator=(const CudaEvent&) = delete;
  void record(cudaStream_t stream) { check_cuda(cudaEventRecord(event_, stream), "cudaEventRecord"); }
  cudaEvent_t get() const { return event_; }
  // Seconds from `start` to this event; both must have completed.
  double seconds_since(const CudaEvent& start) const {
    float ms = 0;
    check_cuda(cudaEventElapsedTime(&ms, start.event_, event_), "cudaEventElapsedTime");
    return ms * 1e-3;
  }

private:
  cudaEvent_t event_ = nullptr;
};

// A graph captured from the work a function enqueues on a stream, instantiated for replay.
class CudaGraph {
public:
  template <class Enqueue>
  CudaGraph(cudaStream_t stream, Enqueue&& enqueue) {
    check_cuda(cudaStreamBeginCapture(stream, cudaStreamCaptureModeThreadLocal), "cudaStreamBeginCapture");
    enqueue(stream);
    cudaGraph_t graph = nullptr;
    check_cuda(cudaStreamEndCapture(stream, &graph), "cudaStreamEndCapture");
    const cudaError_t status = cudaGraphInstantiate(&exec_, graph, 0);
    cudaGraphDestroy(graph);
    check_cuda(status, "cudaGraphInstantiate");
  }
  ~CudaGraph() {
    if (exec_) cudaGraphExecDestroy(exec_);
  }
  CudaGraph(const CudaGraph&) = delete;
  CudaGraph& operator=(const CudaGraph&) = delete;
  void launch(cudaStream_t stream) const { check_cuda(cudaGraphLaunch(exec_, stream), "cudaGraphLaunch"); }

private:
  cudaGraphExec_t exec_ = nullptr;
};

template <class T>
class PinnedBuffer {
public:
  explicit PinnedBuffer(std::size_t count)
      : data_(static_cast<T*>(pinned_allocate(count * sizeof(T)))), count_(count) {}
  ~PinnedBuffer() { pinned_release(data_, count_ * sizeof(T)); }
  PinnedBuffer(const PinnedBuffer&) = delete;
  PinnedBuffer& operator=(const PinnedBuffer&) = delete;
  T* data() { return data_; }
  T& operator[](std::size_t i) { return data_[i]; }
  std::size_t count() const { return count_; }

private:
  T* data_ = nullptr;
  std::size_t count_ = 0;
};

}  // namespace tensordiag::runtime
