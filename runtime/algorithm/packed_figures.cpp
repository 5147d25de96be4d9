#include "runtime/algorithm/packed_figures.hpp"

#include <numeric>

#include "runtime/algorithm/for_each_tuple.hpp"

namespace tensordiag::runtime {

namespace {

// Below this many distinct entries one thread sums them faster than a team.
constexpr std::size_t parallel_entries = std::size_t{1} << 16;

// sum_e multiplicity(e) A_e^2 over every distinct entry, or over those off the diagonal.
template <class T>
double weighted_squares(const PackedSymmetricTensor<T>& tensor, int threads, bool off_diagonal_only) {
  const int parts = tuple_parts(tensor.count(), parallel_entries, threads);
  std::vector<double> sums(static_cast<std::size_t>(parts), 0.0);
  for_each_tuple(tensor.index(), parts, [&](int part, std::size_t position, std::span<const int> tuple) {
    if (off_diagonal_only && tuple.front() == tuple.back()) return;  // sorted: a diagonal entry
    const double x = static_cast<double>(tensor.data()[position]);
    sums[static_cast<std::size_t>(part)] += multiplicity(tuple) * x * x;
  });
  return std::accumulate(sums.begin(), sums.end(), 0.0);
}

}  // namespace

template <class T>
CoreFigures packed_core_figures(const PackedSymmetricTensor<T>& tensor, int threads) {
  CoreFigures figures;
  figures.off_norm2 = weighted_squares(tensor, threads, true);
  std::vector<int> diagonal(static_cast<std::size_t>(tensor.order()));
  for (int i = 0; i < tensor.size(); ++i) {
    std::fill(diagonal.begin(), diagonal.end(), i);
    const double x = static_cast<double>(tensor.at_sorted(diagonal));
    figures.diag_norm2 += x * x;
    figures.trace += x;
  }
  return figures;
}

template <class T>
double packed_norm2(const PackedSymmetricTensor<T>& tensor, int threads) {
  return weighted_squares(tensor, threads, false);
}

template CoreFigures packed_core_figures(const PackedSymmetricTensor<float>&, int);
template CoreFigures packed_core_figures(const PackedSymmetricTensor<double>&, int);
template double packed_norm2(const PackedSymmetricTensor<float>&, int);
template double packed_norm2(const PackedSymmetricTensor<double>&, int);

}  // namespace tensordiag::runtime
