#pragma once
// An upper bound test on ||Lambda||_2 (issue 15 item 2): ||Lambda||_2 < tau iff tau^2 I - S is
// positive definite, S = Lambda^T Lambda; a Cholesky factorization that runs to the end proves it,
// with rounding accounted for as follows (Higham, Accuracy and Stability, theorem 10.3).
//
// S_hat = fl(Lambda^T Lambda): |S_hat - S| <= gamma_N |Lambda|^T |Lambda|, so ||S_hat - S||_2 <= gamma_N F^2
// (F >= ||Lambda||_F). A = fl(tau^2 I - S_hat - c I) differs from tau^2 I - S_hat - c I by at most
// 5 u (tau^2 + F^2) on the diagonal. If the Cholesky factorization of A completes, R^T R = A + E with
// |E| <= gamma_{N+1} |R^T| |R|, so ||E||_2 <= gamma_{N+1} ||R||_F^2 and ||R||_F^2 = tr(A + E) <=
// tr(A) / (1 - gamma_{N+1}) <= N tau^2 / (1 - gamma_{N+1}) (S_hat's diagonal is >= 0). Then
//   tau^2 I - S = R^T R - E + c I + (rounding of A) + (S_hat - S) >= (c - ||E|| - 5 u (tau^2 + F^2) - gamma_N F^2) I,
// positive definite when c exceeds the sum of those terms, which is the shift used. It costs
// tau^2 about (N^2 + N (F / tau)^2) u relative: 4e-12 at N = 200 when F ~ sqrt(N) tau.
// Forming S is N^3 / 2 multiply-adds, each test N^3 / 6 more.
#include <vector>

namespace tensordiag::runtime {

class GramNormTest {
public:
  // `lambda`: N x N row-major, skew-symmetric, its largest entry scaled into [1, 2);
  // `frobenius` >= ||Lambda||_F.
  GramNormTest(const std::vector<double>& lambda, int size, double frobenius);

  // true proves ||Lambda||_2 < tau; false proves nothing (the factorization met a pivot <= 0).
  bool certifies_below(double tau) const;

private:
  int size_;
  double frobenius2_;
  std::vector<double> gram_;  // S_hat, row-major (both triangles)
};

}  // namespace tensordiag::runtime
