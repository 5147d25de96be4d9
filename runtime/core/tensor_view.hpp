#pragma once
// A dense cubical tensor the runtime reads but does not own: a HostTensor's values, or a caller's
// CUDA array (DLPack, __cuda_array_interface__; issue 13) that the GPU engine copies device to
// device into its working buffer, so that the tensor never passes through host memory. Nothing is
// written through a view: the caller's array is unchanged by a run.
#include <cstddef>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// Where a view's values live. cuda: device memory of the device the engines run on (device 0).
enum class Memory { host, cuda };

template <class T>
class TensorView {
public:
  TensorView(const T* data, int order, int size, Layout layout, Memory memory)
      : data_(data), order_(order), size_(size), layout_(layout), memory_(memory) {}
  // Implicit: every HostTensor is a view of host memory, so code that reads an input through a
  // view takes both.
  TensorView(const HostTensor<T>& tensor)  // NOLINT(google-explicit-constructor)
      : TensorView(tensor.data(), tensor.order(), tensor.size(), tensor.layout(), Memory::host) {}

  const T* data() const { return data_; }
  int order() const { return order_; }
  int size() const { return size_; }
  Layout layout() const { return layout_; }
  Memory memory() const { return memory_; }
  std::size_t count() const { return entry_count(order_, size_); }
  // Entry (i, .., i) lives at i * diagonal_stride(): the strides' sum, the same in either layout.
  std::ptrdiff_t diagonal_stride() const {
    std::ptrdiff_t step = 0, stride = 1;
    for (int n = 0; n < order_; ++n, stride *= size_) step += stride;
    return step;
  }

private:
  const T* data_;
  int order_;
  int size_;
  Layout layout_;
  Memory memory_;
};

}  // namespace tensordiag::runtime
