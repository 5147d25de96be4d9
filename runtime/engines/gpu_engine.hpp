#pragma once
// The GPU engine (DESIGN.md section 3): the tensor is copied to the device once and the sweeps run
// there; per group the angle kernel, then the fused group pass (tensor, factors and, in a sweep's
// last pass, the figures' partial sums); per sweep the off-diagonal norm and the diagonal, the only
// figures the host reads. With the pivot check, each mode of each group gathers Lambda and takes
// its 2-norm (on the device by Lanczos, or cuSOLVER's singular values) before its angles. A sweep
// is one CUDA graph, replayed, except on the cuSOLVER path, whose calls are enqueued directly.
// Complex tensors (issue 11, item 3) run the same kernels, generated for a complex scalar: the
// round robin without the pivot check, the HOSVD start and the verification on the host
// (diagonalize_complex.cpp), which also fixes the diagonal's phases.
#include <optional>
#include <string>

#include "runtime/algorithm/device_result.hpp"
#include "runtime/core/tensor_view.hpp"
#include "runtime/engines/engine.hpp"

namespace tensordiag::runtime {

// History seconds are GPU time (CUDA events) per sweep. Throws user_error when there is no usable
// device or the tensor does not fit in its memory, cuda_error when a CUDA call fails.
template <class T>
Result<T> run_gpu_engine(const HostTensor<T>& tensor, const EngineRun& run);

// The same run on a tensor in CUDA device memory (Memory::cuda) of the device the engines run on:
// copied device to device into the working buffer (the caller's array is left as it was), the
// core and the factors left on the device, the verification made against the caller's array.
// Throws user_error for memory of another device or not of the device, and for NaN or Inf.
template <class T>
DeviceResult<T> run_gpu_engine_on_device(const TensorView<T>& tensor, const EngineRun& run);

// Why the general GPU engine does not take tensors shaped like `first` (engine.hpp): a kernel it
// needs cannot be generated for the shape (codegen's reason, e.g. a pivot subtensor over the
// shared memory), the tensor does not fit the device's free memory, or nullopt.
template <class T>
std::optional<std::string> gpu_engine_declines(const HostTensor<T>& first, std::size_t count, const EngineRun& run);

extern template std::optional<std::string> gpu_engine_declines(const HostTensor<float>&, std::size_t, const EngineRun&);
extern template std::optional<std::string> gpu_engine_declines(const HostTensor<double>&, std::size_t, const EngineRun&);
extern template Result<float> run_gpu_engine(const HostTensor<float>&, const EngineRun&);
extern template Result<double> run_gpu_engine(const HostTensor<double>&, const EngineRun&);
extern template DeviceResult<float> run_gpu_engine_on_device(const TensorView<float>&, const EngineRun&);
extern template DeviceResult<double> run_gpu_engine_on_device(const TensorView<double>&, const EngineRun&);
extern template std::optional<std::string> gpu_engine_declines(const HostTensor<std::complex<float>>&, std::size_t,
                                                               const EngineRun&);
extern template std::optional<std::string> gpu_engine_declines(const HostTensor<std::complex<double>>&, std::size_t,
                                                               const EngineRun&);
extern template Result<std::complex<float>> run_gpu_engine(const HostTensor<std::complex<float>>&, const EngineRun&);
extern template Result<std::complex<double>> run_gpu_engine(const HostTensor<std::complex<double>>&, const EngineRun&);

}  // namespace tensordiag::runtime
