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

// value(l, j) = C_{l..l with index j in `mode`}, after the group's rotations in modes < mode:
// in mode m the index l of pair (p, q) is c_m A_l + s_m A_partner (l = p) or c_m A_l - s_m A_partner
// (l = q); held(l, j) says whether `offsets` holds the entries it reads.
template <class T>
class LambdaGather {
public:
  LambdaGather(const T* tensor, const IndexOffsets& offsets, int size, int mode, const GroupRotations<T>* group)
      : tensor_(tensor), offsets_(offsets), mode_(mode), group_(group), mixed_modes_(group ? mode : 0),
        member_(group ? membership(*group, size) : Membership{}) {}

  // The entries of value(l, j) lie at index j of `mode` and l (or its partner, held with it) elsewhere.
  bool held(int l, int j) const {
    const int sliced = offsets_.sliced_mode;
    if (sliced < 0) return true;
    return offsets_.holds(sliced, sliced == mode_ ? j : l);
  }

  double value(int l, int j) const {
    const int order = offsets_.order();
    std::ptrdiff_t base = offsets_(mode_, j);
    for (int m = mixed_modes_; m < order; ++m)
      if (m != mode_) base += offsets_(m, l);
    const int partner = group_ ? member_.partner[static_cast<std::size_t>(l)] : -1;
    if (partner < 0 || mixed_modes_ == 0) {
      for (int m = 0; m < mixed_modes_; ++m) base += offsets_(m, l);
      return static_cast<double>(tensor_[base]);
    }
    const std::size_t k = static_cast<std::size_t>(member_.pair_of[static_cast<std::size_t>(l)]);
    const double partner_sign = member_.is_first[static_cast<std::size_t>(l)] ? 1.0 : -1.0;
    double sum = 0.0;
    for (unsigned bits = 0; bits < (1u << mixed_modes_); ++bits) {
      std::ptrdiff_t offset = base;
      double weight = 1.0;
      for (int m = 0; m < mixed_modes_; ++m) {
        const auto g = group_->at(m, k);
        if ((bits >> m) & 1) {
          offset += offsets_(m, partner);
          weight *= partner_sign * static_cast<double>(g.s);
        } else {
          offset += offsets_(m, l);
          weight *= static_cast<double>(g.c);
        }
      }
      sum += weight * static_cast<double>(tensor_[offset]);
    }
    return sum;
  }

private:
  const T* tensor_;
  const IndexOffsets& offsets_;
  int mode_;
  const GroupRotations<T>* group_;
  int mixed_modes_;  // modes already rotated in this group step
  Membership member_;
};

}  // namespace

template <class T>
std::vector<double> pivot_lambda_diagonal(const T* tensor, const IndexOffsets& offsets, int size, int mode,
                                          const GroupRotations<T>* group) {
  const LambdaGather<T> gather(tensor, offsets, size, mode, group);
  std::vector<double> diagonal(static_cast<std::size_t>(size), 0.0);
  for (int l = 0; l < size; ++l)
    if (gather.held(l, l)) diagonal[static_cast<std::size_t>(l)] = gather.value(l, l);
  return diagonal;
}

template <class T>
std::vector<double> pivot_lambda_products(const T* tensor, const IndexOffsets& offsets, int size, int mode,
                                          const GroupRotations<T>* group, const std::vector<double>& diagonal) {
  const LambdaGather<T> gather(tensor, offsets, size, mode, group);
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<double> g(n * n, 0.0);  // G[j, l] = C_{l..l} C_{l->j,n}
  for (int l = 0; l < size; ++l)
    for (int j = 0; j < size; ++j)
      if (gather.held(l, j))
        g[static_cast<std::size_t>(j) * n + static_cast<std::size_t>(l)] =
            diagonal[static_cast<std::size_t>(l)] * (j == l ? diagonal[static_cast<std::size_t>(l)] : gather.value(l, j));
  return g;
}

std::vector<double> skew_part(const std::vector<double>& g, int size) {
  const std::size_t n = static_cast<std::size_t>(size);
  std::vector<double> lambda(n * n);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < n; ++j) lambda[i * n + j] = g[i * n + j] - g[j * n + i];
  return lambda;
}

template <class T>
std::vector<double> pivot_lambda(const T* tensor, const std::vector<std::ptrdiff_t>& strides, int size, int mode,
                                 const GroupRotations<T>* group) {
  const IndexOffsets offsets(strides);
  return skew_part(pivot_lambda_products(tensor, offsets, size, mode, group,
                                         pivot_lambda_diagonal(tensor, offsets, size, mode, group)),
                   size);
}

// ||X||_2^2 is the largest eigenvalue of the symmetric positive semi-definite X^T X.
double skew_spectral_norm(const std::vector<double>& lambda, int size) {
  const Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>> x(lambda.data(), size,
                                                                                                    size);
  const Eigen::MatrixXd gram = x.transpose() * x;
  const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> solver(gram, Eigen::EigenvaluesOnly);
  return std::sqrt(std::max(0.0, solver.eigenvalues().maxCoeff()));
}

#define TENSORDIAG_INSTANTIATE(T)                                                                       \
  template std::vector<double> pivot_lambda_diagonal(const T*, const IndexOffsets&, int, int,            \
                                                     const GroupRotations<T>*);                          \
  template std::vector<double> pivot_lambda_products(const T*, const IndexOffsets&, int, int,            \
                                                     const GroupRotations<T>*, const std::vector<double>&);
TENSORDIAG_INSTANTIATE(float)
TENSORDIAG_INSTANTIATE(double)
#undef TENSORDIAG_INSTANTIATE

template std::vector<double> pivot_lambda(const float*, const std::vector<std::ptrdiff_t>&, int, int,
                                          const GroupRotations<float>*);
template std::vector<double> pivot_lambda(const double*, const std::vector<std::ptrdiff_t>&, int, int,
                                          const GroupRotations<double>*);

}  // namespace tensordiag::runtime
