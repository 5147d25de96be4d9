#pragma once
// The one-block GPU path (DESIGN.md section 3, small tensors): the whole run of sweeps in one
// launch, one thread block per tensor with the tensor and its factors in shared memory; a batch
// of tensors of one shape is one launch of as many blocks. No pivot check and no per-sweep
// callback: the host sees the history only when the launch ends.
#include <optional>
#include <string>
#include <span>
#include <vector>

#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// Why the one-block path does not take `count` tensors shaped like `first` (engine.hpp): the
// pivot check or a per-sweep callback is asked for, a single tensor is large enough that the
// general path's launches are faster, or the tensor does not fit one block's shared memory.
template <class T>
std::optional<std::string> one_block_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run);

// All tensors share order, size and layout. History seconds are the launch's GPU time spread
// evenly over the sweeps of each tensor.
template <class T>
std::vector<Result<T>> run_gpu_small_batch(std::span<const HostTensor<T>> tensors, const EngineRun& run);

extern template std::optional<std::string> one_block_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
extern template std::optional<std::string> one_block_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
extern template std::vector<Result<float>> run_gpu_small_batch(std::span<const HostTensor<float>>, const EngineRun&);
extern template std::vector<Result<double>> run_gpu_small_batch(std::span<const HostTensor<double>>, const EngineRun&);
extern template std::optional<std::string> one_block_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                              const EngineRun&);
extern template std::optional<std::string> one_block_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                              const EngineRun&);
extern template std::vector<Result<std::complex<float>>> run_gpu_small_batch(
    std::span<const HostTensor<std::complex<float>>>, const EngineRun&);
extern template std::vector<Result<std::complex<double>>> run_gpu_small_batch(
    std::span<const HostTensor<std::complex<double>>>, const EngineRun&);

}  // namespace tensordiag::runtime
