// group_pass: all D modes' rotations of one pivot group applied to the tensor in one read+write
// pass (DESIGN.md section 3; the GPU form of runtime/engines/group_pass.cpp):
//   tensor <- tensor x_1 R_1^T ... x_D R_D^T,  R_n block-diagonal with the group's (c, s) in mode n,
// and, in the same launch, the factors M_n <- M_n R_n.
//
// Entries that mix form orbits under the pair swaps in every mode. A tile is one representative
// index in each of the OUTER = D - INNER_MODES outer memory modes (the p of a pair, or the unpaired
// index of an odd N) and the whole of the INNER_MODES innermost memory modes: 2^OUTER "slots" (slot
// bit k picks p or its partner q in outer memory mode k) of X = N^INNER_MODES contiguous entries.
// Whole inner modes make the tile's rows runs of X entries: with one (N entries) a small N reads
// half sectors (N = 4, float32: 16 bytes) and the partner row of a pair such as (0, 3) lies apart.
// The modes commute, so they may be applied in any order; they are applied in memory order, each
// entry as x <- c x + s y (x at p), y <- c y - s x (y at q). The tile is split so that most mixing
// happens in registers:
//   - register modes, the R outermost memory modes: each thread holds the 2^R entries that differ
//     in them (REGS registers) and mixes them without talking to anyone;
//   - thread modes, the T = OUTER - R memory modes inside those: bit k - R of the thread's slot
//     index t picks p or q; the partner is thread t ^ 2^(k - R), reached through shared memory;
//   - the inner memory modes: the thread's positions x in the slot's run (coalesced: neighbouring
//     threads take neighbouring x); in inner mode k the partner of x swaps x's digit of that mode
//     for its pair's other index, reached through shared memory.
// Each exchange writes the thread's registers to shared memory, reads the partner's, mixes
// (CHUNK registers at a time when the tile would not fit); where the partner is a lane of the same
// warp (exchanged_in_warp) a shuffle brings its value instead, with no barrier and half the
// traffic of the shared-memory write and read. The (c, s) come from `rotations`
// directly: a few per thread and tile, the same for many threads, cached. Shared-memory traffic is one write and
// one read per entry for each of the T + INNER_MODES exchanged modes outside a warp, none for the
// R register modes nor for the exchanged modes inside a warp.
//
// Arguments (see the prelude for pairs and rotations):
//   tensor     N^D entries, rotated in place
//   factors    D row-major N x N matrices, updated in place: M_n <- M_n R_n (the last
//              FACTOR_BLOCKS blocks of the grid do this, one thread per (mode, pair, row))
//   partials   null, or (a sweep's last group) out: partials[2b], partials[2b + 1] = (off^2, diag^2)
//              of the entries block b wrote, in double (figures.cuh), b < PASS_BLOCKS. One kernel
//              serves both: two instantiations doubled the compile time at D = 9 (about 1 s).
//   rows       null: `tensor` is the whole tensor. Else it is a slab of a distributed run
//              (runtime/distributed/slab.hpp): index i of the outermost memory mode lives in row
//              rows[i] (-1: another rank's), the slab holds whole pairs of the group, and only the
//              tiles of its rows are visited; the partials are then the slab's. rows[N + r] != 0
//              for each representative r of the second memory mode whose tiles are visited (all of
//              them, but in the pieces of an overlapped change: runtime/distributed/overlapped_change.hpp).
// Launch: grid = PASS_BLOCKS + FACTOR_BLOCKS, block = THREADS; or PASS_BLOCKS alone (the factors
// left to another launch: a slab's pieces, runtime/distributed/overlapped_change.hpp).
// A sweep of one GPU launches it to overlap its group's angle kernel (pivot_angles or
// symmetric_angles, which begin after the pass before has ended; runtime/engines/gpu_engine.cpp,
// GpuSweep): a block sets up and loads its first tile at once, and waits for the angles' end before
// it reads the rotations (the factor blocks wait first). It lets the next group's angles begin as it
// starts; they wait for this grid's end before they read the tensor.

inline constexpr int THREADS = ${threads};
inline constexpr int R = ${register_bits};
inline constexpr int INNER_MODES = ${inner_modes};              // innermost memory modes a tile takes whole
inline constexpr int OUTER = D - INNER_MODES;
inline constexpr int T = OUTER - R;
inline constexpr int REGS = 1 << R;
inline constexpr int X = static_cast<int>(power(N, INNER_MODES));  // a slot's contiguous entries
inline constexpr int X_THREADS = ${x_threads};                  // threads along a slot's run
inline constexpr int X_PER_THREAD = (X + X_THREADS - 1) / X_THREADS;
inline constexpr int TILE_THREADS = X_THREADS << T;
inline constexpr int TILES_PER_BLOCK = THREADS / TILE_THREADS;
inline constexpr int CHUNK = ${chunk};                          // registers per exchange round
inline constexpr bool WARP_SHUFFLES = ${warp_shuffles};         // exchanges inside a warp by shuffles
inline constexpr int SLOT_ENTRIES = X << T;                     // one register's entries of a tile
// Representatives per outer mode: the p of each pair, then the unpaired index of an odd N.
inline constexpr int REPRESENTATIVES = (N + 1) / 2;
inline constexpr long long TILES = power(REPRESENTATIVES, OUTER);
inline constexpr long long PASS_BLOCKS = ${pass_blocks};
inline constexpr long long FACTOR_ROWS = static_cast<long long>(D) * PAIRS * N;

// Offsets and tile numbers in 32 bits where the tensor allows: fewer instructions per entry.
template <bool SMALL> struct OffsetType { using type = long long; };
template <> struct OffsetType<true> { using type = int; };
using Offset = OffsetType<(ENTRIES <= 0x7fffffffLL)>::type;
// Only an odd N has an unpaired index, hence entries that a tile's slots do not all reach.
inline constexpr bool UNPAIRED = N % 2 == 1;

// Memory mode k's stride.
__device__ constexpr Offset memory_stride(int k) { return static_cast<Offset>(power(N, D - 1 - k)); }

// x's new value at p or at q (y the partner's value) is c x + t y, with t = conj(s) at p and -s at
// q: the prelude's rotated_at_p / rotated_at_q to the last bit (u - v and u + (-v) round alike, and
// a product with -s is the negated product with s). Built once a thread and mode, so that a mode
// whose side differs between the lanes of a warp costs each entry one product pair and a sum, not
// both sides' and a select.
struct Mix {
  Real c;
  Scalar t;
};
__device__ __forceinline__ Mix mix_of(Rotation g, bool at_q) {
  return {real_cosine(g.c), at_q ? Scalar(-g.s) : conj(g.s)};
}
// With FMA (Tuning::pass_fma) a product and a fused multiply-add (fused_mix.cuh).
inline constexpr bool FMA = ${fma};
__device__ __forceinline__ Scalar mixed(Scalar x, Scalar y, Mix m) { return pass_mixed<FMA>(x, y, m.c, m.t); }

// Whether exchanged memory mode k (R <= k < D) pairs each thread with a lane of its own warp.
// Thread mode k pairs threads 2^(k-R) X_THREADS apart within aligned runs of X_THREADS << (k-R+1)
// (tiles start at multiples of TILE_THREADS, a multiple of the run); inner mode k, stride s within
// the run, pairs the threads of one position each within aligned runs of N s positions, which lie
// in a warp when N s divides 32 (X_THREADS = X, a multiple of N s, when a thread holds one position).
__device__ constexpr bool exchanged_in_warp(int k) {
  if (!WARP_SHUFFLES) return false;
  return k >= OUTER ? X_PER_THREAD == 1 && 32 % (N * memory_stride(k)) == 0 : 32 % (X_THREADS << (k - R + 1)) == 0;
}

// Inner memory mode k at position x of a slot's run: the position of x's partner (x's digit d of
// that mode replaced by the other index of d's pair), or -1 where d is unpaired; `pair` gets d's
// pair and `at_q` whether d is the pair's q (the larger index).
__device__ __forceinline__ int inner_partner(int x, int k, const int* partner_of, const int* pair_of, int& pair,
                                             bool& at_q) {
  const int stride = static_cast<int>(memory_stride(k));
  const int d = x / stride % N;
  const int y = partner_of[d];
  pair = y >= 0 ? pair_of[d] : 0;
  at_q = d > y;
  return y >= 0 ? x + (y - d) * stride : -1;
}

// The index every inner mode of position x shares, or -1 where they differ: (x, .., x) of the
// figures' diagonal needs it.
__device__ __forceinline__ int inner_diagonal_index(int x) {
  const int d = x % N;
  int rest = x;
#pragma unroll
  for (int i = 0; i < INNER_MODES; ++i) {
    if (rest % N != d) return -1;
    rest /= N;
  }
  return d;
}

// The x of lane `lane` of this warp (every lane calls it, each naming its own source).
__device__ __forceinline__ float shuffled(float x, int lane) { return __shfl_sync(0xffffffffu, x, lane); }
__device__ __forceinline__ double shuffled(double x, int lane) { return __shfl_sync(0xffffffffu, x, lane); }
template <class Part>
__device__ __forceinline__ tensordiag::dsl::Complex<Part> shuffled(tensordiag::dsl::Complex<Part> x, int lane) {
  return {shuffled(x.re, lane), shuffled(x.im, lane)};
}

// The block's size, and the blocks a multiprocessor the registers must allow where the tuning
// bounds them (codegen Tuning::pass_max_registers).
extern "C" __global__ void __launch_bounds__(${launch_bounds})
group_pass(${group_pass_parameters}) {
  let_next_kernel_begin();
  const bool figures = partials != nullptr;  // the same in every thread of the grid
  if (blockIdx.x >= PASS_BLOCKS) {
    const unsigned token = wait_for_previous_kernel();
    // M_n <- M_n R_n: thread (mode, row, pair).
    const long long u = (blockIdx.x - PASS_BLOCKS) * THREADS + threadIdx.x;
    if (u < FACTOR_ROWS) {
      const auto [mode, row, k] = factor_item(u);
      rotate_factor_row(factors + (static_cast<long long>(mode) * N + row) * N, pairs[2 * k], pairs[2 * k + 1],
                        read_after_wait(rotations + mode * PAIRS + k, token));
    }
    return;
  }

  __shared__ Scalar exchange[TILES_PER_BLOCK][CHUNK][SLOT_ENTRIES];
  __shared__ int group[2 * REPRESENTATIVES];  // the pairs, then (unpaired index, -1) for an odd N
  __shared__ int partner_of[N];               // the other index of l's pair, -1 if unpaired
  __shared__ int pair_of[N];
  __shared__ int held_representatives[REPRESENTATIVES];  // outermost memory mode: those the slab holds
  __shared__ int held_count;
  __shared__ int second_representatives[REPRESENTATIVES];  // second memory mode: those visited, in a slab
  __shared__ int second_count;

  for (int i = threadIdx.x; i < N; i += THREADS) partner_of[i] = -1;
  __syncthreads();
  for (int k = threadIdx.x; k < PAIRS; k += THREADS) {
    const int p = pairs[2 * k], q = pairs[2 * k + 1];
    group[2 * k] = p;
    group[2 * k + 1] = q;
    partner_of[p] = q;
    partner_of[q] = p;
    pair_of[p] = k;
    pair_of[q] = k;
  }
  __syncthreads();
  if (N % 2 == 1 && threadIdx.x == 0) {
    // The unpaired index: the one no pair names.
    for (int l = 0; l < N; ++l)
      if (partner_of[l] < 0) group[2 * PAIRS] = l;
    group[2 * PAIRS + 1] = -1;
  }
  __syncthreads();
  if (threadIdx.x == 0) {
    int count = 0, seconds = 0;
    for (int r = 0; r < REPRESENTATIVES; ++r) {
      if (rows == nullptr || rows[group[2 * r]] >= 0) held_representatives[count++] = r;
      if (rows == nullptr || rows[N + r] != 0) second_representatives[seconds++] = r;
    }
    held_count = count;
    second_count = OUTER >= 2 ? seconds : 1;
  }
  __syncthreads();
  // The tiles of the held representatives of the outermost memory mode (all of them for a whole
  // tensor), and in a slab of the visited ones of the second.
  const long long tiles = rows == nullptr || OUTER < 2
                              ? held_count * (TILES / REPRESENTATIVES)
                              : held_count * second_count * (TILES / REPRESENTATIVES / REPRESENTATIVES);
  const long long tile_groups = (tiles + TILES_PER_BLOCK - 1) / TILES_PER_BLOCK;

  // Threads past TILES_PER_BLOCK * TILE_THREADS (the block is a whole number of warps) hold no tile.
  const int tile_in_block = threadIdx.x / TILE_THREADS;
  const bool has_tile = tile_in_block < TILES_PER_BLOCK;
  const int local = threadIdx.x % TILE_THREADS;
  const int t = local / X_THREADS;       // slot bits of the thread modes
  const int x0 = local % X_THREADS;      // first position in the slot's run; then x0 + X_THREADS, ...
  Scalar (*const buffer)[SLOT_ENTRIES] = exchange[has_tile ? tile_in_block : 0];
  double off = 0.0, diag = 0.0;
  // The rotations are read after wait_for_previous_kernel, in the first tile once its loads are in flight.
  bool rotations_ready = false;
  unsigned token = 0;

  for (Offset tile_group = blockIdx.x; tile_group < tile_groups; tile_group += PASS_BLOCKS) {
    const Offset tile = tile_group * TILES_PER_BLOCK + tile_in_block;
    const bool in_range = has_tile && tile < tiles;
    __syncthreads();  // group is filled; the previous tile's last exchange is read

    // Each outer memory mode's two indices: lo (the representative) and hi (its partner, -1 if none).
    int lo[OUTER > 0 ? OUTER : 1], hi[OUTER > 0 ? OUTER : 1], rep[OUTER > 0 ? OUTER : 1];
    Offset rest = in_range ? tile : 0;
#pragma unroll
    for (int k = OUTER - 1; k >= 0; --k) {
      if (k == 1 && rows != nullptr) {
        rep[k] = second_representatives[rest % second_count];
        rest /= second_count;
      } else {
        rep[k] = static_cast<int>(rest % REPRESENTATIVES);
        if (k == 0) rep[k] = held_representatives[rep[k]];
        rest /= REPRESENTATIVES;
      }
      lo[k] = group[2 * rep[k]];
      hi[k] = group[2 * rep[k] + 1];
    }
    // Where each outer memory mode's two indices live: the indices, or in a slab the rows of the
    // outermost one (lo and hi stay the indices: the figures' diagonal is one of indices).
    int at_lo[OUTER > 0 ? OUTER : 1], at_hi[OUTER > 0 ? OUTER : 1];
#pragma unroll
    for (int k = 0; k < OUTER; ++k) {
      at_lo[k] = lo[k];
      at_hi[k] = hi[k];
    }
    if (rows != nullptr && OUTER > 0) {
      at_lo[0] = rows[lo[0]];
      at_hi[0] = hi[0] < 0 ? -1 : rows[hi[0]];
    }
    // The thread's entries exist where no chosen partner is missing: thread modes decide for the
    // thread, register modes (bits of `missing`) for its registers.
    bool thread_valid = in_range;
    Offset thread_base = 0;
#pragma unroll
    for (int k = R; k < OUTER; ++k) {
      const bool bit = (t >> (k - R)) & 1;
      if (UNPAIRED && bit && hi[k] < 0) thread_valid = false;
      thread_base += (bit ? at_hi[k] : at_lo[k]) * memory_stride(k);
    }
    unsigned missing = 0;
    // Register j's entry is step[k] further than register 0's for each bit k of j.
    Offset step[R];
#pragma unroll
    for (int k = 0; k < R; ++k) {
      thread_base += at_lo[k] * memory_stride(k);
      if (UNPAIRED && hi[k] < 0) missing |= 1u << k;
      step[k] = (at_hi[k] - at_lo[k]) * memory_stride(k);
    }
    const auto reg_offset = [&](int j) {
      Offset o = 0;
#pragma unroll
      for (int k = 0; k < R; ++k)
        if ((j >> k) & 1) o += step[k];
      return o;
    };

    Scalar v[X_PER_THREAD][REGS];
#pragma unroll
    for (int xi = 0; xi < X_PER_THREAD; ++xi) {
      const int x = x0 + xi * X_THREADS;
      const bool x_valid = thread_valid && (X_PER_THREAD == 1 || x < X);
#pragma unroll
      for (int j = 0; j < REGS; ++j)
        v[xi][j] = x_valid && !(j & missing) ? tensor[thread_base + x + reg_offset(j)] : Scalar(0);
    }
    if (!rotations_ready) {
      token = wait_for_previous_kernel();
      rotations_ready = true;
    }

    // Register modes: registers j (bit k clear) and j | 2^k mix.
#pragma unroll
    for (int k = 0; k < R; ++k) {
      if (hi[k] < 0) continue;
      const Rotation g = read_after_wait(rotations + MODE_OF_MEMORY_MODE[k] * PAIRS + rep[k], token);
      const Mix at_p = mix_of(g, false), at_q = mix_of(g, true);
#pragma unroll
      for (int xi = 0; xi < X_PER_THREAD; ++xi)
#pragma unroll
        for (int j = 0; j < REGS; ++j)
          if (!((j >> k) & 1)) {
            const Scalar a = v[xi][j], b = v[xi][j | (1 << k)];
            v[xi][j] = mixed(a, b, at_p);
            v[xi][j | (1 << k)] = mixed(b, a, at_q);
          }
    }

    // Exchanged modes: the thread modes, then the inner memory modes (k >= OUTER). Every thread
    // of the block runs every round (they hold barriers), valid or not.
#pragma unroll
    for (int k = R; k < D; ++k) {
      const bool inner = k >= OUTER;
      const int mode = MODE_OF_MEMORY_MODE[k];
      if (exchanged_in_warp(k)) {
        // The partner's lane: the partner position of the same slot, or thread t ^ 2^(k-R) at x.
        // Every lane shuffles; only a valid thread with a partner mixes.
        const int lane = threadIdx.x % 32;
        bool mixes = thread_valid;
        int source = lane;
        bool at_q;
        Rotation g;
        if (inner) {
          int pair;
          const int y = inner_partner(x0, k, partner_of, pair_of, pair, at_q);
          mixes = mixes && y >= 0;
          source = lane + (y >= 0 ? y - x0 : 0);
          g = read_after_wait(rotations + mode * PAIRS + pair, token);
        } else {
          const int bit = 1 << (k - R);
          mixes = mixes && hi[k] >= 0;
          at_q = t & bit;
          source = lane + (at_q ? -bit : bit) * X_THREADS;
          g = read_after_wait(rotations + mode * PAIRS + rep[k], token);
        }
        const Mix mix = mix_of(g, at_q);
#pragma unroll
        for (int xi = 0; xi < X_PER_THREAD; ++xi) {
          const bool x_valid = X_PER_THREAD == 1 || x0 + xi * X_THREADS < X;
#pragma unroll
          for (int j = 0; j < REGS; ++j) {
            const Scalar other = shuffled(v[xi][j], source);
            if (mixes && x_valid) v[xi][j] = mixed(v[xi][j], other, mix);
          }
        }
        continue;
      }
#pragma unroll
      for (int c0 = 0; c0 < REGS; c0 += CHUNK) {
#pragma unroll
        for (int xi = 0; xi < X_PER_THREAD; ++xi) {
          const int x = x0 + xi * X_THREADS;
          if (has_tile && (X_PER_THREAD == 1 || x < X))
#pragma unroll
            for (int j = 0; j < CHUNK; ++j) buffer[j][t * X + x] = v[xi][c0 + j];
        }
        __syncthreads();
#pragma unroll
        for (int xi = 0; xi < X_PER_THREAD; ++xi) {
          const int x = x0 + xi * X_THREADS;
          if (!thread_valid || (X_PER_THREAD > 1 && x >= X)) continue;
          int partner;
          bool at_q;
          Rotation g;
          if (inner) {
            int pair;
            const int y = inner_partner(x, k, partner_of, pair_of, pair, at_q);
            if (y < 0) continue;
            partner = t * X + y;
            g = read_after_wait(rotations + mode * PAIRS + pair, token);
          } else {
            if (hi[k] < 0) continue;
            partner = (t ^ (1 << (k - R))) * X + x;
            at_q = (t >> (k - R)) & 1;
            g = read_after_wait(rotations + mode * PAIRS + rep[k], token);
          }
          const Mix mix = mix_of(g, at_q);
#pragma unroll
          for (int j = 0; j < CHUNK; ++j) v[xi][c0 + j] = mixed(v[xi][c0 + j], buffer[j][partner], mix);
        }
        __syncthreads();
      }
    }

#pragma unroll
    for (int xi = 0; xi < X_PER_THREAD; ++xi) {
      const int x = x0 + xi * X_THREADS;
      if (!thread_valid || (X_PER_THREAD > 1 && x >= X)) continue;
#pragma unroll
      for (int j = 0; j < REGS; ++j)
        if (!(j & missing)) tensor[thread_base + x + reg_offset(j)] = v[xi][j];
      if (figures) {
        // Entry (i, .., i) is register j's iff every mode's index is i: the inner modes' for the
        // position, the thread modes' for the thread, then bit k of j picks hi[k] or lo[k] in
        // register mode k.
        const int i = inner_diagonal_index(x);
        bool thread_diagonal = i >= 0;
#pragma unroll
        for (int k = R; k < OUTER; ++k) thread_diagonal = thread_diagonal && ((t >> (k - R)) & 1 ? hi[k] : lo[k]) == i;
        int diagonal_register = thread_diagonal ? 0 : -1;
#pragma unroll
        for (int k = 0; k < R; ++k)
          if (diagonal_register >= 0)
            diagonal_register = lo[k] == i ? diagonal_register : hi[k] == i ? diagonal_register | (1 << k) : -1;
#pragma unroll
        for (int j = 0; j < REGS; ++j) {
          if (j & missing) continue;
          const double e2 = squared(v[xi][j]);
          if (j == diagonal_register) diag += e2;
          else off += e2;
        }
      }
    }
  }

  if (figures) {
    const double2 sum = block_sum(make_double2(off, diag));
    if (threadIdx.x == 0) {
      partials[2 * blockIdx.x] = sum.x;
      partials[2 * blockIdx.x + 1] = sum.y;
    }
  }
}
