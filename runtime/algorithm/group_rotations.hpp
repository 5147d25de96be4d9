#pragma once
// The rotations of one pivot group: for every mode n and every pair k of the group, the (c, s)
// applied in mode n as A[.. p@n ..] <- c A_p + s A_q, A[.. q@n ..] <- -s A_p + c A_q
// (DESIGN.md section 2). A rejected pair (pivot check) carries the identity (1, 0).
#include <vector>

#include "dsl/givens.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

template <class T>
struct GroupRotations {
  int order = 0;
  PivotGroup pairs;
  std::vector<dsl::Givens<T>> rotations;  // rotations[n * pairs.size() + k]

  GroupRotations(int order_, PivotGroup pairs_)
      : order(order_), pairs(std::move(pairs_)),
        rotations(static_cast<std::size_t>(order_) * pairs.size(), dsl::Givens<T>{T(1), T(0)}) {}

  dsl::Givens<T>& at(int mode, std::size_t pair) { return rotations[static_cast<std::size_t>(mode) * pairs.size() + pair]; }
  const dsl::Givens<T>& at(int mode, std::size_t pair) const {
    return rotations[static_cast<std::size_t>(mode) * pairs.size() + pair];
  }
};

}  // namespace tensordiag::runtime
