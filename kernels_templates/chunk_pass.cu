// chunk_pass: one pivot group's rotations applied to the tensor a run of memory modes at a time,
// for the shapes whose group_pass tile does not fit (small N with large D, issue 12): the modes
// commute, so the group is CHUNKS launches of chunk_pass, each one read and write of the tensor
// mixing up to MAX_MODES memory modes, then group_factors. Slower than group_pass's one pass (a
// read and write per chunk), but every shape has it.
//
//   chunk_pass(tensor, pairs, rotations, first, count): memory modes first .. first + count - 1
//       (count <= MAX_MODES). A unit is one index in every other memory mode and one representative
//       (the p of a pair, or the unpaired index of an odd N) in each chunk mode: its 2^count entries
//       (p or the partner q in each chunk mode; a missing partner leaves its entries out) sit in
//       a thread's registers, where each chunk mode's rotation mixes them:
//         x <- c x + s y at p,   y <- c y - s x at q.
//       Units are numbered with the memory modes after the chunk fastest, so that neighbouring
//       threads touch neighbouring entries. grid = any (grid-stride), block = THREADS.
//   group_factors(pairs, rotations, factors): M_n <- M_n R_n for every mode, one thread per
//       (mode, pair, row); grid = FACTOR_BLOCKS, block = THREADS.
// Arguments as group_pass's (pairs, rotations: see the prelude; factors: D row-major N x N).
//   chunk_pass_slab(tensor, pairs, rotations, first, count, rows): the same on a slab of a distributed
//       run (pivot_subtensor.cuh): index i of the slowest memory mode lives in row rows[i], -1 where
//       another rank holds it; the units take only the indices (memory mode 0 outside the chunk) or
//       the pairs (inside it) of the rows held (a slab holds both rows of a pair of its stage's
//       groups, or neither). Its own kernel, so that chunk_pass's registers stay the whole tensor's.

inline constexpr int THREADS = ${threads};
inline constexpr int MAX_MODES = ${max_modes};
inline constexpr int REGS = 1 << MAX_MODES;
inline constexpr int REPRESENTATIVES = (N + 1) / 2;
inline constexpr long long FACTOR_ROWS = static_cast<long long>(D) * PAIRS * N;

__device__ constexpr long long chunk_memory_stride(int k) { return power(N, D - 1 - k); }

// Memory mode 0's indices and representatives a slab holds (chunk_pass's `rows`), ascending.
struct HeldRows {
  int index[N], representative[REPRESENTATIVES];
  int indices, representatives;
};

// The units of chunk_pass's launch over `tensor`, a thread's share (see the top). SLAB: memory
// mode 0's indices, and in the chunk holding it its representatives, are those `held` lists, and
// an index's place along it is rows[i]; else every one, at i (the whole tensor's loop, unchanged).
template <bool SLAB>
__device__ inline void rotate_units(Scalar* __restrict__ tensor, const int* __restrict__ group,
                                    const Rotation* __restrict__ rotations, int first, int count,
                                    const int* __restrict__ rows, const HeldRows* held) {
  const auto place = [rows](int i) -> long long {
    if constexpr (SLAB) return rows[i];
    else return i;
  };
  const long long inner = chunk_memory_stride(first + count - 1);  // entries of the modes after the chunk
  // Index combinations before the chunk (in a slab, memory mode 0's among the held ones).
  const long long before = first == 0 ? 1 : power(N, first - 1);
  const long long outer = first == 0 ? 1 : (SLAB ? held->indices : N) * before;
  long long reps = 1;
  for (int k = 0; k < count; ++k) reps *= SLAB && k == 0 && first == 0 ? held->representatives : REPRESENTATIVES;
  const long long units = outer * reps * inner;
  // Loops run over MAX_MODES, unrolled, with `k < count` guards: register indices stay constant.
  for (long long u = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x; u < units;
       u += static_cast<long long>(gridDim.x) * THREADS) {
    long long rest = u / inner;
    long long base = u % inner;  // the modes after the chunk: the innermost entries
    int lo[MAX_MODES], hi[MAX_MODES], rep[MAX_MODES];
    long long step[MAX_MODES];
    unsigned missing = 0;
#pragma unroll
    for (int k = MAX_MODES - 1; k >= 0; --k) {
      if (k >= count) continue;
      if (SLAB && k == 0 && first == 0) {  // memory mode 0: a held representative, its rows' places
        rep[k] = held->representative[rest % held->representatives];
        rest /= held->representatives;
        lo[k] = group[2 * rep[k]];
        hi[k] = group[2 * rep[k] + 1];
        base += place(lo[k]) * chunk_memory_stride(0);
        step[k] = hi[k] < 0 ? 0 : (place(hi[k]) - place(lo[k])) * chunk_memory_stride(0);
      } else {
        rep[k] = static_cast<int>(rest % REPRESENTATIVES);
        rest /= REPRESENTATIVES;
        lo[k] = group[2 * rep[k]];
        hi[k] = group[2 * rep[k] + 1];
        base += lo[k] * chunk_memory_stride(first + k);
        step[k] = (hi[k] - lo[k]) * chunk_memory_stride(first + k);
      }
      if (hi[k] < 0) missing |= 1u << k;
    }
    // The modes before the chunk (in a slab, memory mode 0's index among the held ones).
    if (SLAB && first > 0) base += place(held->index[rest / before]) * chunk_memory_stride(0) + rest % before * power(N, D - first);
    else base += rest * power(N, D - first);
    const auto offset = [&](int j) {
      long long o = base;
#pragma unroll
      for (int k = 0; k < MAX_MODES; ++k)
        if (k < count && ((j >> k) & 1)) o += step[k];
      return o;
    };
    const int entries = 1 << count;
    Scalar v[REGS];
#pragma unroll
    for (int j = 0; j < REGS; ++j) v[j] = j < entries && !(j & missing) ? tensor[offset(j)] : Scalar(0);
#pragma unroll
    for (int k = 0; k < MAX_MODES; ++k) {
      if (k >= count || hi[k] < 0) continue;
      const Rotation g = rotations[MODE_OF_MEMORY_MODE[first + k] * PAIRS + rep[k]];
#pragma unroll
      for (int j = 0; j < REGS; ++j)
        if (j < entries && !((j >> k) & 1)) {
          const Scalar x = v[j], y = v[j | (1 << k)];
          v[j] = rotated_at_p(g, x, y);
          v[j | (1 << k)] = rotated_at_q(g, y, x);
        }
    }
#pragma unroll
    for (int j = 0; j < REGS; ++j)
      if (j < entries && !(j & missing)) tensor[offset(j)] = v[j];
  }
}

// Representative r of a mode: group[2r] (p), group[2r + 1] (its partner, -1 for the unpaired index).
__device__ inline void load_group(const int* pairs, int* group) {
  for (int k = threadIdx.x; k < PAIRS; k += THREADS) {
    group[2 * k] = pairs[2 * k];
    group[2 * k + 1] = pairs[2 * k + 1];
  }
  if (N % 2 == 1 && threadIdx.x == 0) {
    // The unpaired index: the one no pair names.
    for (int l = 0; l < N; ++l) {
      bool named = false;
      for (int k = 0; k < PAIRS; ++k) named = named || pairs[2 * k] == l || pairs[2 * k + 1] == l;
      if (!named) group[2 * PAIRS] = l;
    }
    group[2 * PAIRS + 1] = -1;
  }
  __syncthreads();
}

extern "C" __global__ void __launch_bounds__(THREADS)
chunk_pass(${chunk_pass_parameters}) {
  __shared__ int group[2 * REPRESENTATIVES];
  load_group(pairs, group);
  rotate_units<false>(tensor, group, rotations, first, count, nullptr, nullptr);
}

// Two blocks a multiprocessor at least, so at most 128 registers a thread: its own choice was 130
// at D = 16, N = 4 float32, one block a multiprocessor, and two H200s measured the slab's pass 1.6x
// slower than at 128 registers (bench/results/large_order_ranks_h200x2_2026-11-27.md).
extern "C" __global__ void __launch_bounds__(THREADS, 2)
chunk_pass_slab(${chunk_pass_slab_parameters}) {
  __shared__ int group[2 * REPRESENTATIVES];
  __shared__ HeldRows held;
  load_group(pairs, group);
  if (threadIdx.x == 0) {
    held.indices = 0;
    for (int i = 0; i < N; ++i)
      if (rows[i] >= 0) held.index[held.indices++] = i;
    held.representatives = 0;
    for (int r = 0; r < REPRESENTATIVES; ++r)
      if (rows[group[2 * r]] >= 0) held.representative[held.representatives++] = r;
  }
  __syncthreads();
  rotate_units<true>(tensor, group, rotations, first, count, rows, &held);
}

extern "C" __global__ void __launch_bounds__(THREADS)
group_factors(${group_factors_parameters}) {
  const long long u = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  if (u >= FACTOR_ROWS) return;
  const int row = static_cast<int>(u % N);
  const int k = static_cast<int>(u / N % PAIRS);
  const int mode = static_cast<int>(u / (static_cast<long long>(N) * PAIRS));
  rotate_factor_row(factors + (static_cast<long long>(mode) * N + row) * N, pairs[2 * k], pairs[2 * k + 1],
                    rotations[mode * PAIRS + k]);
}
