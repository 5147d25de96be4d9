// subspace_angles: the angles of one pass of the XOR subspace schedule (DESIGN.md section 3;
// runtime/algorithm/xor_schedule.hpp). A pass takes a subspace V of the index bits, |V| = 2^k; its
// groups keep every cell (a_1 + V) x .. x (a_D + V) closed, so the angles of all its pairs come
// from the diagonal cells (a + V)^D alone. One block per coset a: the diagonal cell goes to shared
// memory, the pass's groups run on it in order exactly as the small_tensor kernel runs a sweep
// (warps take the pairs' D micro-iterations, then the block rotates every memory mode), and the
// rotations accumulate into Q_n = R_1 R_2 .. per mode (the factor convention M <- M R). The tensor
// is only read: subspace_apply applies the Q_n afterwards, to every cell, in one pass.
//
// This source is specialized for the cell: N here is 2^k, ENTRIES = N^D, layout C (row-major over
// the cell's local indices t_1 .. t_D, mode 1 slowest). Local index t of coset a is the global
// index indices[a * N + t] (the coset's elements ascending), so a local pair (t, u), t < u, is a
// global pair p < q, the order the rule expects.
//
// Arguments:
//   tensor         the whole tensor, tensor_size^D entries, C order (fortran = 0) or F (1)
//   indices        per coset, its N global indices ascending (xor_schedule.hpp: leader XOR V[t])
//   tensor_size    the whole tensor's N
//   fortran        its layout
//   groups         the pass's groups as local pairs, each 2 * PAIRS ints (SubspacePass::local_group)
//   group_count    how many, at most N - 1 (a pass takes some of V's 2^k - 1 matchings)
//   blocks         out: per coset a and mode n the N x N row-major Q_n at ((a * D + n) * N * N)
// Launch: grid = cosets (tensor_size / N), block = THREADS, dynamic shared memory ENTRIES scalars
// (pipelined: two cells of ENTRIES).

inline constexpr int WARPS = ${warps};
inline constexpr int THREADS = 32 * WARPS;
// The pass's groups by pipelined_group_steps (pipelined_group_steps.cuh), where the plan found room
// for the second cell (its dynamic shared memory then holds two) and rotation table.
#ifdef TENSORDIAG_SYMMETRIC
inline constexpr bool PIPELINED = false;
#else
inline constexpr bool PIPELINED = ${pipelined} && group_steps_pipeline<THREADS>();
#endif

// Stride of logical mode n in the whole tensor.
__device__ inline long long tensor_stride(int n, int tensor_size, int fortran) {
  long long stride = 1;
  const int steps = fortran ? n : D - 1 - n;
  for (int i = 0; i < steps; ++i) stride *= tensor_size;
  return stride;
}

extern "C" __global__ void __launch_bounds__(THREADS)
subspace_angles(${subspace_angles_parameters}) {
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  Scalar* cell = reinterpret_cast<Scalar*>(dynamic_shared);
  __shared__ Scalar factor[D][N * N];
  __shared__ Rotation tables[PIPELINED ? 2 : 1][D][PAIRS];
  __shared__ int pass_groups[N - 1][2 * PAIRS];  // read once: no global load and barrier a group
  __shared__ int position[PIPELINED ? N - 1 : 1][N];  // pipelined: group_positions of the pass's groups
  __shared__ long long offset_of[D][N];  // where local index t of mode n lies in the tensor
  __shared__ Scalar subtensors[WARPS][SUBTENSOR];

  const int* index = indices + static_cast<long long>(blockIdx.x) * N;
  for (int i = threadIdx.x; i < D * N; i += THREADS)
    offset_of[i / N][i % N] = index[i % N] * tensor_stride(i / N, tensor_size, fortran);
  for (int i = threadIdx.x; i < D * N * N; i += THREADS) {
    const int entry = i % (N * N);
    factor[i / (N * N)][entry] = entry / N == entry % N ? Scalar(1) : Scalar(0);
  }
  for (int i = threadIdx.x; i < group_count * 2 * PAIRS; i += THREADS) pass_groups[i / (2 * PAIRS)][i % (2 * PAIRS)] = groups[i];
  __syncthreads();
  if constexpr (PIPELINED) group_positions(pass_groups, group_count, position);  // before the barrier after the cell's load
  // Launched to overlap the previous pass's subspace_apply (gpu_subspace_passes.hpp): the set-up
  // above ran beside it; the tensor is read once it has ended and its writes are visible. Then this
  // pass's subspace_apply may begin: it sets up and loads its tile (the previous apply has ended),
  // and waits for this grid's end before it reads the blocks or writes the tensor.
  const unsigned token = wait_for_previous_kernel();
  let_next_kernel_begin();
  for (int e = threadIdx.x; e < ENTRIES; e += THREADS) {
    long long offset = 0;
    int rest = e;
#pragma unroll
    for (int n = D - 1; n >= 0; --n) {
      offset += offset_of[n][rest % N];
      rest /= N;
    }
    cell[e] = read_after_wait(tensor + offset, token);
  }
  __syncthreads();

  if constexpr (PIPELINED) {
    pipelined_group_steps<WARPS>(cell, cell + ENTRIES, factor, tables, pass_groups, position, group_count);
  } else {
    for (int g = 0; g < group_count; ++g) shared_group_step<WARPS>(cell, factor, tables[0], pass_groups[g], subtensors);
  }
  Scalar* out = blocks + static_cast<long long>(blockIdx.x) * D * N * N;
  for (int i = threadIdx.x; i < D * N * N; i += THREADS) out[i] = factor[i / (N * N)][i % (N * N)];
}
