#pragma once
// The non-decreasing index tuples i_1 <= .. <= i_r over the alphabet 0 .. n-1 (the multisets of
// size r), numbered in lexicographic order: the order of Python's
// itertools.combinations_with_replacement(range(n), r), which is the file order of a packed
// symmetric tensor (packed_symmetric.hpp). There are binom(n + r - 1, r) of them.
//
// Rank by counting: the tuples before i are, position k by position k, those that agree with i
// before k and hold a smaller v >= i_(k-1) at k, each followed by any non-decreasing tail of
// length r - k over v .. n-1: binom(n - 1 - v + r - k, r - k) of them. prefix_[r-k][x] sums that
// count over v < x, so rank(i) = sum_k prefix_[r-k][i_k] - prefix_[r-k][i_(k-1)] (i_0 = 0), O(r).
#include <cstddef>
#include <span>
#include <vector>

namespace tensordiag::runtime {

// sorted(tuple + value): the sorted `tuple` with `value` inserted in place, written to `out`
// (one entry longer).
inline void insert_sorted(std::span<const int> tuple, int value, std::span<int> out) {
  std::size_t k = 0;
  for (; k < tuple.size() && tuple[k] <= value; ++k) out[k] = tuple[k];
  out[k] = value;
  for (; k < tuple.size(); ++k) out[k + 1] = tuple[k];
}

// binom(n + r - 1, r), the number of multisets of size r over n symbols; throws user_error when it
// does not fit in memory addressing (the message names n and r).
std::size_t multiset_count(int n, int r);

class MultisetIndex {
public:
  // n >= 1 symbols, tuples of length r >= 0 (r = 0: the one empty tuple).
  MultisetIndex(int n, int r);

  int symbols() const { return n_; }
  int length() const { return r_; }
  std::size_t count() const { return count_; }

  // Position of a non-decreasing tuple of length r in the lexicographic order.
  std::size_t rank(std::span<const int> tuple) const {
    std::size_t position = 0;
    int previous = 0;
    for (int k = 0; k < r_; ++k) {
      position += term(k, tuple[static_cast<std::size_t>(k)], previous);
      previous = tuple[static_cast<std::size_t>(k)];
    }
    return position;
  }
  // What entry `value` at position k, after `previous` at k - 1 (0 at k = 0), adds to the rank: 0
  // when value == previous, so a run of equal entries adds only at its first.
  std::size_t term(int k, int value, int previous) const {
    const std::size_t* prefix = prefix_.data() + static_cast<std::size_t>(r_ - 1 - k) * static_cast<std::size_t>(n_ + 1);
    return prefix[value] - prefix[previous];
  }
  // The tuple at `position` < count(), written to `tuple` (length r).
  void unrank(std::size_t position, std::span<int> tuple) const;
  // The next tuple in the order, in place; false (and the tuple unchanged) after the last one.
  bool next(std::span<int> tuple) const;

private:
  int n_;
  int r_;
  std::size_t count_;
  // prefix_[t (n + 1) + x] = sum_{v < x} binom(n - 1 - v + t, t): the tuples whose entry at a
  // position with t positions after it is below x, given the entries before it allow 0
  // (t = 0 .. r-1, x = 0 .. n).
  std::vector<std::size_t> prefix_;
};

}  // namespace tensordiag::runtime
