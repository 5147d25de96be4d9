#pragma once
// The pivot check's angles of one group on a slab of a tensor over GPU ranks (DESIGN.md section 2;
// gpu_engine.cpp's enqueue_checked_angles): per mode, the lines V of the rows this rank holds
// (pivot_check_gather.cu), summed across the ranks (exact: one nonzero contributor an entry), Lambda
// formed from them and its norm taken on every rank alike, with the rotations from the summed lines
// in the same launch (lambda_norm's epilogue, checked_rotation.cuh): every rank computes every
// pair's rotation, the same bits everywhere, so nothing more is shared (the sliced mode's lines read
// the earlier modes' rotations of every pair).
#include <cstddef>

#include "dsl/givens.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/distributed/device_communicator.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

template <class T>
class SlabPivotCheck {
public:
  SlabPivotCheck(const GpuKernels<T>& kernels, int order, int size, double eta, cudaStream_t stream)
      : kernels_(kernels), order_(order), eta_(eta),
        lines_(static_cast<std::size_t>(size) * size * (is_complex_v<T> ? 4 : 1)), lambda_(lines_.count()),
        basis_(static_cast<std::size_t>(kernels.lambda_norm_plan->basis_doubles)), norm_(1), exact_norms_(1) {
    check_cuda(cudaMemsetAsync(exact_norms_.data(), 0, sizeof(int), stream), "cudaMemsetAsync");
  }

  // Every mode's rotations of the group into `rotations`, every pair's on every rank.
  void angles(T* values, const int* rows, const int* pairs, dsl::Givens<T>* rotations, DeviceCommunicator& comm) {
    const cudaStream_t stream = comm.stream();
    for (int mode = 0; mode < order_; ++mode) {
      kernels_.pivot_check_lines(stream, values, pairs, rotations, mode, lines_.data(), rows);
      comm.sum_on_device(lines_.data(), lines_.count());
      kernels_.lambda_from_lines(stream, lines_.data(), lambda_.data());
      kernels_.lambda_norm(stream, lambda_.data(), basis_.data(), norm_.data(), pairs, eta_, exact_norms_.data(),
                           lines_.data(), mode, rotations);
    }
  }

  // The checks that needed the exact norm (the same on every rank; synchronizes the stream).
  long long exact_norms(cudaStream_t stream) const {
    int exact = 0;
    check_cuda(cudaMemcpyAsync(&exact, exact_norms_.data(), sizeof(int), cudaMemcpyDeviceToHost, stream), "cudaMemcpyAsync");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    return exact;
  }

private:
  const GpuKernels<T>& kernels_;
  int order_;
  double eta_;
  DeviceBuffer<double> lines_, lambda_;
  DeviceBuffer<double> basis_, norm_;
  DeviceBuffer<int> exact_norms_;
};

}  // namespace tensordiag::runtime
