#pragma once
// A lower bound on ||Lambda||_2 of a real skew-symmetric Lambda from power steps (issue 15 item 2).
//
// Lambda is normal (Lambda^T Lambda = Lambda Lambda^T), so with v = sum_i c_i x_i in its eigenvectors
// (eigenvalues i mu_i), ||Lambda^k v||^2 = sum_i |c_i|^2 |mu_i|^(2k) is log-convex in k: the ratios
// r_k = ||Lambda^(k+1) v|| / ||Lambda^k v|| never decrease, and each is <= ||Lambda||_2 (a Rayleigh
// quotient of S = Lambda^T Lambda is sqrt'ed: r_k^2 = x^T S x / x^T x, x = Lambda^k v). Starting
// from v = Lambda e_j, j the column of largest 2-norm, r_0 >= ||Lambda e_j||: never below the column
// bound. Each step is one N^2 product; two steps are one power step on S.
//
// Rounding (no trust in the iterate, only in the quotient of the stored x): w = fl(Lambda x) has
// |w - Lambda x| <= gamma_N |Lambda| |x| entrywise, so ||Lambda x|| >= ||w|| - gamma_N ||Lambda||_F ||x||
// (|| |Lambda| ||_2 <= ||Lambda||_F), and the square norms fl(sum w^2), fl(sum x^2) are within
// gamma_N relative. Each quotient is lowered by those terms; see step().
#include <vector>

namespace tensordiag::runtime {

class SkewPowerBound {
public:
  // `lambda`: N x N row-major, skew-symmetric, its largest entry scaled into [1, 2) (so that squares
  // neither overflow nor underflow to matter); `frobenius` >= ||Lambda||_F. Starts from the column
  // of largest 2-norm.
  SkewPowerBound(const std::vector<double>& lambda, int size, double frobenius);

  // One product x <- Lambda x; returns a rigorous lower bound on ||Lambda||_2 from it (0 when x
  // vanished). The best bound so far is best().
  double step();
  double best() const { return best_; }

private:
  const std::vector<double>& lambda_;
  int size_;
  double frobenius_;
  std::vector<double> x_, w_;
  double best_ = 0.0;
};

}  // namespace tensordiag::runtime
