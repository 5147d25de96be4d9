#pragma once
// The Jacobi step of a symmetric tensor in packed storage (packed_symmetric.hpp; DESIGN.md
// section 7): every mode rotated in the plane (p, q) by one Givens rotation,
//   A[.. p@n ..] <- c A_p + s A_q,  A[.. q@n ..] <- -s A_p + c A_q  for all n,
// as symmetric_rotation.hpp states it for full storage.
//
// The distinct entries it changes are those whose index holds p or q. Write such an index as a
// multiset R of the other symbols (size D - m) plus m slots in {p, q}; the m + 1 entries
// E_b = A[R, p^(m-b), q^b], b = 0..m, form a class that the rotation maps into itself (a
// symmetric A depends only on how many slots are at q), by the rotation's m-th symmetric power.
// Each class is read, rotated and written once: by that power's (m + 1) x (m + 1) matrix in double
// for m <= 12, one slot at a time above (full storage's own Givens combinations) in long double,
// where the class's values stand for so many full entries that their shared rounding would show
// (packed_symmetric.hpp).
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <vector>

#include "dsl/givens.hpp"
#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

// t_k = A[p^(D-k), q^k], k = 0 .. D: the values of the pivot subtensor (symmetric_rotation.hpp's t).
template <class T>
std::vector<double> packed_pivot_values(const PackedSymmetricTensor<T>& tensor, int p, int q);

// Where every pair's classes lie, for one shape: finding a class's positions (its ranks in the
// packed order) costs more than rotating it, so the packed engine keeps them across its sweeps
// where they are few enough (the same rotations, to the bit).
class PackedClassPositions {
public:
  // Above this many positions (4 bytes each) a shape's are found as they are visited.
  static constexpr std::size_t most_kept_positions = std::size_t{1} << 23;
  // The positions of shape (order, size), or none when there would be more than the most kept.
  static std::optional<PackedClassPositions> kept_for(int order, int size);
  // The same, shared: the last shape's positions stay for the next run of that shape (a batch's
  // tensors after the first), when they are at most most_shared_positions.
  static constexpr std::size_t most_shared_positions = std::size_t{1} << 20;
  static std::shared_ptr<const PackedClassPositions> shared_for(int order, int size);

  int order() const { return order_; }
  int size() const { return size_; }
  std::size_t positions() const;  // in all
  // The positions of the pair's classes of m slots in {p, q} (p < q, 1 <= m <= D): m + 1 a class,
  // E_b = A[R, p^(m-b), q^b] for b = 0..m, the classes one after the other.
  std::span<const std::uint32_t> of(int p, int q, int m) const;

private:
  PackedClassPositions(int order, int size);
  int order_, size_;
  std::vector<std::vector<std::uint32_t>> positions_;  // pair by pair, m = 1..D within a pair
};

// The rotation of every mode in the plane (p, q), p < q, in place. `threads`: 0 = OpenMP's default;
// the classes are split among threads when there are enough of them. `kept`: the shape's class
// positions, if kept (else found as the classes are visited).
template <class T>
void rotate_packed(PackedSymmetricTensor<T>& tensor, int p, int q, dsl::Givens<double> g, int threads,
                   const PackedClassPositions* kept = nullptr);

extern template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<float>&, int, int);
extern template std::vector<double> packed_pivot_values(const PackedSymmetricTensor<double>&, int, int);
extern template void rotate_packed(PackedSymmetricTensor<float>&, int, int, dsl::Givens<double>, int,
                                   const PackedClassPositions*);
extern template void rotate_packed(PackedSymmetricTensor<double>&, int, int, dsl::Givens<double>, int,
                                   const PackedClassPositions*);

}  // namespace tensordiag::runtime
