#pragma once
// A loaded kernel whose call takes exactly the parameter types of its signature
// (codegen/kernel_signatures.hpp) for scalar type T: a launch with a wrong argument fails to compile
// instead of handing the kernel bytes of another type.
#include <cuda_runtime_api.h>

#include <cstddef>
#include <string_view>
#include <type_traits>
#include <utility>

#include "codegen/kernel_signatures.hpp"
#include "dsl/givens.hpp"
#include "runtime/cuda/cuda_library.hpp"

namespace tensordiag::runtime {

// The host type of a kernel parameter for scalar type T: what the CUDA spelling names on the
// device (Rotation = dsl::Givens<Scalar>).
template <class T, codegen::ParameterType type>
constexpr auto host_parameter() {
  using enum codegen::ParameterType;
  if constexpr (type == scalar_pointer) return std::type_identity<T*>{};
  else if constexpr (type == const_scalar_pointer) return std::type_identity<const T*>{};
  else if constexpr (type == int_pointer) return std::type_identity<int*>{};
  else if constexpr (type == const_int_pointer) return std::type_identity<const int*>{};
  else if constexpr (type == rotation_pointer) return std::type_identity<dsl::Givens<T>*>{};
  else if constexpr (type == const_rotation_pointer) return std::type_identity<const dsl::Givens<T>*>{};
  else if constexpr (type == double_pointer) return std::type_identity<double*>{};
  else if constexpr (type == const_double_pointer) return std::type_identity<const double*>{};
  else if constexpr (type == int_value) return std::type_identity<int>{};
  else {
    static_assert(type == double_value);
    return std::type_identity<double>{};
  }
}

template <class T, codegen::ParameterType type>
using HostParameter = typename decltype(host_parameter<T, type>())::type;

// A kernel of a loaded library and its launch shape, set by GpuKernels when it loads the library.
struct LoadedKernel {
  std::string_view name;  // the kernel's symbol
  cudaKernel_t function = nullptr;
  dim3 grid;
  dim3 block;
  std::size_t dynamic_shared_bytes = 0;
};

template <class T, const codegen::KernelSignature& signature,
          class = std::make_index_sequence<signature.parameters.size()>>
struct KernelLauncher;

template <class T, const codegen::KernelSignature& signature, std::size_t... I>
struct KernelLauncher<T, signature, std::index_sequence<I...>> : LoadedKernel {
  KernelLauncher() : LoadedKernel{signature.name, nullptr, {}, {}, 0} {}

  void operator()(cudaStream_t stream, HostParameter<T, signature.parameters[I].type>... arguments) const {
    launch(function, grid, block, dynamic_shared_bytes, stream, arguments...);
  }

  // The same kernel over `grid_blocks`, begun while the stream's kernel before it still runs
  // (launch_overlapping: the kernel waits with griddepcontrol.wait; devices of compute capability
  // 9.0 and later).
  void overlapping(dim3 grid_blocks, cudaStream_t stream, HostParameter<T, signature.parameters[I].type>... arguments) const {
    launch_overlapping(function, grid_blocks, block, dynamic_shared_bytes, stream, arguments...);
  }

  // The same kernel over another grid (kernels whose grid depends on more than their spec).
  void operator()(dim3 grid_blocks, cudaStream_t stream, HostParameter<T, signature.parameters[I].type>... arguments) const {
    launch(function, grid_blocks, block, dynamic_shared_bytes, stream, arguments...);
  }
};

}  // namespace tensordiag::runtime
