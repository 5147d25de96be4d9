#pragma once
// The multisets of size r over n symbols: the non-decreasing tuples i_1 <= .. <= i_r that number
// the distinct entries of a symmetric tensor in packed storage. runtime/core/multiset_index.hpp
// ranks them on the host; codegen writes the same prefix tables into the packed kernels
// (kernels_templates/packed_symmetric.cu). Both count them here, the layer below both.
#include <cstddef>
#include <numeric>
#include <optional>
#include <vector>

namespace tensordiag::dsl {

// binom(n + r - 1, r) for n >= 1 and r >= 0, exact; nullopt where it is past `limit` (> 0). Each
// step is exact: b_k = b_(k-1) (n - 1 + k) / k, and with g = gcd(b_(k-1), k), k / g divides
// n - 1 + k, so b_k = (b_(k-1) / g) ((n - 1 + k) / (k / g)).
constexpr std::optional<long long> multiset_count(long long n, int r, long long limit) {
  long long count = 1;
  for (int k = 1; k <= r; ++k) {
    const long long g = std::gcd(count, static_cast<long long>(k));
    const long long factor = (n - 1 + k) / (k / g);
    if (count / g > limit / factor) return std::nullopt;
    count = count / g * factor;
    if (count > limit) return std::nullopt;
  }
  return count;
}

// The rank's prefix table for tails of t = 0 .. rows-1 positions: row t holds n + 1 entries, entry
// x = sum_{v < x} binom(n - 1 - v + t, t), the tuples whose entry with t positions after it is
// below x (given the entries before it allow 0). The last entry of row t is binom(n + t, t + 1),
// the count of tuples of length t + 1: where those fit `limit`, so does the table.
// @pre multiset_count(n, rows, limit) is not nullopt.
inline std::vector<long long> multiset_prefix(int n, int rows, long long limit) {
  const auto width = static_cast<std::size_t>(n) + 1;
  std::vector<long long> table(static_cast<std::size_t>(rows) * width, 0);
  for (int t = 0; t < rows; ++t)
    for (int v = 0; v < n; ++v)
      table[static_cast<std::size_t>(t) * width + static_cast<std::size_t>(v) + 1] =
          table[static_cast<std::size_t>(t) * width + static_cast<std::size_t>(v)] + *multiset_count(n - v, t, limit);
  return table;
}

}  // namespace tensordiag::dsl
