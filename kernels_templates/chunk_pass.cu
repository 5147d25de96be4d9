// chunk_pass: one pivot group's rotations applied to the tensor a run of memory modes at a time,
// for the shapes whose group_pass tile does not fit (small N with large D, issue 12; N too large
// for its exchange row): the modes commute, so the group is CHUNKS launches of chunk_pass, each
// one read and write of the tensor mixing up to MAX_MODES memory modes, then group_factors. Every
// entry takes the memory modes' rotations in ascending order, as in group_pass's one pass.
//
//   chunk_pass(tensor, pairs, rotations, first, count): memory modes first .. first + count - 1
//       (count <= MAX_MODES), in one of two forms the plan picks (TILED):
//     tiled: a block's tile is one index of every memory mode before the chunk, every index of the
//       chunk's modes (N^count rows) and a run of RUN entries (128 bytes) of the modes after it
//       (where those hold fewer than RUN entries, a row is the runs of several consecutive indices
//       before the chunk, and the tile one contiguous stretch of the tensor). The block copies the
//       tile into shared memory (asynchronous copies, a warp a row: coalesced whatever the chunk),
//       rotates the chunk's modes there one after the other, pair by pair:
//         x <- c x + s y at p,   y <- c y - s x at q   (a rotation that is the identity skipped),
//       and writes the tile back. grid = any (grid-stride over tiles), block = THREADS, dynamic
//       shared memory N^MAX_MODES * RUN entries.
//     register form (where not one mode's tile fits the shared memory, large N): a unit is one
//       index in every other memory mode and one representative (the p of a pair, or the unpaired
//       index of an odd N) in each chunk mode: its 2^count entries (p or the partner q in each
//       chunk mode; a missing partner leaves its entries out) sit in a thread's registers, where
//       each chunk mode's rotation mixes them. Units are numbered with the memory modes after the
//       chunk fastest, so that neighbouring threads touch neighbouring entries. grid = any
//       (grid-stride), block = THREADS.
//   group_factors(pairs, rotations, factors): M_n <- M_n R_n for every mode, one thread per
//       (mode, pair, row); grid = FACTOR_BLOCKS, block = THREADS.
// Arguments as group_pass's (pairs, rotations: see the prelude; factors: D row-major N x N).
//   chunk_pass_slab(tensor, pairs, rotations, first, count, rows): the same on a slab of a distributed
//       run (pivot_subtensor.cuh): index i of the slowest memory mode lives in row rows[i], -1 where
//       another rank holds it; the units (tiles) take only the indices (memory mode 0 outside the
//       chunk) or the pairs (inside it) of the rows held (a slab holds both rows of a pair of its
//       stage's groups, or neither). Its own kernel, so that chunk_pass's registers stay the whole
//       tensor's.

inline constexpr int THREADS = ${threads};
inline constexpr int MAX_MODES = ${max_modes};
inline constexpr bool TILED = ${tiled};
inline constexpr int RUN = ${run};  // the tiled form's row: entries of the modes after the chunk
inline constexpr bool FMA = ${fma};  // the mixing by fused multiply-adds (fused_mix.cuh, Tuning::pass_fma)
inline constexpr int REGS = TILED ? 1 : 1 << MAX_MODES;  // the register form's unit
static_assert(THREADS % RUN == 0, "the tiled form: a thread keeps its column of a tile");
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
          v[j] = pass_rotated_at_p<FMA>(g, x, y);
          v[j | (1 << k)] = pass_rotated_at_q<FMA>(g, y, x);
        }
    }
#pragma unroll
    for (int j = 0; j < REGS; ++j)
      if (j < entries && !(j & missing)) tensor[offset(j)] = v[j];
  }
}

// The tiled form (see the top). Copies of an entry into shared memory without a register on the
// way (cp.async, sm_80 and later): a thread has all its copies of a tile in flight at once, and
// the next tile's copies fly while the block rotates and writes the current one.
__device__ __forceinline__ void copy_to_shared(Scalar* to, const Scalar* from) {
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(to));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(address), "l"(from), "n"(static_cast<int>(sizeof(Scalar))));
#else
  *to = *from;
#endif
}

// Closes the thread's copies issued so far into a group.
__device__ __forceinline__ void close_copy_group() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.commit_group;\n" ::: "memory");
#endif
}

// Waits until at most `pending` of the thread's newest groups are still copying.
template <int pending>
__device__ __forceinline__ void wait_for_copy_groups() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_group %0;\n" ::"n"(pending) : "memory");
#endif
}

// A launch's tiles. Where the modes after the chunk hold at least RUN entries (RUNS), a tile is
// one index of the modes before the chunk and a run of RUN of those entries: N^count rows of the
// run, `inner` apart in the tensor, kept as rows of RUN in shared memory (the last run of a
// stretch may be short). Else (STRETCHES) a tile is the whole stretches of N^count * inner
// contiguous entries of up to RUN / inner consecutive indices before the chunk (in a slab, of
// memory mode 0's held indices), kept as they lie, each padded to an odd length so that the
// columns of one row fall in different banks. Either way the tile's column `along` (0..RUN-1) of
// row r is at r * row_stride + column[along] in shared memory.
struct ChunkTiles {
  long long inner;         // entries of the memory modes after the chunk
  long long outer_stride;  // entries of one index of the modes before it: N^(D - first)
  long long before;        // index combinations of memory modes 1 .. first - 1
  long long outers;        // index combinations before the chunk (a slab: with memory mode 0's held indices)
  long long runs;          // RUNS: a stretch's runs
  long long tiles;
  int stretches_a_tile;    // STRETCHES: RUN / inner
  int tile_rows;           // N^count
  int stretch;             // STRETCHES: tile_rows * inner
  int padded;              // STRETCHES: a stretch's length in shared memory, odd
  int row_stride;          // RUN (RUNS) or inner (STRETCHES)
  int copies;              // entries a tile copies: tile_rows * RUN, or stretches_a_tile * stretch
  bool stretches;
};

// A buffer of the largest chunk's tile (see ChunkTiles: a padded stretch adds at most one entry
// each, RUN in all); the dynamic shared memory holds two.
inline constexpr int TILE_BUFFER = static_cast<int>(power(N, MAX_MODES)) * RUN + RUN;

__device__ inline ChunkTiles chunk_tiles(int first, int count, long long held_indices) {
  ChunkTiles z;
  z.inner = chunk_memory_stride(first + count - 1);
  z.outer_stride = power(N, D - first);
  z.before = first == 0 ? 1 : power(N, first - 1);
  z.outers = first == 0 ? 1 : held_indices * z.before;
  z.tile_rows = static_cast<int>(power(N, count));
  z.stretches = z.inner < RUN;
  if (!z.stretches) {
    z.runs = (z.inner + RUN - 1) / RUN;
    z.tiles = z.outers * z.runs;
    z.stretches_a_tile = 1;
    z.stretch = z.padded = 0;
    z.row_stride = RUN;
    z.copies = z.tile_rows * RUN;
  } else {
    z.runs = 1;
    z.stretches_a_tile = static_cast<int>(RUN / z.inner);
    z.tiles = (z.outers + z.stretches_a_tile - 1) / z.stretches_a_tile;
    z.stretch = z.tile_rows * static_cast<int>(z.inner);
    z.padded = z.stretch | 1;
    z.row_stride = static_cast<int>(z.inner);
    z.copies = z.stretches_a_tile * z.stretch;
  }
  return z;
}

// One chunk mode's rotations on a tile in shared memory: LOW = N^(modes of the chunk after it), so
// that row r's index in the mode is r / LOW % N. An item is a pair, one index of the chunk's other
// modes and a column (the fastest: a warp takes a row's columns).
template <int LOW>
__device__ inline void rotate_tile_mode(Scalar* tile, const ChunkTiles& z, const int* column, const int* group,
                                        const Rotation* __restrict__ mode_rotations) {
  // A thread keeps its column (THREADS is a multiple of RUN) and steps through the other items.
  const int along = column[threadIdx.x % RUN];
  if (along < 0) return;
  const int lines = z.tile_rows / N * PAIRS;  // (other rows, pair) a column
  for (int line = threadIdx.x / RUN; line < lines; line += THREADS / RUN) {
    const int pair = line % PAIRS;
    const int other = line / PAIRS;  // the other modes' rows, the mode's index taken out
    const Rotation g = mode_rotations[pair];
    if (is_identity(g)) continue;
    const int row = other / LOW * (N * LOW) + other % LOW;
    Scalar* x = tile + (row + group[2 * pair] * LOW) * z.row_stride + along;
    Scalar* y = tile + (row + group[2 * pair + 1] * LOW) * z.row_stride + along;
    const Scalar x_p = *x, x_q = *y;
    *x = pass_rotated_at_p<FMA>(g, x_p, x_q);
    *y = pass_rotated_at_q<FMA>(g, x_q, x_p);
  }
}

// rotate_tile_mode with LOW = N^low_modes, LOW a constant of each instance (its divisions by it
// become multiplications).
template <int J = 0>
__device__ inline void rotate_tile_mode_at(int low_modes, Scalar* tile, const ChunkTiles& z, const int* column,
                                           const int* group, const Rotation* mode_rotations) {
  if constexpr (J < MAX_MODES) {
    if (low_modes == J) rotate_tile_mode<static_cast<int>(power(N, J))>(tile, z, column, group, mode_rotations);
    else rotate_tile_mode_at<J + 1>(low_modes, tile, z, column, group, mode_rotations);
  }
}

// Calls visit(place in shared memory, offset in the tensor) for this thread's entries of tile t,
// in the tensor's order across the block's threads (coalesced); entries of rows or indices a slab
// does not hold, and past a short run, are left out.
template <bool SLAB, class Visit>
__device__ inline void for_tile_entries(const ChunkTiles& z, long long t, int first, const int* __restrict__ rows,
                                        const HeldRows* held, Visit visit) {
  // Index `outer` before the chunk: its first entry's offset.
  const auto outer_offset = [&](long long outer) {
    if (SLAB && first > 0)
      return rows[held->index[outer / z.before]] * chunk_memory_stride(0) + outer % z.before * z.outer_stride;
    return outer * z.outer_stride;
  };
  // Row r of the chunk's modes: its offset from the index before the chunk (-1: a row of memory
  // mode 0 the slab does not hold, where the chunk takes that mode).
  const int rows_below_top = z.tile_rows / N;
  const auto row_offset = [&](int row) -> long long {
    if (SLAB && first == 0) {
      const long long at = rows[row / rows_below_top];
      return at < 0 ? -1 : at * chunk_memory_stride(0) + row % rows_below_top * z.inner;
    }
    return row * z.inner;
  };
  if (!z.stretches) {
    // A thread keeps its place along the run (THREADS is a multiple of RUN) and steps THREADS /
    // RUN rows at a time.
    const long long along = t % z.runs * RUN + threadIdx.x % RUN;
    if (along >= z.inner) return;
    const long long start = outer_offset(t / z.runs) + along;
    if (SLAB && first == 0) {
      // Row e / RUN is (index `top` of memory mode 0, row `below` of the chunk's other modes),
      // both carried along, and the top index's row in the slab read as it changes: no division
      // or table read an entry.
      int top = threadIdx.x / RUN / rows_below_top, below = threadIdx.x / RUN % rows_below_top;
      int row = top < N ? rows[top] : -1;
      for (int e = threadIdx.x; e < z.copies; e += THREADS) {
        if (row >= 0) visit(e, start + row * chunk_memory_stride(0) + below * z.inner);
        below += THREADS / RUN;
        if (below >= rows_below_top) {
          top += below / rows_below_top;
          below %= rows_below_top;
          row = top < N ? rows[top] : -1;
        }
      }
      return;
    }
    const long long step = THREADS / RUN * z.inner;
    long long offset = start + threadIdx.x / RUN * z.inner;
    for (int e = threadIdx.x; e < z.copies; e += THREADS, offset += step) visit(e, offset);
    return;
  }
  // STRETCHES: entry e is stretch e / stretch's entry e % stretch, both carried along.
  const long long first_outer = t * z.stretches_a_tile;
  int stretch = threadIdx.x / z.stretch, at = threadIdx.x % z.stretch;
  if constexpr (!SLAB) {
    long long start = first_outer + stretch < z.outers ? outer_offset(first_outer + stretch) : 0;
    for (int e = threadIdx.x; e < z.copies; e += THREADS) {
      if (first_outer + stretch >= z.outers) break;
      visit(stretch * z.padded + at, start + at);
      at += THREADS;
      if (at >= z.stretch) {
        while (at >= z.stretch) {
          at -= z.stretch;
          ++stretch;
        }
        if (first_outer + stretch < z.outers) start = outer_offset(first_outer + stretch);
      }
    }
    return;
  }
  // A slab carries the stretch's index before the chunk, `outer`, along too: after memory mode 0
  // as the place `top` of memory mode 0's index among the held ones and the index `rest` of the
  // modes between (a division a tile, none a stretch), with where that held index's row starts (a
  // table read as `top` changes). Its own loop: the whole tensor's, above, keeps its registers
  // (this one in it cost float64 3^16 6%).
  long long outer = first_outer + stretch, rest = 0, top_start = 0;
  int top = static_cast<int>(outer / z.before);
  rest = outer % z.before;
  const auto held_row_start = [&]() -> long long {
    return top < held->indices ? rows[held->index[top]] * chunk_memory_stride(0) : 0;
  };
  top_start = held_row_start();
  const auto outer_start = [&]() -> long long {
    if (first > 0) return top_start + rest * z.outer_stride;
    return outer * z.outer_stride;
  };
  long long start = outer < z.outers ? outer_start() : 0;
  for (int e = threadIdx.x; e < z.copies; e += THREADS) {
    if (outer >= z.outers) break;
    if (first == 0) {
      const long long row = row_offset(at / static_cast<int>(z.inner));
      if (row >= 0) visit(stretch * z.padded + at, start + row + at % static_cast<int>(z.inner));
    } else {
      visit(stretch * z.padded + at, start + at);
    }
    at += THREADS;
    if (at >= z.stretch) {
      int steps = 0;
      for (; at >= z.stretch; at -= z.stretch) ++steps;
      stretch += steps;
      outer += steps;
      const int was = top;
      for (rest += steps; rest >= z.before; rest -= z.before) ++top;
      if (top != was) top_start = held_row_start();
      if (outer < z.outers) start = outer_start();
    }
  }
}

template <bool SLAB>
__device__ inline void rotate_tiles(Scalar* __restrict__ tensor, const int* group, const Rotation* __restrict__ rotations,
                                    int first, int count, const int* __restrict__ rows, const HeldRows* held) {
  extern __shared__ __align__(16) unsigned char tile_memory[];
  Scalar* const buffers = reinterpret_cast<Scalar*>(tile_memory);  // buffer b at buffers + b * TILE_BUFFER
  __shared__ int column[RUN];  // a column's place in a row of the tile, -1: none (see ChunkTiles)
  const ChunkTiles z = chunk_tiles(first, count, SLAB ? held->indices : N);
  if (threadIdx.x < RUN) {
    const int along = threadIdx.x, inner = static_cast<int>(z.inner);
    column[along] = !z.stretches                             ? along
                    : along < z.stretches_a_tile * inner ? along / inner * z.padded + along % inner
                                                             : -1;
  }
  const auto copy_in = [&](long long t, Scalar* tile) {
    for_tile_entries<SLAB>(z, t, first, rows, held, [&](int place, long long offset) { copy_to_shared(tile + place, tensor + offset); });
  };
  // Tile t in buffer b while tile t + gridDim.x comes into the other.
  long long t = blockIdx.x;
  if (t < z.tiles) copy_in(t, buffers);
  close_copy_group();
  for (int b = 0; t < z.tiles; t += gridDim.x, b ^= 1) {
    if (t + gridDim.x < z.tiles) copy_in(t + gridDim.x, buffers + (b ^ 1) * TILE_BUFFER);
    close_copy_group();
    wait_for_copy_groups<1>();  // this tile's copies (every group but the newest) are in
    __syncthreads();
    for (int k = 0; k < count; ++k) {
      rotate_tile_mode_at(count - 1 - k, buffers + b * TILE_BUFFER, z, column, group, rotations + MODE_OF_MEMORY_MODE[first + k] * PAIRS);
      __syncthreads();
    }
    const Scalar* tile = buffers + b * TILE_BUFFER;
    for_tile_entries<SLAB>(z, t, first, rows, held, [&](int place, long long offset) { tensor[offset] = tile[place]; });
    __syncthreads();  // the next iteration's copies overwrite this buffer
  }
  wait_for_copy_groups<0>();
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
  if constexpr (TILED) rotate_tiles<false>(tensor, group, rotations, first, count, nullptr, nullptr);
  else rotate_units<false>(tensor, group, rotations, first, count, nullptr, nullptr);
}

// The register form: two blocks a multiprocessor at least, so at most 128 registers a thread: its
// own choice was 130 at D = 16, N = 4 float32, one block a multiprocessor, and two H200s measured
// the slab's pass 1.6x slower than at 128 registers
// (bench/results/large_order_ranks_h200x2_2026-11-27.md). The tiled form: its block's size alone.
extern "C" __global__ void __launch_bounds__(THREADS, ${slab_min_blocks})
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
  if constexpr (TILED) rotate_tiles<true>(tensor, group, rotations, first, count, rows, &held);
  else rotate_units<true>(tensor, group, rotations, first, count, rows, &held);
}

extern "C" __global__ void __launch_bounds__(THREADS)
group_factors(${group_factors_parameters}) {
  const long long u = static_cast<long long>(blockIdx.x) * THREADS + threadIdx.x;
  if (u >= FACTOR_ROWS) return;
  const auto [mode, row, k] = factor_item(u);
  rotate_factor_row(factors + (static_cast<long long>(mode) * N + row) * N, pairs[2 * k], pairs[2 * k + 1],
                    rotations[mode * PAIRS + k]);
}
