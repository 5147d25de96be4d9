#pragma once
// The public entry point: T = C x_1 M_1 x_2 M_2 ... x_D M_D with orthogonal M_n and C as diagonal
// as the rule makes it (DESIGN.md sections 1 and 2).
#include <vector>

#include "runtime/algorithm/device_result.hpp"
#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/core/tensor_view.hpp"

namespace tensordiag::runtime {

// Throws user_error for invalid options or input (order < 3, non-finite values, unknown rule, ...).
template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options = {});

// Many tensors of one shape and layout. On the GPU, without the pivot check and a callback, tensors
// that fit one block's shared memory run together in one launch, one block each; otherwise one
// after the other. Complex tensors run as diagonalize_complex runs each (diagonalize_complex.hpp).
template <class T>
std::vector<Result<T>> diagonalize_batch(const std::vector<HostTensor<T>>& tensors, const Options& options = {});

// A tensor in CUDA device memory of the device the engines run on (device 0), read in place: the
// general GPU engine copies it device to device, the core and the factors stay on the device
// (device_result.hpp), the verification reads the caller's tensor. backend cpu is a user_error
// (the tensor would have to pass through host memory; the caller decides that); auto and cuda
// both mean the GPU, with no fallback to the CPU. Other errors as diagonalize()'s, and those of
// run_gpu_engine_on_device (memory of another device, NaN or Inf).
template <class T>
DeviceResult<T> diagonalize_on_device(const TensorView<T>& tensor, const Options& options = {});

// With --backend cuda, a tensor of this shape and dtype that cannot fit the device's free memory
// is the user_error its run would give, before the tensor is read or allocated (a 137 GB file is
// refused at once); nothing for the other backends (auto says it when it runs: its note) or
// without a device (the run says that).
void check_device_room(int order, int size, Dtype dtype, const Options& options);

extern template Result<float> diagonalize(const HostTensor<float>&, const Options&);
extern template Result<double> diagonalize(const HostTensor<double>&, const Options&);
// Complex tensors: see diagonalize_complex.hpp (the same run, by its name).
extern template Result<std::complex<float>> diagonalize(const HostTensor<std::complex<float>>&, const Options&);
extern template Result<std::complex<double>> diagonalize(const HostTensor<std::complex<double>>&, const Options&);
extern template std::vector<Result<float>> diagonalize_batch(const std::vector<HostTensor<float>>&, const Options&);
extern template std::vector<Result<double>> diagonalize_batch(const std::vector<HostTensor<double>>&, const Options&);
extern template std::vector<Result<std::complex<float>>> diagonalize_batch(
    const std::vector<HostTensor<std::complex<float>>>&, const Options&);
extern template std::vector<Result<std::complex<double>>> diagonalize_batch(
    const std::vector<HostTensor<std::complex<double>>>&, const Options&);
extern template DeviceResult<float> diagonalize_on_device(const TensorView<float>&, const Options&);
extern template DeviceResult<double> diagonalize_on_device(const TensorView<double>&, const Options&);

}  // namespace tensordiag::runtime
