// lambda_layout: how pivot_check_gather lays out the pivot check's Lambda, for the kernels that read
// it (checked_angles, lambda_norm). A real tensor's Lambda is N x N, row-major. A complex
// tensor's skew-Hermitian Lambda is its real 2N x 2N embedding E = [[Re, -Im], [Im, Re]], row-major:
// real skew-symmetric with Lambda's singular values, each twice (DESIGN.md section 7).
inline constexpr bool LAMBDA_EMBEDDED = sizeof(Scalar) != sizeof(Real);
inline constexpr int LAMBDA_SIZE = LAMBDA_EMBEDDED ? 2 * N : N;  // the rows (and columns) of the array

// |Lambda_pq|, p, q < N.
__device__ inline double lambda_magnitude(const double* lambda, int p, int q) {
  if constexpr (LAMBDA_EMBEDDED) return hypot(lambda[p * LAMBDA_SIZE + q], lambda[(N + p) * LAMBDA_SIZE + q]);
  else return fabs(lambda[p * LAMBDA_SIZE + q]);
}
