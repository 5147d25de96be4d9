// Scalar in double: the precision in which the pivot check, the split angles and the mode products
// sum their terms (double for float32 and float64, Complex<double> for complex64 and complex128),
// and back.
__device__ inline double widen(float x) { return x; }
__device__ inline double widen(double x) { return x; }
template <class R>
__device__ inline tensordiag::dsl::Complex<double> widen(tensordiag::dsl::Complex<R> z) {
  return {static_cast<double>(z.re), static_cast<double>(z.im)};
}
using Wide = decltype(widen(Scalar{}));

// A sum in Wide rounded to Scalar (S is Scalar: a template parameter only so that the complex
// overload is not compiled for a real Scalar).
template <class S = Scalar>
__device__ inline S narrow(double x) {
  return static_cast<S>(x);
}
template <class S = Scalar>
__device__ inline S narrow(tensordiag::dsl::Complex<double> z) {
  return S(static_cast<Real>(z.re), static_cast<Real>(z.im));
}
