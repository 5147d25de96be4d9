// The distributed schedule (runtime/distributed/distributed_schedule.hpp): every pair once a sweep,
// each stage's layout holding its groups whole, the rows it moves; and the engine on one rank
// against the CPU engine's sweeps over the same groups (bit for bit).
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <utility>

#include "distributed_reference.hpp"
#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/distributed/distributed_schedule.hpp"
#include "runtime/distributed/row_exchange.hpp"
#include "runtime/io/npy_rows.hpp"

#include <unistd.h>

#include <filesystem>

using namespace tensordiag;
using runtime::SweepSchedule;

namespace {

// Every pair once, each group's pairs disjoint, each stage's layout a partition of 0..N-1 into
// `ranks` parts holding its groups whole.
void check_schedule(const runtime::DistributedSchedule& schedule) {
  const int n = schedule.size;
  std::set<std::pair<int, int>> seen;
  for (const auto& stage : schedule.stages) {
    REQUIRE(stage.layout.ranks() == schedule.ranks);
    std::vector<int> all;
    for (const auto& rows : stage.layout.rows) {
      CHECK(!rows.empty());
      CHECK(std::is_sorted(rows.begin(), rows.end()));
      all.insert(all.end(), rows.begin(), rows.end());
    }
    std::sort(all.begin(), all.end());
    std::vector<int> expected(static_cast<std::size_t>(n));
    for (int i = 0; i < n; ++i) expected[static_cast<std::size_t>(i)] = i;
    CHECK(all == expected);
    CHECK(!stage.groups.empty());
    for (const auto& group : stage.groups) {
      CHECK(stage.layout.holds_whole(group));
      std::set<int> used;
      for (const auto [p, q] : group) {
        CHECK(p < q);
        CHECK(used.insert(p).second);
        CHECK(used.insert(q).second);
        CHECK(seen.insert({p, q}).second);
      }
    }
  }
  CHECK(seen.size() == static_cast<std::size_t>(n * (n - 1) / 2));
}

}  // namespace

TEST_CASE("distributed schedule: every pair once a sweep, each stage holding its groups whole") {
  for (const int ranks : {1, 2, 3, 4, 8})
    for (int n = 2 * ranks; n <= 33; ++n)
      for (const auto kind : {SweepSchedule::automatic, SweepSchedule::round_robin}) {
        CAPTURE(ranks);
        CAPTURE(n);
        const auto schedule = runtime::distributed_schedule(n, ranks, kind);
        check_schedule(schedule);
        if (ranks == 1) CHECK(schedule.rows_moved_per_sweep() == 0);
      }
}

TEST_CASE("distributed schedule: xor stages are the cosets of the XOR passes") {
  const auto two = runtime::distributed_schedule(8, 2, SweepSchedule::automatic);
  CHECK(two.kind == SweepSchedule::xor_subspaces);
  REQUIRE(two.stages.size() == 3);  // {1, 2, 3}, {4, 5}, {6, 7}
  CHECK(two.stages[0].layout.rows == std::vector<std::vector<int>>{{0, 1, 2, 3}, {4, 5, 6, 7}});
  CHECK(two.stages[0].groups.size() == 3);
  CHECK(two.stages[1].groups.size() == 2);
  CHECK(two.stages[2].groups.size() == 2);
  // Each change of layout (three, with the one back to the first) moves half the rows.
  CHECK(two.rows_moved_per_sweep() == 3 * 4);
  // 16 over 4 ranks: subspaces of dimension 2, five stages of three groups (a spread).
  const auto four = runtime::distributed_schedule(16, 4, SweepSchedule::xor_subspaces);
  CHECK(four.stages.size() == 5);
  for (const auto& stage : four.stages) CHECK(stage.groups.size() == 3);
  // Odd N: round robin, the unpaired index with a rank of the fewest rows.
  const auto odd = runtime::distributed_schedule(7, 3, SweepSchedule::automatic);
  CHECK(odd.kind == SweepSchedule::round_robin);
  CHECK(odd.most_rows() == 3);
}

TEST_CASE("distributed schedule: an odd N's unpaired index may be a rank's only row") {
  // N = 3 on two ranks: each group's pair on one rank, the third index on the other; every group is
  // its own stage, and each change of layout swaps two rows.
  const auto three = runtime::distributed_schedule(3, 2, SweepSchedule::automatic);
  CHECK(three.kind == SweepSchedule::round_robin);
  REQUIRE(three.stages.size() == 3);
  for (const auto& stage : three.stages) {
    REQUIRE(stage.groups.size() == 1);
    const runtime::PivotPair pair = stage.groups.front().front();
    std::vector<std::vector<int>> expected{{3 - pair.p - pair.q}, {pair.p, pair.q}};
    CHECK(stage.layout.rows == expected);
  }
  CHECK(three.most_rows() == 2);
  CHECK(three.rows_moved_per_sweep() == 3 * 2);
  // N = 7 on four ranks: three pairs and the unpaired index, a rank each.
  const auto seven = runtime::distributed_schedule(7, 4, SweepSchedule::automatic);
  CHECK(seven.most_rows() == 2);
  for (const auto& stage : seven.stages)
    for (const auto& rows : stage.layout.rows) CHECK((rows.size() == 1 || rows.size() == 2));
}

TEST_CASE("distributed schedule: more ranks than index pairs, or xor where it cannot run, is a user error") {
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(3, 3, SweepSchedule::automatic),
                       doctest::Contains("more ranks (3) than the distributed mode of size N = 3 can take"),
                       user_error);
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(2, 2, SweepSchedule::automatic),
                       doctest::Contains("use at most 1 rank"), user_error);
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(8, 5, SweepSchedule::automatic),
                       doctest::Contains("can take: each rank holds whole index pairs of it (or an odd N's unpaired "
                                         "index), so use at most 4 ranks"),
                       user_error);
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(7, 5, SweepSchedule::automatic),
                       doctest::Contains("use at most 4 ranks"), user_error);
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(12, 2, SweepSchedule::xor_subspaces),
                       doctest::Contains("--schedule xor on 2 ranks needs N and the number of ranks to be powers of two"),
                       user_error);
  CHECK_THROWS_WITH_AS(runtime::distributed_schedule(8, 3, SweepSchedule::xor_subspaces),
                       doctest::Contains("powers of two"), user_error);
}

TEST_CASE("distributed engine, one rank: the CPU engine's sweeps over the same groups, bit for bit") {
  const auto comm = runtime::one_rank_communicator();
  struct Case {
    int order, size;
    runtime::Layout layout;
    double eta;
    const char* rule;
  };
  for (const Case c : {Case{3, 8, runtime::Layout::c_order, 0.0, "max_diag"}, Case{4, 5, runtime::Layout::c_order, 0.02, "max_diag"},
                       Case{4, 6, runtime::Layout::fortran_order, 0.02, "max_diag"},
                       Case{3, 7, runtime::Layout::c_order, 0.0, "max_trace"}}) {
    CAPTURE(c.order);
    CAPTURE(c.size);
    const auto tensor = testing::random_tensor<double>(c.order, c.size, 90 + static_cast<unsigned>(c.size), c.layout);
    runtime::Options options;
    options.rule = c.rule;
    options.eta = c.eta;
    options.max_sweeps = 3;
    options.tol = 0.0;
    options.stall_tol = 0.0;
    const auto got = runtime::diagonalize_distributed(tensor, options, *comm);
    const auto schedule = runtime::distributed_schedule(c.size, 1, runtime::SweepSchedule::automatic);
    const auto reference = testing::one_rank_reference(tensor, schedule.groups(), c.rule, c.eta, 3);
    testing::check_equal_to_reference(got, reference);
    CHECK(got.distribution.bytes_per_sweep == 0);
    CHECK(got.run.engine == "cpu_distributed");
  }
}

TEST_CASE("distributed engine: a NaN in the tensor, backend cuda on CPU ranks or a symmetric structure are user errors") {
  const auto comm = runtime::one_rank_communicator();
  auto tensor = testing::random_tensor<double>(3, 4, 7);
  runtime::Options options;
  options.backend = runtime::Backend::cuda;
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(tensor, options, *comm),
                       doctest::Contains("backend cuda in a distributed run takes GPU ranks"), user_error);
  options.backend = runtime::Backend::cpu;
  options.structure = runtime::Structure::symmetric;
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(tensor, options, *comm),
                       doctest::Contains("structure general only"), user_error);
  options.structure = runtime::Structure::general;
  tensor.values()[37] = std::numeric_limits<double>::quiet_NaN();
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(tensor, options, *comm),
                       doctest::Contains("NaN or Inf at flat index 37"), user_error);
}

TEST_CASE("distributed engine: a tensor larger than the memory is refused before anything is allocated") {
  // A 400 GB float32 file, sparse on disk: only its header is written.
  const auto path = std::filesystem::temp_directory_path() / ("tensordiag_huge_" + std::to_string(::getpid()) + ".npy");
  runtime::create_npy_tensor_file<float>(path, 11, 10, runtime::Layout::c_order);
  const auto comm = runtime::one_rank_communicator();
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed<float>(path, runtime::Options{}, *comm),
                       doctest::Contains("the tensor does not fit the ranks' memory: a rank needs 400000000000 bytes"),
                       user_error);
  std::filesystem::remove(path);
}

TEST_CASE("distributed schedule: which changes of layout swap rows in place") {
  // Two ranks: each sends the other what it does not keep, as many rows each way, whatever N.
  for (int size = 4; size <= 33; ++size) {
    CAPTURE(size);
    CHECK(runtime::swaps_in_place(runtime::distributed_schedule(size, 2, SweepSchedule::automatic)));
    CHECK(runtime::swaps_in_place(runtime::distributed_schedule(size, 2, SweepSchedule::round_robin)));
  }
  // More ranks: as the layouts fall. The XOR stages of 16 and 32 on 4 ranks trade evenly; on 8
  // ranks a rank may send a partner two rows and get none back (all-to-all then).
  // More ranks: the XOR stages' cosets are dealt so that every change swaps in place
  // (swap_arrangement.hpp); in leader order N = 8 on 4 ranks and N = 16 on 8 would not.
  for (const auto& [size, ranks] : {std::pair{8, 4}, std::pair{16, 4}, std::pair{32, 4}, std::pair{64, 4},
                                   std::pair{16, 8}, std::pair{32, 8}, std::pair{64, 8}, std::pair{128, 4},
                                   std::pair{128, 8}, std::pair{256, 8}}) {
    CAPTURE(size);
    CAPTURE(ranks);
    const auto schedule = runtime::distributed_schedule(size, ranks, SweepSchedule::xor_subspaces);
    check_schedule(schedule);
    CHECK(runtime::swaps_in_place(schedule));
  }
  // 3 ranks: not a power of two, no XOR partners.
  CHECK_FALSE(runtime::swaps_in_place(runtime::distributed_schedule(12, 3, SweepSchedule::round_robin)));
}
