// A rotation rule of your own, in one line of the DSL, run by the CPU engine as it is.
//
// max_l1 maximizes the l1 norm of the diagonal, sum_i |C[i, .., i]|, instead of max_diag's sum of
// squares. In a micro-iteration on pair (p, q) of mode n the new diagonal entries are
// a c + b s and d c - e s (a = C[p..p], d = C[q..q], b and e the entries one index away, DESIGN.md
// section 2); while neither changes sign, |a c + b s| + |d c - e s| is the objective below, linear in
// (c, s), so the DSL derives its maximizer in closed form at compile time: phi = atan2(y, x) with
// (x, y) its coefficients of c and s. The CPU engine takes the rule as a template argument, and the
// code generator emits the same rule into the CUDA kernels: the example prints the source of the
// pivot_angles kernels for max_l1 and compiles it with NVRTC for sm_90 (no GPU needed).
//
// sum_i |C[i..i]| never falls: the rotation keeps the other diagonal entries, and its maximum of the
// objective is >= its value at phi = 0, |a| + |d|, while |x| >= sign(a) x makes the new
// |a c + b s| + |d c - e s| at least that maximum.
//
// Checks (non-zero exit otherwise): the generated source names max_l1 and compiles to a cubin with
// every kernel its header lists; on a diagonalizable tensor, max_l1 reaches off_rel < 1e-10 and
// recovers the generator's diagonal up to sign and order; on a noisy one, sum_i |C[i..i]| does not
// fall from sweep to sweep.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <string>
#include <vector>

#include "codegen/kernel_source.hpp"
#include "codegen/lower_rule.hpp"
#include "dsl/builtin_rules.hpp"
#include "runtime/engines/cpu_engine.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"

namespace {

using namespace tensordiag;
using namespace tensordiag::dsl::pivot;  // a, b, d, e, c, s

constexpr auto max_l1 = dsl::objective_rule("max_l1", sign(a) * (a * c + b * s) + sign(d) * (d * c - e * s));

// |C[i, .., i]|, i = 0..N-1.
std::vector<double> abs_diagonal(const runtime::HostTensor<double>& core) {
  std::vector<double> values;
  for (int i = 0; i < core.size(); ++i)
    values.push_back(std::abs(core.values()[static_cast<std::size_t>(i * core.diagonal_stride())]));
  return values;
}

double diagonal_l1(const runtime::HostTensor<double>& core) {
  const auto values = abs_diagonal(core);
  return std::accumulate(values.begin(), values.end(), 0.0);
}

template <class Rule>
runtime::Result<double> run(const Rule& rule, const runtime::HostTensor<double>& tensor) {
  const runtime::RunSettings settings{runtime::StopCriteria{50, 1e-12, 1e-13}, 0.0, 0, {}};
  return runtime::run_cpu_engine(tensor, rule, settings);
}

}  // namespace

int main() {
  std::printf("rule:          %s\n", dsl::describe(max_l1).c_str());
  std::printf("derived angle: %s\n\n", dsl::to_string(max_l1.rotation).c_str());

  // The rule in CUDA: every pair's angles in all modes of an order-4, size-8 float32 tensor.
  const codegen::KernelSpec spec = codegen::make_kernel_spec(codegen::KernelKind::pivot_angles, 4, 8,
                                                             codegen::ScalarType::float32, dsl::Layout::c_order, max_l1);
  const std::string source = codegen::kernel_source(spec);
  std::printf("---- %s ----\n%s---- end of %s ----\n\n", codegen::program_name(spec).c_str(), source.c_str(),
              codegen::program_name(spec).c_str());
  const runtime::Cubin cubin = runtime::compile_cubin(source, codegen::program_name(spec), {}, "sm_90");
  std::printf("NVRTC, sm_90: %zu bytes of cubin, kernels", cubin.image.size());
  for (const runtime::KernelResources& kernel : cubin.kernels)
    std::printf(" %s (%d registers)", kernel.name.c_str(), kernel.registers.value_or(-1));
  std::printf("\n\n");
  bool ok = source.find("//   rule      " + dsl::describe(max_l1) + "\n") != std::string::npos &&
            cubin.kernels.size() == codegen::kernel_entries(spec).size();

  runtime::GeneratorOptions options;
  options.order = 4;
  options.size = 8;
  options.seed = 7;
  const auto generated = runtime::generate_diagonalizable<double>(options);
  const auto l1 = run(max_l1, generated.tensor);
  const auto squares = run(dsl::rules::max_diag, generated.tensor);

  std::printf("order 4, size 8, diagonalizable: off_rel per sweep\n%5s  %-12s %-12s\n", "sweep", "max_l1", "max_diag");
  for (std::size_t k = 0; k < std::max(l1.history.size(), squares.history.size()); ++k) {
    auto column = [k](const auto& result) {
      char text[32] = "";
      if (k < result.history.size()) std::snprintf(text, sizeof text, "%.3e", result.history[k].off_rel);
      return std::string(text);
    };
    std::printf("%5zu  %-12s %-12s\n", k, column(l1).c_str(), column(squares).c_str());
  }
  std::printf("max_l1: %d sweeps, %s; sum |C[i..i]| = %.12f (max_diag's: %.12f)\n", l1.sweeps(),
              std::string(runtime::to_string(l1.stop_reason)).c_str(), diagonal_l1(l1.core), diagonal_l1(squares.core));

  ok = ok && l1.history.back().off_rel < 1e-10;
  std::vector<double> expected;
  for (const double value : generated.diagonal) expected.push_back(std::abs(value));
  std::sort(expected.begin(), expected.end());
  auto recovered = abs_diagonal(l1.core);
  std::sort(recovered.begin(), recovered.end());
  for (std::size_t i = 0; i < expected.size(); ++i) ok = ok && std::abs(recovered[i] - expected[i]) < 1e-10;

  // Climbing: sum |C[i..i]| after each sweep, on a tensor that is not diagonalizable.
  options.noise = 0.3;
  const auto noisy = runtime::generate_diagonalizable<double>(options).tensor;
  runtime::HostTensor<double> core = noisy;
  double before = diagonal_l1(core);
  std::printf("\norder 4, size 8, noise 0.3: sum |C[i..i]| per sweep\n%5d  %.12f\n", 0, before);
  for (int sweep = 1; sweep <= 8; ++sweep) {
    for (const auto& pairs : runtime::round_robin_schedule(core.size())) runtime::group_step(core, pairs, max_l1, 0.0, 0);
    const double now = diagonal_l1(core);
    std::printf("%5d  %.12f\n", sweep, now);
    ok = ok && now >= before - 1e-12 * before;
    before = now;
  }
  std::printf("\n%s\n", ok ? "all checks passed" : "FAILED: see the figures above");
  return ok ? 0 : 1;
}
