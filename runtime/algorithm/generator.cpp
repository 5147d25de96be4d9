#include "runtime/algorithm/generator.hpp"

#include <Eigen/Dense>
#include <cmath>
#include <sstream>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/algorithm/random_stream.hpp"

namespace tensordiag::runtime {

namespace {

// Haar-distributed orthogonal matrix: QR of a Gaussian matrix with R's diagonal made positive
// (Mezzadri 2007), so the distribution does not depend on the QR algorithm's sign choices.
Matrix<double> haar_orthogonal(int n, RandomStream& random) {
  Eigen::MatrixXd g(n, n);
  for (int i = 0; i < n; ++i)
    for (int j = 0; j < n; ++j) g(i, j) = random.gaussian();
  const Eigen::HouseholderQR<Eigen::MatrixXd> qr(g);
  const Eigen::MatrixXd q = qr.householderQ();
  const Eigen::MatrixXd& r = qr.matrixQR();
  Matrix<double> m{n, std::vector<double>(static_cast<std::size_t>(n) * n)};
  for (int j = 0; j < n; ++j) {
    const double sign = r(j, j) < 0 ? -1.0 : 1.0;
    for (int i = 0; i < n; ++i) m(i, j) = sign * q(i, j);
  }
  return m;
}

// T[i_1..i_D] = sum_l S_l prod_n Q_n[i_n, l], accumulated one rank-one term at a time with the
// product over the leading modes carried down a recursion (N^D multiply-adds per term).
void add_rank_one(std::vector<double>& t, const std::vector<std::ptrdiff_t>& strides,
                  const std::vector<Matrix<double>>& q, int l, int mode, double prefix, std::ptrdiff_t offset) {
  const int n = q[0].n;
  if (mode == static_cast<int>(q.size())) {
    t[static_cast<std::size_t>(offset)] += prefix;
    return;
  }
  for (int i = 0; i < n; ++i)
    add_rank_one(t, strides, q, l, mode + 1, prefix * q[static_cast<std::size_t>(mode)](i, l),
                 offset + i * strides[static_cast<std::size_t>(mode)]);
}

}  // namespace

template <class T>
GeneratedTensor<T> generate_diagonalizable(const GeneratorOptions& options) {
  if (options.order < 3) throw user_error("generate needs order >= 3 (order 2 is a matrix: use an SVD)");
  if (options.size < 2) throw user_error("generate needs size >= 2");
  if (!(options.noise >= 0) || !std::isfinite(options.noise)) throw user_error("noise must be a finite number >= 0");
  RandomStream random(options.seed);
  GeneratedTensor<T> out;
  for (int i = 0; i < options.size; ++i) out.diagonal.push_back(random.gaussian());
  for (int n = 0; n < options.order; ++n) out.factors.push_back(haar_orthogonal(options.size, random));

  const auto strides = strides_of(options.order, options.size, options.layout);
  std::vector<double> t(entry_count(options.order, options.size), 0.0);
  for (int l = 0; l < options.size; ++l) {
    stop_if_cancelled(options.cancelled);
    add_rank_one(t, strides, out.factors, l, 0, out.diagonal[static_cast<std::size_t>(l)], 0);
  }

  if (options.noise > 0) {
    stop_if_cancelled(options.cancelled);
    std::vector<double> g(t.size());
    double norm_t = 0.0, norm_g = 0.0;
    for (std::size_t i = 0; i < t.size(); ++i) {
      g[i] = random.gaussian();
      norm_t += t[i] * t[i];
      norm_g += g[i] * g[i];
    }
    const double scale = options.noise * std::sqrt(norm_t / norm_g);
    for (std::size_t i = 0; i < t.size(); ++i) t[i] += scale * g[i];
  }
  out.tensor = HostTensor<T>(options.order, options.size, options.layout, std::vector<T>(t.begin(), t.end()));
  // A huge noise (1e300, or 1e40 in float32) overflows to Inf, which no run accepts.
  for (std::size_t i = 0; i < out.tensor.count(); ++i)
    if (!std::isfinite(out.tensor.values()[i]))
      throw user_error("noise " + (std::ostringstream() << options.noise).str() +
                       " is too large: the tensor's values overflow " + std::string(to_string(dtype_of<T>())));
  return out;
}

template GeneratedTensor<float> generate_diagonalizable(const GeneratorOptions&);
template GeneratedTensor<double> generate_diagonalizable(const GeneratorOptions&);

}  // namespace tensordiag::runtime
