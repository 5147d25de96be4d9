// Tensors too large to pass through files on the lent machines (N = 2, D = 33 is 34 GB each way):
// a Gaussian float32 tensor made in memory, 10 sweeps forced on the GPU without verification, the
// sweeps' GPU time (CUDA events) and the fraction of the device-to-device copy bandwidth that one
// read and write of the tensor per pivot group would reach, and the device memory the run's
// buffers held at most, in tensors (issue 15: <= 2.2). --verify adds the device verification
// (then the peak counts its scratch tensor).
//   usage: gpu_large_bench COPY_GBS [--verify] DxN [DxN ...]  (COPY_GBS: gpu_bench's measured copy, GB/s)
// Exits 77 without a GPU.
#include <omp.h>

#include <cstdio>
#include <cstdlib>
#include <string>

#include "gaussian_tensor.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;

using tensordiag::bench::gaussian_tensor;

int main(int argc, char** argv) {
  if (argc < 3) {
    std::fprintf(stderr, "usage: gpu_large_bench COPY_GBS [--verify] DxN [DxN ...]\n");
    return 2;
  }
  const auto device = cuda_device();
  if (!device) {
    std::printf("gpu_large_bench: %s\n", cuda_unavailable_reason().c_str());
    return 77;
  }
  const double copy = std::atof(argv[1]) * 1e9;
  const bool verify = std::string(argv[2]) == "--verify";
  std::printf("device: %s\n%-8s %-10s %-8s %-10s %-12s %-10s %-8s %-10s %-10s %-10s %s\n", device->name.c_str(), "DxN",
              "GB", "groups", "made_s", "gpu_ms_10", "ms_sweep", "of_copy", "wall_s", "dev_peak", "recon_err", "engine");
  for (int i = verify ? 3 : 2; i < argc; ++i) {
    const std::string shape = argv[i];
    const int order = std::stoi(shape.substr(0, shape.find('x')));
    const int size = std::stoi(shape.substr(shape.find('x') + 1));
    Stopwatch made;
    const HostTensor<float> tensor = gaussian_tensor(order, size);
    const double made_seconds = made.seconds();
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 10;
    options.tol = 1e-300;
    options.stall_tol = 0;
    options.verify = verify;
    const Stopwatch wall;
    const Result<float> result = diagonalize(tensor, options);
    double gpu = 0;
    for (const auto& h : result.history) gpu += h.seconds;
    const double groups = size % 2 == 0 ? size - 1 : size;
    const double bytes = 10 * groups * 2 * static_cast<double>(tensor.count()) * sizeof(float);
    const double tensor_bytes = static_cast<double>(tensor.count()) * sizeof(float);
    std::printf("%-8s %-10.2f %-8.0f %-10.1f %-12.2f %-10.3f %-8.3f %-10.1f %-10.3f %-10.2e %s\n", shape.c_str(),
                tensor_bytes / 1e9, groups, made_seconds, gpu * 1e3, gpu * 1e3 / result.sweeps(), bytes / gpu / copy,
                wall.seconds(), static_cast<double>(result.device_memory_peak_bytes.value_or(0)) / tensor_bytes,
                result.verification ? result.verification->reconstruction_error : -1.0, result.engine.c_str());
  }
  return 0;
}
