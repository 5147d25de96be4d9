#pragma once
// The pivot check's angles of one group on a slab of a tensor over GPU ranks (DESIGN.md section 2;
// gpu_engine.cpp's enqueue_checked_angles): per mode, the lines V of the rows this rank holds
// (pivot_check_gather.cu),
// summed across the ranks (exact: one nonzero contributor an entry), Lambda formed from them and its
// norm taken on every rank alike, then the angles of this rank's pairs ((0, 0) for the others). The
// sliced mode's lines read the earlier modes' rotations of every pair, so those are shared first.
#include <cstddef>

#include "dsl/givens.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

template <class T>
class SlabPivotCheck {
public:
  SlabPivotCheck(const GpuKernels<T>& kernels, int order, int size, int sliced_mode, double eta, cudaStream_t stream)
      : kernels_(kernels), order_(order), sliced_(sliced_mode), eta_(eta),
        pairs_(static_cast<std::size_t>(size / 2)),
        lines_(static_cast<std::size_t>(size) * size), lambda_(lines_.count()),
        workspace_(pairs_ * (std::size_t{1} << order)),
        basis_(static_cast<std::size_t>(kernels.lambda_norm_plan->basis_doubles)), norm_(1), exact_norms_(1) {
    check_cuda(cudaMemsetAsync(exact_norms_.data(), 0, sizeof(int), stream), "cudaMemsetAsync");
  }

  // Every mode's rotations of the group into `rotations`, summed across the ranks.
  void angles(T* values, const int* rows, const int* pairs, dsl::Givens<T>* rotations, DeviceCommunicator& comm) {
    const cudaStream_t stream = comm.stream();
    for (int mode = 0; mode < order_; ++mode) {
      if (mode == sliced_ && mode > 0) share(rotations, 0, mode, comm);
      kernels_.pivot_check_lines(stream, values, pairs, rotations, mode, lines_.data(), rows);
      comm.sum_on_device(lines_.data(), lines_.count());
      kernels_.lambda_from_lines(stream, lines_.data(), lambda_.data());
      kernels_.lambda_norm(stream, lambda_.data(), basis_.data(), norm_.data(), pairs, eta_, exact_norms_.data());
      kernels_.pivot_angles_mode(stream, values, pairs, rotations, workspace_.data(), mode, lambda_.data(),
                                 norm_.data(), eta_, rows);
    }
    share(rotations, sliced_, order_, comm);
  }

  // The checks that needed the exact norm (the same on every rank; synchronizes the stream).
  long long exact_norms(cudaStream_t stream) const {
    int exact = 0;
    check_cuda(cudaMemcpyAsync(&exact, exact_norms_.data(), sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return exact;
  }

private:
  // Modes [first, last) of the group's rotations, summed across the ranks.
  void share(dsl::Givens<T>* rotations, int first, int last, DeviceCommunicator& comm) const {
    comm.sum_on_device(reinterpret_cast<T*>(rotations + static_cast<std::size_t>(first) * pairs_),
                       2 * static_cast<std::size_t>(last - first) * pairs_);
  }

  const GpuKernels<T>& kernels_;
  int order_, sliced_;
  double eta_;
  std::size_t pairs_;
  DeviceBuffer<double> lines_, lambda_;
  DeviceBuffer<T> workspace_;
  DeviceBuffer<double> basis_, norm_;
  DeviceBuffer<int> exact_norms_;
};

}  // namespace tensordiag::runtime
