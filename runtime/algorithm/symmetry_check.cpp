#include "runtime/algorithm/symmetry_check.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <sstream>
#include <string>
#include <utility>

#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::runtime {

namespace {

std::string index_text(const std::vector<int>& index) {
  std::string out = "[";
  for (std::size_t n = 0; n < index.size(); ++n) out += (n ? ", " : "") + std::to_string(index[n]);
  return out + "]";
}

// " = x" (" = x + yi" for a complex entry), every digit.
template <class T>
std::string value_text(T value) {
  char text[80];
  if constexpr (is_complex_v<T>)
    std::snprintf(text, sizeof text, " = %.17g %+.17gi", static_cast<double>(value.real()),
                  static_cast<double>(value.imag()));
  else
    std::snprintf(text, sizeof text, " = %.17g", static_cast<double>(value));
  return text;
}

}  // namespace

template <class T>
SymmetryDeviation symmetry_deviation(const HostTensor<T>& tensor, int sign) {
  const int order = tensor.order();
  const int size = tensor.size();
  const auto& strides = tensor.strides();
  SymmetryDeviation worst;
  // Walk every multi-index (odometer over the modes), carrying its offset.
  std::vector<int> index(static_cast<std::size_t>(order), 0);
  std::ptrdiff_t offset = 0;
  for (std::size_t flat = 0; flat < tensor.count(); ++flat) {
    for (int n = 0; n + 1 < order; ++n) {
      const auto i = static_cast<std::size_t>(n);
      // Each unordered pair once; equal indices too for skew, where they compare T with -T.
      if (sign > 0 ? index[i] >= index[i + 1] : index[i] > index[i + 1]) continue;
      const std::ptrdiff_t swapped =
          offset + (index[i + 1] - index[i]) * (strides[i] - strides[i + 1]);
      const double deviation = std::abs(wide_t<T>(tensor.data()[offset]) - double(sign) * wide_t<T>(tensor.data()[swapped]));
      if (deviation > worst.largest) worst = {deviation, index, n};
    }
    for (int n = order - 1; n >= 0; --n) {
      const auto i = static_cast<std::size_t>(n);
      offset += strides[i];
      if (++index[i] < size) break;
      offset -= size * strides[i];
      index[i] = 0;
    }
  }
  return worst;
}

namespace {

// A complex matrix that is Hermitian (T[i, j] = conj(T[j, i]) to the symmetry tolerance): what a
// physicist's operator usually is, and what structure symmetric (T = T^T) is not.
template <class T>
bool is_hermitian_matrix(const HostTensor<T>& tensor, double largest_entry) {
  if constexpr (!is_complex_v<T>) return false;
  else {
    if (tensor.order() != 2) return false;
    for (int i = 0; i < tensor.size(); ++i)
      for (int j = i; j < tensor.size(); ++j)
        if (std::abs(wide_t<T>(tensor.at({i, j})) - std::conj(wide_t<T>(tensor.at({j, i})))) >
            symmetry_tolerance<T>() * largest_entry)
          return false;
    return true;
  }
}

}  // namespace

template <class T>
void check_structure(const HostTensor<T>& tensor, Structure structure) {
  if (structure == Structure::general) return;
  const bool skew = structure == Structure::skew;
  const SymmetryDeviation worst = symmetry_deviation(tensor, skew ? -1 : 1);
  double largest_entry = 0.0;
  for (std::size_t i = 0; i < tensor.count(); ++i)  // data(): the tensor may borrow its values
    largest_entry = std::max(largest_entry, static_cast<double>(std::abs(tensor.data()[i])));
  if (worst.largest <= symmetry_tolerance<T>() * largest_entry) return;
  std::vector<int> other = worst.index;
  std::swap(other[static_cast<std::size_t>(worst.mode)], other[static_cast<std::size_t>(worst.mode) + 1]);
  const std::string first = value_text(tensor.at(worst.index));
  char deviation[120];
  std::snprintf(deviation, sizeof deviation, " (%s %.3e, over %.0e of max|T| = %.3e)", skew ? "sum" : "difference",
                worst.largest, symmetry_tolerance<T>(), largest_entry);
  const std::string second = value_text(tensor.at(other)) + deviation;
  if (skew && worst.index == other)
    throw user_error("the tensor is not skew-symmetric: T" + index_text(worst.index) + first +
                     " has a repeated index, where a skew-symmetric tensor is 0 (over " +
                     (std::ostringstream() << symmetry_tolerance<T>()).str() + " of max|T|)");
  const std::string hermitian =
      !skew && is_hermitian_matrix(tensor, largest_entry)
          ? " (this matrix is Hermitian, T[i, j] = conj(T[j, i]): its eigendecomposition is numpy.linalg.eigh; a "
            "complex matrix with structure symmetric has T = T^T and gets the Takagi factorization)"
          : "";
  throw user_error("the tensor is not " + std::string(skew ? "skew-symmetric" : "symmetric") + ": T" +
                   index_text(worst.index) + first + " but T" + index_text(other) + second + "; structure " +
                   std::string(to_string(structure)) +
                   (skew ? " needs T to change sign under every swap of two indices"
                         : " needs the same value under every permutation of the indices") +
                   hermitian);
}

template SymmetryDeviation symmetry_deviation(const HostTensor<float>&, int);
template SymmetryDeviation symmetry_deviation(const HostTensor<double>&, int);
template void check_structure(const HostTensor<float>&, Structure);
template void check_structure(const HostTensor<double>&, Structure);
template SymmetryDeviation symmetry_deviation(const HostTensor<std::complex<float>>&, int);
template SymmetryDeviation symmetry_deviation(const HostTensor<std::complex<double>>&, int);
template void check_structure(const HostTensor<std::complex<float>>&, Structure);
template void check_structure(const HostTensor<std::complex<double>>&, Structure);

}  // namespace tensordiag::runtime
