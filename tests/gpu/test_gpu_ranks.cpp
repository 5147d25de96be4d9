// GPU ranks (issue 14): one tensor over NCCL ranks of this process, a thread a rank, each slab in
// its device's memory. Against the CPU's one-rank run of the same group order (float64, 1e-10: the
// GPU pass applies the modes in another order), and against one GPU rank running the same groups
// in one stage: bit for bit, since each entry goes through the same kernels' arithmetic. Skipped
// without a device (or without two, for the two-rank cases).
#include <doctest/doctest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <functional>
#include <numeric>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "distributed_reference.hpp"
#include "gpu_rank_threads.hpp"
#include "random_tensor.hpp"
#include "relative_difference.hpp"
#include "scoped_environment.hpp"
#include "codegen/builtin_rules.hpp"
#include "runtime/algorithm/core_figures.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/gpu_slab_engine.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/distributed/overlapped_change.hpp"
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

// The ranks' core and factors against one rank's, bit for bit, with the check the same exact
// norms; and real work was compared: three sweeps moved the core far from the input.
template <class T>
void check_parts_equal_one_rank(const std::vector<DistributedResult<T>>& parts,
                                const std::vector<DistributedResult<T>>& single, const HostTensor<T>& tensor,
                                double eta) {
  const HostTensor<T> core = assembled(parts, tensor.order(), tensor.size(), tensor.layout());
  const HostTensor<T> expected = assembled(single, tensor.order(), tensor.size(), tensor.layout());
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

// Two ranks whose row counts change at every stage (the first pair's 2 rows on one rank, the other
// N - 2 on the other, by turns; a stage a round-robin group): no change swaps in place, so each
// moves single rows (row_moves.hpp), some ranks receiving more than they send.
DistributedSchedule uneven_two_rank_schedule(int size) {
  DistributedSchedule schedule;
  schedule.size = size;
  schedule.ranks = 2;
  schedule.kind = SweepSchedule::round_robin;
  int g = 0;
  for (const PivotGroup& group : round_robin_schedule(size)) {
    SlabLayout layout;
    layout.rows.resize(2);
    const int few = g++ % 2;
    for (int i = 0; i < size; ++i)
      layout.rows[static_cast<std::size_t>(i == group[0].p || i == group[0].q ? few : 1 - few)].push_back(i);
    schedule.stages.push_back(DistributedStage{layout, {group}});
  }
  return schedule;
}

// `schedule` on its ranks, each slab cut from `tensor`, three sweeps (or to `stop`, asking
// `on_sweep` after each sweep on each rank).
template <class T>
std::vector<DistributedResult<T>> on_gpu_ranks_with(const HostTensor<T>& tensor, const DistributedSchedule& schedule,
                                                    const char* rule, double eta, StopCriteria stop = {3, 0.0, 0.0},
                                                    std::function<bool(const SweepRecord&)> on_sweep = {}) {
  return on_gpu_ranks<T>(schedule.ranks, [&](DeviceCommunicator& comm) {
    const std::size_t length = tensor.count() / static_cast<std::size_t>(tensor.size());
    std::vector<T> values;
    for (const int i : schedule.stages.front().layout.rows[static_cast<std::size_t>(comm.rank())])
      values.insert(values.end(), tensor.data() + static_cast<std::size_t>(i) * length,
                    tensor.data() + static_cast<std::size_t>(i + 1) * length);
    Slab<T> slab{tensor.order(), tensor.size(), tensor.layout(), comm.rank(), schedule.stages.front().layout,
                 std::move(values)};
    RunSettings settings;
    settings.stop = stop;
    settings.eta = eta;
    settings.on_sweep = on_sweep;
    return run_gpu_slab_engine(std::move(slab), schedule, codegen::lower_builtin_rule(rule), settings, comm);
  });
}

// One GPU rank, one stage: `many`'s groups in their order, three sweeps.
template <class T>
std::vector<DistributedResult<T>> on_one_gpu_rank(const HostTensor<T>& tensor, const DistributedSchedule& many,
                                                  const char* rule, double eta) {
  DistributedSchedule one;
  one.size = tensor.size();
  one.ranks = 1;
  one.kind = many.kind;
  std::vector<int> all(static_cast<std::size_t>(tensor.size()));
  std::iota(all.begin(), all.end(), 0);
  one.stages.push_back(DistributedStage{SlabLayout{{all}}, many.groups()});
  return on_gpu_ranks_with(tensor, one, rule, eta);
}

// The changes of `schedule`'s sweep that two ranks pipeline (overlapped_change.hpp): within the
// sweep, and at its end (into the first stage, when a sweep follows): {within, at the end}.
std::pair<int, int> pipelinable_changes(const DistributedSchedule& schedule) {
  std::pair<int, int> counts{0, 0};
  for (std::size_t t = 0; t < schedule.stages.size(); ++t) {
    const DistributedStage& now = schedule.stages[t];
    const DistributedStage& next = schedule.stages[(t + 1) % schedule.stages.size()];
    if (now.layout.rows != next.layout.rows && swaps_in_place(now.layout, next.layout) && next.groups.size() >= 2 &&
        !overlapped_change(now.groups.back(), now.layout, next.layout, 0, 4, &next.groups.front()).pipelined.empty())
      ++(t + 1 < schedule.stages.size() ? counts.first : counts.second);
  }
  return counts;
}

// Two runs' figures sweep by sweep: the same to 1e-12 (their partial sums added in another order).
void check_histories_agree(const std::vector<SweepRecord>& history, const std::vector<SweepRecord>& expected) {
  REQUIRE(history.size() == expected.size());
  for (std::size_t h = 0; h < expected.size(); ++h) {
    CAPTURE(h);
    CHECK(history[h].sweep == expected[h].sweep);
    CHECK(std::abs(history[h].off_rel - expected[h].off_rel) <= 1e-12 * expected[h].off_rel);
    CHECK(std::abs(history[h].diag_norm2 - expected[h].diag_norm2) <= 1e-12 * expected[h].diag_norm2);
    CHECK(std::abs(history[h].trace - expected[h].trace) <= 1e-12 * std::abs(expected[h].trace) + 1e-300);
  }
}

// `ranks` GPU ranks against one GPU rank running the same groups in one stage, three sweeps,
// with the pivot check at `eta` (0: none) and the schedule `kind`: core and factors bit for bit,
// and with the check the same exact norms. Changes of layout that cannot swap in place move one
// row a rank a step (row_moves.hpp).
template <class T>
std::vector<DistributedResult<T>> check_ranks_equal_one_rank_on(int ranks, const Case& c, const HostTensor<T>& tensor,
                                                                double eta, SweepSchedule kind = SweepSchedule::automatic) {
  CAPTURE(ranks);
  CAPTURE(c.order);
  CAPTURE(c.size);
  Options options = exact_sweeps(c.rule, 3);
  options.eta = eta;
  options.schedule = kind;
  const DistributedSchedule many = distributed_schedule(c.size, ranks, options.schedule);
  const auto parts = on_gpu_ranks<T>(ranks, [&](DeviceCommunicator& comm) {
    return diagonalize_distributed(tensor, options, comm);
  });
  REQUIRE(parts.size() == static_cast<std::size_t>(ranks));
  CHECK(parts[0].distribution.ranks == ranks);
  if (many.stages.size() > 1) CHECK(parts[0].distribution.bytes_sent > 0);
  const auto single = on_one_gpu_rank(tensor, many, c.rule, eta);
  check_parts_equal_one_rank(parts, single, tensor, eta);
  return parts;
}

// The same on a random tensor of the case's shape and layout made from `seed`.
template <class T>
std::vector<DistributedResult<T>> check_ranks_equal_one_rank(int ranks, const Case& c, double eta, unsigned seed,
                                                             SweepSchedule kind = SweepSchedule::automatic) {
  return check_ranks_equal_one_rank_on(ranks, c, random_tensor<T>(c.order, c.size, seed, c.layout), eta, kind);
}

// Whether the run loaded kernel kind `kind`.
template <class T>
bool ran_kind(const DistributedResult<T>& part, const std::string& kind) {
  return std::find(part.run.kernels.begin(), part.run.kernels.end(), kind) != part.run.kernels.end();
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
                          Case{3, 7, Layout::c_order, "max_diag"}, Case{13, 4, Layout::fortran_order, "max_diag"}}) {
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

  TEST_CASE("two GPU ranks equal one GPU rank where the angles take the split kernels and the pass the chunked "
            "one (small N, large D), bit for bit, the figures those of the core (float64), and with the pivot check") {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    // D = 13, N = 4 float64: a pivot subtensor of 64 KB, over a warp's shared memory (the split
    // angles), the pass still group_pass's; D = 15 (8.6 GB): group_pass's tile does not fit either.
    struct LargeOrderCase {
      Case c;
      bool chunked;
    };
    for (const auto& [c, chunked] : {LargeOrderCase{{13, 4, Layout::c_order, "max_diag"}, false},
                                     LargeOrderCase{{13, 4, Layout::fortran_order, "max_trace"}, false},
                                     LargeOrderCase{{15, 4, Layout::c_order, "max_diag"}, true}}) {
      const auto tensor = random_tensor<double>(c.order, c.size, 5600u + static_cast<unsigned>(c.order), c.layout);
      const auto parts = check_ranks_equal_one_rank_on(2, c, tensor, 0.0);
      for (const auto& part : parts) {
        CHECK(ran_kind(part, "pivot_angles_split"));
        CHECK(ran_kind(part, "chunk_pass") == chunked);
        // A chunked pass is not cut into an overlapped change's pieces; group_pass's is.
        if (chunked) CHECK(part.distribution.overlapped_changes == 0);
        else CHECK(part.distribution.overlapped_changes > 0);
      }
      // The last sweep's off_rel is the core's: the chunked runs' figures come from off_norm_partial
      // over each slab's rows, the others' from the last pass.
      const HostTensor<double> core = assembled(parts, c.order, c.size, c.layout);
      const double off_rel = std::sqrt(core_figures(core, Structure::general).off_norm2 /
                                       core_figures(tensor, Structure::general).off_norm2);
      CHECK(parts[0].run.history.back().off_rel == doctest::Approx(off_rel).epsilon(1e-10));
    }
    // With the pivot check the angles come from the summed lines (checked_angles), no subtensor
    // held: the same order runs checked, bit for bit with one GPU rank.
    const Case checked{13, 4, Layout::fortran_order, "max_diag"};
    const auto tensor = random_tensor<double>(checked.order, checked.size, 5613u, checked.layout);
    for (const auto& part : check_ranks_equal_one_rank_on(2, checked, tensor, 0.05)) {
      CHECK(ran_kind(part, "pivot_check_gather"));
      CHECK_FALSE(ran_kind(part, "pivot_angles_split"));
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks overlap each change that swaps in place with the pass before it: the core and "
                     "factors bit for bit those without overlap and one GPU rank's, the same bytes sent", T, float,
                     double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    struct OverlapCase {
      Case c;
      SweepSchedule kind;
      double eta;
    };
    for (const OverlapCase& o : {OverlapCase{Case{3, 8, Layout::c_order, "max_diag"}, SweepSchedule::automatic, 0.0},
                                 OverlapCase{Case{4, 16, Layout::fortran_order, "max_trace"}, SweepSchedule::automatic, 0.0},
                                 OverlapCase{Case{3, 16, Layout::c_order, "max_diag"}, SweepSchedule::automatic, 0.05},
                                 OverlapCase{Case{3, 7, Layout::c_order, "max_diag"}, SweepSchedule::round_robin, 0.0},
                                 OverlapCase{Case{4, 9, Layout::fortran_order, "max_diag"}, SweepSchedule::round_robin, 0.05},
                                 // Large enough (537 MB in float32) that pieces land while the pass
                                 // before the change still runs, as at scale.
                                 OverlapCase{Case{9, 8, Layout::c_order, "max_diag"}, SweepSchedule::automatic, 0.0}}) {
      const Case& c = o.c;
      CAPTURE(c.order);
      CAPTURE(c.size);
      CAPTURE(o.eta);
      const auto tensor = random_tensor<T>(c.order, c.size, 6400u + static_cast<unsigned>(c.order * 31 + c.size), c.layout);
      const DistributedSchedule schedule = distributed_schedule(c.size, 2, o.kind);
      REQUIRE(schedule.stages.size() > 1);
      // Three sweeps: the changes within each, and the one back to the first stage after the first two.
      int changes = 0;
      for (std::size_t t = 0; t < schedule.stages.size(); ++t) {
        const SlabLayout& now = schedule.stages[t].layout;
        const SlabLayout& next = schedule.stages[(t + 1) % schedule.stages.size()].layout;
        if (now.rows != next.rows && swaps_in_place(now, next)) changes += t + 1 < schedule.stages.size() ? 3 : 2;
      }
      REQUIRE(changes > 0);
      // Pipelined (without the pivot check): the changes into a stage of two groups or more whose
      // first group makes two components with the group before (3 x 8 and 4 x 16 do), the one at a
      // sweep's end too when a sweep follows.
      const auto [within, at_end] = pipelinable_changes(schedule);
      const int pipelinable = 3 * within + 2 * at_end;
      if (o.kind == SweepSchedule::automatic && o.eta == 0) CHECK(within > 0);
      if (o.kind == SweepSchedule::automatic && o.eta == 0) CHECK(at_end == 1);
      const auto run = [&](const char* pieces, std::optional<std::string> pipeline) {
        test::ScopedEnvironment environment;
        environment.set("TENSORDIAG_EXCHANGE_PIECES", pieces);
        environment.set("TENSORDIAG_EXCHANGE_PIPELINE", pipeline);
        return on_gpu_ranks_with(tensor, schedule, c.rule, o.eta);
      };
      const auto plain = run("0", std::nullopt);
      REQUIRE(plain.size() == 2);
      for (const auto& [pieces, pipeline] : {std::pair{"1", "1"}, std::pair{"3", "1"}, std::pair{"4", "1"},
                                             std::pair{"4", "0"}}) {
        const std::string pipelined = pipeline, piece_count = pieces;
        CAPTURE(piece_count);
        CAPTURE(pipelined);
        const auto overlapped = run(pieces, pipelined);
        REQUIRE(overlapped.size() == 2);
        for (std::size_t r = 0; r < 2; ++r) {
          CAPTURE(r);
          CHECK(plain[r].distribution.overlapped_changes == 0);
          CHECK(plain[r].distribution.pipelined_changes == 0);
          CHECK(overlapped[r].distribution.pipelined_changes ==
                (pipelined == "1" && o.eta == 0 ? pipelinable : 0));
          CHECK(overlapped[r].distribution.overlapped_changes == changes);
          CHECK(overlapped[r].distribution.bytes_sent == plain[r].distribution.bytes_sent);
          CHECK(overlapped[r].distribution.bytes_sent > 0);
          REQUIRE(overlapped[r].run.history.size() == plain[r].run.history.size());
          check_histories_agree(overlapped[r].run.history, plain[r].run.history);
        }
        check_parts_equal_one_rank(overlapped, plain, tensor, o.eta);
      }
      check_parts_equal_one_rank(plain, on_one_gpu_rank(tensor, schedule, c.rule, o.eta), tensor, o.eta);
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks decide a sweep's stop during the change at its end and run the next sweep's first "
                     "pass there only if that sweep runs: stopped by tolerance or the callback, bit for bit the runs "
                     "without pipelining", T, float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    // max_diag: off_rel falls every sweep, so a tolerance between two sweeps' stops the run between them.
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 16, Layout::fortran_order, "max_diag"},
                          Case{9, 8, Layout::c_order, "max_diag"}}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      const auto tensor = random_tensor<T>(c.order, c.size, 7100u + static_cast<unsigned>(c.order * 29 + c.size), c.layout);
      const DistributedSchedule schedule = distributed_schedule(c.size, 2, SweepSchedule::automatic);
      const auto [within, at_end] = pipelinable_changes(schedule);
      REQUIRE(at_end == 1);
      int changes = 0;  // a sweep's, the one back to the first included: all swap in place on two ranks
      for (std::size_t t = 0; t < schedule.stages.size(); ++t) {
        const SlabLayout& now = schedule.stages[t].layout;
        const SlabLayout& next = schedule.stages[(t + 1) % schedule.stages.size()].layout;
        REQUIRE(swaps_in_place(now, next));
        changes += now.rows != next.rows ? 1 : 0;
      }
      std::atomic<int> asked{0};
      const auto run = [&](const char* pipeline, StopCriteria stop, int stop_at) {
        test::ScopedEnvironment environment;
        environment.set("TENSORDIAG_EXCHANGE_PIPELINE", pipeline);
        return on_gpu_ranks_with(tensor, schedule, c.rule, 0.0, stop, [&asked, stop_at](const SweepRecord& record) {
          ++asked;
          return record.sweep == stop_at;
        });
      };
      // A tolerance between the fourth sweep's off_rel and the third's stops after the fourth.
      const auto forced = run("0", StopCriteria{6, 0.0, 0.0}, 0);
      const std::vector<SweepRecord>& h = forced[0].run.history;
      REQUIRE(h.size() == 7);
      REQUIRE(h[3].off_rel - h[4].off_rel > 1e-9 * h[3].off_rel);
      struct Stop {
        StopCriteria criteria;
        int stop_at, sweeps;
        StopReason reason;
      };
      for (const Stop& stop : {Stop{StopCriteria{6, 0.5 * (h[3].off_rel + h[4].off_rel), 0.0}, 0, 4, StopReason::tolerance},
                               Stop{StopCriteria{6, 0.0, 0.0}, 2, 2, StopReason::callback}}) {
        CAPTURE(stop.sweeps);
        asked = 0;
        const auto plain = run("0", stop.criteria, stop.stop_at);
        CHECK(asked == 2 * stop.sweeps);  // each rank's callback, once a sweep
        asked = 0;
        const auto pipelined = run("1", stop.criteria, stop.stop_at);
        CHECK(asked == 2 * stop.sweeps);
        for (std::size_t r = 0; r < 2; ++r) {
          CAPTURE(r);
          CHECK(plain[r].run.stop_reason == stop.reason);
          CHECK(pipelined[r].run.stop_reason == stop.reason);
          CHECK(pipelined[r].run.history.size() == static_cast<std::size_t>(stop.sweeps + 1));
          check_histories_agree(pipelined[r].run.history, plain[r].run.history);
          // Every sweep ends with a change (a sweep could follow), the last one's not pipelined.
          CHECK(plain[r].distribution.overlapped_changes == changes * stop.sweeps);
          CHECK(pipelined[r].distribution.overlapped_changes == changes * stop.sweeps);
          CHECK(plain[r].distribution.pipelined_changes == 0);
          CHECK(pipelined[r].distribution.pipelined_changes == within * stop.sweeps + at_end * (stop.sweeps - 1));
          CHECK(pipelined[r].distribution.bytes_sent == plain[r].distribution.bytes_sent);
        }
        check_parts_equal_one_rank(pipelined, plain, tensor, 0.0);
      }
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks with odd N, or the round robin, equal one GPU rank, bit for bit, with and "
                     "without the pivot check", T, float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    // N = 3: one rank holds each group's pair, the other the unpaired row alone (D = 12: the
    // chunked pass on a slab of one row).
    for (const Case& c : {Case{3, 7, Layout::c_order, "max_diag"}, Case{4, 9, Layout::fortran_order, "max_trace"},
                          Case{5, 5, Layout::c_order, "max_diag"}, Case{3, 13, Layout::fortran_order, "max_diag"},
                          Case{6, 3, Layout::c_order, "max_diag"}, Case{12, 3, Layout::fortran_order, "max_trace"}}) {
      check_ranks_equal_one_rank<T>(2, c, 0.0, 5800u + static_cast<unsigned>(c.order * 37 + c.size),
                                    SweepSchedule::round_robin);
      check_ranks_equal_one_rank<T>(2, c, 0.05, 5900u + static_cast<unsigned>(c.order * 41 + c.size));
    }
  }

  TEST_CASE_TEMPLATE("two GPU ranks whose row counts change at every stage move single rows, and equal one GPU rank "
                     "bit for bit", T, float, double) {
    if (device_count() < 2) {
      MESSAGE("skipped: fewer than two CUDA devices");
      return;
    }
    for (const Case& c : {Case{3, 7, Layout::c_order, "max_diag"}, Case{4, 8, Layout::fortran_order, "max_trace"},
                          Case{5, 5, Layout::c_order, "max_diag"}, Case{3, 12, Layout::fortran_order, "max_diag"}}) {
      CAPTURE(c.order);
      CAPTURE(c.size);
      const DistributedSchedule schedule = uneven_two_rank_schedule(c.size);
      // Every change but the one back to the first stage (the same rank has the few rows when the
      // stages are odd in number) changes the row counts.
      for (std::size_t s = 0; s + 1 < schedule.stages.size(); ++s)
        REQUIRE_FALSE(swaps_in_place(schedule.stages[s].layout, schedule.stages[s + 1].layout));
      const auto tensor = random_tensor<T>(c.order, c.size, 6000u + static_cast<unsigned>(c.order * 43 + c.size), c.layout);
      for (const double eta : {0.0, 0.05}) {
        CAPTURE(eta);
        const auto parts = on_gpu_ranks_with(tensor, schedule, c.rule, eta);
        REQUIRE(parts.size() == 2);
        CHECK(parts[0].distribution.bytes_sent > 0);
        CHECK(parts[1].distribution.bytes_sent > 0);
        check_parts_equal_one_rank(parts, on_one_gpu_rank(tensor, schedule, c.rule, eta), tensor, eta);
      }
    }
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
    // D = 8, N = 4: the lines' teams span warps at modes 6 and 7 (64 and 128 lanes).
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 6, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::fortran_order, "max_diag"}, Case{3, 16, Layout::c_order, "max_diag"},
                          Case{3, 7, Layout::c_order, "max_diag"}, Case{8, 4, Layout::fortran_order, "max_diag"}}) {
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
    // D = 8, N = 4: the lines' teams span warps at modes 6 and 7.
    for (const Case& c : {Case{3, 8, Layout::c_order, "max_diag"}, Case{4, 8, Layout::fortran_order, "max_trace"},
                          Case{5, 4, Layout::fortran_order, "max_diag"}, Case{3, 16, Layout::c_order, "max_diag"},
                          Case{8, 4, Layout::fortran_order, "max_diag"}}) {
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
