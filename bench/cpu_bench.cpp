// CPU benchmark against the seed paper's sequential C code (its figures 3 and 4: float32,
// diagonalizable tensors, 10 sweeps, one EPYC 9454P core). Prints a table and writes JSON.
//   usage: cpu_bench [OUT.json] [--repeats K]
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

#include "bench/statistics.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/algorithm/random_stream.hpp"

using namespace tensordiag::runtime;
using tensordiag::bench::median;
using tensordiag::bench::wall_seconds;

namespace {

struct Case {
  int order, size;
  double eta;
  double paper_c_seconds;  // read off the seed's figure 3 (N = 8) and figure 4 (D = 3) data
};

const std::vector<Case> cases = {
    {3, 8, 0, 0.000713},  {4, 8, 0, 0.007956},  {5, 8, 0, 0.092179},  {6, 8, 0, 1.083580},
    {7, 8, 0, 10.814357}, {3, 16, 0, 0.009936}, {3, 32, 0, 0.150162}, {3, 64, 0, 2.303391},
    {3, 8, 0.00125, 0.034946},  {4, 8, 0.00125, 0.357174},  {5, 8, 0.00125, 4.944761},
    {6, 8, 0.00125, 59.704557}, {7, 8, 0.00125, 708.228994}, {3, 16, 0.00125, 0.653419},
    {3, 32, 0.00125, 17.629337}, {3, 64, 0.00125, 520.33422},
};

// Read + write bandwidth of a plain copy of a buffer far larger than the caches.
double copy_bandwidth() {
  const std::size_t bytes = std::size_t{512} << 20;
  std::vector<char> src(bytes, 1), dst(bytes, 0);
  std::vector<double> times;
  for (int r = 0; r < 5; ++r) times.push_back(wall_seconds([&] { std::memcpy(dst.data(), src.data(), bytes); }));
  return 2.0 * static_cast<double>(bytes) / median(times);
}

// One group pass alone on this tensor: bytes read + written per second.
double group_pass_bandwidth(HostTensor<float> tensor) {
  RandomStream random(3);
  GroupRotations<float> group(tensor.order(), round_robin_schedule(tensor.size())[0]);
  for (auto& g : group.rotations) {
    const double phi = random.uniform();
    g = {static_cast<float>(std::cos(phi)), static_cast<float>(std::sin(phi))};
  }
  const int passes = std::max(5, static_cast<int>((std::size_t{1} << 26) / tensor.count()));
  std::vector<double> times;
  for (int r = 0; r < 5; ++r)
    times.push_back(wall_seconds([&] {
      for (int k = 0; k < passes; ++k) apply_group_pass(tensor, group, 0);
    }) / passes);
  return 2.0 * static_cast<double>(tensor.count() * sizeof(float)) / median(times);
}

}  // namespace

int main(int argc, char** argv) {
  std::string out_path;
  int repeats = 5;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--repeats") == 0 && i + 1 < argc) repeats = std::atoi(argv[++i]);
    else if (argv[i][0] == '-') {
      std::fprintf(stderr, "usage: cpu_bench [OUT.json] [--repeats K]\n");
      return 2;
    } else out_path = argv[i];
  }
  const double copy_bw = copy_bandwidth();
  nlohmann::json results = nlohmann::json::array();
  std::printf("CPU: %u hardware threads; memcpy read+write bandwidth %.1f GB/s\n",
              std::thread::hardware_concurrency(), copy_bw / 1e9);
  std::printf("%-3s %-4s %-8s %-7s %-11s %-11s %-9s %-9s %-10s %-9s\n", "D", "N", "eta", "sweeps", "seconds",
              "paper_C_s", "speedup", "off_rel", "pass_GB/s", "of_copy");
  for (const auto& c : cases) {
    GeneratorOptions g;
    g.order = c.order;
    g.size = c.size;
    g.seed = 2026;
    const auto tensor = generate_diagonalizable<float>(g).tensor;
    Options options;
    options.max_sweeps = 10;
    options.eta = c.eta;
    options.tol = 1e-300;  // run all 10 sweeps, as the paper measured
    options.stall_tol = 0;
    std::vector<double> times;
    Result<float> result;
    for (int r = 0; r < repeats; ++r) {
      result = diagonalize(tensor, options);
      times.push_back(result.timings.sweeps_seconds);
    }
    const double t = median(times);
    const double pass_bw = group_pass_bandwidth(tensor);
    std::printf("%-3d %-4d %-8g %-7d %-11.5f %-11.5f %-9.1f %-9.1e %-10.1f %-9.2f\n", c.order, c.size, c.eta,
                result.sweeps(), t, c.paper_c_seconds, c.paper_c_seconds / t, result.history.back().off_rel,
                pass_bw / 1e9, pass_bw / copy_bw);
    results.push_back({{"order", c.order}, {"size", c.size}, {"eta", c.eta}, {"dtype", "float32"},
                       {"sweeps", result.sweeps()}, {"seconds_median", t}, {"seconds_all", times},
                       {"paper_c_seconds", c.paper_c_seconds}, {"speedup_vs_paper_c", c.paper_c_seconds / t},
                       {"final_off_rel", result.history.back().off_rel}, {"group_pass_bytes_per_second", pass_bw},
                       {"group_pass_fraction_of_copy", pass_bw / copy_bw}, {"device", result.device}});
  }
  if (!out_path.empty()) {
    std::ofstream out(out_path);
    out << nlohmann::json{{"copy_bandwidth_bytes_per_second", copy_bw}, {"results", results}}.dump(2) << "\n";
  }
  return 0;
}
