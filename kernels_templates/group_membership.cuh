// Where each index l = 0..N-1 stands in the pivot group: its partner and its pair, both -1 for the
// unpaired index of an odd N (runtime/algorithm/pivot_check.cpp). l is the pair's p exactly when l < partner.
struct GroupMembership {
  int partner[N];
  int pair_of[N];
};

// Fills `m` (shared memory) from the group's pairs; every thread of the block calls it.
__device__ inline void build_membership(const int* pairs, GroupMembership& m) {
  for (int l = threadIdx.x; l < N; l += blockDim.x) {
    m.partner[l] = -1;
    m.pair_of[l] = -1;
  }
  __syncthreads();
  for (int k = threadIdx.x; k < PAIRS; k += blockDim.x) {
    const int p = pairs[2 * k];
    const int q = pairs[2 * k + 1];
    m.partner[p] = q;
    m.partner[q] = p;
    m.pair_of[p] = k;
    m.pair_of[q] = k;
  }
  __syncthreads();
}
