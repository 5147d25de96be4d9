// multi_mode_product: the reconstruction out = x x_1 M_1 x_2 M_2 ... x_D M_D of a batch of small
// tensors, fused: one thread block per tensor holds it in shared memory and applies the D mode
// products one after the other (mode_product_entry), ping-ponging between two buffers. Larger
// tensors chain mode_product.
//
// Arguments:
//   x        batch x N^D entries
//   factors  batch x D matrices N x N row-major: M_n[j][i] = factors[((b * D + n) * N + j) * N + i]
//   out      batch x N^D entries
// Launch: grid = batch size, block = THREADS; block b reconstructs tensor b.

inline constexpr int THREADS = ${threads};

extern "C" __global__ void __launch_bounds__(THREADS)
multi_mode_product(${multi_mode_product_parameters}) {
  __shared__ Scalar buffers[2][ENTRIES];
  const long long b = blockIdx.x;
  for (int i = threadIdx.x; i < ENTRIES; i += THREADS) buffers[0][i] = x[b * ENTRIES + i];
  __syncthreads();
#pragma unroll
  for (int mode = 0; mode < D; ++mode) {
    const Scalar* matrix = factors + (b * D + mode) * N * N;
    for (int t = threadIdx.x; t < ENTRIES; t += THREADS)
      buffers[(mode + 1) % 2][t] = mode_product_entry(buffers[mode % 2], matrix, STRIDE[mode], t);
    __syncthreads();
  }
  for (int i = threadIdx.x; i < ENTRIES; i += THREADS) out[b * ENTRIES + i] = buffers[D % 2][i];
}
