#pragma once
// A result left on the GPU (diagonalize_on_device), exported to Python without a copy. DeviceArray
// holds one owner of the device memory and produces, on request, a DLPack capsule (__dlpack__,
// legacy or versioned as the consumer asks) or a __cuda_array_interface__ (version 3), so that
// cupy.from_dlpack, torch.from_dlpack, jax.numpy.from_dlpack, numba.cuda.as_cuda_array and
// cupy.asarray all take it in place. Each capsule holds its own reference to the memory: the
// device buffer is freed when the DeviceArray and every array made from it are gone, whatever the
// order, and with or without the GIL (a consumer calls the deleter when it likes).
#include <pybind11/pybind11.h>

#include <cstdint>
#include <memory>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "python/src/dlpack.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::python {

namespace py = pybind11;

class DeviceArray {
public:
  // `strides` in entries; `data` points into the memory that `owner` keeps alive.
  template <class T>
  DeviceArray(std::shared_ptr<T> owner, std::vector<std::int64_t> shape, std::vector<std::int64_t> strides, int device)
      : data_(owner.get()), owner_(std::move(owner)), shape_(std::move(shape)), strides_(std::move(strides)),
        dtype_{dlpack::float_code, static_cast<std::uint8_t>(8 * sizeof(T)), 1}, device_(device) {}

  // The array API's __dlpack__: the data is complete when the run returns (its stream was
  // synchronized), so any consumer stream may read it at once and `stream` needs no wait.
  py::capsule dlpack(const py::object& stream, const py::object& max_version, const py::object& dl_device,
                     const py::object& copy) const {
    static_cast<void>(stream);
    if (!dl_device.is_none() && !dl_device.equal(dlpack_device()))
      throw py::buffer_error("tensordiag's result lives on CUDA device " + std::to_string(device_) +
                             " and cannot be exported to another device");
    if (!copy.is_none() && py::bool_(copy)) throw py::buffer_error("tensordiag's result exports without a copy only");
    if (!max_version.is_none() && py::cast<py::tuple>(max_version).size() > 0 &&
        py::cast<int>(py::cast<py::tuple>(max_version)[0]) >= 1)
      return export_as<dlpack::ManagedTensorVersioned>(dlpack::versioned_capsule_name);
    return export_as<dlpack::ManagedTensor>(dlpack::capsule_name);
  }

  py::tuple dlpack_device() const { return py::make_tuple(static_cast<int>(dlpack::cuda), device_); }

  // Version 3; stream None: nothing to wait for (see dlpack()). The dict's pointer is valid while
  // this DeviceArray is: consumers of the interface keep the object alive, as CuPy and Numba do.
  py::dict cuda_array_interface() const {
    py::dict interface;
    interface["shape"] = shape();
    interface["typestr"] = std::string(dtype_.bits == 32 ? "<f4" : "<f8");
    interface["data"] = py::make_tuple(reinterpret_cast<std::uintptr_t>(data_), false);
    py::list byte_strides;
    for (const auto stride : strides_) byte_strides.append(stride * dtype_.bits / 8);
    interface["strides"] = py::tuple(byte_strides);
    interface["version"] = 3;
    interface["stream"] = py::none();
    return interface;
  }

  py::tuple shape() const { return py::tuple(py::cast(shape_)); }
  std::string dtype() const { return dtype_.bits == 32 ? "float32" : "float64"; }
  int device() const { return device_; }

  std::string repr() const {
    std::vector<std::size_t> extents(shape_.begin(), shape_.end());
    return "tensordiag.DeviceArray(shape=" + runtime::shape_text(extents) + ", dtype=" + dtype() +
           ", device=cuda:" + std::to_string(device_) + ")";
  }

private:
  // What a capsule's manager_ctx owns: a reference to the memory, and the shape and strides that
  // the DLPack tensor points to.
  struct Export {
    std::shared_ptr<void> owner;
    std::vector<std::int64_t> shape, strides;
  };

  template <class Managed>
  py::capsule export_as(const char* name) const {
    auto context = std::make_unique<Export>(Export{owner_, shape_, strides_});
    auto managed = std::make_unique<Managed>();
    managed->dl_tensor = dlpack::Tensor{data_,
                                        {dlpack::cuda, device_},
                                        static_cast<std::int32_t>(shape_.size()),
                                        dtype_,
                                        context->shape.data(),
                                        context->strides.data(),
                                        0};
    if constexpr (std::is_same_v<Managed, dlpack::ManagedTensorVersioned>) {
      managed->version = dlpack::version;
      managed->flags = 0;
    }
    managed->manager_ctx = context.release();
    managed->deleter = [](Managed* self) {
      delete static_cast<Export*>(self->manager_ctx);
      delete self;
    };
    // A capsule no consumer took (renamed to used_...) still owns the tensor: free it with the capsule.
    PyObject* capsule = PyCapsule_New(managed.get(), name, [](PyObject* object) {
      const bool versioned = PyCapsule_IsValid(object, dlpack::versioned_capsule_name) != 0;
      if (!versioned && PyCapsule_IsValid(object, dlpack::capsule_name) == 0) return;  // consumed
      void* pointer = PyCapsule_GetPointer(object, versioned ? dlpack::versioned_capsule_name : dlpack::capsule_name);
      auto* self = static_cast<Managed*>(pointer);
      self->deleter(self);
    });
    if (!capsule) {
      delete static_cast<Export*>(managed->manager_ctx);
      throw py::error_already_set();
    }
    managed.release();
    return py::reinterpret_steal<py::capsule>(capsule);
  }

  void* data_;
  std::shared_ptr<void> owner_;
  std::vector<std::int64_t> shape_, strides_;
  dlpack::DataType dtype_;
  int device_;
};

}  // namespace tensordiag::python
