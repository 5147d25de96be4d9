// The scalar type and the shape are compile-time constants of this source: the JIT specializes
// every kernel for one (D, N, dtype, layout), so loops unroll and strides fold (DESIGN.md section 3).
// (inline / [[maybe_unused]]: a kernel kind need not use every constant.)
using Scalar = ${scalar};
// (c, s) of one pair in one mode.
using Rotation = tensordiag::dsl::Givens<Scalar>;

// The tensor order D, the size N of every mode, and its N^D entries.
inline constexpr int D = ${order};
inline constexpr int N = ${size};
inline constexpr long long ENTRIES = ${entries};
// Pairs per pivot group (DESIGN.md section 2).
inline constexpr int PAIRS = N / 2;
// Entry (i, .., i) lives at i * DIAGONAL_STRIDE, the sum of all strides.
inline constexpr long long DIAGONAL_STRIDE = ${diagonal_stride};

// Stride (in entries) of logical mode n, 0-based; layout ${layout}.
[[maybe_unused]] __device__ constexpr long long STRIDE[D] = {${strides}};
// The logical mode of memory mode k, memory modes ordered outermost (largest stride) first.
[[maybe_unused]] __device__ constexpr int MODE_OF_MEMORY_MODE[D] = {${memory_modes}};

// base^exponent; memory mode k has stride power(N, D - 1 - k).
__host__ __device__ constexpr long long power(long long base, int exponent) {
  long long x = 1;
  for (int i = 0; i < exponent; ++i) x *= base;
  return x;
}

// What a pair rejected by the pivot check carries: (c, s) = (1, 0).
__device__ inline bool is_identity(Rotation g) { return g.c == Scalar(1) && g.s == Scalar(0); }

// The arguments every group kernel shares:
//   pairs      the pivot group: pair k = (pairs[2k], pairs[2k+1]), p < q, k = 0..PAIRS-1, in the
//              order of runtime::round_robin_schedule
//   rotations  rotations[n * PAIRS + k] = (c, s) of pair k in logical mode n (runtime::GroupRotations)
