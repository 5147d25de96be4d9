#pragma once
// NumPy arrays <-> runtime tensors. An array comes in C- or Fortran-contiguous, float32 or float64
// (tensordiag/__init__.py sees to that), and is read in place through a borrowing HostTensor of the
// same layout (issue 13): the engine copies it into its own working tensor in any case, so a
// second copy would only cost memory and time. Results leave without a copy: the NumPy array takes
// over the runtime's buffer and frees it through a capsule.
#include <pybind11/numpy.h>

#include <memory>
#include <vector>

#include "runtime/core/errors.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::python {

namespace py = pybind11;

// Throws user_error (-> ValueError) for shapes the runtime does not take, with the runtime's message
// (a symmetric structure takes order 2). The tensor borrows the array's memory: the caller keeps
// `array` alive, and unwritten, meanwhile.
template <class T>
runtime::HostTensor<T> to_host_tensor(const py::array& array, runtime::Structure structure = runtime::Structure::general) {
  const std::vector<std::size_t> shape(array.shape(), array.shape() + array.ndim());
  runtime::check_tensor_shape(shape, structure);
  const bool c_order = (array.flags() & py::array::c_style) != 0;
  if (!c_order && (array.flags() & py::array::f_style) == 0)
    throw internal_error("to_host_tensor: the array is neither C- nor Fortran-contiguous");
  const T* first = static_cast<const T*>(array.data());
  // check_tensor_shape bounds N^D by memory, so order and size fit in int.
  return runtime::HostTensor<T>::borrow(static_cast<int>(shape.size()), static_cast<int>(shape.front()),
                                        c_order ? runtime::Layout::c_order : runtime::Layout::fortran_order, first);
}

// An array over `values` (taken over, not copied); strides in entries.
template <class T>
py::array_t<T> adopt_buffer(std::vector<T>&& values, std::vector<py::ssize_t> shape,
                            const std::vector<std::ptrdiff_t>& strides) {
  std::vector<py::ssize_t> byte_strides;
  for (const auto stride : strides) byte_strides.push_back(static_cast<py::ssize_t>(stride * sizeof(T)));
  auto owner = std::make_unique<std::vector<T>>(std::move(values));
  const py::capsule free_when_done(owner.get(), [](void* p) { delete static_cast<std::vector<T>*>(p); });
  T* data = owner.release()->data();
  return py::array_t<T>(std::move(shape), std::move(byte_strides), data, free_when_done);
}

template <class T>
py::array_t<T> to_numpy(runtime::HostTensor<T>&& tensor) {
  const std::vector<py::ssize_t> shape(static_cast<std::size_t>(tensor.order()), tensor.size());
  const std::vector<std::ptrdiff_t> strides = tensor.strides();
  return adopt_buffer(std::move(tensor.values()), shape, strides);
}

// Matrix<T> is row-major: a C-order N x N array.
template <class T>
py::array_t<T> to_numpy(runtime::Matrix<T>&& matrix) {
  const py::ssize_t n = matrix.n;
  return adopt_buffer(std::move(matrix.data), {n, n}, {n, 1});
}

}  // namespace tensordiag::python
