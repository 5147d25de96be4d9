// The distributed engine on real processes (issue 14): each rank's rows of the core and its factors
// equal the one-rank reference over the same groups bit for bit, for even and odd N, both
// schedules, both layouts, both rules, with and without the pivot check; and the errors every rank
// must report alike.
#include <doctest/doctest.h>

#include <filesystem>
#include <limits>
#include <string>

#include "distributed_reference.hpp"
#include "mpi_world.hpp"
#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize_distributed.hpp"
#include "runtime/io/npy.hpp"

using namespace tensordiag;

namespace {

struct Case {
  int order, size;
  runtime::Layout layout;
  double eta;
  const char* rule;
  runtime::SweepSchedule schedule;
};

template <class T>
void check_case(const Case& c, std::uint64_t seed) {
  runtime::Communicator& world = testing::mpi_world();
  CAPTURE(world.size());
  CAPTURE(c.order);
  CAPTURE(c.size);
  CAPTURE(c.eta);
  CAPTURE(std::string(c.rule));
  // Every rank draws the same tensor from the same seed.
  const auto tensor = testing::random_tensor<T>(c.order, c.size, seed, c.layout);
  runtime::Options options;
  options.rule = c.rule;
  options.eta = c.eta;
  options.schedule = c.schedule;
  options.max_sweeps = 3;
  options.tol = 0.0;
  options.stall_tol = 0.0;
  const auto got = runtime::diagonalize_distributed(tensor, options, world);
  const auto schedule = runtime::distributed_schedule(c.size, world.size(), c.schedule);
  testing::check_equal_to_reference(got, testing::one_rank_reference(tensor, schedule.groups(), c.rule, c.eta, 3));
  CHECK(got.distribution.ranks == world.size());
  CHECK(got.distribution.bytes_per_sweep ==
        schedule.rows_moved_per_sweep() * runtime::entry_count(c.order - 1, c.size) * sizeof(T));
}

}  // namespace

TEST_CASE("distributed ranks: equal to one rank on the same groups, bit for bit") {
  using runtime::Layout;
  using runtime::SweepSchedule;
  const int ranks = testing::mpi_world().size();
  const Case cases[] = {
      {3, 8, Layout::c_order, 0.0, "max_diag", SweepSchedule::automatic},
      {4, 8, Layout::c_order, 0.01, "max_diag", SweepSchedule::automatic},
      {3, 16, Layout::fortran_order, 0.0, "max_diag", SweepSchedule::xor_subspaces},
      {5, 8, Layout::fortran_order, 0.01, "max_diag", SweepSchedule::automatic},
      {3, 9, Layout::c_order, 0.0, "max_diag", SweepSchedule::automatic},
      {4, 10, Layout::c_order, 0.01, "max_diag", SweepSchedule::round_robin},
      {6, 4, Layout::c_order, 0.0, "max_trace", SweepSchedule::automatic},
      {7, 4, Layout::c_order, 0.01, "max_diag", SweepSchedule::automatic},
      {7, 8, Layout::fortran_order, 0.0, "max_diag", SweepSchedule::round_robin},
      {8, 4, Layout::fortran_order, 0.0, "max_diag", SweepSchedule::round_robin},
      {3, 11, Layout::fortran_order, 0.02, "max_trace", SweepSchedule::automatic},
      // N = 3 on two ranks, N = 7 on four: a rank holds the unpaired index alone.
      {5, 3, Layout::c_order, 0.0, "max_diag", SweepSchedule::automatic},
      {4, 3, Layout::fortran_order, 0.05, "max_diag", SweepSchedule::automatic},
      {4, 7, Layout::c_order, 0.01, "max_trace", SweepSchedule::automatic},
  };
  std::uint64_t seed = 500;
  for (const Case& c : cases) {
    if ((c.size + 1) / 2 < ranks) continue;  // more ranks than pairs and the unpaired index: the error case below
    check_case<double>(c, ++seed);
    check_case<float>(c, ++seed);
  }
}

TEST_CASE("distributed ranks: a tensor file read in rows, converted to float32") {
  runtime::Communicator& world = testing::mpi_world();
  const auto tensor = testing::random_tensor<double>(4, 8, 77);
  // Rank 0 writes the file where every rank sees it.
  std::string path;
  if (world.rank() == 0) {
    path = (std::filesystem::temp_directory_path() / ("tensordiag_mpi_" + std::to_string(::getpid()) + ".npy")).string();
    runtime::write_tensor(path, tensor);
  }
  world.broadcast(path, 0);
  runtime::Options options;
  options.max_sweeps = 2;
  options.tol = 0.0;
  options.stall_tol = 0.0;
  const auto got = runtime::diagonalize_distributed<float>(std::filesystem::path(path), options, world);
  runtime::HostTensor<float> as_float(4, 8, runtime::Layout::c_order);
  for (std::size_t i = 0; i < tensor.count(); ++i) as_float.data()[i] = static_cast<float>(tensor.data()[i]);
  const auto schedule = runtime::distributed_schedule(8, world.size(), runtime::SweepSchedule::automatic);
  testing::check_equal_to_reference(got, testing::one_rank_reference(as_float, schedule.groups(), "max_diag", 0.0, 2));
  world.gather_all(0.0);  // every rank has read it
  if (world.rank() == 0) std::filesystem::remove(path);
}

TEST_CASE("distributed ranks: every rank reports the same error") {
  runtime::Communicator& world = testing::mpi_world();
  const int ranks = world.size();
  // More ranks than index pairs of the distributed mode (N even: no unpaired index).
  const auto small = testing::random_tensor<double>(3, 2 * ranks - 2, 5);
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(small, runtime::Options{}, world),
                       doctest::Contains(("more ranks (" + std::to_string(ranks) + ")").c_str()), user_error);
  // A NaN in the rows of the last rank: its error, on every rank.
  auto tensor = testing::random_tensor<double>(3, 8, 6);
  const auto schedule = runtime::distributed_schedule(8, ranks, runtime::SweepSchedule::automatic);
  const int row = schedule.stages.front().layout.rows.back().back();
  tensor.values()[static_cast<std::size_t>(row) * 64 + 5] = std::numeric_limits<double>::infinity();
  const std::string expected = "NaN or Inf at flat index " + std::to_string(row * 64 + 5);
  CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(tensor, runtime::Options{}, world),
                       doctest::Contains(expected.c_str()), user_error);
  if (ranks > 1)
    CHECK_THROWS_WITH_AS(runtime::diagonalize_distributed(tensor, runtime::Options{}, world),
                         doctest::Contains(("rank " + std::to_string(ranks - 1) + ": ").c_str()), user_error);
}
