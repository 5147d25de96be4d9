#pragma once
// The public entry point: T = C x_1 M_1 x_2 M_2 ... x_D M_D with orthogonal M_n and C as diagonal
// as the rule makes it (DESIGN.md sections 1 and 2).
#include <vector>

#include "runtime/algorithm/run_options.hpp"
#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// Throws user_error for invalid options or input (order < 3, non-finite values, unknown rule, ...).
template <class T>
Result<T> diagonalize(const HostTensor<T>& tensor, const Options& options = {});

// Many tensors of one shape and layout. On the GPU, without the pivot check and a callback, tensors
// that fit one block's shared memory run together in one launch, one block each; otherwise one
// after the other.
template <class T>
std::vector<Result<T>> diagonalize_batch(const std::vector<HostTensor<T>>& tensors, const Options& options = {});

// With --backend cuda, a tensor of this shape and dtype that cannot fit the device's free memory
// is the user_error its run would give, before the tensor is read or allocated (a 137 GB file is
// refused at once); nothing for the other backends (auto says it when it runs: its note) or
// without a device (the run says that).
void check_device_room(int order, int size, Dtype dtype, const Options& options);

extern template Result<float> diagonalize(const HostTensor<float>&, const Options&);
extern template Result<double> diagonalize(const HostTensor<double>&, const Options&);
extern template std::vector<Result<float>> diagonalize_batch(const std::vector<HostTensor<float>>&, const Options&);
extern template std::vector<Result<double>> diagonalize_batch(const std::vector<HostTensor<double>>&, const Options&);

}  // namespace tensordiag::runtime
