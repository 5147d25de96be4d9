// Packed symmetric storage against full storage on the CPU (issue 11, item 1): the same planted
// symmetric tensor (float64, noise 1e-2), up to 10 sweeps (tol 0, stall_tol 0: a run still stops
// "stalled" when rounding lowers ||diag C||^2, so the sweeps done are printed), by the packed engine and, where the
// N^D tensor fits the given budget, by the full symmetric engine; the bytes each holds, the
// verification's time and memory. Each time is the median of 3 runs (1 where a run takes over
// 5 s): this 2-core machine's times vary up to 2x from run to run. Prints a Markdown table.
//   usage: packed_symmetric_bench [--full-budget-mb M] [DxN ...]   (default shapes below)
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "bench/forced_sweeps.hpp"
#include "bench/packed_cases.hpp"
#include "bench/statistics.hpp"
#include "runtime/algorithm/packed_transform.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_packed.hpp"

using namespace tensordiag::runtime;
using namespace tensordiag::bench;

namespace {

double mb(double bytes) { return bytes / 1e6; }

// The median of 3 timed runs of f, or the first alone when it took over 5 s.
template <class F>
double median_seconds(F&& f) {
  return median_of_three_below_5([&f] { return wall_seconds(f); });
}

}  // namespace

int main(int argc, char** argv) {
  double full_budget_mb = 600;
  std::vector<PackedShape> shapes;
  for (int i = 1; i < argc; ++i) {
    if (std::strcmp(argv[i], "--full-budget-mb") == 0 && i + 1 < argc) full_budget_mb = std::atof(argv[++i]);
    else if (!parse_packed_shape(argv[i], shapes)) {
      std::fprintf(stderr, "usage: packed_symmetric_bench [--full-budget-mb M] [DxN ...]\n");
      return 2;
    }
  }
  if (shapes.empty()) shapes = default_packed_shapes({24, 2});
  Options options = tensordiag::bench::forced_sweeps(10);
  options.backend = Backend::cpu;
  std::printf("| D x N | distinct entries | packed MB | full MB | packed s (sweeps) | full s (sweeps) | "
              "ms a sweep (packed / full) | "
              "off_rel at the end (packed / full) | verification s | verification MB | reconstruction error |\n");
  std::printf("|---|---|---|---|---|---|---|---|---|---|---|\n");
  for (const PackedShape shape : shapes) {
    const PackedSymmetricTensor<double> tensor = planted_packed_case<double>(shape);
    PackedResult<double> packed;
    const double packed_seconds = median_seconds([&] { packed = diagonalize_packed(tensor, options); });
    const double full_bytes = static_cast<double>(sizeof(double)) * std::pow(shape.size, shape.order);
    std::string full_seconds = "(not run)", full_off = "", per_sweep = fixed(1e3 * packed_seconds / packed.run.sweeps(), "%.3g");
    if (mb(full_bytes) <= full_budget_mb) {
      const HostTensor<double> full = unpack_symmetric(tensor);
      Options symmetric = options;
      symmetric.structure = Structure::symmetric;
      Result<double> result;
      const double seconds = median_seconds([&] { result = diagonalize(full, symmetric); });
      full_seconds = fixed(seconds) + " (" + std::to_string(result.sweeps()) + ")";
      per_sweep += " / " + fixed(1e3 * seconds / result.sweeps(), "%.3g");
      full_off = " / " + fixed(result.history.back().off_rel, "%.3e");
    }
    std::string verification_seconds = "(over budget)", error = "";
    const std::size_t verification_bytes = packed_transform_bytes(shape.order, shape.size);
    if (verification_bytes <= max_packed_verification_bytes && verification_bytes < (std::size_t{4} << 30)) {
      double e = 0;
      verification_seconds = fixed(median_seconds(
          [&] { e = packed_reconstruction_error(tensor, packed.core, packed.run.factors.front(), 0); }));
      error = fixed(e, "%.2e");
    }
    std::printf("| %d x %d | %zu | %.3f | %.1f | %.3f (%d) | %s | %s | %s%s | %s | %.1f | %s |\n", shape.order,
                shape.size, tensor.count(), mb(static_cast<double>(tensor.count() * sizeof(double))), mb(full_bytes),
                packed_seconds, packed.run.sweeps(), full_seconds.c_str(), per_sweep.c_str(), fixed(packed.run.history.back().off_rel, "%.3e").c_str(),
                full_off.c_str(), verification_seconds.c_str(),
                mb(static_cast<double>(verification_bytes)), error.c_str());
    std::fflush(stdout);
  }
  return 0;
}
