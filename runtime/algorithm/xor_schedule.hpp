#pragma once
// The XOR subspace schedule (DESIGN.md section 3, "several groups per pass"). For N = 2^m, group c
// (1 <= c < N) pairs every i with i XOR c; the N-1 groups hold every pair once, so they are a
// round robin. A pass takes a subspace V of the index bits (dimension k) and runs the groups c of
// V \ {0} that no earlier pass of the sweep ran. Each group of V maps every coset a + V to itself,
// so the cells (a_1 + V) x .. x (a_D + V) of (2^k)^D entries are closed under the pass, and the
// angles of every pair need only the N / 2^k diagonal cells (a + V)^D: a pass is a small Jacobi
// on the diagonal cells, then one pass over the tensor applying, per mode and coset, the 2^k x 2^k
// orthogonal block those groups compose to.
//
// Cells are indexed in the coset's sorted order: element t of the coset led by a (its smallest
// element) is a XOR V[t], V sorted, because a has no bit at the leading bits of V's echelon basis.
// So a pair (p, q), p < q, has the same local pair (rank of p, rank of q) in every coset.
#include <vector>

#include "runtime/algorithm/pivot_schedule.hpp"

namespace tensordiag::runtime {

struct SubspacePass {
  std::vector<int> span;     // the 2^k elements of V, sorted (span[0] = 0)
  std::vector<int> groups;   // the masks c of V \ {0} this pass runs, in order
  std::vector<int> leaders;  // the smallest element of each coset a + V, ascending

  int dimension() const;     // k
  int cell_size() const { return static_cast<int>(span.size()); }
  // Group c as pairs (rank of v, rank of v XOR c) of a coset, the smaller rank first.
  PivotGroup local_group(int c) const;
  // Group c over the whole index range: (i, i XOR c) for i < i XOR c, ascending.
  PivotGroup global_group(int c) const;
};

// True when N is a power of two >= 2: the XOR schedule needs it.
bool has_xor_schedule(int size);

// The passes of a sweep for N = 2^m with subspaces of dimension <= max_dimension (>= 1). Greedy
// and deterministic: each pass grows its basis one vector at a time, taking the vector that adds
// the most groups not yet run (the smallest on ties). Every pass has dimension min(k, log2 N). N = 8, k = 2: {1, 2, 3}, {4, 5}, {6, 7};
// N = 16, k = 2: five passes of three groups (a spread). max_dimension 1 is one group a pass.
std::vector<SubspacePass> xor_schedule(int size, int max_dimension);

// The XOR groups of a sweep one after another, in the order of the passes of xor_schedule(size,
// max_dimension) and of each pass's groups. A subspace pass is its groups applied in order to every
// cell, so a CPU engine that runs these groups a pass each (the symmetric and complex engines'
// --schedule xor) runs the rotations of the GPU's subspace passes with cells of 2^max_dimension.
PivotSchedule xor_groups_in_pass_order(int size, int max_dimension);

}  // namespace tensordiag::runtime
