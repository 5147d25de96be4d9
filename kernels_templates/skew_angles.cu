// skew_angles: structure skew's group angles and convergence figures (DESIGN.md section 7; the
// GPU form of runtime/engines/cpu_skew_engine.cpp). A skew-symmetric tensor's "diagonal" is its
// block form: the entries C[B_k], B_k = (kD, .., kD + D - 1), k < N / D (the N mod D last indices
// lie in no block), and their D! signed copies.
//
//   skew_angles(tensor, pairs, rotations, live): the rotation of each of the first `live` pairs,
//       the same in every mode, from its four block entries (skew_blocks.cuh: skew_rotation). The
//       live pairs of a group touch disjoint blocks (runtime/algorithm/skew_schedule.hpp), so none
//       moves another's entries: their angles come from the same core. Pairs k >= live pad the
//       group to a perfect matching for group_pass and carry the identity. Grid =
//       ceil(PAIRS / THREADS), a thread per pair.
//   skew_figures_partial(tensor, partials): off_norm_partial's grid and output, with the skew
//       core's figures (skew_blocks.cuh: skew_figures_of): partials[2b] = block b's squares off the
//       blocks, partials[2b + 1] = on them; off_norm_final sums them.

inline constexpr int THREADS = ${threads};
inline constexpr int FIGURE_THREADS = ${figure_threads};
inline constexpr int PARTIAL_BLOCKS = ${partial_blocks};

extern "C" __global__ void __launch_bounds__(THREADS)
skew_angles(${skew_angles_parameters}) {
  const int k = blockIdx.x * THREADS + threadIdx.x;
  if (k >= PAIRS) return;
  const Rotation g = k < live ? skew_rotation(tensor, pairs[2 * k], pairs[2 * k + 1]) : Rotation{Scalar(1), Scalar(0)};
#pragma unroll
  for (int n = 0; n < D; ++n) rotations[n * PAIRS + k] = g;
}

extern "C" __global__ void __launch_bounds__(FIGURE_THREADS)
skew_figures_partial(${skew_figures_partial_parameters}) {
  const double2 sum = block_sum(skew_figures_of(tensor, static_cast<long long>(blockIdx.x) * FIGURE_THREADS + threadIdx.x,
                                                 static_cast<long long>(PARTIAL_BLOCKS) * FIGURE_THREADS));
  if (threadIdx.x == 0) {
    partials[2 * blockIdx.x] = sum.x;
    partials[2 * blockIdx.x + 1] = sum.y;
  }
}
