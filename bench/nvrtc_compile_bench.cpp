// Kernel compile times: cold (NVRTC runs), warm from the disk cache (a new process's first request,
// simulated by a new KernelCache on a filled directory) and warm from memory (a repeat within one
// run). Usage: nvrtc_compile_bench [SOURCE.cu [ARCH [REPEATS]]]; without a file it compiles a
// sample shaped like tensordiag's generated kernels (a fused rotation of all D modes, D and N
// template constants, loops unrolled). ARCH defaults to the device's, else sm_90.
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "bench/compile_timing.hpp"
#include "runtime/cuda/device_arch.hpp"
#include "runtime/cuda/kernel_cache.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

using namespace tensordiag::bench;
using namespace tensordiag::runtime;
namespace fs = std::filesystem;

namespace {

const char* const sample_source = R"(
// One group of disjoint pivot pairs (p[k], q[k]), k < N/2, rotated in all D modes of an N^D tensor
// (C order) in one pass: each thread owns one orbit, the 2^D entries whose index in every mode is
// p or q of that mode's chosen pair, and applies the D rotations to them in registers.
template <int D, int N, class T>
__global__ void rotate_all_modes(T* tensor, const int* p, const int* q, const T* c, const T* s) {
  constexpr int pairs = N / 2;
  constexpr int orbits = [] { int n = 1; for (int k = 0; k < D; ++k) n *= pairs; return n; }();
  const int orbit = blockIdx.x * blockDim.x + threadIdx.x;
  if (orbit >= orbits) return;
  int pair[D];
  int rest = orbit;
#pragma unroll
  for (int mode = 0; mode < D; ++mode) {
    pair[mode] = rest % pairs;
    rest /= pairs;
  }
  int offset[1 << D];
  T value[1 << D];
#pragma unroll
  for (int corner = 0; corner < (1 << D); ++corner) {
    offset[corner] = 0;
#pragma unroll
    for (int mode = 0; mode < D; ++mode) {
      const int index = (corner >> mode & 1) ? q[pair[mode]] : p[pair[mode]];
      offset[corner] = offset[corner] * N + index;
    }
    value[corner] = tensor[offset[corner]];
  }
#pragma unroll
  for (int mode = 0; mode < D; ++mode) {
    const T cm = c[mode * pairs + pair[mode]];
    const T sm = s[mode * pairs + pair[mode]];
#pragma unroll
    for (int corner = 0; corner < (1 << D); ++corner) {
      if (corner >> mode & 1) continue;
      const T a = value[corner];
      const T b = value[corner | 1 << mode];
      value[corner] = cm * a - sm * b;
      value[corner | 1 << mode] = sm * a + cm * b;
    }
  }
#pragma unroll
  for (int corner = 0; corner < (1 << D); ++corner) tensor[offset[corner]] = value[corner];
}

template __global__ void rotate_all_modes<3, 8, double>(double*, const int*, const int*,
                                                         const double*, const double*);
template __global__ void rotate_all_modes<6, 8, float>(float*, const int*, const int*,
                                                        const float*, const float*);
)";

struct Timing {
  std::string what;
  std::vector<double> seconds;
};

std::string read_source(const char* path) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw tensordiag::user_error(std::string("cannot read ") + path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// Each request in a fresh cache made from `settings`, or all of them in `shared` when given.
Timing time_requests(const std::string& what, int repeats, const std::string& source,
                     const std::string& name, const std::string& arch, KernelOrigin expected,
                     const KernelCacheSettings& settings, KernelCache* shared) {
  Timing timing{what, {}};
  for (int i = 0; i < repeats; ++i) {
    KernelCache fresh(settings);
    KernelCache& cache = shared != nullptr ? *shared : fresh;
    timing.seconds.push_back(request(cache, source, name, arch, expected, what).seconds);
  }
  return timing;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    const std::string source = argc > 1 ? read_source(argv[1]) : std::string(sample_source);
    const std::string name = argc > 1 ? fs::path(argv[1]).filename().string() : "sample.cu";
    const DeviceArch device = current_device_arch();
    const std::string arch = argc > 2 ? argv[2] : device.found() ? device.arch : "sm_90";
    const int repeats = argc > 3 ? std::stoi(argv[3]) : 7;

    const ScratchCacheDirectory directory;
    const KernelCacheSettings no_disk = memory_only();
    const KernelCacheSettings disk = directory.settings();
    KernelCache filled(disk);
    const CompiledKernel first = filled.get_or_compile(source, name, {}, arch);

    const std::vector<Timing> timings = {
        time_requests("cold (NVRTC)", repeats, source, name, arch, KernelOrigin::compiled, no_disk,
                      nullptr),
        time_requests("warm, disk cache", repeats, source, name, arch, KernelOrigin::disk_cache, disk,
                      nullptr),
        time_requests("warm, memory cache", repeats, source, name, arch, KernelOrigin::memory_cache,
                      disk, &filled)};

    const std::string arch_origin = device.found() ? "the device's" : "no device: " + device.reason;
    std::printf("NVRTC %s, %s (%s), source %s: %zu bytes, cubin %zu bytes\n",
                nvrtc_version().c_str(), arch.c_str(), arch_origin.c_str(), name.c_str(),
                source.size(), first.cubin.size());
    for (const KernelResources& kernel : first.kernels) {
      std::printf("  %s: %s registers, %s bytes stack frame\n", kernel.name.c_str(),
                  kernel.registers ? std::to_string(*kernel.registers).c_str() : "?",
                  kernel.stack_frame_bytes ? std::to_string(*kernel.stack_frame_bytes).c_str() : "?");
    }
    std::printf("\n%-20s %12s %12s %8s\n", "request", "median ms", "min ms", "repeats");
    for (const Timing& timing : timings) {
      std::printf("%-20s %12.3f %12.3f %8zu\n", timing.what.c_str(), 1e3 * median(timing.seconds),
                  1e3 * *std::min_element(timing.seconds.begin(), timing.seconds.end()),
                  timing.seconds.size());
    }
    return 0;
  } catch (const std::exception& error) {
    std::fprintf(stderr, "nvrtc_compile_bench: %s\n", error.what());
    return 1;
  }
}
