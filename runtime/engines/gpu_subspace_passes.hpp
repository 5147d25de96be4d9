#pragma once
// The XOR subspace passes of a GPU sweep (DESIGN.md section 3; runtime/algorithm/xor_schedule.hpp):
// per pass, subspace_angles runs the pass's groups on the N / 2^k diagonal cells and leaves one
// 2^k x 2^k block per coset and mode, then subspace_apply applies the blocks to every cell of the
// tensor and to the factors in one pass. The tables the kernels read (each pass's cosets and local
// groups) are uploaded once; the blocks buffer is reused by every pass. On Hopper and later the
// apply begins while the angles run: it computes its tile's offsets and loads its tile meanwhile,
// and waits for the angles' blocks only before it rotates; and the next pass's angles begin their
// set-up while the apply runs, and wait for it before they read the tensor.
#include <cuda_runtime_api.h>

#include <utility>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/gpu_kernels.hpp"

namespace tensordiag::runtime {

template <class T>
class GpuSubspacePasses {
public:
  // @pre every pass has dimension plan.cell_bits (xor_schedule(N, plan.cell_bits)).
  GpuSubspacePasses(std::vector<SubspacePass> passes, int size, Layout layout, const codegen::SubspaceApplyPlan& plan,
                    cudaStream_t stream);

  std::size_t count() const { return passes_.size(); }

  // Every pass of a sweep on `tensor` and `factors`, in order.
  void enqueue(cudaStream_t stream, const GpuKernels<T>& kernels, T* tensor, T* factors);

private:
  std::vector<SubspacePass> passes_;
  int size_;
  Layout layout_;
  int cosets_;
  DeviceBuffer<int> indices_;                    // per pass: each coset's 2^k indices, ascending
  DeviceBuffer<int> groups_;                     // per pass: its groups' local pairs
  std::vector<std::pair<std::size_t, int>> group_spans_;  // per pass: (first int in groups_, groups)
  DeviceBuffer<T> blocks_;                       // one pass's blocks
  // Where the device takes programmatic dependent launches: subspace_apply begins while the
  // pass's subspace_angles runs (its set-up and tile loads need no block; it waits for the
  // blocks), and subspace_angles while the previous pass's apply runs (its set-up; it waits for
  // the tensor).
  bool overlap_;
};

extern template class GpuSubspacePasses<float>;
extern template class GpuSubspacePasses<double>;

}  // namespace tensordiag::runtime
