// checked_rotation: one pair's rotation in mode n of a group under the pivot check (DESIGN.md
// section 2), for checked_angles (pivot_check_gather.cu) and for lambda_norm's epilogue, which takes
// it in the launch that found the norm. The rule's (c, s) from the pair's pivot entries after the
// group's rotations in modes < n, a = V[p, p], b = V[p, q], d = V[q, q], e = V[q, p] (the gather's
// or the summed pivot_check_lines', in double, rounded to Scalar as every angle kernel takes them),
// where 2 |Lambda_pq| >= eta ||Lambda||_2, and the identity where not.

// Entry (i, j) of an N x N matrix of Wide values kept as doubles in lambda_layout.cuh's layout (a
// complex one as its real 2N x 2N embedding).
template <class W = Wide>
__device__ inline W load(const double* array, int i, int j) {
  constexpr long long row = LAMBDA_SIZE;
  if constexpr (sizeof(W) == sizeof(double)) return W(array[i * row + j]);
  else return W(array[i * row + j], array[(N + i) * row + j]);
}

// Pair k of `pairs`; `lines` as pivot_check_gather writes them, `norm` = ||Lambda||_2 (or the
// bounds' stand-in that gives every pair the same verdict: lambda_norm.cu).
__device__ inline Rotation checked_rotation(const int* pairs, const double* lines, const double* lambda, double norm,
                                            double eta, int k) {
  const int p = pairs[2 * k], q = pairs[2 * k + 1];
  const bool accepted = 2.0 * lambda_magnitude(lambda, p, q) >= eta * norm;
  return accepted ? rule_rotation(narrow(load(lines, p, p)), narrow(load(lines, p, q)), narrow(load(lines, q, q)),
                                  narrow(load(lines, q, p)))
                  : Rotation{Scalar(1), Scalar(0)};
}
