// The pivot check decided by bounds on ||Lambda||_2 (pivot_norm_bounds.hpp): every bound holds,
// every verdict the bounds give is the exact norm's -- on random Lambdas and at thresholds 1e-9 on
// either side of a pair's own ratio -- and the stages decide most checks.
#include <doctest/doctest.h>

#include <cmath>
#include <vector>

#include "runtime/algorithm/gram_norm_test.hpp"
#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/algorithm/pivot_norm_bounds.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/algorithm/skew_power_bound.hpp"
#include "random_skew.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_skew;

namespace {

double frobenius_of(const std::vector<double>& lambda) {
  double sum = 0.0;
  for (const double x : lambda) sum += x * x;
  return std::sqrt(sum) * (1 + 1e-12);
}

// Lambda scaled so that its largest entry is in [1, 2), as the bounds' stages 2 and 3 take it.
std::vector<double> scaled_copy(const std::vector<double>& lambda, double& scale) {
  double largest = 0.0;
  for (const double x : lambda) largest = std::max(largest, std::abs(x));
  scale = std::ldexp(1.0, -std::ilogb(largest));
  std::vector<double> scaled = lambda;
  for (double& x : scaled) x *= scale;
  return scaled;
}

}  // namespace

TEST_CASE("power steps give a lower bound and the gram test an upper bound on ||Lambda||_2") {
  RandomStream random(77);
  double worst_power = 1.0;
  for (int size : {2, 3, 5, 8, 17, 32, 64, 100, 128, 200}) {
    for (int trial = 0; trial < 8; ++trial) {
      CAPTURE(size);
      CAPTURE(trial);
      double scale = 1.0;
      const auto lambda = scaled_copy(random_skew(size, random, trial % 4), scale);
      const double exact = skew_spectral_norm(lambda, size);
      const double frobenius = frobenius_of(lambda);
      SkewPowerBound power(lambda, size, frobenius);
      for (int k = 0; k < 6; ++k) CHECK(power.step() <= exact * (1 + 1e-14));
      CHECK(power.best() <= exact * (1 + 1e-14));
      CHECK(power.best() >= skew_norm_bounds(lambda, size).lower * (1 - 1e-12));
      worst_power = std::min(worst_power, power.best() / exact);
      const GramNormTest gram(lambda, size, frobenius);
      // Below the norm it must never succeed (the shift keeps it on the safe side of rounding) ...
      CHECK(!gram.certifies_below(exact * (1 - 1e-12)));
      CHECK(!gram.certifies_below(exact));
      // ... and 1e-9 above it, it does (the shift costs about 1e-11 at N = 200).
      CHECK(gram.certifies_below(exact * (1 + 1e-9)));
    }
  }
  MESSAGE("worst power lower bound / norm after 6 products: " << worst_power);
}

TEST_CASE("every verdict the bounds give is the exact norm's, also 1e-9 from the threshold") {
  RandomStream random(2026);
  long long checks = 0, decided = 0, adversarial = 0, adversarial_decided = 0;
  for (int size : {2, 3, 4, 5, 8, 16, 33, 64, 100, 128, 200}) {
    const PivotSchedule schedule = round_robin_schedule(size);
    const int trials = size <= 64 ? 24 : 8;
    for (int trial = 0; trial < trials; ++trial) {
      CAPTURE(size);
      CAPTURE(trial);
      const auto lambda = random_skew(size, random, trial % 4);
      const double exact = skew_spectral_norm(lambda, size);
      const NormBounds bounds = skew_norm_bounds(lambda, size);
      CHECK(bounds.lower <= exact * (1 + 1e-14));
      CHECK(exact <= bounds.upper * (1 + 1e-14));
      const PivotGroup& pairs = schedule[static_cast<std::size_t>(trial) % schedule.size()];
      // The threshold, 2 / N, and thresholds at one pair's own ratio 2|Lambda_pq| / ||Lambda||_2
      // times 1 +- 1e-9 (that pair is then decided by 1e-9 of the norm), and +- 1e-14 (inside the
      // margin: only the exact norm may decide it).
      const PivotPair near = pairs[static_cast<std::size_t>(trial) % pairs.size()];
      const double ratio = 2 * std::abs(lambda[static_cast<std::size_t>(near.p * size + near.q)]) / exact;
      const double etas[] = {0.00125, 2.0 / size, ratio * (1 + 1e-9), ratio * (1 - 1e-9), ratio * (1 + 1e-14),
                             ratio * (1 - 1e-14)};
      for (int e = 0; e < 6; ++e) {
        const double eta = etas[e];
        if (!(eta > 0)) continue;
        CAPTURE(e);
        ++checks;
        const BoundsDecision decision = decide_by_bounds(lambda, size, pairs, eta);
        CHECK(decision.bounds.lower <= exact * (1 + 1e-14));
        CHECK(exact <= decision.bounds.upper * (1 + 1e-14));
        if (e == 2 || e == 3) ++adversarial;
        if (e >= 4) CHECK(!decision.verdicts);
        if (!decision.verdicts) continue;
        ++decided;
        if (e == 2 || e == 3) ++adversarial_decided;
        REQUIRE(decision.verdicts->size() == pairs.size());
        for (std::size_t k = 0; k < pairs.size(); ++k)
          CHECK((*decision.verdicts)[k] == passes_pivot_check(lambda, size, exact, pairs[k], eta));
      }
    }
  }
  MESSAGE("bounds decided " << decided << " of " << checks << " checks; " << adversarial_decided << " of "
                            << adversarial << " at 1e-9 from the threshold");
  CHECK(decided > 0);
  CHECK(adversarial_decided > adversarial / 4);  // the passing side: the failing one needs lower within 1e-9
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
  CHECK(!verdicts_by_bounds(lambda, 4, {{0, 1}, {2, 3}}, 2.0));
  CHECK(verdicts_by_bounds(lambda, 4, {{0, 1}, {2, 3}}, 1.9) == std::vector<bool>{true, false});
}

TEST_CASE("Lambda = 0 passes every pair, as the exact norm 0 does") {
  const std::vector<double> lambda(9, 0.0);
  CHECK(verdicts_by_bounds(lambda, 3, {{0, 1}}, 0.5) == std::vector<bool>{true});
}
