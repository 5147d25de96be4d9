// mode_product: out = x x_n M for a tensor of any size (mode_product_entry for every entry).
// Chaining it over n = 0..D-1 reconstructs C x_1 M_1 ... x_D M_D.
//
// Arguments:
//   x       N^D entries
//   matrix  M, N x N row-major (M[j, i] = matrix[j * N + i])
//   out     N^D entries; must not alias x
//   mode    n, 0-based
// Launch: grid = any number of blocks (they stride over the entries; PRODUCT_BLOCKS covers each
// entry once), block = THREADS.

inline constexpr int THREADS = ${threads};
inline constexpr long long PRODUCT_BLOCKS = (ENTRIES + THREADS - 1) / THREADS;

extern "C" __global__ void __launch_bounds__(THREADS)
mode_product(${mode_product_parameters}) {
  const long long stride = STRIDE[mode];
  for (long long t = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x; t < ENTRIES;
       t += static_cast<long long>(gridDim.x) * THREADS)
    out[t] = mode_product_entry(x, matrix, stride, t);
}
