// The engine table diagonalize() picks from (runtime/engines/engine.hpp): its order, what each
// engine declines and why, and that a CPU run through it is the CPU engine's run with the rule of
// the registry.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <span>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "dsl/builtin_rules.hpp"
#include "planted_symmetric.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/engines/cpu_engine.hpp"
#include "runtime/engines/engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

EngineRun run_with(double eta, std::function<bool(const SweepRecord&)> on_sweep = {}) {
  return {RunSettings{StopCriteria{20, 1e-12, 1e-13}, eta, 1, std::move(on_sweep)},
          codegen::lower_builtin_rule("max_diag")};
}

const Engine<double>& engine_named(std::string_view name) {
  const auto table = engines<double>();
  const auto found = std::find_if(table.begin(), table.end(), [&](const auto& engine) { return engine.name == name; });
  REQUIRE(found != table.end());
  return *found;
}

}  // namespace

TEST_CASE("the engine table: the one-block path first on the GPU, and each backend has an engine for an ordinary run") {
  std::vector<std::string> names;
  for (const auto& engine : engines<double>()) names.emplace_back(engine.name);
  CHECK(names == std::vector<std::string>{"cuda_one_block", "cuda_qubit", "cuda", "cpu_packed", "cpu"});
  const auto tensor = random_tensor<double>(9, 4, 3);  // 262144 entries: no one-block path
  for (const Backend backend : {Backend::cuda, Backend::cpu}) {
    CAPTURE(to_string(backend));
    bool taken = false;
    for (const auto& engine : engines<double>())
      if (engine.backend == backend && !engine.declines(tensor, 1, run_with(0.01))) taken = true;
    CHECK(taken);
  }
}

TEST_CASE("the one-block engine declines the pivot check, a callback, a large single tensor, a tensor over a block and a history over its budget, saying why") {
  const Engine<double>& one_block = engine_named("cuda_one_block");
  const auto small = random_tensor<double>(3, 6, 1);  // 216 entries
  CHECK_FALSE(one_block.declines(small, 1, run_with(0.0)));
  CHECK_FALSE(one_block.declines(small, 64, run_with(0.0)));
  CHECK(one_block.declines(small, 1, run_with(0.01)).value() == "the one-block path has no pivot check");
  CHECK(one_block.declines(small, 1, run_with(0.0, [](const SweepRecord&) { return false; })).value() ==
        "the one-block path reports only when the whole run ends");
  const auto mid = random_tensor<double>(3, 12, 2);  // 1728 entries: a batch fits a block, one tensor is faster apart
  CHECK(one_block.declines(mid, 1, run_with(0.0)).value().find("runs faster on the general path") != std::string::npos);
  CHECK_FALSE(one_block.declines(mid, 8, run_with(0.0)));
  const auto large = random_tensor<double>(4, 16, 3);  // 512 KiB: over one block's shared memory
  CHECK(one_block.declines(large, 8, run_with(0.0)).value().find("shared memory") != std::string::npos);
  // Every sweep's record stays on the device until the launch ends: 24 bytes a sweep a tensor.
  EngineRun many_sweeps = run_with(0.0);
  many_sweeps.settings.stop.max_sweeps = 2147483647;
  CHECK(one_block.declines(small, 1, many_sweeps).value() ==
        "the one-block path keeps every sweep's figures on the device: 1 x 2147483648 records are over its 256 MiB");
  many_sweeps.settings.stop.max_sweeps = 10000;  // 240 kB a tensor: a batch of 1000 fits, 20000 do not
  CHECK_FALSE(one_block.declines(small, 1000, many_sweeps));
  CHECK(one_block.declines(small, 20000, many_sweeps).value().find("20000 x 10001 records") != std::string::npos);
}

TEST_CASE("a CPU run through diagonalize() is the CPU engine's run with the registry's rule, its property and its threads") {
  const auto tensor = random_tensor<double>(4, 5, 11);
  Options options;
  options.backend = Backend::cpu;
  options.rule = "max_trace";
  options.max_sweeps = 6;
  options.threads = 1;
  const auto through_table = diagonalize(tensor, options);
  const auto direct = run_cpu_engine(tensor, dsl::rules::max_trace,
                                     RunSettings{StopCriteria{6, 1e-12, 1e-13, dsl::StallFigure::trace}, 0.0, 1, {}});
  CHECK(through_table.core.values() == direct.core.values());
  REQUIRE(through_table.history.size() == direct.history.size());
  for (std::size_t s = 0; s < direct.history.size(); ++s) CHECK(through_table.history[s].off_rel == direct.history[s].off_rel);
  CHECK(through_table.stop_reason == direct.stop_reason);
  CHECK(through_table.stalls_on == dsl::StallFigure::trace);
  CHECK(through_table.device.find("(1 threads)") != std::string::npos);
}

TEST_CASE("the general GPU engine declines the shapes its kernels cannot serve, with codegen's reason") {
  const Engine<float>* general = nullptr;
  for (const auto& engine : engines<float>())
    if (engine.name == "cuda") general = &engine;
  REQUIRE(general != nullptr);
  const EngineRun run{RunSettings{StopCriteria{20, 1e-5, 1e-6}, 0.0, 1, {}}, codegen::lower_builtin_rule("max_diag")};
  // N = 2: a pivot subtensor of 2^13 float32 fits one warp's shared memory, from 2^14 the split
  // angles serve; group_pass's tile of 2 x 2^(D-1) entries fits its registers up to D = 16, the
  // chunked pass serves above.
  for (const int order : {13, 14, 16, 17, 22}) {
    CAPTURE(order);
    CHECK_FALSE(general->declines(HostTensor<float>(order, 2, Layout::c_order), 1, run));
  }
  // The pivot check's angles come from the gather's pivot entries (checked_angles): every order.
  EngineRun checked = run;
  checked.settings.eta = 0.01;
  for (const int order : {13, 14, 17}) {
    CAPTURE(order);
    CHECK_FALSE(general->declines(HostTensor<float>(order, 2, Layout::c_order), 1, checked));
  }
}

TEST_CASE("the qubit engine takes float32 N = 2 from D = 20 and complex64 from D = 18, eta below 1.5, and says why it declines the rest") {
  const auto find = [](auto table) {
    const auto found = std::find_if(table.begin(), table.end(), [](const auto& e) { return e.name == "cuda_qubit"; });
    REQUIRE(found != table.end());
    return *found;
  };
  const Engine<float> qubit32 = find(engines<float>());
  const Engine<double> qubit64 = find(engines<double>());
  const EngineRun run{RunSettings{StopCriteria{20, 1e-5, 1e-6}, 0.0, 1, {}}, codegen::lower_builtin_rule("max_diag")};
  // (Declining reads only the shape, but a HostTensor holds its entries: 2^22 at most here; codegen's
  // tests cover the orders up to 36.)
  for (const int order : {20, 22})
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(order);
      CHECK_FALSE(qubit32.declines(HostTensor<float>(order, 2, layout), 1, run));
    }
  CHECK(qubit32.declines(HostTensor<float>(19, 2, Layout::c_order), 1, run).value().starts_with("qubit_sweep: D = 19 is outside 20..36"));
  CHECK(qubit32.declines(HostTensor<float>(12, 3, Layout::c_order), 1, run).value() == "the qubit path takes N = 2 only");
  CHECK(qubit64.declines(HostTensor<double>(20, 2, Layout::c_order), 1, run).value().find("float32 and complex64 only") !=
        std::string::npos);
  // Complex N = 2 (U in SU(2) a mode): complex64 from D = 18 (a row of 2^9 entries), not complex128.
  const auto qubit_complex64 = find(engines<std::complex<float>>());
  const auto qubit_complex128 = find(engines<std::complex<double>>());
  CHECK_FALSE(qubit_complex64.declines(HostTensor<std::complex<float>>(18, 2, Layout::fortran_order), 1, run));
  CHECK(qubit_complex64.declines(HostTensor<std::complex<float>>(17, 2, Layout::c_order), 1, run)
            .value()
            .starts_with("qubit_sweep: D = 17 is outside 18..34"));
  CHECK(qubit_complex128.declines(HostTensor<std::complex<double>>(18, 2, Layout::c_order), 1, run)
            .value()
            .find("float32 and complex64 only") != std::string::npos);
  // The pivot check accepts every rotation of an N = 2 tensor below eta = 2 (qubit_pivot_check.hpp).
  EngineRun checked = run;
  checked.settings.eta = 0.01;
  CHECK_FALSE(qubit32.declines(HostTensor<float>(20, 2, Layout::c_order), 1, checked));
  checked.settings.eta = 1.5;
  CHECK(qubit32.declines(HostTensor<float>(20, 2, Layout::c_order), 1, checked).value() ==
        "the qubit path takes the pivot check where it accepts every rotation of an N = 2 tensor, eta < 1.5");
}

TEST_CASE("--backend cuda on a run the GPU engines decline is one user_error quoting the reason, before any device is asked") {
  // A skew matrix: Paardekooper's steps run on the CPU engine only.
  auto tensor = random_tensor<double>(2, 5, 4);
  const std::vector<double> random = tensor.values();
  for (int i = 0; i < 5; ++i)
    for (int j = 0; j < 5; ++j) tensor.data()[i * 5 + j] = random[i * 5 + j] - random[j * 5 + i];
  Options options;
  options.backend = Backend::cuda;
  options.structure = Structure::skew;
  CHECK_THROWS_WITH_AS(diagonalize(tensor, options),
                       doctest::Contains("the CUDA backend cannot take this tensor: structure skew at order 2"), user_error);
}

TEST_CASE("the CPU's packed route takes symmetric tensors of order >= 5 without the pivot check, and equals the full engine") {
  const Engine<double>& route = engine_named("cpu_packed");
  const auto& cpu = engine_named("cpu");
  EngineRun symmetric = run_with(0.0);
  symmetric.settings.structure = Structure::symmetric;
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    CAPTURE(static_cast<int>(layout));
    const auto truth = tensordiag::testing::planted<double>(6, 4, 61, 0.05, Structure::symmetric, layout);
    CHECK_FALSE(route.declines(truth.tensor, 1, symmetric));
    const Result<double> packed = route.run(std::span<const HostTensor<double>>(&truth.tensor, 1), symmetric).front();
    const Result<double> full = cpu.run(std::span<const HostTensor<double>>(&truth.tensor, 1), symmetric).front();
    // The same rotations in the same group order, to rounding; the core in the input's layout.
    REQUIRE(packed.history.size() == full.history.size());
    for (std::size_t k = 0; k < full.history.size(); ++k)
      CHECK(std::abs(packed.history[k].off_rel - full.history[k].off_rel) <= 1e-12);
    CHECK(packed.core.layout() == layout);
    CHECK(tensordiag::testing::relative_difference(packed.core.values(), full.core.values()) <= 1e-12);
    REQUIRE(packed.factors.size() == 6);
    CHECK(tensordiag::testing::relative_difference(packed.factors.back().data, full.factors.back().data) <= 1e-12);
  }
  // diagonalize() takes it for such a run, and says so.
  Options options;
  options.backend = Backend::cpu;
  options.structure = Structure::symmetric;
  options.verify = true;
  const auto planted = tensordiag::testing::planted<double>(7, 3, 62);
  const Result<double> result = diagonalize(planted.tensor, options);
  CHECK(result.engine == "cpu_packed");
  CHECK(result.converged());
  REQUIRE(result.verification);
  CHECK(result.verification->reconstruction_error <= 30.0 * 7 * 3 * std::numeric_limits<double>::epsilon());
  // What it declines, saying why.
  CHECK_FALSE(route.declines(tensordiag::testing::planted<double>(5, 4, 63).tensor, 1, symmetric));
  const auto order4 = tensordiag::testing::planted<double>(4, 4, 63).tensor;
  CHECK(route.declines(order4, 1, symmetric).value() == "below order 5 full storage is the faster on the CPU");
  CHECK(route.declines(planted.tensor, 1, run_with(0.0)).value() == "it takes structure symmetric");
  const Engine<float>& float_route = *std::find_if(engines<float>().begin(), engines<float>().end(),
                                                   [](const auto& engine) { return engine.name == "cpu_packed"; });
  CHECK(float_route.declines(tensordiag::testing::planted<float>(7, 3, 64).tensor, 1, symmetric).value() ==
        "it was measured in float64 only");
  EngineRun checked = run_with(0.01);
  checked.settings.structure = Structure::symmetric;
  CHECK(route.declines(planted.tensor, 1, checked).value() == "the packed engine has no pivot check");
  EngineRun trace = symmetric;
  trace.rule = codegen::lower_builtin_rule("max_trace");
  CHECK(route.declines(planted.tensor, 1, trace).value() == "the packed engine runs max_diag only");
}

TEST_CASE("complex symmetric tensors from order 4: the one-block engine declines them, the general GPU engine does not") {
  EngineRun run{RunSettings{StopCriteria{20, 1e-12, 1e-13}, 0.0, 1, {}}, codegen::lower_builtin_rule("max_diag")};
  run.settings.structure = Structure::symmetric;
  const HostTensor<std::complex<double>> fourth(4, 3, Layout::c_order);
  const HostTensor<std::complex<double>> third(3, 3, Layout::c_order);
  for (const auto& engine : engines<std::complex<double>>()) {
    CAPTURE(engine.name);
    const auto reason = engine.declines(fourth, 1, run);
    const auto third_reason = engine.declines(third, 1, run);
    if (engine.backend == Backend::cpu) {
      CHECK_FALSE(reason);
    } else if (engine.name == "cuda") {
      // The step runs on the host between its groups: only the machine can stop it (no GPU here).
      if (reason) CHECK(reason->find("searched") == std::string::npos);
    } else {
      REQUIRE(reason);
      // The N = 2 engine has no symmetric step at any order; a one-launch run has no host step.
      CHECK(reason->find(engine.name == "cuda_qubit" ? "structure symmetric runs on the general and one-block engines"
                                                     : "take a step searched on the host between groups") !=
            std::string::npos);
      // Order 3 is the closed form's: any refusal there is another one.
      if (third_reason) CHECK(third_reason->find("searched") == std::string::npos);
    }
  }
}
