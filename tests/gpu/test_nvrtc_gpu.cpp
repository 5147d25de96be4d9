// On a GPU: the cubins NVRTC makes load and run, and the registers and stack frame read from their
// ELF metadata are those the driver reports. (tests/gpu/main.cpp skips the suite without a device.)
#include <doctest/doctest.h>

#include <cuda_runtime_api.h>

#include <vector>

#include "runtime/cuda/device_arch.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "sample_kernels.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::test;

#define TENSORDIAG_REQUIRE_CUDA(call) REQUIRE_MESSAGE((call) == cudaSuccess, #call)

namespace {

cudaLibrary_t load(const Cubin& cubin) {
  cudaLibrary_t library = nullptr;
  TENSORDIAG_REQUIRE_CUDA(cudaLibraryLoadData(&library, cubin.image.data(), nullptr, nullptr, 0,
                                              nullptr, nullptr, 0));
  return library;
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("nvrtc: the registers and stack frame read from the cubin are the driver's") {
    const DeviceArch device = current_device_arch();
    REQUIRE(device.found());
    for (const std::string& source : {saxpy_source, template_source}) {
      const Cubin cubin = compile_cubin(source, "gpu_test.cu", {}, device.arch);
      const cudaLibrary_t library = load(cubin);
      for (const KernelResources& resources : cubin.kernels) {
        CAPTURE(resources.name);
        cudaKernel_t kernel = nullptr;
        TENSORDIAG_REQUIRE_CUDA(cudaLibraryGetKernel(&kernel, library, resources.name.c_str()));
        cudaFuncAttributes attributes{};
        TENSORDIAG_REQUIRE_CUDA(
            cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(kernel)));
        CHECK(resources.registers == attributes.numRegs);
        CHECK(resources.stack_frame_bytes == static_cast<int>(attributes.localSizeBytes));
      }
      TENSORDIAG_REQUIRE_CUDA(cudaLibraryUnload(library));
    }
  }

  TEST_CASE("nvrtc: the saxpy cubin runs: y = a x + y") {
    const DeviceArch device = current_device_arch();
    REQUIRE(device.found());
    const cudaLibrary_t library = load(compile_cubin(saxpy_source, "saxpy.cu", {}, device.arch));
    cudaKernel_t saxpy = nullptr;
    TENSORDIAG_REQUIRE_CUDA(cudaLibraryGetKernel(&saxpy, library, "saxpy"));

    int n = 1000;
    const std::size_t bytes = static_cast<std::size_t>(n) * sizeof(float);
    std::vector<float> x(static_cast<std::size_t>(n));
    std::vector<float> y(x.size(), 1.0f);
    for (std::size_t i = 0; i < x.size(); ++i) x[i] = static_cast<float>(i);
    void* device_x = nullptr;
    void* device_y = nullptr;
    TENSORDIAG_REQUIRE_CUDA(cudaMalloc(&device_x, bytes));
    TENSORDIAG_REQUIRE_CUDA(cudaMalloc(&device_y, bytes));
    TENSORDIAG_REQUIRE_CUDA(cudaMemcpy(device_x, x.data(), bytes, cudaMemcpyHostToDevice));
    TENSORDIAG_REQUIRE_CUDA(cudaMemcpy(device_y, y.data(), bytes, cudaMemcpyHostToDevice));
    float a = 2.0f;
    void* arguments[] = {&a, &device_x, &device_y, &n};
    TENSORDIAG_REQUIRE_CUDA(cudaLaunchKernel(reinterpret_cast<const void*>(saxpy), dim3(4),
                                             dim3(256), arguments, 0, nullptr));
    TENSORDIAG_REQUIRE_CUDA(cudaMemcpy(y.data(), device_y, bytes, cudaMemcpyDeviceToHost));
    for (std::size_t i = 0; i < y.size(); ++i) {
      CAPTURE(i);
      REQUIRE(y[i] == 2.0f * x[i] + 1.0f);
    }
    TENSORDIAG_REQUIRE_CUDA(cudaFree(device_x));
    TENSORDIAG_REQUIRE_CUDA(cudaFree(device_y));
    TENSORDIAG_REQUIRE_CUDA(cudaLibraryUnload(library));
  }
}
