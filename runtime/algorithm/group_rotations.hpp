#pragma once
// The rotations of one pivot group: for every mode n and every pair k of the group, the (c, s)
// applied in mode n as A[.. p@n ..] <- c A_p + s A_q, A[.. q@n ..] <- -s A_p + c A_q
// (DESIGN.md section 2). A rejected pair (pivot check) carries the identity (1, 0). For a complex
// T the rotation is unitary (dsl/unitary_rotation.hpp): A_p <- al A_p + conj(be) A_q, A_q <- al A_q -
// be A_p (al real), the real case with (c, s) = (al, be).
#include <vector>

#include "dsl/givens.hpp"
#include "dsl/unitary_rotation.hpp"
#include "runtime/algorithm/pivot_schedule.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::runtime {

// The plane rotation of a scalar type: Givens (c, s) for real T, UnitaryGivens (al, be) for complex.
template <class T>
using PlaneRotation = std::conditional_t<is_complex_v<T>, dsl::UnitaryGivens<real_t<T>>, dsl::Givens<T>>;

template <class T>
constexpr PlaneRotation<T> identity_rotation() {
  if constexpr (is_complex_v<T>) return {};
  else return {T(1), T(0)};
}

template <class T>
constexpr bool is_identity(const PlaneRotation<T>& g) {
  if constexpr (is_complex_v<T>) return g.al == real_t<T>(1) && g.be == T(0);
  else return g.c == T(1) && g.s == T(0);
}

template <class T>
struct GroupRotations {
  int order = 0;
  PivotGroup pairs;
  std::vector<PlaneRotation<T>> rotations;  // rotations[n * pairs.size() + k]

  GroupRotations(int order_, PivotGroup pairs_)
      : order(order_), pairs(std::move(pairs_)),
        rotations(static_cast<std::size_t>(order_) * pairs.size(), identity_rotation<T>()) {}

  PlaneRotation<T>& at(int mode, std::size_t pair) { return rotations[static_cast<std::size_t>(mode) * pairs.size() + pair]; }
  const PlaneRotation<T>& at(int mode, std::size_t pair) const {
    return rotations[static_cast<std::size_t>(mode) * pairs.size() + pair];
  }
};

// Structures symmetric and skew rotate every mode by a pair's one rotation and keep one factor Q:
// set_in_every_mode gives pair k its rotation in every mode, one_mode_group the group that rotates Q.
template <class T>
void set_in_every_mode(GroupRotations<T>& group, std::size_t pair, const PlaneRotation<T>& g) {
  for (int mode = 0; mode < group.order; ++mode) group.at(mode, pair) = g;
}

template <class T>
GroupRotations<T> one_mode_group(const GroupRotations<T>& group) {
  GroupRotations<T> one(1, group.pairs);
  for (std::size_t k = 0; k < group.pairs.size(); ++k) one.at(0, k) = group.at(0, k);
  return one;
}

}  // namespace tensordiag::runtime
