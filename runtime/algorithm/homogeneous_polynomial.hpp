#pragma once
// Homogeneous polynomials in (c, s) = (cos phi, sin phi): h(c, s) = sum_j coef[j] c^(m-j) s^j of
// degree m. On the unit circle they are the trigonometric polynomials in phi that a rotation of all
// D modes by one Givens angle produces (DESIGN.md section 7, symmetric tensors): the rotated diagonal
// entries have degree D, the objective degree 2D. Derivatives in phi keep the degree, so stationary
// points are the real roots of one polynomial in t = tan phi.
#include <vector>

namespace tensordiag::runtime {

struct HomogeneousPolynomial {
  int degree = 0;
  std::vector<double> coef;  // coef[j]: c^(degree - j) s^j, j = 0..degree

  static HomogeneousPolynomial zero(int degree);
  double operator()(double c, double s) const;
};

HomogeneousPolynomial operator+(const HomogeneousPolynomial& x, const HomogeneousPolynomial& y);  // same degree
HomogeneousPolynomial operator*(const HomogeneousPolynomial& x, const HomogeneousPolynomial& y);

// d/dphi with dc/dphi = -s, ds/dphi = c:
//   d/dphi c^(m-j) s^j = j c^(m-j+1) s^(j-1) - (m-j) c^(m-j-1) s^(j+1)   (degree m again).
HomogeneousPolynomial derivative(const HomogeneousPolynomial& h);

// Candidates for the real roots phi in (-pi/2, pi/2] of h(cos phi, sin phi) = 0 (h not all zero; the roots
// repeat with period pi, as h(-c, -s) = +-h(c, s)): with t = tan phi, h / c^m = sum_j coef[j] t^j, whose roots are the eigenvalues of its
// companion matrix (Eigen), plus phi = pi/2 (c = 0) when the t^m coefficient vanishes. Every
// eigenvalue is returned by the angle of its real part, complex ones too, so a multiple root split
// by rounding into a complex cluster is not lost: the result is a superset of the real roots, for
// callers that compare objective values at the candidates (an extra one costs an evaluation).
std::vector<double> real_root_angles(const HomogeneousPolynomial& h);

}  // namespace tensordiag::runtime
