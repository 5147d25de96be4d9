// pivot_check_gather: Lambda of mode n for the pivot check (DESIGN.md section 2;
// runtime/pivot_check.cpp, pivot_lambda with a group):
//   Lambda = G - G^T,   G[j, l] = C_{l..l} * C_{l->j,n},
// C the core after this group's rotations in modes < n. The tensor still holds the core from
// before the group (group_pass runs after all modes), so each entry of C it needs is rebuilt from
// at most 2^n entries: in mode m < n, index l of pair (p, q) is c_m A_l + s_m A_partner (l = p)
// or c_m A_l - s_m A_partner (l = q). Computed in double, term by term in the CPU engine's order.
// The engine computes ||Lambda||_2 from the result before pivot_angles_mode runs for mode n.
//
// Arguments:
//   tensor     N^D entries: the core before this group's rotations
//   pairs      the pivot group
//   rotations  (c, s) of modes < mode, written by the earlier pivot_angles_mode launches
//   mode       n, 0-based
//   lambda     out: Lambda, N x N row-major (Lambda_ij = lambda[i * N + j])
// Launch: grid = LAMBDA_BLOCKS, block = THREADS; thread t computes Lambda_ij, i = t / N, j = t % N.

inline constexpr int THREADS = ${threads};
inline constexpr int LAMBDA_BLOCKS = (N * N + THREADS - 1) / THREADS;

// C_{l..l with index j in `mode`}: the core entry with index j in `mode` and l elsewhere, after the
// group's rotations in modes < mode.
__device__ double rotated_entry(const Scalar* tensor, const Rotation* rotations, const GroupMembership& member,
                                int mode, int l, int j) {
  long long base = j * STRIDE[mode];
  for (int m = mode + 1; m < D; ++m) base += l * STRIDE[m];
  const int partner = member.partner[l];
  if (partner < 0 || mode == 0) {
    for (int m = 0; m < mode; ++m) base += l * STRIDE[m];
    return static_cast<double>(tensor[base]);
  }
  const int k = member.pair_of[l];
  const double partner_sign = l < partner ? 1.0 : -1.0;
  double sum = 0.0;
  for (unsigned bits = 0; bits < (1u << mode); ++bits) {
    long long offset = base;
    double weight = 1.0;
    for (int m = 0; m < mode; ++m) {
      const Rotation g = rotations[m * PAIRS + k];
      if ((bits >> m) & 1) {
        offset += partner * STRIDE[m];
        weight *= partner_sign * static_cast<double>(g.s);
      } else {
        offset += l * STRIDE[m];
        weight *= static_cast<double>(g.c);
      }
    }
    sum += weight * static_cast<double>(tensor[offset]);
  }
  return sum;
}

// G[j, l] = C_{l..l} * C_{l->j,n}, with C_{l->l,n} = C_{l..l}.
__device__ double gradient_entry(const Scalar* tensor, const Rotation* rotations, const GroupMembership& member,
                                 int mode, int j, int l) {
  const double diagonal = rotated_entry(tensor, rotations, member, mode, l, l);
  return diagonal * (j == l ? diagonal : rotated_entry(tensor, rotations, member, mode, l, j));
}

extern "C" __global__ void __launch_bounds__(THREADS)
pivot_check_gather(const Scalar* __restrict__ tensor, const int* __restrict__ pairs,
                   const Rotation* __restrict__ rotations, int mode, double* __restrict__ lambda) {
  __shared__ GroupMembership member;
  build_membership(pairs, member);
  const int t = blockIdx.x * THREADS + threadIdx.x;
  if (t >= N * N) return;
  const int i = t / N;
  const int j = t % N;
  lambda[t] = gradient_entry(tensor, rotations, member, mode, i, j) - gradient_entry(tensor, rotations, member, mode, j, i);
}
