#pragma once
// The complex scalar of the generated kernels (issue 11, item 3): plain C++ that NVRTC compiles
// (it has no <complex>), laid out as std::complex<R> is (real part, then imaginary part), so a
// buffer of std::complex<R> on the host is a buffer of Complex<R> on the device. Aligned to its
// size, so that one entry is one 8- or 16-byte load. Also the real overloads the kernels write
// their arithmetic with, so that one text serves float, double and complex: conj(x) = x and
// norm(x) = x^2 on a real x (std::norm's name: |x|^2, not the 2-norm).
#if !defined(__CUDACC_RTC__)
#include "dsl/givens.hpp"  // TENSORDIAG_HOST_DEVICE (generated sources hold givens.hpp before this)
#endif

namespace tensordiag::dsl {

template <class R>
struct alignas(2 * sizeof(R)) Complex {
  R re, im;

  Complex() = default;  // trivial: __shared__ arrays of it need no constructor
  TENSORDIAG_HOST_DEVICE constexpr Complex(R x, R y = R(0)) : re(x), im(y) {}

  TENSORDIAG_HOST_DEVICE constexpr Complex& operator+=(Complex z) {
    re += z.re;
    im += z.im;
    return *this;
  }
};

template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator+(Complex<R> x, Complex<R> y) {
  return {x.re + y.re, x.im + y.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator-(Complex<R> x, Complex<R> y) {
  return {x.re - y.re, x.im - y.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator-(Complex<R> x) {
  return {-x.re, -x.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator*(Complex<R> x, Complex<R> y) {
  return {x.re * y.re - x.im * y.im, x.re * y.im + x.im * y.re};
}
// A real factor scales both parts (no product with a zero imaginary part, which would turn
// Inf * 0 into NaN).
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator*(R x, Complex<R> y) {
  return {x * y.re, x * y.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator*(Complex<R> x, R y) {
  return {x.re * y, x.im * y};
}
// Real constants in a rule's terms (2 * a, a - 1).
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator+(Complex<R> x, R y) {
  return {x.re + y, x.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator+(R x, Complex<R> y) {
  return {x + y.re, y.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator-(Complex<R> x, R y) {
  return {x.re - y, x.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator-(R x, Complex<R> y) {
  return {x - y.re, -y.im};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> operator/(Complex<R> x, R y) {
  return {x.re / y, x.im / y};
}
template <class R>
TENSORDIAG_HOST_DEVICE constexpr bool operator==(Complex<R> x, Complex<R> y) {
  return x.re == y.re && x.im == y.im;
}

template <class R>
TENSORDIAG_HOST_DEVICE constexpr Complex<R> conj(Complex<R> z) {
  return {z.re, -z.im};
}
// |z|^2.
template <class R>
TENSORDIAG_HOST_DEVICE constexpr R norm(Complex<R> z) {
  return z.re * z.re + z.im * z.im;
}

TENSORDIAG_HOST_DEVICE constexpr float conj(float x) { return x; }
TENSORDIAG_HOST_DEVICE constexpr double conj(double x) { return x; }
TENSORDIAG_HOST_DEVICE constexpr float norm(float x) { return x * x; }
TENSORDIAG_HOST_DEVICE constexpr double norm(double x) { return x * x; }

}  // namespace tensordiag::dsl
