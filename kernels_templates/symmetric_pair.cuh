// symmetric_pair: structure symmetric's pair rotations for the kinds that run a group in shared memory
// (small_tensor, subspace_angles; codegen::KernelSpec::symmetric), after pivot_subtensor.cuh.
//
// Structure symmetric (DESIGN.md section 7): pair (p, q)'s one rotation, the same in every mode,
// from the D + 1 means t_k of its pivot subtensor (k = the number of indices q, the popcount of
// `bits`), summed in `bits` order in double as the CPU symmetric engine sums them (every lane the
// same sums, read by broadcast), by symmetric_warp_angle.cuh. The rotation of mode n goes to
// out[n * PAIRS]. A complex dtype (TENSORDIAG_UNITARY_SYMMETRIC, orders 2 and 3): the unitary step
// of dsl/symmetric_unitary_angle.hpp instead.
__device__ inline void symmetric_pair_rotations(const Scalar* tensor, int p, int q, Scalar* sub, int lane,
                                                Rotation* out) {
  gather_subtensor(tensor, p, q, sub, lane);  // ends with __syncwarp: every lane sees it
#if defined(TENSORDIAG_UNITARY_SYMMETRIC)
  // A complex symmetric tensor: the means of both parts, then lane 0's unitary step
  // (dsl/symmetric_unitary_angle.hpp), as the CPU's complex symmetric engine sums and takes them.
  double t_re[D + 1], t_im[D + 1], count[D + 1];
#pragma unroll
  for (int k = 0; k <= D; ++k) t_re[k] = t_im[k] = count[k] = 0.0;
  for (int bits = 0; bits < SUBTENSOR; ++bits) {
    const int k = __popc(bits);
    t_re[k] += static_cast<double>(sub[bits].re);
    t_im[k] += static_cast<double>(sub[bits].im);
    count[k] += 1.0;
  }
#pragma unroll
  for (int k = 0; k <= D; ++k) {
    t_re[k] /= count[k];
    t_im[k] /= count[k];
  }
  if (lane == 0) {
    double al = 1.0, be_re = 0.0, be_im = 0.0;
    tensordiag::dsl::symmetric_unitary_rotation_in<Real>(D, t_re, t_im, al, be_re, be_im);
    const Rotation rotation{Scalar(static_cast<Real>(al)), Scalar(static_cast<Real>(be_re), static_cast<Real>(be_im))};
    for (int mode = 0; mode < D; ++mode) out[mode * PAIRS] = rotation;
  }
#else
  double t[D + 1];
  double count[D + 1];
#pragma unroll
  for (int k = 0; k <= D; ++k) t[k] = count[k] = 0.0;
  for (int bits = 0; bits < SUBTENSOR; ++bits) {
    const int k = __popc(bits);
    t[k] += static_cast<double>(sub[bits]);
    count[k] += 1.0;
  }
#pragma unroll
  for (int k = 0; k <= D; ++k) t[k] /= count[k];
  const tensordiag::dsl::Givens<double> g = warp_symmetric_angle(t, lane);
  if (lane == 0) {
    const Rotation rotation{static_cast<Scalar>(g.c), static_cast<Scalar>(g.s)};
    for (int mode = 0; mode < D; ++mode) out[mode * PAIRS] = rotation;
  }
#endif
  __syncwarp();  // every lane has read `sub` before the warp's next pair overwrites it
}
