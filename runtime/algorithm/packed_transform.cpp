#include "runtime/algorithm/packed_transform.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>

#include "runtime/algorithm/for_each_tuple.hpp"
#include "runtime/algorithm/packed_figures.hpp"

namespace tensordiag::runtime {

namespace {

// Above this order the products run in long double (x87: 64-bit significand, 2^11 times double's):
// a distinct value's rounding error is shared by up to binom(D, D/2) full entries and adds
// coherently in the sums (packed_symmetric.hpp), 7.4e-14 of the norm at D = 24 in double.
constexpr int max_double_order = 12;

// Below this many multiply-adds a step runs on one thread.
constexpr std::size_t parallel_work = std::size_t{1} << 18;

// B_k as a column-major matrix: rows the sorted I (length k), columns the sorted J (length D - k),
// in the working precision W.
template <class W>
struct Intermediate {
  MultisetIndex rows;
  MultisetIndex columns;
  std::vector<W> values;  // values[column * rows.count() + row]
};

// B_(k+1) from B_k. For each column J' (a thread's share of them): where sorted(J' + l) lies among
// B_k's columns, for every l; then the rows I + i in order, which is B_(k+1)'s row order, so
// the row number just counts up.
template <class W>
Intermediate<W> next_mode(const Intermediate<W>& b, const std::vector<W>& m, int size, int threads) {
  const int k = b.rows.length();
  Intermediate<W> next{MultisetIndex(size, k + 1), MultisetIndex(size, b.columns.length() - 1), {}};
  next.values.assign(next.rows.count() * next.columns.count(), W(0));
  const std::size_t work = next.values.size() * static_cast<std::size_t>(size);
  const int parts = tuple_parts(work, parallel_work, threads);
  struct Scratch {
    std::vector<int> column_with, row;
    std::vector<std::size_t> at;
  };
  std::vector<Scratch> scratch(static_cast<std::size_t>(parts),
                               Scratch{std::vector<int>(static_cast<std::size_t>(b.columns.length())),
                                       std::vector<int>(static_cast<std::size_t>(k)),
                                       std::vector<std::size_t>(static_cast<std::size_t>(size))});
  for_each_tuple(next.columns, parts, [&](int part, std::size_t column, std::span<const int> j) {
    auto& [column_with, row, at] = scratch[static_cast<std::size_t>(part)];
    for (int l = 0; l < size; ++l) {
      insert_sorted(j, l, column_with);  // sorted(J' + l)
      at[static_cast<std::size_t>(l)] = b.columns.rank(column_with) * b.rows.count();
    }
    W* out = next.values.data() + column * next.rows.count();
    std::size_t out_row = 0;
    if (k > 0) b.rows.unrank(0, row);
    for (std::size_t r = 0; r < b.rows.count(); ++r) {
      if (r > 0) b.rows.next(row);
      for (int i = k > 0 ? row.back() : 0; i < size; ++i) {
        const W* mi = m.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(size);
        W sum = 0;
        for (int l = 0; l < size; ++l) sum += mi[l] * b.values[at[static_cast<std::size_t>(l)] + r];
        out[out_row++] = sum;
      }
    }
  });
  return next;
}

}  // namespace

std::size_t packed_transform_bytes(int order, int size) {
  std::size_t peak = 0;
  for (int k = 0; k < order; ++k)
    peak = std::max(peak, multiset_count(size, k) * multiset_count(size, order - k) +
                              multiset_count(size, k + 1) * multiset_count(size, order - k - 1));
  return peak * (order > max_double_order ? sizeof(long double) : sizeof(double));
}

template <class T>
PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<T>& a, const Matrix<T>& m,
                                                        int threads) {
  const auto chain = [&](auto zero) {
    using W = decltype(zero);
    const int size = a.size();
    const std::vector<W> mw(m.data.begin(), m.data.end());
    Intermediate<W> b{MultisetIndex(size, 0), MultisetIndex(size, a.order()),
                      std::vector<W>(a.data(), a.data() + a.count())};
    for (int k = 0; k < a.order(); ++k) b = next_mode(b, mw, size, threads);
    return PackedSymmetricTensor<double>(a.order(), size, std::vector<double>(b.values.begin(), b.values.end()));
  };
  return a.order() > max_double_order ? chain(static_cast<long double>(0)) : chain(0.0);
}

template <class T>
double packed_reconstruction_error(const PackedSymmetricTensor<T>& tensor, const PackedSymmetricTensor<T>& core,
                                   const Matrix<T>& q, int threads) {
  PackedSymmetricTensor<double> difference = multiply_every_mode_packed(core, q, threads);
  for (std::size_t e = 0; e < difference.count(); ++e)
    difference.values()[e] = static_cast<double>(tensor.data()[e]) - difference.values()[e];
  const double error = std::sqrt(packed_norm2(difference, threads));
  const double norm = std::sqrt(packed_norm2(tensor, threads));
  return norm > 0 ? error / norm : error;
}

template PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<float>&,
                                                                 const Matrix<float>&, int);
template PackedSymmetricTensor<double> multiply_every_mode_packed(const PackedSymmetricTensor<double>&,
                                                                 const Matrix<double>&, int);
template double packed_reconstruction_error(const PackedSymmetricTensor<float>&, const PackedSymmetricTensor<float>&,
                                            const Matrix<float>&, int);
template double packed_reconstruction_error(const PackedSymmetricTensor<double>&, const PackedSymmetricTensor<double>&,
                                            const Matrix<double>&, int);

}  // namespace tensordiag::runtime
