// The pivot check of an N = 2 tensor (runtime/algorithm/qubit_pivot_check.hpp): Lambda is 2 x 2
// skew, its norm |Lambda_01|, so below eta = 2 the check accepts every rotation. On the CPU engine,
// which forms Lambda and decides: a checked run equals the unchecked one bit for bit below the
// limit, every check decided without the exact norm (a check a mode a sweep); above 2 it rejects
// every rotation and the core stays the input.
#include <doctest/doctest.h>

#include "random_tensor.hpp"
#include "runtime/algorithm/qubit_pivot_check.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using namespace tensordiag::testing;

TEST_CASE("qubit pivot check: below eta = 1.5 the CPU's checked N = 2 runs are the unchecked ones, bit for bit") {
  CHECK(pivot_check_accepts_every_pair(2, 0.00125));
  CHECK(pivot_check_accepts_every_pair(2, 1.4));
  CHECK_FALSE(pivot_check_accepts_every_pair(2, 1.5));
  CHECK_FALSE(pivot_check_accepts_every_pair(3, 0.00125));
  for (const int order : {3, 6, 11}) {
    for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
      CAPTURE(order);
      const auto tensor = random_tensor<double>(order, 2, 900u + static_cast<unsigned>(order), layout);
      Options options;
      options.backend = Backend::cpu;
      options.max_sweeps = 4;
      options.tol = 1e-300;
      options.stall_tol = 0;
      const Result<double> plain = diagonalize(tensor, options);
      for (const double eta : {0.00125, 0.6, 1.4}) {
        CAPTURE(eta);
        options.eta = eta;
        const Result<double> checked = diagonalize(tensor, options);
        CHECK(checked.core.values() == plain.core.values());
        for (std::size_t n = 0; n < plain.factors.size(); ++n) CHECK(checked.factors[n].data == plain.factors[n].data);
        REQUIRE(checked.pivot_checks.has_value());
        const PivotCheckCount expected = every_pair_accepted(checked.sweeps(), order);
        CHECK(checked.pivot_checks->checks == expected.checks);
        CHECK(checked.pivot_checks->exact_norms == 0);
        CHECK(checked.pivot_checks->by_columns == expected.by_columns);
      }
      // Above 2 the check rejects every rotation whose Lambda is not 0: nothing moves.
      options.eta = 2.5;
      const Result<double> rejected = diagonalize(tensor, options);
      CHECK(rejected.core.values() == tensor.values());
      CHECK(plain.core.values() != tensor.values());
    }
  }
}
