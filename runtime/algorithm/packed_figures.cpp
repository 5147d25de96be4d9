#include "runtime/algorithm/packed_figures.hpp"

#include <omp.h>

#include <numeric>

#include "runtime/algorithm/for_each_tuple.hpp"

namespace tensordiag::runtime {

namespace {

// Below this many distinct entries one thread sums them faster than a team.
constexpr std::size_t parallel_entries = std::size_t{1} << 16;

int parts_for(std::size_t count, int threads) {
  return count >= parallel_entries ? (threads > 0 ? threads : omp_get_max_threads()) : 1;
}

}  // namespace

template <class T>
CoreFigures packed_core_figures(const PackedSymmetricTensor<T>& tensor, int threads) {
  const int parts = parts_for(tensor.count(), threads);
  std::vector<double> off(static_cast<std::size_t>(parts), 0.0);
  for_each_tuple(tensor.index(), parts, [&](int part, std::size_t position, std::span<const int> tuple) {
    if (tuple.front() == tuple.back()) return;  // sorted: the diagonal entries
    const double x = static_cast<double>(tensor.values()[position]);
    off[static_cast<std::size_t>(part)] += multiplicity(tuple) * x * x;
  });
  CoreFigures figures;
  figures.off_norm2 = std::accumulate(off.begin(), off.end(), 0.0);
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
  const int parts = parts_for(tensor.count(), threads);
  std::vector<double> sums(static_cast<std::size_t>(parts), 0.0);
  for_each_tuple(tensor.index(), parts, [&](int part, std::size_t position, std::span<const int> tuple) {
    const double x = static_cast<double>(tensor.values()[position]);
    sums[static_cast<std::size_t>(part)] += multiplicity(tuple) * x * x;
  });
  return std::accumulate(sums.begin(), sums.end(), 0.0);
}

template CoreFigures packed_core_figures(const PackedSymmetricTensor<float>&, int);
template CoreFigures packed_core_figures(const PackedSymmetricTensor<double>&, int);
template double packed_norm2(const PackedSymmetricTensor<float>&, int);
template double packed_norm2(const PackedSymmetricTensor<double>&, int);

}  // namespace tensordiag::runtime
