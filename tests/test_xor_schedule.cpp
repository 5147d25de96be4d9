// The XOR subspace schedule: its passes hold every pair once a sweep; a subspace pass equals its
// groups applied one by one; runs with it converge as fast as the round robin, give or take a sweep.
#include <doctest/doctest.h>

#include <algorithm>
#include <bit>
#include <initializer_list>
#include <set>
#include <string>
#include <utility>

#include "dsl/builtin_rules.hpp"
#include "random_tensor.hpp"
#include "runtime/engines/tuning_environment.hpp"
#include "schedule_runs.hpp"
#include "scoped_environment.hpp"
#include "runtime/algorithm/generator.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/distributed/nccl_communicator.hpp"
#include "runtime/engines/cpu_engine.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::max_abs_difference;
using tensordiag::testing::random_tensor;
using tensordiag::testing::run_both_schedules;

TEST_CASE("the XOR passes hold every pair once, in subspaces whose cosets the groups keep") {
  for (int size = 2; size <= 256; size *= 2)
    for (int dimension = 1; dimension <= 4; ++dimension) {
      CAPTURE(size);
      CAPTURE(dimension);
      const auto passes = xor_schedule(size, dimension);
      std::set<std::pair<int, int>> pairs;
      std::set<int> groups;
      for (const SubspacePass& pass : passes) {
        const int k = pass.dimension();
        CHECK(k == std::min(dimension, std::countr_zero(static_cast<unsigned>(size))));
        REQUIRE(pass.span.size() == std::size_t{1} << k);
        CHECK(std::is_sorted(pass.span.begin(), pass.span.end()));
        for (const int u : pass.span)
          for (const int v : pass.span) CHECK(std::binary_search(pass.span.begin(), pass.span.end(), u ^ v));
        REQUIRE(pass.leaders.size() * pass.span.size() == static_cast<std::size_t>(size));
        std::set<int> covered;
        for (const int a : pass.leaders)
          for (const int v : pass.span) {
            CHECK(a <= (a ^ v));  // the leader is the coset's smallest element
            CHECK(covered.insert(a ^ v).second);
          }
        for (const int c : pass.groups) {
          CHECK(std::binary_search(pass.span.begin(), pass.span.end(), c));
          CHECK(groups.insert(c).second);
          // The local pairs, read in every coset, are the group's pairs, the smaller index first.
          const PivotGroup local = pass.local_group(c);
          CHECK(local.size() == pass.span.size() / 2);
          std::set<std::pair<int, int>> from_cosets;
          for (const int a : pass.leaders)
            for (const auto [t, u] : local) {
              const int p = a ^ pass.span[static_cast<std::size_t>(t)];
              const int q = a ^ pass.span[static_cast<std::size_t>(u)];
              CHECK(p < q);
              CHECK((p ^ q) == c);
              from_cosets.insert({p, q});
            }
          const PivotGroup global = pass.global_group(c);
          CHECK(global.size() == static_cast<std::size_t>(size / 2));
          for (const auto [p, q] : global) {
            CHECK(from_cosets.count({p, q}) == 1);
            CHECK(pairs.insert({p, q}).second);
          }
        }
      }
      CHECK(pairs.size() == static_cast<std::size_t>(size * (size - 1) / 2));
      CHECK(groups.size() == static_cast<std::size_t>(size - 1));
    }
}

TEST_CASE("the XOR schedule's pass counts: N = 8 in 3, N = 16 in 5 (a spread), N = 128 with k = 3 in 22") {
  const auto eight = xor_schedule(8, 2);
  REQUIRE(eight.size() == 3);
  CHECK(eight[0].groups == std::vector<int>{1, 2, 3});
  CHECK(eight[1].groups.size() == 2);
  CHECK(eight[2].groups.size() == 2);
  CHECK(xor_schedule(16, 2).size() == 5);
  CHECK(xor_schedule(128, 3).size() == 22);  // the greedy's count; at least 19 = ceil(127 / 7)
  CHECK(xor_schedule(128, 5).size() <= 6);
  CHECK(xor_schedule(128, 1).size() == 127);
  CHECK(!has_xor_schedule(6));
  CHECK(has_xor_schedule(64));
}

TEST_CASE_TEMPLATE("a subspace pass equals its groups applied one by one (to 1e-12 in float64)", T, double) {
  struct Case {
    int order, size, dimension;
    Layout layout;
  };
  const auto& rule = dsl::rules::max_diag;
  for (const Case c : {Case{4, 8, 2, Layout::c_order}, Case{3, 16, 3, Layout::fortran_order}, Case{5, 4, 2, Layout::c_order},
                       Case{3, 8, 3, Layout::c_order}, Case{6, 8, 2, Layout::fortran_order}}) {
    CAPTURE(c.order);
    CAPTURE(c.size);
    CAPTURE(c.dimension);
    const auto input = random_tensor<T>(c.order, c.size, 77u + static_cast<unsigned>(c.order * c.size), c.layout);
    HostTensor<T> by_pass = input, by_group = input;
    std::vector<Matrix<T>> factors_pass(static_cast<std::size_t>(c.order), Matrix<T>::identity(c.size));
    auto factors_group = factors_pass;
    for (const SubspacePass& pass : xor_schedule(c.size, c.dimension)) {
      if (pass.dimension() > 1) sweep_pass(by_pass, factors_pass, SweepPass{pass}, rule, 0.0, 2);
      else
        for (const int g : pass.groups) sweep_pass(by_pass, factors_pass, SweepPass{pass.global_group(g)}, rule, 0.0, 2);
      for (const int g : pass.groups)
        apply_group_to_factors(factors_group, group_step(by_group, pass.global_group(g), rule, 0.0, 2));
    }
    CHECK(max_abs_difference(by_pass.values(), by_group.values()) <= 1e-12);
    for (std::size_t n = 0; n < factors_pass.size(); ++n)
      CHECK(max_abs_difference(factors_pass[n].data, factors_group[n].data) <= 1e-12);
    // And the sweep changed the tensor: the check compares real work.
    CHECK(max_abs_difference(by_pass.values(), input.values()) > 1e-2);
  }
}

TEST_CASE_TEMPLATE("the XOR schedule reaches the tolerance within one sweep of the round robin, the objective rising", T, float, double) {
  for (const auto& [order, size] : {std::pair{3, 8}, std::pair{3, 16}, std::pair{4, 8}, std::pair{5, 4}, std::pair{3, 32},
                                   std::pair{6, 4}}) {
    CAPTURE(order);
    CAPTURE(size);
    GeneratorOptions g;
    g.order = order;
    g.size = size;
    g.seed = 500u + static_cast<unsigned>(order * 97 + size);
    const auto planted = generate_diagonalizable<T>(g);
    Options options;
    options.backend = Backend::cpu;
    options.max_sweeps = 20;
    const auto [round_robin, by_xor] = run_both_schedules(planted.tensor, options);
    REQUIRE(round_robin.converged());
    CHECK(by_xor.converged());
    CHECK(by_xor.schedule == "xor");
    CHECK(round_robin.schedule == "round-robin");
    CHECK(by_xor.passes_per_sweep < round_robin.passes_per_sweep);
    CHECK(by_xor.sweeps() <= round_robin.sweeps() + 1);
    for (std::size_t s = 1; s < by_xor.history.size(); ++s)
      CHECK(by_xor.history[s].diag_norm2 >= by_xor.history[s - 1].diag_norm2 * (1 - 1e-6));
  }
}

TEST_CASE("the XOR schedule with the pivot check runs one group a pass and converges") {
  GeneratorOptions g;
  g.order = 4;
  g.size = 8;
  g.seed = 31;
  const auto planted = generate_diagonalizable<double>(g);
  Options options;
  options.backend = Backend::cpu;
  options.eta = 0.01;
  const auto [round_robin, result] = run_both_schedules(planted.tensor, options);
  CHECK(result.passes_per_sweep == 7);
  // Here the run stops by stall at off_rel 1.9e-12, a hair above tol (the round robin reaches
  // 2.4e-13 in as many sweeps): both reach rounding level.
  CHECK(result.history.back().off_rel <= 1e-11);
  CHECK(result.sweeps() <= round_robin.sweeps() + 1);
}

TEST_CASE("the xor schedule for N not a power of two is a user error naming N") {
  Options options;
  options.backend = Backend::cpu;
  options.schedule = SweepSchedule::xor_subspaces;
  const auto tensor = random_tensor<double>(3, 6, 5);
  CHECK_THROWS_WITH_AS(diagonalize(tensor, options),
                       "the xor schedule takes N a power of two (N = 6): use --schedule round-robin or auto",
                       user_error);
  CHECK(parse_schedule("round-robin") == SweepSchedule::round_robin);
  CHECK_THROWS_AS(parse_schedule("spiral"), user_error);
}

namespace {

// An integer tuning variable and its reader: unset it reads `unset`, each accepted text its value,
// and each refused text throws the one line "NAME must be RANGE, not 'TEXT'".
void check_integer_setting(const char* name, int (*read)(), int unset, const char* range,
                           std::initializer_list<std::pair<const char*, int>> accepted,
                           std::initializer_list<const char*> refused) {
  CAPTURE(std::string(name));
  tensordiag::test::ScopedEnvironment environment;
  environment.set(name, std::nullopt);
  CHECK(read() == unset);
  for (const auto& [text, value] : accepted) {
    CAPTURE(std::string(text));
    environment.set(name, text);
    CHECK(read() == value);
  }
  for (const char* text : refused) {
    CAPTURE(std::string(text));
    environment.set(name, text);
    CHECK_THROWS_WITH_AS(read(), (std::string(name) + " must be " + range + ", not '" + text + "'").c_str(), user_error);
  }
}

}  // namespace

TEST_CASE("TENSORDIAG_SUBSPACE_BITS: 0 or 2..10, anything else one clear error") {
  check_integer_setting("TENSORDIAG_SUBSPACE_BITS", subspace_bits_from_environment, 0, "0 or 2..10",
                        {{"", 0}, {"0", 0}, {"2", 2}, {"10", 10}}, {"1", "11", "-2", "3x", "many", "99999999999999999999"});
}

TEST_CASE("TENSORDIAG_PASS_WARP_SHUFFLES (0, 1) and TENSORDIAG_PASS_MAX_REGISTERS (0, 32..255): else one clear error") {
  check_integer_setting("TENSORDIAG_PASS_WARP_SHUFFLES", pass_warp_shuffles_from_environment, -1, "0 or 1",
                        {{"0", 0}, {"1", 1}, {"", -1}}, {"2", "-1", "yes"});
  check_integer_setting("TENSORDIAG_PASS_MAX_REGISTERS", pass_max_registers_from_environment, -1, "0 or 32..255",
                        {{"0", 0}, {"32", 32}, {"255", 255}, {"", -1}}, {"31", "256", "-128", "128k"});
}

TEST_CASE("TENSORDIAG_PASS_INNER_MODES (1..64, unset -1) and TENSORDIAG_PASS_REGISTER_BITS (0..6, unset 0): else one clear error") {
  check_integer_setting("TENSORDIAG_PASS_INNER_MODES", pass_inner_modes_from_environment, -1, "1..64",
                        {{"", -1}, {"1", 1}, {"2", 2}, {"64", 64}}, {"0", "65", "-1", "2x", "two"});
  check_integer_setting("TENSORDIAG_PASS_REGISTER_BITS", pass_register_bits_from_environment, 0, "0..6",
                        {{"", 0}, {"0", 0}, {"5", 5}, {"6", 6}}, {"7", "-1", "6.0", "six"});
}

TEST_CASE("TENSORDIAG_PASS_FMA: 0 or 1, unset -1 (the plan's choice), anything else one clear error") {
  check_integer_setting("TENSORDIAG_PASS_FMA", pass_fma_from_environment, -1, "0 or 1", {{"", -1}, {"0", 0}, {"1", 1}},
                        {"2", "-1", "on", "1.0"});
}

TEST_CASE("TENSORDIAG_PASS_BLOCK_SIZE: 0 or a multiple of 32 in 32..1024, unset 0 (the plan's), else one clear error") {
  check_integer_setting("TENSORDIAG_PASS_BLOCK_SIZE", pass_block_size_from_environment, 0,
                        "0 or a multiple of 32 in 32..1024", {{"", 0}, {"0", 0}, {"32", 32}, {"128", 128}, {"1024", 1024}},
                        {"16", "33", "1056", "-32", "128 ", "many"});
}

TEST_CASE("TENSORDIAG_CHUNK_TILE_BYTES: 0..232448, unset -1 (the plan's default), anything else one clear error") {
  check_integer_setting("TENSORDIAG_CHUNK_TILE_BYTES", chunk_tile_bytes_from_environment, -1, "0..232448",
                        {{"", -1}, {"0", 0}, {"49152", 49152}, {"232448", 232448}}, {"232449", "-1", "48K", "tiles"});
}

TEST_CASE("TENSORDIAG_SUBSPACE_MIRRORED: 0 or 1, unset -1 (the plan's choice), anything else one clear error") {
  check_integer_setting("TENSORDIAG_SUBSPACE_MIRRORED", subspace_mirrored_from_environment, -1, "0 or 1",
                        {{"", -1}, {"0", 0}, {"1", 1}}, {"2", "-1", "yes", "1 "});
}

TEST_CASE("TENSORDIAG_SUBSPACE_FUSED: 0, 1 or 2, unset -1 (the plan's choice), anything else one clear error") {
  check_integer_setting("TENSORDIAG_SUBSPACE_FUSED", subspace_fused_from_environment, -1, "0, 1 or 2",
                        {{"", -1}, {"0", 0}, {"1", 1}, {"2", 2}}, {"3", "-1", "yes", "2 "});
}

TEST_CASE("TENSORDIAG_PIPELINED_GROUPS: 0 or 1, unset -1 (the plan's choice), anything else one clear error") {
  check_integer_setting("TENSORDIAG_PIPELINED_GROUPS", pipelined_groups_from_environment, -1, "0 or 1",
                        {{"", -1}, {"0", 0}, {"1", 1}}, {"2", "-1", "on", "1 "});
}

TEST_CASE("TENSORDIAG_PIVOT_GRAM_SIZE: 0..128, unset -1 (the plan's default), anything else one clear error") {
  check_integer_setting("TENSORDIAG_PIVOT_GRAM_SIZE", pivot_gram_size_from_environment, -1, "0..128",
                        {{"", -1}, {"0", 0}, {"32", 32}, {"128", 128}}, {"129", "-1", "8.5", "all"});
}

TEST_CASE("TENSORDIAG_EXCHANGE_PIECES (0..64), TENSORDIAG_EXCHANGE_PIPELINE (0, 1) and TENSORDIAG_EXCHANGE_STAGING "
          "(1..4096 MiB): else one clear error") {
  check_integer_setting("TENSORDIAG_EXCHANGE_PIPELINE", exchange_pipeline_from_environment, -1, "0 or 1",
                        {{"", -1}, {"0", 0}, {"1", 1}}, {"2", "-1", "on", "1 "});
  check_integer_setting("TENSORDIAG_EXCHANGE_PIECES", exchange_pieces_from_environment, -1, "0..64",
                        {{"", -1}, {"0", 0}, {"4", 4}, {"64", 64}}, {"65", "-1", "four", "4 "});
  check_integer_setting("TENSORDIAG_EXCHANGE_STAGING", exchange_staging_mib_from_environment, -1, "1..4096 (MiB)",
                        {{"", -1}, {"1", 1}, {"512", 512}, {"4096", 4096}}, {"0", "4097", "-128", "128M", "1e3"});
}

TEST_CASE("the row swaps' staging: 512 MiB where the device has room for two beside the slab, else 128 MiB, "
          "TENSORDIAG_EXCHANGE_STAGING wherever set") {
  constexpr double mib = 1 << 20;
  tensordiag::test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_EXCHANGE_STAGING", std::nullopt);
  CHECK(least_row_swap_staging_bytes() == 128 << 20);
  CHECK(row_swap_staging_bytes(1024 * mib) == 512 << 20);
  CHECK(row_swap_staging_bytes(80e9) == 512 << 20);
  CHECK(row_swap_staging_bytes(1024 * mib - 1) == 128 << 20);
  CHECK(row_swap_staging_bytes(256 * mib) == 128 << 20);
  environment.set("TENSORDIAG_EXCHANGE_STAGING", "64");
  CHECK(least_row_swap_staging_bytes() == 64 << 20);
  CHECK(row_swap_staging_bytes(80e9) == 64 << 20);
  CHECK(row_swap_staging_bytes(0) == 64 << 20);
}
