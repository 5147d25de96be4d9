// The rotations of one memory mode of a whole tensor held in shared memory (DESIGN.md section 2;
// runtime/engines/group_pass.cpp). Memory mode k (outermost first) has runs of RUN = N^(D-1-k) contiguous
// entries; the run at index p and the run at index q of every pair (p, q) mix as
//   x <- c x + s y,  y <- c y - s x  (the prelude's rotated_at_p, rotated_at_q),
// identities skipped. Every thread of the block calls it; the caller synchronizes before another
// mode touches the same entries. Inlined into unrolled loops, memory_mode folds to a constant.
__device__ __forceinline__ void rotate_memory_mode(Scalar* tensor, int memory_mode, const Rotation* mode_rotations,
                                                   const int* pairs) {
  const int run = static_cast<int>(power(N, D - 1 - memory_mode));
  const int slab = run * N;  // one index step of the next outer mode
  const int prefixes = static_cast<int>(ENTRIES / slab);
  const int items = prefixes * PAIRS * run;
  for (int i = threadIdx.x; i < items; i += blockDim.x) {
    const int x = i % run;
    const int pair = (i / run) % PAIRS;
    const int prefix = i / (run * PAIRS);
    const Rotation g = mode_rotations[pair];
    if (is_identity(g)) continue;
    Scalar* base = tensor + prefix * slab + x;
    Scalar* xp = base + pairs[2 * pair] * run;
    Scalar* yq = base + pairs[2 * pair + 1] * run;
    const Scalar xi = *xp;
    const Scalar yi = *yq;
    *xp = rotated_at_p(g, xi, yi);
    *yq = rotated_at_q(g, yi, xi);
  }
}
