// The searched unitary step of complex symmetric tensors of order >= 4 (issue 11, item 3;
// runtime/algorithm/symmetric_unitary_search.hpp), on the CPU: the time of one step on random pivot
// values (t_0 and t_D complex Gaussian, the others scaled by `off`: 1 for a pivot far from
// converged, small for a converging one), the median over 50 pivots of each, one thread; then
// whole runs of planted complex128 symmetric tensors with noise 1e-3 (stopped by the noise's
// stall), sweeps and reconstruction. Prints Markdown tables.
//   usage: symmetric_search_bench [D ...]   (default 4 5 6 8 10)
#include <algorithm>
#include <complex>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "bench/statistics.hpp"
#include "runtime/algorithm/complex_generator.hpp"
#include "runtime/algorithm/symmetric_unitary_search.hpp"
#include "runtime/diagonalize_complex.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::bench;

int main(int argc, char** argv) {
  std::vector<int> orders;
  for (int i = 1; i < argc; ++i) orders.push_back(std::atoi(argv[i]));
  if (orders.empty()) orders = {4, 5, 6, 8, 10};
  std::printf("| D | off | ms a step (median of 50) | slowest |\n|---|---|---|---|\n");
  std::mt19937_64 random(2026);
  std::normal_distribution<double> gauss;
  for (const int order : orders)
    for (const double off : {1.0, 1e-2, 1e-6}) {
      std::vector<double> times;
      for (int trial = 0; trial < 50; ++trial) {
        std::vector<std::complex<double>> t;
        for (int k = 0; k <= order; ++k)
          t.push_back((k == 0 || k == order ? 1.0 : off) * std::complex<double>(gauss(random), gauss(random)));
        times.push_back(wall_seconds([&] { (void)symmetric_unitary_search(t); }));
      }
      std::printf("| %d | %g | %.3f | %.3f |\n", order, off, 1e3 * median(times),
                  1e3 * *std::max_element(times.begin(), times.end()));
    }
  std::printf("\n| D x N | sweeps | stop | seconds (sweeps) | off_rel | reconstruction |\n|---|---|---|---|---|---|\n");
  for (const auto& [order, size] : {std::pair{4, 8}, {4, 16}, {5, 8}, {6, 6}, {8, 3}, {10, 2}}) {
    GeneratorOptions g;
    g.order = order;
    g.size = size;
    g.seed = 3;
    g.noise = 1e-3;
    g.structure = Structure::symmetric;
    const auto planted = generate_complex_diagonalizable<double>(g);
    Options options;
    options.backend = Backend::cpu;
    options.structure = Structure::symmetric;
    options.verify = true;
    const auto result = diagonalize_complex(planted.tensor, options);
    std::printf("| %d x %d | %d | %s | %.4f | %.2e | %.2e |\n", order, size, result.sweeps(),
                std::string(to_string(result.stop_reason)).c_str(), result.timings.sweeps_seconds,
                result.history.back().off_rel, result.verification->reconstruction_error);
  }
  return 0;
}
