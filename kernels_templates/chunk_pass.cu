// chunk_pass: one pivot group's rotations applied to the tensor a run of memory modes at a time,
// for the shapes whose group_pass tile does not fit (small N with large D, issue 12): the modes
// commute, so the group is CHUNKS launches of chunk_pass, each one read and write of the tensor
// mixing up to MAX_MODES memory modes, then group_factors. Slower than group_pass's one pass (a
// read and write per chunk), but every shape has it.
//
//   chunk_pass(tensor, pairs, rotations, first, count, rows): memory modes first .. first + count - 1
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
// `rows`: null, or the tensor is a slab of a distributed run (pivot_subtensor.cuh): index i of the
// slowest memory mode lives in row rows[i], -1 where another rank holds it. The units then take
// only the indices (memory mode 0 outside the chunk) or the pairs (inside it) of the rows held: a
// slab holds both rows of a pair of its stage's groups, or neither.

inline constexpr int THREADS = ${threads};
inline constexpr int MAX_MODES = ${max_modes};
inline constexpr int REGS = 1 << MAX_MODES;
inline constexpr int REPRESENTATIVES = (N + 1) / 2;
inline constexpr long long FACTOR_ROWS = static_cast<long long>(D) * PAIRS * N;

__device__ constexpr long long chunk_memory_stride(int k) { return power(N, D - 1 - k); }

extern "C" __global__ void __launch_bounds__(THREADS)
chunk_pass(${chunk_pass_parameters}) {
  // Representative r of a mode: group[2r] (p), group[2r + 1] (its partner, -1 for the unpaired index).
  __shared__ int group[2 * REPRESENTATIVES];
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
  // Memory mode 0's indices and representatives that this tensor or slab holds, ascending.
  __shared__ int held[N], held_reps[REPRESENTATIVES];
  __shared__ int held_count, held_rep_count;
  __syncthreads();
  if (threadIdx.x == 0) {
    held_count = 0;
    for (int i = 0; i < N; ++i)
      if (rows == nullptr || rows[i] >= 0) held[held_count++] = i;
    held_rep_count = 0;
    for (int r = 0; r < REPRESENTATIVES; ++r)
      if (rows == nullptr || rows[group[2 * r]] >= 0) held_reps[held_rep_count++] = r;
  }
  __syncthreads();
  // Where index i of memory mode 0 lies along it: i, or its row in a slab.
  const auto place = [rows](int i) -> long long { return rows == nullptr ? i : rows[i]; };

  const long long inner = chunk_memory_stride(first + count - 1);  // entries of the modes after the chunk
  // Index combinations before the chunk, memory mode 0's among the held ones.
  const long long before = first == 0 ? 1 : power(N, first - 1);
  const long long outer = first == 0 ? 1 : held_count * before;
  long long reps = 1;
  for (int k = 0; k < count; ++k) reps *= k == 0 && first == 0 ? held_rep_count : REPRESENTATIVES;
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
      if (k == 0 && first == 0) {  // memory mode 0: a held representative, its rows' places
        rep[k] = held_reps[rest % held_rep_count];
        rest /= held_rep_count;
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
    if (first > 0)  // the modes before the chunk, memory mode 0's index among the held ones
      base += place(held[rest / before]) * chunk_memory_stride(0) + rest % before * power(N, D - first);
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
