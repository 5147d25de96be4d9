#include "cli/demo_command.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <functional>
#include <string>
#include <vector>

#include "runtime/diagonalize.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/verification.hpp"
#include "runtime/algorithm/stop_summary.hpp"

namespace tensordiag::cli {

namespace {

// Small enough to finish well under a second on one core, large enough to take a few sweeps.
constexpr int demo_order = 5;
constexpr int demo_size = 8;
constexpr std::uint64_t demo_seed = 2024;

std::vector<double> sorted_magnitudes(std::vector<double> values) {
  for (double& value : values) value = std::abs(value);
  std::sort(values.begin(), values.end(), std::greater<>());
  return values;
}

std::vector<double> core_diagonal(const runtime::HostTensor<double>& core) {
  std::vector<double> diagonal(static_cast<std::size_t>(core.size()));
  for (std::size_t i = 0; i < diagonal.size(); ++i)
    diagonal[i] = core.data()[static_cast<std::ptrdiff_t>(i) * core.diagonal_stride()];
  return diagonal;
}

void print_history(const std::vector<runtime::SweepRecord>& history) {
  std::printf("  sweep  off_rel    ||diag C||^2      seconds\n");
  for (const runtime::SweepRecord& record : history)
    std::printf("  %5d  %.3e  %.10e  %.4f\n", record.sweep, record.off_rel, record.diag_norm2,
                record.seconds);
}

// The diagonal is recovered up to sign and order (DESIGN.md section 1): compare sorted magnitudes.
void print_diagonals(const std::vector<double>& recovered, const std::vector<double>& truth) {
  std::printf("  |C[i,..,i]| recovered   |S[i,..,i]| true\n");
  double largest_difference = 0.0;
  for (std::size_t i = 0; i < truth.size(); ++i) {
    std::printf("  %22.15f  %17.15f\n", recovered[i], truth[i]);
    largest_difference = std::max(largest_difference, std::abs(recovered[i] - truth[i]));
  }
  std::printf("  largest difference %.2e\n", largest_difference);
}

}  // namespace

CLI::App* add_demo_command(CLI::App& app) {
  return app.add_subcommand(
      "demo", "Generate a diagonalizable tensor (order " + std::to_string(demo_order) + ", size " +
                  std::to_string(demo_size) + ", float64, seed " + std::to_string(demo_seed) +
                  "),\ndiagonalize it and print the sweeps, the recovered diagonal next\n"
                  "to the true one, and the errors.");
}

int run_demo() {
  runtime::GeneratorOptions generator;
  generator.order = demo_order;
  generator.size = demo_size;
  generator.seed = demo_seed;
  const runtime::GeneratedTensor<double> generated =
      runtime::generate_diagonalizable<double>(generator);
  runtime::Options options;
  options.verify = true;
  const runtime::Result<double> result = runtime::diagonalize(generated.tensor, options);
  const runtime::Verification& verification = result.verification.value();

  std::printf("tensordiag demo\n"
              "  T = S x_1 Q_1 ... x_%d Q_%d: S diagonal, Q_n random orthogonal (seed %llu),\n"
              "  order %d, size %d, float64. Find orthogonal M_n and C with T = C x_1 M_1 ... "
              "x_%d M_%d,\n"
              "  C as diagonal as possible: rule %s on %s.\n\n",
              demo_order, demo_order, static_cast<unsigned long long>(demo_seed), demo_order,
              demo_size, demo_order, demo_order, result.rule.c_str(), result.device.c_str());
  print_history(result.history);
  std::printf("  %s, %.3f s in all\n\n", runtime::stop_summary(result).c_str(),
              result.timings.total_seconds);
  print_diagonals(sorted_magnitudes(core_diagonal(result.core)),
                  sorted_magnitudes(generated.diagonal));
  std::printf("\n  reconstruction error ||T - C x_1 M_1 ... x_%d M_%d|| / ||T||  %.2e\n"
              "  orthogonality error  max_n ||M_n^T M_n - I||              %.2e\n",
              demo_order, demo_order, verification.reconstruction_error,
              verification.orthogonality_error);
  return 0;
}

}  // namespace tensordiag::cli
