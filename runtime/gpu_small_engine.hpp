#pragma once
// The one-block GPU path (DESIGN.md section 3, small tensors): the whole run of sweeps in one
// launch, one thread block per tensor with the tensor and its factors in shared memory; a batch
// of tensors of one shape is one launch of as many blocks. No pivot check and no per-sweep
// callback: the host sees the history only when the launch ends.
#include <vector>

#include "codegen/kernel_spec.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/stop_criteria.hpp"

namespace tensordiag::runtime {

// Whether one block's shared memory holds the run for this shape and dtype.
bool fits_one_block(const codegen::KernelSpec& spec);

// All tensors share order, size and layout. History seconds are the launch's GPU time spread
// evenly over the sweeps of each tensor.
template <class T>
std::vector<Result<T>> run_gpu_small_batch(const std::vector<HostTensor<T>>& tensors, const codegen::LoweredRule& rule,
                                           const StopCriteria& stop);

extern template std::vector<Result<float>> run_gpu_small_batch(const std::vector<HostTensor<float>>&,
                                                               const codegen::LoweredRule&, const StopCriteria&);
extern template std::vector<Result<double>> run_gpu_small_batch(const std::vector<HostTensor<double>>&,
                                                                const codegen::LoweredRule&, const StopCriteria&);

}  // namespace tensordiag::runtime
