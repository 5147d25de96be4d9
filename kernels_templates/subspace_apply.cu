// subspace_apply: the tensor pass of one XOR subspace pass (DESIGN.md section 3;
// runtime/engines/subspace_blocks.hpp, its CPU form). Every cell (a_1 + V) x .. x (a_D + V),
// |V| = CELL = 2^k, takes in every mode n the CELL x CELL orthogonal block Q[a_n][n] that
// subspace_angles accumulated:
//   C[.. a XOR V[j] @n ..] <- sum_i conj(Q[a][n](i, j)) C[.. a XOR V[i] @n ..]
// (C <- C x_n Q^H: the conjugate is the identity on a real dtype; README "Complex tensors")
// in one read+write of the tensor. A block takes a tile: one coset in each memory mode but the
// innermost and the whole innermost memory mode (N contiguous entries a row, so every load and
// store is coalesced whatever V is), i.e. the COSETS cells that share those outer cosets. It loads
// the tile into shared memory, applies the D mode products there (a thread per fiber, the fiber's
// CELL entries in registers, Q from shared memory), and writes it back. The last FACTOR_BLOCKS
// blocks update the factors, M_n[:, a XOR V[.]] <- M_n[:, a XOR V[.]] Q[a][n]: a thread per
// (mode, coset, row). Launched to overlap the pass's subspace_angles (gpu_subspace_passes.hpp), a
// block sets up and starts its tile's load at once, and waits for the angles' end before it reads
// the blocks (wait_for_previous_kernel, read_after_wait); the factor blocks wait first. It lets the
// next pass's angles begin their set-up as it starts.
//
// Per thread, Q lives in registers up to 512 bytes (CELL <= 8 in float32, float64 and complex64;
// read once a mode, not once a fiber): the pass is otherwise bound by instructions, not by memory
// (Nsight Compute at D = 6, N = 16). complex128's 8 x 8 block (1 KB) stays in shared memory.
// The products are fused multiply-adds, written out (the kernels compile with --fmad=false, which
// keeps the CPU engine's rounding where a kernel must equal it bit for bit): the pass is held to
// the CPU's passes to 1e-10, not bit for bit, and fusing halves its floating-point instructions.
//
// Arguments:
//   tensor   N^D entries, rotated in place
//   indices  per coset a, its CELL global indices ascending (xor_schedule.hpp)
//   blocks   per coset a and logical mode n, Q[a][n] row-major at ((a * D + n) * CELL * CELL)
//   factors  D row-major N x N matrices, updated in place
// Launch: grid = TILES + FACTOR_BLOCKS, block = THREADS, dynamic shared memory (see the plan).

inline constexpr int THREADS = ${threads};
inline constexpr int CELL = ${cell};
inline constexpr int COSETS = N / CELL;
inline constexpr int OUTER = D - 1;                                      // memory modes with one coset a tile
inline constexpr int TILE_ENTRIES = static_cast<int>(power(CELL, OUTER)) * N;

// The non-decreasing tuples of `length` cosets out of `values` (multisets): C(values + length - 1,
// length). Each step's product is C(values - 1 + i, i) times i, so the division is exact.
__host__ __device__ constexpr long long multisets(long long values, int length) {
  long long count = 1;
  for (int i = 1; i <= length; ++i) count = count * (values + i - 1) / i;
  return count;
}

// Structure symmetric (every mode takes the same block Q[a]; DESIGN.md section 7): the pass maps a
// symmetric tensor to a symmetric one, so a tile whose outer cosets are a permutation of another's
// holds that tile's entries with their outer indices permuted. Where the plan mirrors tiles, only
// the tiles with non-decreasing outer cosets are read and rotated, and each block writes its tile to
// every distinct arrangement of its cosets (write_arrangements): at D = 3, N = 128 with cells of 8,
// 136 of the 256 tiles; at D = 5, N = 32 with cells of 4, 330 of 4096. One block a tile: a tile is
// written (its own arrangement among them) by the block that reads it, and no block reads another
// arrangement, so no block can read a tile another has already rotated.
inline constexpr bool MIRRORED = ${mirrored};
// Which outer memory modes' products go straight between registers and global memory instead of
// through the tile (never where mirrored, which stores the tile row by row to every arrangement):
// 0 none; 1 the last outer memory mode's, applied after the innermost mode's and stored from the
// registers (the tile's write and read of that mode and the store's read saved); 2 also the first's,
// loaded into the registers (the copy into the tile and that mode's read saved). A fiber of an outer
// mode is one column of CELL rows: consecutive threads take consecutive columns, so its loads and
// stores stay whole rows a warp. The modes commute; the order only moves the rounding.
inline constexpr int FUSED = MIRRORED ? 0 : ${fused};
inline constexpr bool FUSED_STORE = FUSED >= 1;
inline constexpr bool FUSED_LOAD = FUSED >= 2 && D - 1 >= 2;
inline constexpr long long TILES = MIRRORED ? multisets(COSETS, OUTER) : power(COSETS, OUTER);
inline constexpr long long FACTOR_ROWS = static_cast<long long>(D) * COSETS * N;
inline constexpr int INNER_MODE = MODE_OF_MEMORY_MODE[D - 1];           // the innermost memory mode's logical mode

inline constexpr int ROWS = TILE_ENTRIES / N;                          // rows of the tile, N entries each
// Shared rows are N + 1 entries apart (entry (row, column) at row * (N + 1) + column): the innermost
// mode's fibers (consecutive rows, one coset) then fall in distinct banks.
//
// f(row, column) for this thread's entries of the tile: where THREADS is a multiple of N (both
// powers of two) one column and every (THREADS / N)-th row, else every THREADS-th column of every
// row. By row and column, not by e = row * N + column: e's division and remainder took more
// instructions than the copies themselves (Nsight Compute's SASS counts, D = 3, N = 128).
template <class F>
__device__ __forceinline__ void for_each_tile_entry(F&& f) {
  if constexpr (THREADS % N == 0) {
    const int column = threadIdx.x % N;
#pragma unroll 4
    for (int row = threadIdx.x / N; row < ROWS; row += THREADS / N) f(row, column);
  } else {
    for (int row = 0; row < ROWS; ++row)
#pragma unroll 4
      for (int column = threadIdx.x; column < N; column += THREADS) f(row, column);
  }
}

// y + x q in fused multiply-adds (a complex product as four).
__device__ __forceinline__ float multiply_add(float x, float q, float y) { return fma(x, q, y); }
__device__ __forceinline__ double multiply_add(double x, double q, double y) { return fma(x, q, y); }
template <class R>
__device__ __forceinline__ tensordiag::dsl::Complex<R> multiply_add(tensordiag::dsl::Complex<R> x, tensordiag::dsl::Complex<R> q,
                                                                   tensordiag::dsl::Complex<R> y) {
  return {fma(x.re, q.re, fma(-x.im, q.im, y.re)), fma(x.re, q.im, fma(x.im, q.re, y.im))};
}

// y = x conj(Q) for one fiber: Q (CELL x CELL, row-major) from registers where it fits 512 bytes,
// else from shared memory.
inline constexpr bool Q_IN_REGISTERS = CELL * CELL * sizeof(Scalar) <= 512;
struct Block {
  Scalar q[Q_IN_REGISTERS ? CELL * CELL : 1];
  const Scalar* shared;
  __device__ __forceinline__ void load(const Scalar* from) {
    shared = from;
    if constexpr (Q_IN_REGISTERS) {
#pragma unroll
      for (int i = 0; i < CELL * CELL; ++i) q[i] = conj(from[i]);
    }
  }
  __device__ __forceinline__ Scalar at(int i, int j) const {
    if constexpr (Q_IN_REGISTERS) return q[i * CELL + j];
    else return conj(shared[i * CELL + j]);
  }
};

// shared <- *global without a register round trip where the device has cp.async (sm_80 and later);
// wait_for_copies() waits for the thread's copies.
__device__ __forceinline__ void copy_to_shared(Scalar* shared, const Scalar* global) {
#if __CUDA_ARCH__ >= 800
  const unsigned address = static_cast<unsigned>(__cvta_generic_to_shared(shared));
  asm volatile("cp.async.ca.shared.global [%0], [%1], %2;\n" ::"r"(address), "l"(global), "n"(sizeof(Scalar)));
#else
  *shared = *global;
#endif
}
__device__ __forceinline__ void wait_for_copies() {
#if __CUDA_ARCH__ >= 800
  asm volatile("cp.async.wait_all;\n" ::);
#endif
}

// Under MIRRORED, the outer memory modes' cosets of tile `id`: the id-th non-decreasing tuple in
// lexicographic order (the tuples with first coset v are multisets(COSETS - v, OUTER - 1) in number).
__device__ inline void mirrored_tile_cosets(long long id, int* coset) {
  int low = 0;
  for (int k = 0; k < OUTER; ++k)
    for (int v = low;; ++v) {
      const long long count = multisets(COSETS - v, OUTER - 1 - k);
      if (id < count) {
        coset[k] = low = v;
        break;
      }
      id -= count;
    }
}

// The next arrangement of the cosets `to` in lexicographic order (std::next_permutation: each
// distinct arrangement of a multiset once); false after the last.
__device__ inline bool next_arrangement(int (&to)[OUTER]) {
  int i = OUTER - 2;
  while (i >= 0 && to[i] >= to[i + 1]) --i;
  if (i < 0) return false;
  int j = OUTER - 1;
  while (to[j] <= to[i]) --j;
  const int swapped = to[i];
  to[i] = to[j];
  to[j] = swapped;
  for (int l = i + 1, r = OUTER - 1; l < r; ++l, --r) {
    const int t = to[l];
    to[l] = to[r];
    to[r] = t;
  }
  return true;
}

// The tile row (of the tile with non-decreasing cosets `from`) that row `row` of the arrangement
// `to` takes. A row's local indices t_0 .. t_{OUTER-1} are its digits base CELL (the last memory
// mode fastest); row (t) of `to` holds the entries whose outer global indices are
// indices[to[k] * CELL + t_k], a permutation of the source row's. Within a run of equal cosets of
// `from` the source takes those local indices ascending: then every written entry depends only on
// the multiset of its outer indices, and the result is symmetric in the outer memory modes bit for
// bit (rows of one tile that differ by such a permutation were rotated apart and round apart).
__device__ inline int source_row_of(int row, const int* from, const int (&to)[OUTER]) {
  int local[OUTER];
  for (int k = OUTER - 1; k >= 0; --k, row /= CELL) local[k] = row % CELL;
  int source = 0;
  for (int s = 0; s < OUTER;) {
    int picked[OUTER];
    int count = 0;
    for (int k = 0; k < OUTER; ++k)
      if (to[k] == from[s]) picked[count++] = local[k];
    for (int i = 1; i < count; ++i)  // insertion sort: count <= OUTER
      for (int j = i; j > 0 && picked[j - 1] > picked[j]; --j) {
        const int t = picked[j];
        picked[j] = picked[j - 1];
        picked[j - 1] = t;
      }
    for (int i = 0; i < count; ++i) source = source * CELL + picked[i];
    s += count;  // the run of from[s] in the non-decreasing `from` is `count` long
  }
  return source;
}

// Where row `row` of the tile with outer cosets `coset` starts in the tensor: the outer memory
// modes' strides times their global indices.
__device__ __forceinline__ long long row_start(int row, const int* coset, const int* indices) {
  long long offset = 0;
  long long stride = N;  // memory mode k's, N^(D-1-k), built up as k falls: constants once unrolled
#pragma unroll
  for (int k = OUTER - 1; k >= 0; --k) {
    offset += indices[coset[k] * CELL + row % CELL] * stride;
    row /= CELL;
    stride *= N;
  }
  return offset;
}

// M_n <- M_n Q[a][n] on coset a's columns of row `row` of M_n: factor row u = (mode, coset, row).
// `blocks` as the angles wrote them, read after the wait that returned `token`.
__device__ inline void apply_block_to_factor_row(long long u, Scalar* factors, const int* indices, const Scalar* blocks,
                                                 unsigned token) {
  const int row = static_cast<int>(u % N);
  const int a = static_cast<int>(u / N % COSETS);
  const int mode = static_cast<int>(u / (static_cast<long long>(N) * COSETS));
  Scalar* m = factors + (static_cast<long long>(mode) * N + row) * N;
  const int* index = indices + a * CELL;
  const Scalar* q = blocks + (static_cast<long long>(a) * D + mode) * CELL * CELL;
  Scalar x[CELL];
#pragma unroll
  for (int i = 0; i < CELL; ++i) x[i] = m[index[i]];
#pragma unroll
  for (int j = 0; j < CELL; ++j) {
    Scalar y = 0;
#pragma unroll
    for (int i = 0; i < CELL; ++i) y = multiply_add(x[i], read_after_wait(q + i * CELL + j, token), y);
    m[index[j]] = y;
  }
}

// The innermost memory mode's fiber in row `row` of the tile at coset columns index[0..CELL):
// x <- x conj(Q) in place.
__device__ __forceinline__ void fiber_of_innermost_mode(Scalar* tile, const int* index, int row, const Block& q) {
  Scalar x[CELL];
#pragma unroll
  for (int i = 0; i < CELL; ++i) x[i] = tile[row * (N + 1) + index[i]];
#pragma unroll
  for (int j = 0; j < CELL; ++j) {
    Scalar y = 0;
#pragma unroll
    for (int i = 0; i < CELL; ++i) y = multiply_add(x[i], q.at(i, j), y);
    tile[row * (N + 1) + index[j]] = y;
  }
}

// One outer memory mode's fibers, x <- x conj(Q): fiber f takes column f % N of CELL rows `run`
// apart from row group f / N (consecutive threads, consecutive columns: whole rows a warp), reading
// entry (row, column) by load(row, column) and writing it by store(row, column, value).
template <class Load, class Store>
__device__ __forceinline__ void fibers_of_outer_mode(const Block& q, int run, Load&& load, Store&& store) {
  for (int f = threadIdx.x; f < TILE_ENTRIES / CELL; f += THREADS) {
    const int column = f % N;
    const int group = f / N;
    const int first_row = (group / run) * run * CELL + group % run;
    Scalar x[CELL];
#pragma unroll
    for (int i = 0; i < CELL; ++i) x[i] = load(first_row + i * run, column);
#pragma unroll
    for (int j = 0; j < CELL; ++j) {
      Scalar y = 0;
#pragma unroll
      for (int i = 0; i < CELL; ++i) y = multiply_add(x[i], q.at(i, j), y);
      store(first_row + j * run, column, y);
    }
  }
}

// Under MIRRORED: the rotated tile (outer cosets `from`, non-decreasing) to every distinct
// arrangement of its cosets, each row from its source row (source_row_of); the innermost mode stays
// in place, so every store is still a whole row of N entries. `target` (the load's row starts, free
// now) takes each arrangement's row starts in turn.
__device__ inline void write_arrangements(Scalar* tensor, const Scalar* tile, const int* from, const int* indices,
                                          long long* target) {
  __shared__ int source[MIRRORED ? ROWS : 1];
  int to[OUTER];
#pragma unroll
  for (int k = 0; k < OUTER; ++k) to[k] = from[k];
  do {
    for (int r = threadIdx.x; r < ROWS; r += THREADS) {
      target[r] = row_start(r, to, indices);
      source[r] = source_row_of(r, from, to);
    }
    __syncthreads();
    for_each_tile_entry([&](int row, int column) { tensor[target[row] + column] = tile[source[row] * (N + 1) + column]; });
    __syncthreads();  // the next arrangement overwrites target and source
  } while (next_arrangement(to));
}

extern "C" __global__ void __launch_bounds__(THREADS)
subspace_apply(${subspace_apply_parameters}) {
  // The next pass's subspace_angles may begin its set-up; it waits for this grid's end before it
  // reads the tensor or writes the blocks.
  let_next_kernel_begin();
  if (blockIdx.x >= TILES) {
    const unsigned token = wait_for_previous_kernel();
    const long long u = (blockIdx.x - TILES) * THREADS + threadIdx.x;
    if (u < FACTOR_ROWS) apply_block_to_factor_row(u, factors, indices, blocks, token);
    return;
  }
  extern __shared__ __align__(16) unsigned char dynamic_shared[];
  Scalar* q_outer = reinterpret_cast<Scalar*>(dynamic_shared);  // [outer memory mode][CELL * CELL]
  Scalar* q_inner = q_outer + OUTER * CELL * CELL;               // [coset][CELL * CELL], innermost mode
  Scalar* tile = q_inner + COSETS * CELL * CELL;                 // ROWS x (N + 1)
  __shared__ long long row_offset[ROWS];                         // where row r of the tile starts
  __shared__ int inner_index[N];                                 // the cosets' indices, coset by coset

  __shared__ int mirrored_coset[MIRRORED ? OUTER : 1];         // MIRRORED: the tile's outer cosets

  if constexpr (MIRRORED) {
    if (threadIdx.x == 0) mirrored_tile_cosets(blockIdx.x, mirrored_coset);
    __syncthreads();
    for (int r = threadIdx.x; r < ROWS; r += THREADS) row_offset[r] = row_start(r, mirrored_coset, indices);
  } else {
    // The tile's coset in each outer memory mode, the last fastest; a row's offset sums the outer
    // memory modes' strides times their global indices. (row_start's sum, decoded inline: the same
    // sum through row_start compiled to other instructions for the general pass, whose times were
    // measured with these; NVRTC sm_90, 2026-11-28.)
    for (int r = threadIdx.x; r < ROWS; r += THREADS) {
      long long id = blockIdx.x;
      int rest = r;
      long long offset = 0;
      long long stride = N;  // memory mode k's, N^(D-1-k), built up as k falls: constants once unrolled
#pragma unroll
      for (int k = OUTER - 1; k >= 0; --k) {
        const int coset = static_cast<int>(id % COSETS);
        id /= COSETS;
        offset += indices[coset * CELL + rest % CELL] * stride;
        rest /= CELL;
        stride *= N;
      }
      row_offset[r] = offset;
    }
  }
  for (int i = threadIdx.x; i < N; i += THREADS) inner_index[i] = indices[i];
  __syncthreads();
  // The tile's load: asynchronous copies (Ampere and later), so that every entry a thread loads is
  // in flight at once; loads through registers, a few in flight a thread, took over half the pass
  // (Nsight Compute's stall sampling, D = 3, N = 128, cells of 8). They fly while the pass's
  // angles may still run: those only read the tensor.
  if constexpr (!FUSED_LOAD)
    for_each_tile_entry([&](int row, int column) { copy_to_shared(&tile[row * (N + 1) + column], tensor + row_offset[row] + column); });
  const unsigned token = wait_for_previous_kernel();
  for (int i = threadIdx.x; i < OUTER * CELL * CELL; i += THREADS) {
    const int k = i / (CELL * CELL);
    const long long coset = MIRRORED ? mirrored_coset[k] : blockIdx.x / power(COSETS, OUTER - 1 - k) % COSETS;
    q_outer[i] = read_after_wait(blocks + (coset * D + MODE_OF_MEMORY_MODE[k]) * CELL * CELL + i % (CELL * CELL), token);
  }
  for (int i = threadIdx.x; i < COSETS * CELL * CELL; i += THREADS) {
    const int a = i / (CELL * CELL);
    q_inner[i] = read_after_wait(blocks + (static_cast<long long>(a) * D + INNER_MODE) * CELL * CELL + i % (CELL * CELL), token);
  }
  wait_for_copies();
  __syncthreads();
  // The outer memory modes in the tile: memory mode k's fibers run over rows CELL^(OUTER-1-k)
  // apart. Where FUSED_STORE the last outer memory mode waits for the innermost's; where FUSED_LOAD
  // the first reads its fibers from the tensor.
  const auto to_tile = [&](int row, int column, Scalar y) { tile[row * (N + 1) + column] = y; };
  int run = static_cast<int>(power(CELL, OUTER - 1));  // memory mode k's: divided by CELL a mode
#pragma unroll
  for (int k = 0; k < (FUSED_STORE ? OUTER - 1 : OUTER); ++k, run /= CELL) {
    Block q;
    q.load(q_outer + k * CELL * CELL);
    fibers_of_outer_mode(
        q, run,
        [&](int row, int column) {
          return FUSED_LOAD && k == 0 ? tensor[row_offset[row] + column] : tile[row * (N + 1) + column];
        },
        to_tile);
    __syncthreads();
  }
  // The innermost memory mode: fiber (coset a, row), its entries at the coset's global indices
  // (fiber_of_innermost_mode). Two ways to deal the fibers to threads, each measured faster where it
  // runs (H200, float32, 10 sweeps; bench/results/apply_teams_h200_2026-11-28.md):
  // - cells of 4: a team of TEAM consecutive threads takes one coset's rows, consecutive threads in
  //   consecutive rows, each thread every TEAM-th row, the teams the cosets in turn, so that a thread
  //   reads a coset's block once for all its rows, not once a fiber. A team is a warp or more (a
  //   warp reads one block by broadcast and its rows' entries from distinct banks) and as wide as
  //   the threads a coset allow, up to ROWS, so that the teams cover all COSETS * ROWS fibers at
  //   once where they can (D = 5, N = 32: 17.05 -> 16.25 ms; D = 6, N = 16: 5.82 -> 5.61).
  // - cells of 8: the block's threads over all COSETS * ROWS fibers at once (ROWS alone may be fewer
  //   than THREADS), consecutive threads in consecutive rows of one coset, each fiber reading its
  //   block. An 8 x 8 block held across a thread's rows took 80 -> 109 registers at D = 3,
  //   N = 128, and the teams were slower (4.05 -> 4.27 ms; N = 256 30.9 -> 33.0).
  // Each fiber's arithmetic is the same either way, and so is its rounding.
  if constexpr (CELL <= 4) {
    constexpr int WIDE = THREADS / COSETS > 32 ? THREADS / COSETS : 32;
    constexpr int TEAM = WIDE < ROWS ? WIDE : ROWS;
    for (int a = threadIdx.x / TEAM; a < COSETS; a += THREADS / TEAM) {
      Block q;
      q.load(q_inner + a * CELL * CELL);
      int index[CELL];
#pragma unroll
      for (int i = 0; i < CELL; ++i) index[i] = inner_index[a * CELL + i];
      for (int row = threadIdx.x % TEAM; row < ROWS; row += TEAM) fiber_of_innermost_mode(tile, index, row, q);
    }
  } else {
    for (int f = threadIdx.x; f < COSETS * ROWS; f += THREADS) {
      const int a = f / ROWS;
      Block q;
      q.load(q_inner + a * CELL * CELL);
      fiber_of_innermost_mode(tile, inner_index + a * CELL, f % ROWS, q);
    }
  }
  __syncthreads();
  if constexpr (MIRRORED) {
    write_arrangements(tensor, tile, mirrored_coset, indices, row_offset);
  } else if constexpr (FUSED_STORE) {
    // The last outer memory mode (its fibers CELL consecutive rows) from the tile to the tensor.
    Block q;
    q.load(q_outer + (OUTER - 1) * CELL * CELL);
    fibers_of_outer_mode(
        q, 1, [&](int row, int column) { return tile[row * (N + 1) + column]; },
        [&](int row, int column, Scalar y) { tensor[row_offset[row] + column] = y; });
  } else {
    for_each_tile_entry([&](int row, int column) { tensor[row_offset[row] + column] = tile[row * (N + 1) + column]; });
  }
}
