// factor_update: M_n <- M_n R_n for every mode n and every pair of the group (rotate_factor_row).
//
// Arguments:
//   factors    D matrices N x N, row-major, updated in place: M_n[i][j] = factors[(n * N + i) * N + j]
//   pairs      the pivot group
//   rotations  (c, s) of every pair in every mode (pivot_angles)
// Launch: grid = UPDATE_BLOCKS, block = THREADS; one thread per (mode, pair, row).

inline constexpr int THREADS = ${threads};
inline constexpr long long UPDATES = static_cast<long long>(D) * PAIRS * N;
inline constexpr long long UPDATE_BLOCKS = (UPDATES + THREADS - 1) / THREADS;

extern "C" __global__ void __launch_bounds__(THREADS)
factor_update(Scalar* __restrict__ factors, const int* __restrict__ pairs, const Rotation* __restrict__ rotations) {
  const long long t = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  if (t >= UPDATES) return;
  const int row = static_cast<int>(t % N);
  const int k = static_cast<int>(t / N % PAIRS);
  const int mode = static_cast<int>(t / (static_cast<long long>(N) * PAIRS));
  rotate_factor_row(factors + (static_cast<long long>(mode) * N + row) * N, pairs[2 * k], pairs[2 * k + 1],
                    rotations[mode * PAIRS + k]);
}
