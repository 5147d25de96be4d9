// A tensor larger than the device's free memory (issue 13): --backend cuda is one user_error
// naming the bytes needed and free, before any work on the device; auto runs on the CPU with a
// note that says the same. The device is filled first by a buffer that leaves 280 MiB free, so
// that tensors of about 250 MB (plus the engines' 64 MB of workspace) do not fit.
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <string>

#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

template <class T>
void check_refused_then_cpu(const HostTensor<T>& tensor, const std::string& engine_kind) {
  CAPTURE(engine_kind);
  Options options;
  options.max_sweeps = 1;
  options.backend = Backend::cuda;
  try {
    diagonalize(tensor, options);
    FAIL("the run did not fail");
  } catch (const tensordiag::user_error& error) {
    const std::string message = error.what();
    CHECK(message.starts_with("the CUDA backend cannot take this tensor: the tensor needs "));
    CHECK(message.find(" GiB on the GPU, but NVIDIA ") != std::string::npos);
    CHECK(message.ends_with(" GiB free"));
  }
  options.backend = Backend::automatic;
  const auto result = diagonalize(tensor, options);
  CHECK(result.backend == Backend::cpu);
  REQUIRE(result.notes.size() == 1);
  CHECK(result.notes[0].starts_with("the GPU engine cannot take this tensor (the tensor needs "));
  CHECK(result.notes[0].ends_with(" GiB free): running on the CPU"));
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("a tensor over the free device memory: cuda fails with the bytes needed and free, auto runs on the CPU and says why") {
    const auto device = cuda_device();
    REQUIRE(device.has_value());
    constexpr std::size_t left_free = 280u << 20;
    REQUIRE(device->free_memory > left_free + (1u << 30));
    const DeviceBuffer<unsigned char> filler(device->free_memory - left_free);
    // The general engine's kind of shape (N = 6, D = 10, 242 MB) and the qubit path's (N = 2,
    // D = 26 float32, 268 MB); each fits once the filler is gone.
    check_refused_then_cpu(random_tensor<float>(10, 6, 3), "general");
    check_refused_then_cpu(random_tensor<float>(26, 2, 4), "qubit");
  }
}
