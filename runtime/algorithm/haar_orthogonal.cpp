#include "runtime/algorithm/haar_orthogonal.hpp"

#include <Eigen/Dense>

namespace tensordiag::runtime {

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

}  // namespace tensordiag::runtime
