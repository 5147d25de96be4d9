#pragma once
// The pivot values of one pair, mode after mode, read from the tensor without copying the pair's
// pivot subtensor (pivot_subtensor.hpp) and rotating all 2^D of its entries in every mode. Only
// four entries of the rotated subtensor are ever read at mode n (DESIGN.md section 2):
//   a = S_n[p..p], d = S_n[q..q]: each follows mode n's rotation, a <- p side of (a, b),
//     d <- q side of (e, d);
//   b = S_n[q at n, p elsewhere] and e = S_n[p at n, q elsewhere]: entry x of S_n depends only on
//     the 2^n entries of S_0 that differ from x in the modes < n, so b is the p-side end of a binary
//     tree over those (mode 0's pairs combined first, then mode 1's, ..) and e the q-side end.
// Each tree node is the expression rotate_pivot_subtensor writes for that entry (rotated_p,
// rotated_q, shared with it), so the values are those of the whole-subtensor iteration, bit for
// bit, in 2 * 2^n entry reads at mode n: 4 * 2^D a group instead of D * 2^D. At N = 2 the
// subtensor is the whole tensor, and this is what makes a CPU sweep one pass instead of D.
#include <omp.h>

#include <algorithm>
#include <cstddef>
#include <cstdlib>
#include <utility>
#include <vector>

#include "dsl/evaluate.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/index_offsets.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

namespace tensordiag::runtime {

template <class T>
class PivotCorners {
public:
  // @pre `offsets` holds p and q in its sliced mode, if it has one. `threads` (0: OpenMP's default)
  // share the large trees' levels (every node the same expression on the same values).
  PivotCorners(const T* tensor, IndexOffsets offsets, PivotPair pair, int threads)
      : tensor_(tensor), offsets_(std::move(offsets)), pair_(pair),
        threads_(threads > 0 ? threads : omp_get_max_threads()),
        rotations_(static_cast<std::size_t>(offsets_.order())), rotated_(rotations_.size(), false) {
    if (offsets_.order() <= largest_copied_order) {
      copy_ = gather_pivot_subtensor(tensor, offsets_, pair);
      return;
    }
    a_ = tensor[corner(0, offsets_.order(), false)];
    d_ = tensor[corner(0, offsets_.order(), true)];
  }

  // a, b, d, e at mode n, after the rotations of the modes < n (rotate() for those that rotated).
  dsl::PivotValues<T> at(int mode) {
    if (!copy_.empty()) return pivot_values(copy_, mode);
    b_ = tree(mode, false);
    e_ = tree(mode, true);
    return {a_, b_, d_, e_};
  }

  // Mode n's rotation, after at(n); a mode that does not rotate (a rejected pivot) calls nothing.
  void rotate(int mode, const PlaneRotation<T>& g) {
    if (!copy_.empty()) {
      rotate_pivot_subtensor(copy_, mode, g);
      return;
    }
    rotations_[static_cast<std::size_t>(mode)] = g;
    rotated_[static_cast<std::size_t>(mode)] = true;
    a_ = rotated_p(g, a_, b_);
    d_ = rotated_q(g, e_, d_);
  }

private:
  // Up to 2^12 entries the subtensor is copied and rotated whole (pivot_subtensor.hpp): the same
  // values, and cheaper than the trees' scattered reads and buffers (N = 8, D = 6: 20% of a sweep).
  static constexpr int largest_copied_order = 12;

  // The part of an entry's offset from the modes [first, last), each at index q (`q_side`) or p.
  std::ptrdiff_t corner(int first, int last, bool q_side) const {
    std::ptrdiff_t offset = 0;
    for (int m = first; m < last; ++m) offset += offsets_(m, q_side ? pair_.q : pair_.p);
    return offset;
  }

  // Mode m's step of a tree: the kept side's value from the pair's entry on the kept side and on
  // the other (the identity where mode m did not rotate).
  T node(int m, T kept, T other, bool q_side) const {
    if (!rotated_[static_cast<std::size_t>(m)]) return kept;
    const auto& g = rotations_[static_cast<std::size_t>(m)];
    return q_side ? rotated_q(g, other, kept) : rotated_p(g, kept, other);
  }

  // body(i) for i = 0..count-1, on threads_ threads where `parallel` (no parallel region where not:
  // the small trees are many, and a region's start costs more than they do).
  template <class Body>
  void for_each(std::ptrdiff_t count, bool parallel, const Body& body) const {
    if (!parallel) {
      for (std::ptrdiff_t i = 0; i < count; ++i) body(i);
      return;
    }
#pragma omp parallel for num_threads(threads_) schedule(static)
    for (std::ptrdiff_t i = 0; i < count; ++i) body(i);
  }

  // b (q_side false) or e (true) at mode n: the kept side in the modes < n, the other at n, the kept
  // side above n. The leaves are laid out in memory order (bit k of a leaf's index: the mode with
  // the k-th smallest step), so that every level reads two runs of its array: the entries are those
  // of the tree whatever the layout, and mode 0's level comes first, folded as the leaves are read.
  T tree(int n, bool q_side) const {
    const int order = offsets_.order();
    const std::ptrdiff_t fixed = corner(0, n, q_side) + offsets_(n, q_side ? pair_.p : pair_.q) +
                                 corner(n + 1, order, q_side);
    if (n == 0) return tensor_[fixed];
    // step[m]: from the kept side's entry of mode m to the other's.
    std::vector<std::ptrdiff_t> step(static_cast<std::size_t>(n));
    for (int m = 0; m < n; ++m)
      step[static_cast<std::size_t>(m)] = q_side ? offsets_(m, pair_.p) - offsets_(m, pair_.q)
                                                 : offsets_(m, pair_.q) - offsets_(m, pair_.p);
    // The modes 1..n-1 by the size of their steps: bit k of an index of the folded array.
    std::vector<int> modes(static_cast<std::size_t>(n - 1));
    for (int m = 1; m < n; ++m) modes[static_cast<std::size_t>(m - 1)] = m;
    std::stable_sort(modes.begin(), modes.end(), [&step](int x, int y) {
      return std::abs(step[static_cast<std::size_t>(x)]) < std::abs(step[static_cast<std::size_t>(y)]);
    });
    const int bits = n - 1;
    const std::ptrdiff_t count = std::ptrdiff_t{1} << bits;
    const bool parallel = count >= (std::ptrdiff_t{1} << 14) && threads_ > 1;
    // Mode 0 folded as the leaves are read: offsets from a table of the low bits and a sum over
    // the high ones.
    const int low = std::min(bits, 12);
    std::vector<std::ptrdiff_t> low_offset(std::size_t{1} << low, 0);
    for (int k = 0; k < low; ++k)
      for (std::size_t i = 0; i < (std::size_t{1} << k); ++i)
        low_offset[i | (std::size_t{1} << k)] = low_offset[i] + step[static_cast<std::size_t>(modes[static_cast<std::size_t>(k)])];
    std::vector<T> level(static_cast<std::size_t>(count)), next(static_cast<std::size_t>(count / 2));
    const std::ptrdiff_t lows = std::ptrdiff_t{1} << low;
    const auto read = [&](std::ptrdiff_t high) {
      std::ptrdiff_t base = fixed;
      for (int k = low; k < bits; ++k)
        if ((high >> (k - low)) & 1) base += step[static_cast<std::size_t>(modes[static_cast<std::size_t>(k)])];
      for (std::ptrdiff_t i = 0; i < lows; ++i) {
        const std::ptrdiff_t at = base + low_offset[static_cast<std::size_t>(i)];
        level[static_cast<std::size_t>(high * lows + i)] = node(0, tensor_[at], tensor_[at + step[0]], q_side);
      }
    };
    for_each(count >> low, parallel, read);
    // Modes 1..n-1 in order: mode m's bit (position `at` among the bits left) pairs two runs of
    // 2^at entries in every block of 2^(at + 1).
    std::vector<int> position(static_cast<std::size_t>(n));
    for (int k = 0; k < bits; ++k) position[static_cast<std::size_t>(modes[static_cast<std::size_t>(k)])] = k;
    std::ptrdiff_t size = count;
    for (int m = 1; m < n; ++m) {
      const int at = position[static_cast<std::size_t>(m)];
      const std::ptrdiff_t run = std::ptrdiff_t{1} << at;
      size /= 2;
      for_each(size, parallel && size >= (std::ptrdiff_t{1} << 14), [&](std::ptrdiff_t j) {
        const std::ptrdiff_t block = j >> at, offset = j & (run - 1);
        const std::ptrdiff_t kept = (block << (at + 1)) | offset;
        next[static_cast<std::size_t>(j)] =
            node(m, level[static_cast<std::size_t>(kept)], level[static_cast<std::size_t>(kept | run)], q_side);
      });
      std::swap(level, next);
      for (int& p : position)
        if (p > at) --p;
    }
    return level[0];
  }

  const T* tensor_;
  IndexOffsets offsets_;
  PivotPair pair_;
  int threads_;
  std::vector<PlaneRotation<T>> rotations_;  // modes < n's, where rotated_
  std::vector<bool> rotated_;
  T a_{}, d_{}, b_{}, e_{};
  std::vector<T> copy_;  // the whole subtensor, up to largest_copied_order
};

}  // namespace tensordiag::runtime
