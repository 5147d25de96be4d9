// GPU ranks (issue 14): one tensor over NCCL ranks of this process, a thread a rank, each slab in
// its device's memory. Against the CPU's one-rank run of the same group order (float64, 1e-10: the
// GPU pass applies the modes in another order), and against one GPU rank running the same groups
// in one stage: bit for bit, since each entry goes through the same kernels' arithmetic. Skipped
// without a device (or without two, for the two-rank cases).
#include <doctest/doctest.h>

#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "distributed_reference.hpp"
#include "gpu_rank_threads.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "codegen/builtin_rules.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/gpu_slab_engine.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/rank_threads.hpp"
#include "runtime/distributed/row_exchange.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::assembled;
using tensordiag::testing::device_count;
using tensordiag::testing::exact_sweeps;
using tensordiag::testing::on_gpu_ranks;
using tensordiag::testing::random_tensor;
using tensordiag::testing::relative_difference;

namespace {

struct Case {
  int order, size;
  Layout layout;
  const char* rule;
};

// `ranks` GPU ranks against one GPU rank running the same groups in one stage, three sweeps,
// with the pivot check at `eta` (0: none): core and factors bit for bit, and with the check the
// same exact norms. A schedule whose changes of layout cannot swap in place is refused instead.
template <class T>
void check_ranks_equal_one_rank(int ranks, const Case& c, double eta, unsigned seed) {
  CAPTURE(ranks);
  CAPTURE(c.order);
  CAPTURE(c.size);
  const auto tensor = random_tensor<T>(c.order, c.size, seed, c.layout);
  Options options = exact_sweeps(c.rule, 3);
  options.eta = eta;
  const DistributedSchedule many = distributed_schedule(c.size, ranks, options.schedule);
  if (many.stages.size() > 1 && !swaps_in_place(many)) {
    std::string error;
    on_gpu_ranks<T>(ranks, [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, options, comm); },
                    &error);
    CHECK(error.find("GPU ranks swap rows in place") != std::string::npos);
    return;
  }
  const auto parts = on_gpu_ranks<T>(ranks, [&](DeviceCommunicator& comm) {
    return diagonalize_distributed(tensor, options, comm);
  });
  REQUIRE(parts.size() == static_cast<std::size_t>(ranks));
  CHECK(parts[0].distribution.ranks == ranks);
  if (many.stages.size() > 1) CHECK(parts[0].distribution.bytes_sent > 0);
  // One rank, one stage: the many-rank schedule's groups in their order.
  DistributedSchedule one;
  one.size = c.size;
  one.ranks = 1;
  one.kind = many.kind;
  std::vector<int> all(static_cast<std::size_t>(c.size));
  std::iota(all.begin(), all.end(), 0);
  one.stages.push_back(DistributedStage{SlabLayout{{all}}, many.groups()});
  const auto single = on_gpu_ranks<T>(1, [&](DeviceCommunicator& comm) {
    Slab<T> slab{c.order, c.size, c.layout, 0, one.stages.front().layout, tensor.values()};
    RunSettings settings;
    settings.stop = StopCriteria{3, 0.0, 0.0};
    settings.eta = eta;
    return run_gpu_slab_engine(std::move(slab), one, codegen::lower_builtin_rule(c.rule), settings, comm);
  });
  const HostTensor<T> core = assembled(parts, c.order, c.size, c.layout);
  const HostTensor<T> expected = assembled(single, c.order, c.size, c.layout);
  std::size_t differing = 0;
  for (std::size_t k = 0; k < core.count(); ++k) differing += core.data()[k] == expected.data()[k] ? 0 : 1;
  CHECK(differing == 0);
  for (const auto& part : parts) {
    for (std::size_t n = 0; n < part.run.factors.size(); ++n)
      CHECK(part.run.factors[n].data == single[0].run.factors[n].data);
    if (eta > 0) {
      REQUIRE(part.run.pivot_checks.has_value());
      CHECK(part.run.pivot_checks->exact_norms == single[0].run.pivot_checks->exact_norms);
    }
  }
  CHECK(relative_difference(core.values(), tensor.values()) > 1e-2);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("one GPU rank equals the CPU's one-rank run of the same groups (float64, 1e-10)") {
    if (device_count() < 1) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 6, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::c_order, "max_diag"}, Case{6, 8, Layout::fortran_order, "max_diag"},
                          Case{3, 7, Layout::c_order, "max_diag"}}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      const auto tensor = random_tensor<double>(c.order, c.size, 5100u + static_cast<unsigned>(c.order * 31 + c.size), c.layout);
      const Options options = exact_sweeps(c.rule, 3);
      const auto parts = on_gpu_ranks<double>(1, [&](DeviceCommunicator& comm) {
        return diagonalize_distributed(tensor, options, comm);
      });
      REQUIRE(parts.size() == 1);
      CHECK(parts[0].run.engine == "cuda_distributed");
      CHECK(parts[0].run.backend == Backend::cuda);
      const auto groups = distributed_schedule(c.size, 1, options.schedule).groups();
      const Result<double> reference = testing::one_rank_reference(tensor, groups, c.rule, 0.0, 3);
      const HostTensor<double> core = assembled(parts, c.order, c.size, c.layout);
      CHECK(relative_difference(core.values(), reference.core.values()) <= 1e-10);
      for (std::size_t n = 0; n < reference.factors.size(); ++n)
        CHECK(relative_difference(parts[0].run.factors[n].data, reference.factors[n].data) <= 1e-10);
      REQUIRE(parts[0].run.history.size() == reference.history.size());
      for (std::size_t s = 0; s < reference.history.size(); ++s)
        CHECK(parts[0].run.history[s].off_rel == doctest::Approx(reference.history[s].off_rel).epsilon(1e-10));
      // Real work was compared: three sweeps moved the core far from the input.
      CHECK(relative_difference(core.values(), tensor.values()) > 1e-2);
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks equal one GPU rank running the same groups, bit for bit", T, float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 8, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::c_order, "max_diag"}, Case{3, 16, Layout::fortran_order, "max_diag"},
                          Case{7, 4, Layout::c_order, "max_trace"}, Case{4, 6, Layout::c_order, "max_diag"}})
      check_ranks_equal_one_rank<T>(2, c, 0.0, 5200u + static_cast<unsigned>(c.order * 37 + c.size));
  }

  TEST_CASE_TEMPLATE("four GPU ranks equal one GPU rank running the same groups, bit for bit, with and without the "
                     "pivot check", T, float, double) {
    if (device_count() < 4) {
      MESSAGE("skipped: fewer than four CUDA devices");
      return;
    }
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 8, Layout::fortran_order, "max_trace"},
                          Case{3, 16, Layout::fortran_order, "max_diag"}, Case{5, 16, Layout::c_order, "max_diag"},
                          Case{3, 32, Layout::c_order, "max_trace"}}) {
      check_ranks_equal_one_rank<T>(4, c, 0.0, 5600u + static_cast<unsigned>(c.order * 37 + c.size));
      check_ranks_equal_one_rank<T>(4, c, 0.05, 5700u + static_cast<unsigned>(c.order * 41 + c.size));
    }
  }

  TEST_CASE("one GPU rank with the pivot check equals the CPU's one-rank run of the same groups (float64, 1e-10)") {
    if (device_count() < 1) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    constexpr double eta = 0.05;  // rejects a share of the pairs at every size below
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 6, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::fortran_order, "max_diag"}, Case{3, 16, Layout::c_order, "max_diag"},
                          Case{3, 7, Layout::c_order, "max_diag"}}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      const auto tensor = random_tensor<double>(c.order, c.size, 5400u + static_cast<unsigned>(c.order * 29 + c.size), c.layout);
      Options options = exact_sweeps(c.rule, 3);
      options.eta = eta;
      const auto parts = on_gpu_ranks<double>(1, [&](DeviceCommunicator& comm) {
        return diagonalize_distributed(tensor, options, comm);
      });
      REQUIRE(parts.size() == 1);
      const auto groups = distributed_schedule(c.size, 1, options.schedule).groups();
      const Result<double> reference = testing::one_rank_reference(tensor, groups, c.rule, eta, 3);
      const Result<double> unchecked = testing::one_rank_reference(tensor, groups, c.rule, 0.0, 3);
      const HostTensor<double> core = assembled(parts, c.order, c.size, c.layout);
      CHECK(relative_difference(core.values(), reference.core.values()) <= 1e-10);
      for (std::size_t n = 0; n < reference.factors.size(); ++n)
        CHECK(relative_difference(parts[0].run.factors[n].data, reference.factors[n].data) <= 1e-10);
      // The check changed the run: the same groups without it end elsewhere.
      CHECK(relative_difference(core.values(), unchecked.core.values()) > 1e-6);
      REQUIRE(parts[0].run.pivot_checks.has_value());
      CHECK(parts[0].run.pivot_checks->checks == 3LL * static_cast<long long>(groups.size()) * c.order);
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks with the pivot check equal one GPU rank running the same groups, bit for bit", T,
                     float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    // Fortran order slices the last mode: its check reads the earlier modes' rotations of every pair.
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 8, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::fortran_order, "max_diag"}, Case{3, 16, Layout::c_order, "max_diag"}}) {
      REQUIRE((distributed_schedule(c.size, 2, SweepSchedule::automatic).stages.size() == 1 ||
               swaps_in_place(distributed_schedule(c.size, 2, SweepSchedule::automatic))));
      check_ranks_equal_one_rank<T>(2, c, 0.05, 5500u + static_cast<unsigned>(c.order * 41 + c.size));
    }
  }

  TEST_CASE("GPU ranks refuse what they cannot run, with the same line on every rank") {
    if (device_count() < 1) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    const auto tensor = random_tensor<double>(3, 8, 5300u, Layout::c_order);
    Options options = exact_sweeps("max_diag", 2);
    options.backend = Backend::cpu;
    std::string error;
    on_gpu_ranks<double>(1, [&](DeviceCommunicator& comm) { return diagonalize_distributed(tensor, options, comm); },
                         &error);
    CHECK(error.find("not backend cpu") != std::string::npos);
  }
}
