// The pivot check decided by bounds on ||Lambda||_2: the bounds hold, every verdict they give is
// the exact norm's, also for thresholds set right at a pair's own ratio, and they decide most checks.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/algorithm/pivot_norm_bounds.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/random_stream.hpp"

using namespace tensordiag::runtime;

namespace {

// A random skew-symmetric N x N matrix, entries of spread magnitudes (a few dominant ones, as the
// Lambda of a nearly converged core has).
std::vector<double> random_skew(int size, RandomStream& random) {
  std::vector<double> lambda(static_cast<std::size_t>(size * size), 0.0);
  for (int i = 0; i < size; ++i)
    for (int j = i + 1; j < size; ++j) {
      const double x = random.gaussian() * std::pow(10.0, 3 * random.uniform() - 3);
      lambda[static_cast<std::size_t>(i * size + j)] = x;
      lambda[static_cast<std::size_t>(j * size + i)] = -x;
    }
  return lambda;
}

}  // namespace

TEST_CASE("the bounds on ||Lambda||_2 hold and every verdict they give is the exact norm's") {
  RandomStream random(2026);
  long long checks = 0, decided = 0;
  for (int size : {4, 5, 8, 16, 33, 64}) {
    const PivotSchedule schedule = round_robin_schedule(size);
    for (int trial = 0; trial < 40; ++trial) {
      CAPTURE(size);
      CAPTURE(trial);
      const auto lambda = random_skew(size, random);
      const double exact = skew_spectral_norm(lambda, size);
      const NormBounds bounds = skew_norm_bounds(lambda, size);
      CHECK(bounds.lower <= exact * (1 + 1e-14));
      CHECK(exact <= bounds.upper * (1 + 1e-14));
      const PivotGroup& pairs = schedule[static_cast<std::size_t>(trial) % schedule.size()];
      // The threshold, and thresholds at one pair's own ratio 2|Lambda_pq| / ||Lambda||_2
      // times 1 +- 1e-9: the adversarial case, where only the exact norm can decide that pair.
      const PivotPair near = pairs[static_cast<std::size_t>(trial) % pairs.size()];
      const double ratio = 2 * std::abs(lambda[static_cast<std::size_t>(near.p * size + near.q)]) / exact;
      for (const double eta : {0.00125, 2.0 / size, ratio * (1 + 1e-9), ratio * (1 - 1e-9)}) {
        ++checks;
        const auto verdicts = verdicts_by_bounds(lambda, size, pairs, eta);
        if (!verdicts) continue;
        ++decided;
        for (std::size_t k = 0; k < pairs.size(); ++k)
          CHECK((*verdicts)[k] == passes_pivot_check(lambda, size, exact, pairs[k], eta));
      }
    }
  }
  MESSAGE("bounds decided " << decided << " of " << checks << " checks");
  CHECK(decided > 0);
  CHECK(decided < checks);  // the adversarial thresholds leave some open
}

TEST_CASE("a pair within the margin of the threshold is left to the exact norm") {
  // Lambda = [[0, 1], [-1, 0]] (+ zero padding): ||Lambda||_2 = 1 = both bounds.
  std::vector<double> lambda(16, 0.0);
  lambda[1] = 1.0;
  lambda[4] = -1.0;
  const NormBounds bounds = skew_norm_bounds(lambda, 4);
  CHECK(bounds.lower == 1.0);
  CHECK(bounds.upper == 1.0);
  CHECK(!verdict_by_bounds(1.0, bounds, 2.0));            // 2|x| = eta ||Lambda||: only the exact norm says
  CHECK(verdict_by_bounds(1.0, bounds, 1.9) == true);
  CHECK(verdict_by_bounds(1.0, bounds, 2.1) == false);
}
