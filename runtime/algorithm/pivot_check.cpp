#include "runtime/algorithm/pivot_check.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>

namespace tensordiag::runtime {

namespace {

// Where index l goes in a group: its partner and whether it is the pair's p (first) index.
struct Membership {
  std::vector<int> partner;    // -1 when l is in no pair of the group
  std::vector<int> pair_of;    // index into group.pairs
  std::vector<bool> is_first;  // l == p
};

template <class T>
Membership membership(const GroupRotations<T>& group, int size) {
  Membership m{std::vector<int>(static_cast<std::size_t>(size), -1), std::vector<int>(static_cast<std::size_t>(size), -1),
               std::vector<bool>(static_cast<std::size_t>(size), false)};
  for (std::size_t k = 0; k < group.pairs.size(); ++k) {
    const auto [p, q] = group.pairs[k];
    m.partner[static_cast<std::size_t>(p)] = q;
    m.partner[static_cast<std::size_t>(q)] = p;
    m.pair_of[static_cast<std::size_t>(p)] = m.pair_of[static_cast<std::size_t>(q)] = static_cast<int>(k);
    m.is_first[static_cast<std::size_t>(p)] = true;
  }
  return m;
}

}  // namespace

template <class T>
std::vector<double> pivot_lambda(const T* tensor, const std::vector<std::ptrdiff_t>& strides, int size, int mode,
                                 const GroupRotations<T>* group) {
  const int order = static_cast<int>(strides.size());
  const std::size_t n = static_cast<std::size_t>(size);
  const int mixed_modes = group ? mode : 0;  // modes already rotated in this group step
  const Membership member = group ? membership(*group, size) : Membership{};

  // value(l, j) = C_{l..l with index j in `mode`}, after the group's rotations in modes < mode:
  // in mode m the index l of pair (p, q) is c_m A_l + s_m A_partner (l = p) or c_m A_l - s_m A_partner (l = q).
  auto value = [&](int l, int j) {
    std::ptrdiff_t base = j * strides[static_cast<std::size_t>(mode)];
    for (int m = mixed_modes; m < order; ++m)
      if (m != mode) base += l * strides[static_cast<std::size_t>(m)];
    const int partner = group ? member.partner[static_cast<std::size_t>(l)] : -1;
    if (partner < 0 || mixed_modes == 0) {
      for (int m = 0; m < mixed_modes; ++m) base += l * strides[static_cast<std::size_t>(m)];
      return static_cast<double>(tensor[base]);
    }
    const std::size_t k = static_cast<std::size_t>(member.pair_of[static_cast<std::size_t>(l)]);
    const double partner_sign = member.is_first[static_cast<std::size_t>(l)] ? 1.0 : -1.0;
    double sum = 0.0;
    for (unsigned bits = 0; bits < (1u << mixed_modes); ++bits) {
      std::ptrdiff_t offset = base;
      double weight = 1.0;
      for (int m = 0; m < mixed_modes; ++m) {
        const auto g = group->at(m, k);
        if ((bits >> m) & 1) {
          offset += partner * strides[static_cast<std::size_t>(m)];
          weight *= partner_sign * static_cast<double>(g.s);
        } else {
          offset += l * strides[static_cast<std::size_t>(m)];
          weight *= static_cast<double>(g.c);
        }
      }
      sum += weight * static_cast<double>(tensor[offset]);
    }
    return sum;
  };

  std::vector<double> diagonal(n);
  for (int l = 0; l < size; ++l) diagonal[static_cast<std::size_t>(l)] = value(l, l);
  std::vector<double> g(n * n);  // G[j, l] = C_{l..l} C_{l->j,n}
  for (int l = 0; l < size; ++l)
    for (int j = 0; j < size; ++j)
      g[static_cast<std::size_t>(j) * n + static_cast<std::size_t>(l)] =
          diagonal[static_cast<std::size_t>(l)] * (j == l ? diagonal[static_cast<std::size_t>(l)] : value(l, j));
  std::vector<double> lambda(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) lambda[i * n + j] = g[i * n + j] - g[j * n + i];
  return lambda;
}

// ||X||_2^2 is the largest eigenvalue of the symmetric positive semi-definite X^T X.
double skew_spectral_norm(const std::vector<double>& lambda, int size) {
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> x(lambda.data(), size,
                                                                                                    size);
  const Eigen::MatrixXd gram = x.transpose() * x;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, solver.eigenvalues().maxCoeff()));
}

template std::vector<double> pivot_lambda(const float*, const std::vector<std::ptrdiff_t>&, int, int,
                                          const GroupRotations<float>*);
template std::vector<double> pivot_lambda(const double*, const std::vector<std::ptrdiff_t>&, int, int,
                                          const GroupRotations<double>*);

}  // namespace tensordiag::runtime
