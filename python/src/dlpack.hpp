#pragma once
// The DLPack ABI (dmlc/dlpack include/dlpack/dlpack.h, v1.1): the structs CuPy, PyTorch and JAX
// exchange in a PyCapsule named "dltensor" (DLManagedTensor) or "dltensor_versioned"
// (DLManagedTensorVersioned). Debian 12 packages no dlpack.h, and the protocol fixes this layout
// for every producer, so the few declarations tensordiag uses are restated here.
#include <cstdint>

namespace tensordiag::python::dlpack {

enum DeviceType : std::int32_t { cpu = 1, cuda = 2, cuda_host = 3, cuda_managed = 13 };
enum TypeCode : std::uint8_t { int_code = 0, uint_code = 1, float_code = 2 };

struct Device {
  std::int32_t device_type;
  std::int32_t device_id;
};

struct DataType {
  std::uint8_t code;
  std::uint8_t bits;
  std::uint16_t lanes;
};

struct Tensor {
  void* data;
  Device device;
  std::int32_t ndim;
  DataType dtype;
  std::int64_t* shape;
  std::int64_t* strides;  // in elements; null means compact row-major (C order)
  std::uint64_t byte_offset;
};

struct ManagedTensor {
  Tensor dl_tensor;
  void* manager_ctx;
  void (*deleter)(ManagedTensor* self);
};

struct Version {
  std::uint32_t major;
  std::uint32_t minor;
};

struct ManagedTensorVersioned {
  Version version;
  void* manager_ctx;
  void (*deleter)(ManagedTensorVersioned* self);
  std::uint64_t flags;
  Tensor dl_tensor;
};

inline constexpr std::uint64_t flag_read_only = 1;
inline constexpr Version version{1, 1};
inline constexpr const char* capsule_name = "dltensor";
inline constexpr const char* versioned_capsule_name = "dltensor_versioned";
inline constexpr const char* used_capsule_name = "used_dltensor";
inline constexpr const char* used_versioned_capsule_name = "used_dltensor_versioned";

}  // namespace tensordiag::python::dlpack
