#include "runtime/core/packed_symmetric.hpp"

#include <algorithm>
#include <cmath>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

template <class T>
PackedSymmetricTensor<T>::PackedSymmetricTensor(int order, int size)
    : order_(order), size_(size), index_(size, order), values_(index_.count(), T{0}) {}

template <class T>
PackedSymmetricTensor<T>::PackedSymmetricTensor(int order, int size, std::vector<T> values)
    : order_(order), size_(size), index_(size, order), values_(std::move(values)) {
  if (values_.size() != index_.count())
    throw internal_error("PackedSymmetricTensor: " + std::to_string(values_.size()) + " values for " +
                         std::to_string(index_.count()) + " distinct entries");
}

template <class T>
PackedSymmetricTensor<T> PackedSymmetricTensor<T>::borrow(int order, int size, const T* values) {
  PackedSymmetricTensor<T> tensor;
  tensor.order_ = order;
  tensor.size_ = size;
  tensor.index_ = MultisetIndex(size, order);
  tensor.borrowed_ = values;
  return tensor;
}

template <class T>
PackedSymmetricTensor<T>::PackedSymmetricTensor(const PackedSymmetricTensor& other)
    : order_(other.order_), size_(other.size_), index_(other.index_),
      values_(other.data(), other.data() + other.count()) {}

template <class T>
PackedSymmetricTensor<T>& PackedSymmetricTensor<T>::operator=(const PackedSymmetricTensor& other) {
  if (this != &other) *this = PackedSymmetricTensor(other);
  return *this;
}

template <class T>
void PackedSymmetricTensor<T>::throw_written_borrowed() {
  throw internal_error("PackedSymmetricTensor: a borrowed tensor has no vector of its own (read data())");
}

void check_packed_shape(int order, int size) {
  if (order < 2 || order > max_packed_order)
    throw user_error("a packed symmetric tensor needs order >= 2 and <= " + std::to_string(max_packed_order) +
                     " (got " + std::to_string(order) + ")");
  if (size < 2) throw user_error("a packed symmetric tensor needs size >= 2 (got " + std::to_string(size) + ")");
  multiset_count(size, order);  // throws when the count overflows
}

int packed_size_of(int order, std::size_t count) {
  if (order < 2) throw user_error("a packed symmetric tensor needs order >= 2 (got " + std::to_string(order) + ")");
  // binom(N + D - 1, D) grows with N: walk up until it reaches the count.
  const std::string d = std::to_string(order);
  for (int size = 2;; ++size) {
    std::string at_text;
    std::size_t at = 0;
    try {
      at = multiset_count(size, order);
      at_text = std::to_string(at);
    } catch (const user_error&) {
      at = count + 1;  // past addressing, so past any count a file holds
      at_text = "more than addressing allows";
    }
    if (at == count) return size;
    if (at > count) {
      const std::string below =
          size > 2 ? std::to_string(multiset_count(size - 1, order)) + " for N = " + std::to_string(size - 1) + ", " : "";
      throw user_error(std::to_string(count) + " values are no packed symmetric tensor of order " + d +
                       ", which holds binom(N + " + std::to_string(order - 1) + ", " + d + ") values: " + below +
                       at_text + " for N = " + std::to_string(size));
    }
  }
}

double multiplicity(std::span<const int> sorted) {
  // D! / prod m_v!, built up as a product of binomials: the run of equal symbols ending at k
  // multiplies by (k+1) / (length of that run so far).
  double m = 1.0;
  int run = 0;
  for (std::size_t k = 0; k < sorted.size(); ++k) {
    run = k > 0 && sorted[k] == sorted[k - 1] ? run + 1 : 1;
    m = m * static_cast<double>(k + 1) / static_cast<double>(run);
  }
  return m;
}

template <class T>
PackedSymmetricTensor<T> pack_symmetric(const HostTensor<T>& full) {
  PackedSymmetricTensor<T> packed(full.order(), full.size());
  std::vector<int> tuple(static_cast<std::size_t>(full.order()), 0);
  const auto& strides = full.strides();
  for (std::size_t e = 0; e < packed.count(); ++e, packed.index().next(tuple)) {
    std::ptrdiff_t offset = 0;
    for (std::size_t n = 0; n < tuple.size(); ++n) offset += tuple[n] * strides[n];
    packed.values()[e] = full.data()[offset];
  }
  return packed;
}

template <class T>
HostTensor<T> unpack_symmetric(const PackedSymmetricTensor<T>& packed) {
  HostTensor<T> full(packed.order(), packed.size());
  const auto order = static_cast<std::size_t>(packed.order());
  std::vector<int> index(order), sorted(order);
  for (std::size_t flat = 0; flat < full.count(); ++flat) {
    std::size_t rest = flat;
    for (std::size_t n = order; n-- > 0; rest /= static_cast<std::size_t>(packed.size()))
      index[n] = static_cast<int>(rest % static_cast<std::size_t>(packed.size()));
    sorted = index;
    std::sort(sorted.begin(), sorted.end());
    full.values()[flat] = packed.at_sorted(sorted);
  }
  return full;
}

template class PackedSymmetricTensor<float>;
template class PackedSymmetricTensor<double>;
template PackedSymmetricTensor<float> pack_symmetric(const HostTensor<float>&);
template PackedSymmetricTensor<double> pack_symmetric(const HostTensor<double>&);
template HostTensor<float> unpack_symmetric(const PackedSymmetricTensor<float>&);
template HostTensor<double> unpack_symmetric(const PackedSymmetricTensor<double>&);

}  // namespace tensordiag::runtime
