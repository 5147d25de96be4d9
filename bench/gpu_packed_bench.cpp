// Packed symmetric storage on the GPU (issue 11, item 1): the same planted symmetric tensor
// (noise 1e-2, seed 7), exactly 10 sweeps, no verification, by the GPU packed engine, by the CPU
// packed engine on this machine's cores, and where the N^D tensor fits the budget by the full
// symmetric GPU engine: the sweeps' seconds a sweep (a run stops early where rounding lowers
// ||diag C||^2: "stalled"; median of 3, 1 where a run takes over 5 s; the GPU runs after one
// untimed run that compiles the kernels), the bytes of each storage, and how far the GPU packed
// core is from the CPU packed one. Prints a Markdown table. Exits 77
// without a GPU.
//   usage: gpu_packed_bench [--dtype float32|float64] [--full-budget-mb M] [--no-cpu] [DxN ...]
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/forced_sweeps.hpp"
#include "bench/packed_cases.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_packed.hpp"
#include "runtime/engines/gpu_packed_engine.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::bench;

namespace {

double relative_difference(const std::vector<double>& a, const std::vector<double>& b) {
  double d = 0, n = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    d = std::max(d, std::abs(a[i] - b[i]));
    n = std::max(n, std::abs(b[i]));
  }
  return n > 0 ? d / n : d;
}

template <class T>
void bench(const std::vector<PackedShape>& shapes, double full_budget_mb, bool cpu) {
  Options options = tensordiag::bench::forced_sweeps(10);
  std::printf("| D x N | distinct entries | packed MB | full MB | GPU packed ms a sweep (sweeps) | CPU packed ms a sweep | "
              "GPU full symmetric ms a sweep | GPU packed vs CPU packed core | off_rel at the end |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|\n");
  for (const PackedShape shape : shapes) {
    const PackedSymmetricTensor<T> tensor = planted_packed_case<T>(shape);
    const double packed_mb = static_cast<double>(tensor.count() * sizeof(T)) / 1e6;
    const double full_mb = static_cast<double>(sizeof(T)) * std::pow(shape.size, shape.order) / 1e6;
    options.backend = Backend::cuda;
    PackedResult<T> gpu = diagonalize_packed(tensor, options);  // compiles the kernels
    const double gpu_seconds = median_of_three_below_5([&] {
      gpu = diagonalize_packed(tensor, options);
      return gpu.run.timings.sweeps_seconds / gpu.run.sweeps();
    });
    std::string cpu_ms = "(not run)", difference = "";
    if (cpu) {
      options.backend = Backend::cpu;
      PackedResult<T> host;
      cpu_ms = fixed(1e3 * median_of_three_below_5([&] {
                 host = diagonalize_packed(tensor, options);
                 return host.run.timings.sweeps_seconds / host.run.sweeps();
               }), "%.4g");
      std::vector<double> a(gpu.core.values().begin(), gpu.core.values().end());
      std::vector<double> b(host.core.values().begin(), host.core.values().end());
      difference = host.run.sweeps() == gpu.run.sweeps() ? fixed(relative_difference(a, b), "%.2e")
                                                         : "(stopped after " + std::to_string(host.run.sweeps()) + " sweeps)";
    }
    std::string full_ms = "(over budget)";
    if (full_mb <= full_budget_mb) {
      const HostTensor<T> full = unpack_symmetric(tensor);
      Options symmetric = options;
      symmetric.structure = Structure::symmetric;
      symmetric.backend = Backend::cuda;
      Result<T> result = diagonalize(full, symmetric);
      full_ms = fixed(1e3 * median_of_three_below_5([&] {
                  result = diagonalize(full, symmetric);
                  return result.timings.sweeps_seconds / result.sweeps();
                }), "%.4g") + " (" + result.engine + ", " + result.schedule + ")";
    }
    std::printf("| %d x %d | %zu | %.3f | %.1f | %s (%d) | %s | %s | %s | %s |\n", shape.order, shape.size, tensor.count(),
                packed_mb, full_mb, fixed(1e3 * gpu_seconds, "%.4g").c_str(), gpu.run.sweeps(), cpu_ms.c_str(), full_ms.c_str(),
                difference.c_str(), fixed(gpu.run.history.back().off_rel, "%.3e").c_str());
    std::fflush(stdout);
  }
}

}  // namespace

int main(int argc, char** argv) {
  double full_budget_mb = 4096;
  bool cpu = true, single = false;
  std::vector<PackedShape> shapes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full-budget-mb") == 0 && i + 1 < argc) full_budget_mb = std::atof(argv[++i]);
    else if (std::strcmp(argv[i], "--no-cpu") == 0) cpu = false;
    else if (std::strcmp(argv[i], "--dtype") == 0 && i + 1 < argc) single = std::strcmp(argv[++i], "float32") == 0;
    else if (!parse_packed_shape(argv[i], shapes)) {
      std::fprintf(stderr, "usage: gpu_packed_bench [--dtype float32|float64] [--full-budget-mb M] [--no-cpu] [DxN ...]\n");
      return 2;
    }
  }
  if (!cuda_device()) {
    std::printf("skipped: %s\n", cuda_unavailable_reason().c_str());
    return 77;
  }
  std::printf("device: %s; %s\n\n", cuda_device()->name.c_str(), single ? "float32" : "float64");
  if (shapes.empty()) shapes = default_packed_shapes({12, 4});
  if (single) bench<float>(shapes, full_budget_mb, cpu);
  else bench<double>(shapes, full_budget_mb, cpu);
  return 0;
}
