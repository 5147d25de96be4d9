#include "runtime/algorithm/homogeneous_polynomial.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <numbers>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

HomogeneousPolynomial HomogeneousPolynomial::zero(int degree) {
  return {degree, std::vector<double>(static_cast<std::size_t>(degree) + 1, 0.0)};
}

// Horner in t = s/c fails at c = 0; Horner in whichever of t = s/c and u = c/s is at most 1 in
// size does not: h = c^m sum_j coef[j] t^j = s^m sum_j coef[j] u^(m-j).
double HomogeneousPolynomial::operator()(double c, double s) const {
  double sum = 0.0;
  if (std::abs(c) >= std::abs(s)) {
    if (c == 0.0) return 0.0;
    const double t = s / c;
    for (int j = degree; j >= 0; --j) sum = sum * t + coef[static_cast<std::size_t>(j)];
    return sum * std::pow(c, degree);
  }
  const double u = c / s;
  for (int j = 0; j <= degree; ++j) sum = sum * u + coef[static_cast<std::size_t>(j)];
  return sum * std::pow(s, degree);
}

HomogeneousPolynomial operator+(const HomogeneousPolynomial& x, const HomogeneousPolynomial& y) {
  if (x.degree != y.degree) throw internal_error("adding homogeneous polynomials of different degrees");
  HomogeneousPolynomial sum = x;
  for (std::size_t j = 0; j < sum.coef.size(); ++j) sum.coef[j] += y.coef[j];
  return sum;
}

HomogeneousPolynomial operator*(const HomogeneousPolynomial& x, const HomogeneousPolynomial& y) {
  HomogeneousPolynomial product = HomogeneousPolynomial::zero(x.degree + y.degree);
  for (std::size_t i = 0; i < x.coef.size(); ++i)
    for (std::size_t j = 0; j < y.coef.size(); ++j) product.coef[i + j] += x.coef[i] * y.coef[j];
  return product;
}

HomogeneousPolynomial derivative(const HomogeneousPolynomial& h) {
  const int m = h.degree;
  HomogeneousPolynomial d = HomogeneousPolynomial::zero(m);
  for (int j = 0; j <= m; ++j) {
    const double a = h.coef[static_cast<std::size_t>(j)];
    if (j > 0) d.coef[static_cast<std::size_t>(j - 1)] += j * a;
    if (j < m) d.coef[static_cast<std::size_t>(j + 1)] -= (m - j) * a;
  }
  return d;
}

std::vector<double> real_root_angles(const HomogeneousPolynomial& h) {
  double scale = 0.0;
  for (double a : h.coef) scale = std::max(scale, std::abs(a));
  if (scale == 0.0) return {};
  // Coefficients below rounding of the largest are noise of the products that built them: a
  // vanishing leading coefficient means roots at t = infinity, i.e. phi = pi/2.
  const double negligible = 64 * std::numeric_limits<double>::epsilon() * scale;
  int top = h.degree;
  while (top > 0 && std::abs(h.coef[static_cast<std::size_t>(top)]) <= negligible) --top;
  std::vector<double> angles;
  if (top < h.degree) angles.push_back(std::numbers::pi / 2);
  if (top == 0) return angles;
  // Companion matrix of the monic t^top + sum_{j<top} (coef[j]/coef[top]) t^j.
  Eigen::MatrixXd companion = Eigen::MatrixXd::Zero(top, top);
  for (int i = 1; i < top; ++i) companion(i, i - 1) = 1.0;
  for (int j = 0; j < top; ++j)
    companion(j, top - 1) = -h.coef[static_cast<std::size_t>(j)] / h.coef[static_cast<std::size_t>(top)];
  const Eigen::EigenSolver<Eigen::MatrixXd> solver(companion, false);
  // Every eigenvalue's real part: a root of multiplicity k comes back split by about eps^(1/k)
  // into a complex cluster, which no threshold on the imaginary part sorts out for every k.
  for (const auto& root : solver.eigenvalues())
    if (std::isfinite(root.real())) angles.push_back(std::atan(root.real()));
  return angles;
}

}  // namespace tensordiag::runtime
