// An N = 2 tensor over GPU ranks (runtime/distributed/gpu_qubit_ranks.hpp): the same sweeps as the
// one-GPU qubit path. The reductions summed across two or four ranks are whole shares of the
// one-GPU reductions (the plans at these orders have 16 shares or more), so the accumulated
// rotations (the factors) and the corners a, d of every sweep are the one-GPU engine's bit for bit; the core, rotated mode by mode in another order, within a few
// units in the last place (float64 1e-12, float32 1e-5 relative). One GPU rank is the one-GPU
// engine bit for bit, core included. Skipped without the devices.
#include <doctest/doctest.h>

#include <bit>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "gpu_rank_threads.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/engines/gpu_qubit_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::assembled;
using tensordiag::testing::device_count;
using tensordiag::testing::exact_sweeps;
using tensordiag::testing::on_gpu_ranks;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

template <class T>
constexpr double core_tolerance = sizeof(T) == 4 ? 1e-5 : 1e-12;

// `ranks` GPU ranks against the one-GPU qubit engine, three sweeps of `rule`.
template <class T>
void check_ranks_equal_one_gpu(int ranks, int order, Layout layout, const std::string& rule, unsigned seed) {
  CAPTURE(ranks);
  CAPTURE(order);
  CAPTURE(layout == Layout::c_order);
  CAPTURE(rule);
  const auto tensor = random_tensor<T>(order, 2, seed, layout);
  const Options options = exact_sweeps(rule, 3);
  const auto parts = on_gpu_ranks<T>(ranks, [&](DeviceCommunicator& comm) {
    return diagonalize_distributed(tensor, options, comm);
  });
  REQUIRE(parts.size() == static_cast<std::size_t>(ranks));
  const EngineRun run{RunSettings{StopCriteria{3, 0.0, 0.0}, 0.0, 1, {}}, codegen::lower_builtin_rule(rule)};
  const Result<T> one = run_gpu_qubit_engine(tensor, run);
  REQUIRE(one.sweeps() == 3);
  for (const auto& part : parts) {
    CHECK(part.run.engine == "cuda_distributed");
    REQUIRE(part.run.sweeps() == 3);
    for (std::size_t n = 0; n < one.factors.size(); ++n) CHECK(part.run.factors[n].data == one.factors[n].data);
    for (int k = 1; k <= 3; ++k) {
      CHECK(part.run.history[k].diag_norm2 == one.history[k].diag_norm2);
      CHECK(part.run.history[k].trace == one.history[k].trace);
      // off_rel divides by off(T), summed over the ranks in another order.
      CHECK(part.run.history[k].off_rel == doctest::Approx(one.history[k].off_rel).epsilon(1e-12));
    }
  }
  const HostTensor<T> core = assembled(parts, order, 2, layout);
  if (ranks == 1) {
    CHECK(core.values() == one.core.values());
  } else {
    CHECK(relative_difference(core.values(), one.core.values()) <= core_tolerance<T>);
    // Two swaps of half a slab for each of the log2(P) split modes.
    const auto split = static_cast<std::size_t>(std::countr_zero(static_cast<unsigned>(ranks)));
    for (const auto& part : parts)
      CHECK(part.distribution.bytes_sent == split * tensor.count() / static_cast<std::size_t>(ranks) * sizeof(T));
  }
  // Real work was compared: the sweeps moved the core far from the input.
  CHECK(relative_difference(core.values(), tensor.values()) > 1e-2);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE_TEMPLATE("an N = 2 tensor on two GPU ranks: the one-GPU qubit path's rotations bit for bit, its core to "
                     "rounding", T, float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    const int order = sizeof(T) == 4 ? 20 : 18;
    check_ranks_equal_one_gpu<T>(2, order, Layout::c_order, "max_diag", 7100u);
    check_ranks_equal_one_gpu<T>(2, order + 1, Layout::fortran_order, "max_diag", 7101u);
    check_ranks_equal_one_gpu<T>(2, order + 2, Layout::c_order, "max_trace", 7102u);
  }

  TEST_CASE_TEMPLATE("an N = 2 tensor on four GPU ranks: the one-GPU qubit path's rotations bit for bit, its core to "
                     "rounding", T, float, double) {
    if (device_count() < 4) {
      MESSAGE("skipped: fewer than four CUDA devices");
      return;
    }
    const int order = sizeof(T) == 4 ? 20 : 18;
    check_ranks_equal_one_gpu<T>(4, order, Layout::c_order, "max_diag", 7110u);
    check_ranks_equal_one_gpu<T>(4, order + 1, Layout::fortran_order, "max_diag", 7111u);
    check_ranks_equal_one_gpu<T>(4, order + 3, Layout::c_order, "max_trace", 7112u);
  }

  TEST_CASE("an N = 2 tensor on three GPU ranks is refused, with one line on every rank") {
    if (device_count() < 3) {
      MESSAGE("skipped: fewer than three CUDA devices");
      return;
    }
    const auto tensor = random_tensor<float>(20, 2, 7310u, Layout::c_order);
    std::string error;
    on_gpu_ranks<float>(3, [&](DeviceCommunicator& comm) {
      return diagonalize_distributed(tensor, exact_sweeps("max_diag", 2), comm);
    }, &error);
    CHECK(error.find("a power of two of GPU ranks (1, 2, 4, ..), not 3") != std::string::npos);
  }

  TEST_CASE_TEMPLATE("an N = 2 tensor on one GPU rank is the one-GPU qubit path, bit for bit", T, float, double) {
    if (device_count() < 1) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    const int order = sizeof(T) == 4 ? 20 : 18;
    check_ranks_equal_one_gpu<T>(1, order, Layout::fortran_order, "max_diag", 7200u);
    check_ranks_equal_one_gpu<T>(1, order + 1, Layout::c_order, "max_trace", 7201u);
  }

  TEST_CASE("an N = 2 tensor on GPU ranks takes the pivot check below eta = 1.5 (the run without it, bit for bit), "
            "and refuses it above with one line on every rank") {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    const auto tensor = random_tensor<float>(20, 2, 7300u, Layout::c_order);
    Options options = exact_sweeps("max_diag", 2);
    const auto run = [&] {
      return on_gpu_ranks<float>(2, [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, options, comm); });
    };
    const auto plain = run();
    options.eta = 0.01;
    const auto checked = run();
    REQUIRE(checked.size() == 2);
    for (int r = 0; r < 2; ++r) {
      CHECK(checked[r].core.values == plain[r].core.values);
      for (std::size_t n = 0; n < plain[r].run.factors.size(); ++n)
        CHECK(checked[r].run.factors[n].data == plain[r].run.factors[n].data);
      REQUIRE(checked[r].run.pivot_checks.has_value());
      CHECK(checked[r].run.pivot_checks->checks == 2LL * 20);
    }
    options.eta = 2.5;
    std::string error;
    on_gpu_ranks<float>(2, [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, options, comm); },
                        &error);
    CHECK(error.find("takes the pivot check where it accepts every rotation, eta < 1.5") != std::string::npos);
  }
}
