// The scalar type and the shape are compile-time constants of this source: the JIT specializes
// every kernel for one (D, N, dtype, layout), so loops unroll and strides fold (DESIGN.md section 3).
// (inline / [[maybe_unused]]: a kernel kind need not use every constant.)
using Scalar = ${scalar};
using Real = ${real};  // Scalar itself, or a complex Scalar's real and imaginary parts
// (c, s) of one pair in one mode; for a complex Scalar (c, s) = (al, be) of the unitary rotation
// G = [[al, -conj(be)], [be, conj(al)]], al real (DESIGN.md section 7).
using Rotation = tensordiag::dsl::Givens<Scalar>;
using tensordiag::dsl::conj;  // conj(x) = x on a real x: one text for both (dsl/complex_number.hpp)

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

// A rotation's c as the real number it is: a complex rule's c is al, real >= 0 (its imaginary part
// is 0), so a complex entry takes two multiplications by it, not a complex product.
__device__ __forceinline__ Real real_cosine(Real c) { return c; }
template <class R>
__device__ __forceinline__ R real_cosine(tensordiag::dsl::Complex<R> c) { return c.re; }

// A pair's rotation of the two rows of a mode it mixes, entry by entry (DESIGN.md sections 2, 7):
//   x_p <- c x_p + conj(s) x_q,   x_q <- c x_q - s x_p
// (real: the Givens rotation x_p <- c x_p + s x_q, x_q <- c x_q - s x_p; complex: C <- C x_n G^H).
__device__ __forceinline__ Scalar rotated_at_p(Rotation g, Scalar x_p, Scalar x_q) {
  return real_cosine(g.c) * x_p + conj(g.s) * x_q;
}
__device__ __forceinline__ Scalar rotated_at_q(Rotation g, Scalar x_q, Scalar x_p) {
  return real_cosine(g.c) * x_q - g.s * x_p;
}

// |x|^2 in double, the convergence figures' precision.
__device__ __forceinline__ double squared(double x) { return x * x; }
template <class R>
__device__ __forceinline__ double squared(tensordiag::dsl::Complex<R> x) {
  const double re = x.re, im = x.im;
  return re * re + im * im;
}

// Programmatic dependent launch (compute capability 9.0 and later; runtime::launch_overlapping).
// A kernel launched to overlap the one before it in the stream may begin while that one runs:
// wait_for_previous_kernel() returns once it has ended and its writes are visible, so it comes
// before the first read of what that kernel writes and the first write of what it reads; it
// returns a token (0) for those reads (read_after_wait). let_next_kernel_begin() lets the next
// kernel, where it was launched that way, begin (every block of the grid must have called it, or
// ended). Both are no-ops in a kernel launched plainly, and before compute capability 9.0.
__device__ __forceinline__ unsigned wait_for_previous_kernel() {
  unsigned token = 0;
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.wait;\n\tmov.u32 %0, 0;" : "=r"(token)::"memory");
#endif
  return token;
}
__device__ __forceinline__ void let_next_kernel_begin() {
#if __CUDA_ARCH__ >= 900
  asm volatile("griddepcontrol.launch_dependents;" ::: "memory");
#endif
}
// *p in global memory, written by the kernel before this one, read after the wait that returned
// `token`: ordinary loads (ld.global, of 32-bit words; the wait makes that kernel's writes visible
// to them) whose address takes the token, so the compiler cannot move them above the wait (it may
// still merge repeated reads and lift them out of loops). A plain read of a kernel's const
// __restrict__ argument compiles to a non-coherent load (ld.global.nc), which assumes that nothing
// writes the memory while the kernel runs, so it may be moved above the wait: with plain reads and
// the launches overlapping, a group pass came back with a zero core, as from rotations read before
// the angles wrote them (structure symmetric, D = 12, N = 2, on an H200; the PTX had the loads
// after the wait, so the machine code's scheduling is the likely mover). Loads that bypass L1
// (ld.global.cg) made the group pass 2.4x slower (D = 9, N = 8: 1129 against 2754 GB/s).
template <class T>
__device__ __forceinline__ T read_after_wait(const T* p, unsigned token) {
  static_assert(sizeof(T) % 4 == 0, "read_after_wait: whole 32-bit words");
  T value;
  unsigned* word = reinterpret_cast<unsigned*>(&value);
  const unsigned* from = reinterpret_cast<const unsigned*>(p) + token;
#pragma unroll
  for (int i = 0; i < static_cast<int>(sizeof(T) / 4); ++i) asm("ld.global.u32 %0, [%1];" : "=r"(word[i]) : "l"(from + i));
  return value;
}

// p, for reads after the wait that returned `token` (as read_after_wait, for code that reads
// through a pointer in many places): the same address, out of an asm statement that takes the
// token, so the compiler can neither trace it to a const __restrict__ argument (its loads are
// ordinary, coherent ones, never ld.global.nc) nor move them above the wait.
template <class T>
__device__ __forceinline__ const T* coherent_after_wait(const T* p, unsigned token) {
  const T* q;
  asm("add.u64 %0, %1, %2;" : "=l"(q) : "l"(p), "l"(static_cast<unsigned long long>(token)));
  return q;
}

// What a pair rejected by the pivot check carries: (c, s) = (1, 0).
__device__ inline bool is_identity(Rotation g) { return g.c == Scalar(1) && g.s == Scalar(0); }

// The arguments every group kernel shares:
//   pairs      the pivot group: pair k = (pairs[2k], pairs[2k+1]), p < q, k = 0..PAIRS-1, in the
//              order of runtime::round_robin_schedule
//   rotations  rotations[n * PAIRS + k] = (c, s) of pair k in logical mode n (runtime::GroupRotations)
