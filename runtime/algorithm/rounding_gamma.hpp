#pragma once
// Higham's gamma_n = n u / (1 - n u), u = 2^-53 (double's unit roundoff): a sum or dot product of n
// terms computed in any order (fused multiply-adds included) is off by at most gamma_n times the
// sum of the terms' magnitudes (Higham, Accuracy and Stability of Numerical Algorithms, 3.1).
namespace tensordiag::runtime {

inline constexpr double unit_roundoff = 0x1p-53;

inline constexpr double rounding_gamma(double n) { return n * unit_roundoff / (1.0 - n * unit_roundoff); }

}  // namespace tensordiag::runtime
