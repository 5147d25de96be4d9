#pragma once
// (c, s) of a Givens rotation from the two closed forms a rule can produce. Plain C++ that NVRTC
// also compiles (no std:: inside device code), so the host and the kernels share one formula.
#if !defined(__CUDACC_RTC__)
#include <cmath>
#endif

#if defined(__CUDACC__) || defined(__CUDACC_RTC__)
#define TENSORDIAG_HOST_DEVICE __host__ __device__
#else
#define TENSORDIAG_HOST_DEVICE
#endif

namespace tensordiag::dsl {

template <class T>
struct Givens {
  T c;
  T s;
};

// phi = atan2(y, x): (c, s) = (x, y) / |(x, y)|; the identity when x = y = 0.
template <class T>
TENSORDIAG_HOST_DEVICE inline Givens<T> givens_from_direction(T x, T y) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const T r = sqrt(x * x + y * y);
  if (r == T(0)) return {T(1), T(0)};
  return {x / r, y / r};
}

// 2 phi = atan2(y, x), without trigonometry (DESIGN.md section 2): with r = |(x, y)| and
// cos 2phi = x / r, c = sqrt((1 + x/r) / 2) and s = y / (2 r c), since sin 2phi = 2 s c = y / r.
// When x/r is near -1, c is tiny and the division loses digits; then
// s = sign(y) sqrt((1 - x/r) / 2) and c = y / (2 r s) (sign(0) = +1 there: 2phi = pi).
// The result has c >= 0 or s > 0, i.e. phi in (-pi/2, pi/2].
template <class T>
TENSORDIAG_HOST_DEVICE inline Givens<T> givens_from_double_angle(T x, T y) {
#if !defined(__CUDACC_RTC__)
  using std::sqrt;
#endif
  const T r = sqrt(x * x + y * y);
  if (r == T(0)) return {T(1), T(0)};
  const T cos2 = x / r;
  if (cos2 > T(-0.5)) {
    const T c = sqrt((T(1) + cos2) / T(2));
    // Here 2 r c is positive and not NaN, so y = +-0 gives s = y without the division: the same
    // value and sign. On the GPU a zero numerator sends the correctly rounded division down its
    // slow path (a subroutine call on the angles' critical path), and converged pivots have y = 0
    // exactly: in 38 of the 70 group steps of a float32 N = 8, D = 3 run of 10 sweeps (Nsight Compute).
    return {c, y == T(0) ? y : y / (T(2) * r * c)};
  }
  const T s = (y < T(0) ? T(-1) : T(1)) * sqrt((T(1) - cos2) / T(2));
  return {y / (T(2) * r * s), s};
}

}  // namespace tensordiag::dsl
