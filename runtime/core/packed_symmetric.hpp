#pragma once
// A symmetric tensor stored packed (issue 11, item 1): only its binom(N + D - 1, D) distinct
// entries T[i_1, .., i_D], i_1 <= .. <= i_D, in lexicographic order of the index tuples (NumPy:
// [T[i] for i in itertools.combinations_with_replacement(range(N), D)]), about D! times fewer
// than the N^D of full storage. Entry T[i] for any i is the one at the sorted i.
#include <span>
#include <string>
#include <variant>
#include <vector>

#include "runtime/core/multiset_index.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

template <class T>
class PackedSymmetricTensor {
public:
  PackedSymmetricTensor() = default;
  // Zeros; order D >= 2 and size N >= 2 are the caller's to check (check_packed_shape).
  PackedSymmetricTensor(int order, int size);
  PackedSymmetricTensor(int order, int size, std::vector<T> values);  // values.size() must be the count
  // A read-only tensor over `values` (its binom(N + D - 1, D) entries), which the caller keeps alive
  // and unchanged while the tensor is in use (the Python module's NumPy array: no copy of the
  // input). Writing through it is an internal_error.
  static PackedSymmetricTensor borrow(int order, int size, const T* values);

  // Copies own their values, so a borrowed tensor's copy (the engines' working core) is writable;
  // moves keep the borrowing.
  PackedSymmetricTensor(const PackedSymmetricTensor& other);
  PackedSymmetricTensor& operator=(const PackedSymmetricTensor& other);
  PackedSymmetricTensor(PackedSymmetricTensor&&) noexcept = default;
  PackedSymmetricTensor& operator=(PackedSymmetricTensor&&) noexcept = default;

  int order() const { return order_; }
  int size() const { return size_; }
  bool borrowed() const { return borrowed_ != nullptr; }
  std::size_t count() const { return borrowed_ ? index_.count() : values_.size(); }
  const MultisetIndex& index() const { return index_; }
  // The owned values; internal_error on a borrowed tensor (read any tensor through data()).
  std::vector<T>& values() { return owned(); }
  const std::vector<T>& values() const {
    if (borrowed_) throw_written_borrowed();
    return values_;
  }
  const T* data() const { return borrowed_ ? borrowed_ : values_.data(); }

  // Entry at a sorted index tuple (length D).
  T& at_sorted(std::span<const int> sorted) { return owned()[index_.rank(sorted)]; }
  const T& at_sorted(std::span<const int> sorted) const { return data()[index_.rank(sorted)]; }

private:
  std::vector<T>& owned() {
    if (borrowed_) throw_written_borrowed();
    return values_;
  }
  [[noreturn]] static void throw_written_borrowed();

  int order_ = 0;
  int size_ = 0;
  MultisetIndex index_{1, 0};
  std::vector<T> values_;
  const T* borrowed_ = nullptr;
};

using AnyPackedTensor = std::variant<PackedSymmetricTensor<float>, PackedSymmetricTensor<double>>;

inline Dtype dtype_of(const AnyPackedTensor& tensor) {
  return std::holds_alternative<PackedSymmetricTensor<float>>(tensor) ? Dtype::float32 : Dtype::float64;
}

// The largest order a packed tensor takes: where a run and its verification still meet 30 N D eps.
// A distinct value stands for up to binom(D, D/2) entries of the full tensor, which share its one
// rounding error instead of each having its own, and sums over them (a class's rotation, the
// verification's mode products) add it coherently where full storage's independent copies
// partly cancel: in double, C = T x Q^T and back left 7.4e-14 at D = 24 (full storage 1.5e-15)
// and a run 1.3e-13 (N = 2, noise 1e-2), 2.1e-11 at D = 40. So classes of more than 12 slots
// rotate, and the verification's products above order 12 sum, in long double; measured then
// (N = 2, noise 1e-2, up to 10 sweeps): D = 24 4.5e-15, 40 1.1e-14, 48 9.9e-14 against the bound's
// 3.2e-13, 5.3e-13, 6.4e-13; D = 56 2.4e-12 against 7.5e-13: past it.
inline constexpr int max_packed_order = 48;

// 2 <= order D <= max_packed_order and size N >= 2; user_error otherwise, or when the count
// overflows addressing.
void check_packed_shape(int order, int size);

// The size N whose packed tensor of order D holds `count` entries (binom(N + D - 1, D) = count);
// user_error naming the count when no N >= 2 does.
int packed_size_of(int order, std::size_t count);

// D! / prod_v m_v! for a sorted tuple in which symbol v occurs m_v times: how many entries of the
// full tensor share this one's value (its weight in the Frobenius norm).
double multiplicity(std::span<const int> sorted);

// The distinct entries of a full symmetric tensor (the one at each sorted index; the symmetry
// itself is checked before, by symmetry_check.hpp) and back (C order).
template <class T>
PackedSymmetricTensor<T> pack_symmetric(const HostTensor<T>& full);
template <class T>
HostTensor<T> unpack_symmetric(const PackedSymmetricTensor<T>& packed);

extern template class PackedSymmetricTensor<float>;
extern template class PackedSymmetricTensor<double>;
extern template PackedSymmetricTensor<float> pack_symmetric(const HostTensor<float>&);
extern template PackedSymmetricTensor<double> pack_symmetric(const HostTensor<double>&);
extern template HostTensor<float> unpack_symmetric(const PackedSymmetricTensor<float>&);
extern template HostTensor<double> unpack_symmetric(const PackedSymmetricTensor<double>&);

}  // namespace tensordiag::runtime
