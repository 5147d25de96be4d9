#pragma once
// A caller's CUDA array read where it is (issue 13): from a DLPack capsule (CuPy, PyTorch, JAX:
// tensordiag/__init__.py calls the array's __dlpack__) or from the fields of a
// __cuda_array_interface__ (Numba, and anything else that speaks it). Either becomes a
// runtime::TensorView of CUDA memory; nothing is copied here. The capsule is only read, not
// consumed: its producer's destructor frees it once the caller's reference is gone, after the run.
#include <pybind11/pybind11.h>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "python/src/dlpack.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/core/tensor_view.hpp"

namespace tensordiag::python {

namespace py = pybind11;

// Where a CUDA array's entries are and how they are laid out; the dtype chooses the view's T.
struct CudaArray {
  const void* data = nullptr;
  int order = 0;
  int size = 0;
  runtime::Layout layout = runtime::Layout::c_order;
  runtime::Dtype dtype = runtime::Dtype::float64;

  template <class T>
  runtime::TensorView<T> view() const {
    return runtime::TensorView<T>(static_cast<const T*>(data), order, size, layout, runtime::Memory::cuda);
  }
};

namespace cuda_input_detail {

inline std::string tuple_text(const std::vector<std::int64_t>& values) {
  std::vector<std::size_t> as_sizes;
  for (const auto v : values) as_sizes.push_back(static_cast<std::size_t>(v));
  return runtime::shape_text(as_sizes);
}

// The layout of a cubical array with these strides (in elements; empty: C order), or a
// user_error: the GPU engine reads a dense C- or Fortran-ordered tensor and nothing else.
inline runtime::Layout dense_layout(const std::vector<std::int64_t>& shape, const std::vector<std::int64_t>& strides) {
  if (strides.empty()) return runtime::Layout::c_order;
  const int order = static_cast<int>(shape.size());
  const int size = static_cast<int>(shape.front());
  for (const runtime::Layout layout : {runtime::Layout::c_order, runtime::Layout::fortran_order}) {
    const std::vector<std::ptrdiff_t> dense = runtime::strides_of(order, size, layout);
    if (std::equal(dense.begin(), dense.end(), strides.begin(), strides.end())) return layout;
  }
  throw user_error("the CUDA array is neither C- nor Fortran-contiguous (strides " + tuple_text(strides) +
                   " in entries): tensordiag reads CUDA arrays in place; make it contiguous first "
                   "(cupy.ascontiguousarray(x), x.contiguous())");
}

inline CudaArray cuda_array(const void* data, const std::vector<std::int64_t>& shape,
                            const std::vector<std::int64_t>& strides, runtime::Dtype dtype) {
  std::vector<std::size_t> extents;
  for (const auto extent : shape) extents.push_back(static_cast<std::size_t>(std::max<std::int64_t>(extent, 0)));
  runtime::check_tensor_shape(extents);
  // check_tensor_shape bounds N^D by memory, so order and size fit in int.
  return CudaArray{data, static_cast<int>(shape.size()), static_cast<int>(shape.front()), dense_layout(shape, strides),
                   dtype};
}

[[noreturn]] inline void unsupported_dtype(const std::string& name) {
  throw py::type_error("unsupported dtype '" + name + "' of a CUDA array: use float32 or float64 "
                       "(x.astype(cupy.float64), x.double())");
}

}  // namespace cuda_input_detail

// A DLPack capsule, legacy or versioned, unconsumed. Throws ValueError (not CUDA memory, not
// contiguous, not cubical) or TypeError (dtype).
inline CudaArray read_dlpack(const py::capsule& capsule) {
  using namespace cuda_input_detail;
  const dlpack::Tensor* tensor = nullptr;
  if (PyCapsule_IsValid(capsule.ptr(), dlpack::versioned_capsule_name))
    tensor = &static_cast<dlpack::ManagedTensorVersioned*>(
                  PyCapsule_GetPointer(capsule.ptr(), dlpack::versioned_capsule_name))->dl_tensor;
  else if (PyCapsule_IsValid(capsule.ptr(), dlpack::capsule_name))
    tensor = &static_cast<dlpack::ManagedTensor*>(PyCapsule_GetPointer(capsule.ptr(), dlpack::capsule_name))->dl_tensor;
  else
    throw user_error("__dlpack__ returned no unconsumed DLPack capsule");
  if (tensor->device.device_type != dlpack::cuda && tensor->device.device_type != dlpack::cuda_managed)
    throw user_error("the DLPack array is not in CUDA device memory (DLPack device type " +
                     std::to_string(tensor->device.device_type) + ")");
  const dlpack::DataType dtype = tensor->dtype;
  if (dtype.code != dlpack::float_code || dtype.lanes != 1 || (dtype.bits != 32 && dtype.bits != 64))
    unsupported_dtype(std::string(dtype.code == dlpack::float_code ? "float"
                                  : dtype.code == dlpack::int_code ? "int"
                                  : dtype.code == dlpack::uint_code ? "uint"
                                                                    : "DLPack type code " + std::to_string(dtype.code) + ", bits ") +
                      std::to_string(dtype.bits) + (dtype.lanes != 1 ? "x" + std::to_string(dtype.lanes) : ""));
  const std::vector<std::int64_t> shape(tensor->shape, tensor->shape + tensor->ndim);
  std::vector<std::int64_t> strides;
  if (tensor->strides) strides.assign(tensor->strides, tensor->strides + tensor->ndim);
  const void* data = static_cast<const char*>(tensor->data) + tensor->byte_offset;
  return cuda_array(data, shape, strides, dtype.bits == 32 ? runtime::Dtype::float32 : runtime::Dtype::float64);
}

// The fields of a __cuda_array_interface__ (versions 2 and 3): the pointer, the shape, the strides
// in bytes (None: C order) and the typestr. Throws as read_dlpack.
inline CudaArray read_array_interface(std::uintptr_t pointer, const std::vector<std::int64_t>& shape,
                                      const std::optional<std::vector<std::int64_t>>& byte_strides,
                                      const std::string& typestr) {
  using namespace cuda_input_detail;
  const bool little = typestr.size() == 3 && (typestr[0] == '<' || typestr[0] == '|');
  if (!little || typestr[1] != 'f' || (typestr[2] != '4' && typestr[2] != '8')) unsupported_dtype(typestr);
  const std::int64_t item = typestr[2] - '0';
  std::vector<std::int64_t> strides;
  if (byte_strides)
    for (const auto stride : *byte_strides) {
      if (stride % item != 0)
        throw user_error("the CUDA array's strides " + tuple_text(*byte_strides) + " are not whole entries");
      strides.push_back(stride / item);
    }
  return cuda_array(reinterpret_cast<const void*>(pointer), shape, strides,
                    item == 4 ? runtime::Dtype::float32 : runtime::Dtype::float64);
}

}  // namespace tensordiag::python
