// A pass's mixing of a pair's two entries, x <- c x + t y (t = conj(s) at p, -s at q: the prelude's
// rotated_at_p / rotated_at_q), with fused multiply-adds (Tuning::pass_fma): t y + (c x) rounded
// once, where the prelude's form rounds c x, t y and their sum. A complex entry takes c x's two
// products and t y's four products added to them by fused multiply-adds (each part rounded twice,
// not four times): six instructions where the separate form takes ten. Not the CPU engine's
// arithmetic bit for bit, but within a rounding an entry and mode of it (DESIGN.md section 3).
__device__ __forceinline__ float fused(float a, float b, float c) { return __fmaf_rn(a, b, c); }
__device__ __forceinline__ double fused(double a, double b, double c) { return __fma_rn(a, b, c); }
template <class R>
__device__ __forceinline__ R fused_mixed(R x, R y, R c, R t) {
  return fused(t, y, c * x);
}
template <class R>
__device__ __forceinline__ tensordiag::dsl::Complex<R> fused_mixed(tensordiag::dsl::Complex<R> x, tensordiag::dsl::Complex<R> y,
                                                                  R c, tensordiag::dsl::Complex<R> t) {
  return {fused(t.re, y.re, fused(-t.im, y.im, c * x.re)), fused(t.re, y.im, fused(t.im, y.re, c * x.im))};
}

// A pass's c x + t y: with FUSED the fused form, else two products and a sum, the prelude's
// rotated_at_p / rotated_at_q to the last bit (u - v and u + (-v) round alike, and a product with
// -s is the negated product with s).
template <bool FUSED>
__device__ __forceinline__ Scalar pass_mixed(Scalar x, Scalar y, Real c, Scalar t) {
  if constexpr (FUSED) return fused_mixed(x, y, c, t);
  else return c * x + t * y;
}
// rotated_at_p / rotated_at_q through pass_mixed.
template <bool FUSED>
__device__ __forceinline__ Scalar pass_rotated_at_p(Rotation g, Scalar x_p, Scalar x_q) {
  return pass_mixed<FUSED>(x_p, x_q, real_cosine(g.c), conj(g.s));
}
template <bool FUSED>
__device__ __forceinline__ Scalar pass_rotated_at_q(Rotation g, Scalar x_q, Scalar x_p) {
  return pass_mixed<FUSED>(x_q, x_p, real_cosine(g.c), Scalar(-g.s));
}
