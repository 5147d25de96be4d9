#include "runtime/algorithm/packed_hosvd_start.hpp"

#include <Eigen/Dense>

#include "runtime/algorithm/for_each_tuple.hpp"
#include "runtime/algorithm/hosvd_basis.hpp"
#include "runtime/algorithm/packed_transform.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

template <class T>
std::vector<double> packed_gram(const PackedSymmetricTensor<T>& tensor, int threads) {
  const int size = tensor.size();
  const auto n = static_cast<std::size_t>(size);
  const MultisetIndex rests(size, tensor.order() - 1);
  const std::size_t work = rests.count() * n * n;
  const int parts = tuple_parts(work, std::size_t{1} << 18, threads);
  std::vector<std::vector<double>> sums(static_cast<std::size_t>(parts), std::vector<double>(n * n, 0.0));
  std::vector<std::vector<int>> with(static_cast<std::size_t>(parts), std::vector<int>(static_cast<std::size_t>(tensor.order())));
  std::vector<std::vector<double>> column(static_cast<std::size_t>(parts), std::vector<double>(n));
  for_each_tuple(rests, parts, [&](int part, std::size_t, std::span<const int> j) {
    auto& tuple = with[static_cast<std::size_t>(part)];
    auto& v = column[static_cast<std::size_t>(part)];
    for (int l = 0; l < size; ++l) {
      insert_sorted(j, l, tuple);  // T[sorted(J + l)]
      v[static_cast<std::size_t>(l)] = static_cast<double>(tensor.at_sorted(tuple));
    }
    const double weight = multiplicity(j);
    double* g = sums[static_cast<std::size_t>(part)].data();
    for (std::size_t a = 0; a < n; ++a)
      for (std::size_t b = 0; b < n; ++b) g[a * n + b] += weight * v[a] * v[b];
  });
  for (std::size_t part = 1; part < sums.size(); ++part)
    for (std::size_t e = 0; e < n * n; ++e) sums.front()[e] += sums[part][e];
  return sums.front();
}

template <class T>
PackedHosvdStart<T> packed_hosvd_start(const PackedSymmetricTensor<T>& tensor, int threads) {
  const Stopwatch stopwatch;
  const int size = tensor.size();
  const std::vector<double> gram = packed_gram(tensor, threads);
  const Eigen::Map<const Eigen::MatrixXd> g(gram.data(), size, size);  // symmetric: either order
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(g);
  PackedHosvdStart<T> start;
  start.basis = hosvd_basis<T, double>(solver.eigenvectors().data(), size);
  Matrix<T> transposed = start.basis;
  for (int i = 0; i < size; ++i)
    for (int j = 0; j < size; ++j) transposed(i, j) = start.basis(j, i);
  const PackedSymmetricTensor<double> rotated = multiply_every_mode_packed(tensor, transposed, threads);
  start.rotated = PackedSymmetricTensor<T>(tensor.order(), size,
                                           std::vector<T>(rotated.values().begin(), rotated.values().end()));
  start.seconds = stopwatch.seconds();
  return start;
}

template PackedHosvdStart<float> packed_hosvd_start(const PackedSymmetricTensor<float>&, int);
template PackedHosvdStart<double> packed_hosvd_start(const PackedSymmetricTensor<double>&, int);
template std::vector<double> packed_gram(const PackedSymmetricTensor<float>&, int);
template std::vector<double> packed_gram(const PackedSymmetricTensor<double>&, int);

}  // namespace tensordiag::runtime
