#pragma once
// The scalar types a tensor holds: float and double, and their complex counterparts (issue 11,
// item 3). What the code that serves both needs to know of a type: whether it is complex, its real
// part's type, the type its checks are computed in (double, or complex<double>), |x|^2, the
// conjugate (the identity on real values) and finiteness.
#include <cmath>
#include <complex>
#include <type_traits>

namespace tensordiag::runtime {

template <class T>
struct complex_scalar : std::false_type {};
template <class R>
struct complex_scalar<std::complex<R>> : std::true_type {};
template <class T>
inline constexpr bool is_complex_v = complex_scalar<T>::value;

template <class T>
struct real_part_type {
  using type = T;
};
template <class R>
struct real_part_type<std::complex<R>> {
  using type = R;
};
// float for float and complex<float>, double for double and complex<double>.
template <class T>
using real_t = typename real_part_type<T>::type;

// The type a value of T is checked in: double, or complex<double>.
template <class T>
using wide_t = std::conditional_t<is_complex_v<T>, std::complex<double>, double>;

// |x|^2 without the square root of std::abs.
template <class T>
constexpr real_t<T> abs2(const T& x) {
  if constexpr (is_complex_v<T>) return x.real() * x.real() + x.imag() * x.imag();
  else return x * x;
}

// conj(x), the identity on real values (std::conj of a double would return a complex).
template <class T>
constexpr T conjugate(const T& x) {
  if constexpr (is_complex_v<T>) return std::conj(x);
  else return x;
}

// Whether x is finite: both parts of a complex value.
template <class T>
bool is_finite(const T& x) {
  if constexpr (is_complex_v<T>) return std::isfinite(x.real()) && std::isfinite(x.imag());
  else return std::isfinite(x);
}

// The real part, the value itself on real values.
template <class T>
constexpr real_t<T> real_part(const T& x) {
  if constexpr (is_complex_v<T>) return x.real();
  else return x;
}

}  // namespace tensordiag::runtime
