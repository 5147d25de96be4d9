// The pivot check's bounds on the CPU engine (issue 15 item 2): planted float64 tensors
// (runtime/algorithm/generator, seed 2026), eta = 0.00125, a fixed number of sweeps; prints per
// shape the mode checks, how many the column bounds alone decided (the bounds before the power
// steps and the gram test: the same run, since every verdict is the exact norm's), how many gram
// tests ran, and how many checks still needed the exact norm.
//   usage: pivot_bounds_bench [--sweeps K] [--eta X] [DxN ...]   (default 3x32 3x64 3x128 6x8 9x8)
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "runtime/algorithm/generator.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;

int main(int argc, char** argv) {
  int sweeps = 3;
  double eta = 0.00125;
  std::vector<std::pair<int, int>> shapes;
  for (int i = 1; i < argc; ++i) {
    int order = 0, size = 0;
    if (std::strcmp(argv[i], "--sweeps") == 0 && i + 1 < argc) sweeps = std::atoi(argv[++i]);
    else if (std::strcmp(argv[i], "--eta") == 0 && i + 1 < argc) eta = std::atof(argv[++i]);
    else if (std::sscanf(argv[i], "%dx%d", &order, &size) == 2) shapes.emplace_back(order, size);
    else {
      std::fprintf(stderr, "usage: pivot_bounds_bench [--sweeps K] [--eta X] [DxN ...]\n");
      return 2;
    }
  }
  if (shapes.empty()) shapes = {{3, 32}, {3, 64}, {3, 128}, {6, 8}, {9, 8}};
  std::printf("| D x N | mode checks | column bounds open (before) | gram tests | exact norms (after) | seconds |\n");
  std::printf("|---|---|---|---|---|---|\n");
  for (const auto& [order, size] : shapes) {
    GeneratorOptions generate;
    generate.order = order;
    generate.size = size;
    generate.seed = 2026;
    const auto planted = generate_diagonalizable<double>(generate);
    Options options;
    options.backend = Backend::cpu;
    options.eta = eta;
    options.max_sweeps = sweeps;
    options.tol = 0.0;
    options.stall_tol = 0.0;
    const auto start = std::chrono::steady_clock::now();
    const auto result = diagonalize(planted.tensor, options);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    const PivotCheckCount c = result.pivot_checks.value_or(PivotCheckCount{});
    const auto share = [&](long long k) { return c.checks > 0 ? 100.0 * static_cast<double>(k) / static_cast<double>(c.checks) : 0.0; };
    std::printf("| %d x %d | %lld | %lld (%.1f%%) | %lld | %lld (%.1f%%) | %.2f |\n", order, size, c.checks,
                c.checks - c.by_columns, share(c.checks - c.by_columns), c.gram_tests, c.exact_norms,
                share(c.exact_norms), seconds);
  }
  return 0;
}
