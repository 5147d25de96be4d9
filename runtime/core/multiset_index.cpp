#include "runtime/core/multiset_index.hpp"

#include <limits>
#include <numeric>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

std::size_t multiset_count(int n, int r) {
  if (n < 1 || r < 0) throw internal_error("multiset_count: n >= 1 and r >= 0");
  // binom(n - 1 + k, k) for k = 1 .. r, each step exact: b_k = b_(k-1) (n - 1 + k) / k. With
  // g = gcd(b_(k-1), k), k / g divides n - 1 + k, so b_k = (b_(k-1) / g) ((n - 1 + k) / (k / g))
  // and only a result past addressing can overflow.
  std::size_t count = 1;
  for (int k = 1; k <= r; ++k) {
    const std::size_t g = std::gcd(count, static_cast<std::size_t>(k));
    const std::size_t factor = static_cast<std::size_t>(n - 1 + k) / (static_cast<std::size_t>(k) / g);
    if (__builtin_mul_overflow(count / g, factor, &count) ||
        count > static_cast<std::size_t>(std::numeric_limits<std::ptrdiff_t>::max()))
      throw user_error("a symmetric tensor of order " + std::to_string(r) + " and size " + std::to_string(n) +
                       " has more distinct entries than memory addressing allows");
  }
  return static_cast<std::size_t>(count);
}

MultisetIndex::MultisetIndex(int n, int r) : n_(n), r_(r), count_(multiset_count(n, r)) {
  const auto width = static_cast<std::size_t>(n) + 1;
  prefix_.assign(static_cast<std::size_t>(r) * width, 0);
  for (int t = 0; t < r; ++t)
    for (int v = 0; v < n; ++v)
      prefix_[static_cast<std::size_t>(t) * width + static_cast<std::size_t>(v) + 1] =
          prefix_[static_cast<std::size_t>(t) * width + static_cast<std::size_t>(v)] + multiset_count(n - v, t);
}

void MultisetIndex::unrank(std::size_t position, std::span<int> tuple) const {
  if (position >= count_) throw internal_error("MultisetIndex::unrank: position past the last tuple");
  int previous = 0;
  for (int k = 0; k < r_; ++k) {
    // The largest v >= previous whose block of tuples starts at or before `position`.
    int v = previous;
    while (v + 1 < n_ && term(k, v + 1, previous) <= position) ++v;
    position -= term(k, v, previous);
    tuple[static_cast<std::size_t>(k)] = v;
    previous = v;
  }
}

bool MultisetIndex::next(std::span<int> tuple) const {
  int k = r_ - 1;
  while (k >= 0 && tuple[static_cast<std::size_t>(k)] == n_ - 1) --k;
  if (k < 0) return false;
  const int value = tuple[static_cast<std::size_t>(k)] + 1;
  for (int j = k; j < r_; ++j) tuple[static_cast<std::size_t>(j)] = value;
  return true;
}

}  // namespace tensordiag::runtime
