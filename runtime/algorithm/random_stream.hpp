#pragma once
// A seeded random stream that gives the same numbers on every platform: the mt19937_64 engine is
// fully specified by the standard, but std::normal_distribution is not, so Gaussians come from
// our own Box-Muller transform.
#include <cmath>
#include <cstdint>
#include <numbers>
#include <random>

namespace tensordiag::runtime {

class RandomStream {
public:
  explicit RandomStream(std::uint64_t seed) : engine_(seed) {}

  // Uniform in (0, 1): the top 53 bits, offset by half a step so 0 never comes out.
  double uniform() { return (static_cast<double>(engine_() >> 11) + 0.5) * 0x1.0p-53; }

  double gaussian() {
    if (has_spare_) {
      has_spare_ = false;
      return spare_;
    }
    const double radius = std::sqrt(-2.0 * std::log(uniform()));
    const double angle = 2.0 * std::numbers::pi * uniform();
    spare_ = radius * std::sin(angle);
    has_spare_ = true;
    return radius * std::cos(angle);
  }

private:
  std::mt19937_64 engine_;
  double spare_ = 0.0;
  bool has_spare_ = false;
};

}  // namespace tensordiag::runtime
