#include "runtime/core/multiset_index.hpp"

#include <limits>
#include <optional>
#include <string>

#include "dsl/multisets.hpp"

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// Counts past this do not address memory.
constexpr long long addressable = std::numeric_limits<std::ptrdiff_t>::max();

}  // namespace

std::size_t multiset_count(int n, int r) {
  if (n < 1 || r < 0) throw internal_error("multiset_count: n >= 1 and r >= 0");
  const std::optional<long long> count = dsl::multiset_count(n, r, addressable);
  if (!count)
    throw user_error("a symmetric tensor of order " + std::to_string(r) + " and size " + std::to_string(n) +
                     " has more distinct entries than memory addressing allows");
  return static_cast<std::size_t>(*count);
}

MultisetIndex::MultisetIndex(int n, int r) : n_(n), r_(r), count_(multiset_count(n, r)) {
  const std::vector<long long> prefix = dsl::multiset_prefix(n, r, addressable);  // fits: count_ did
  prefix_.assign(prefix.begin(), prefix.end());
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
