#pragma once
// The exact step of the skew Jacobi method for matrices (structure skew, D = 2; Paardekooper 1971):
// for two units of the index set, a 2 x 2 block (kD, kD+1) and another block or the single index
// left over when N is odd, the orthogonal W on their k = 4 (or 3) indices that brings the k x k
// skew submatrix S to the Murnaghan form, W^T S W = [[0, s1], [-s1, 0]] (+) [[0, s2], [-s2, 0]]
// (or (+) [0]), s1, s2 >= 0. It maximizes both blocks' squares at once, sum = ||S||_F^2 / 2, so each
// step raises the objective to the subproblem's maximum, and it converges like the classical
// Jacobi method, where single plane rotations crawl (a 2 x 2 coupling block has four entries that
// one rotation cannot clear; measured: off_rel 6e-2 after 30 sweeps at N = 8).
//
// W is chosen near the identity where it can be: the invariant plane that overlaps the first
// unit's indices most goes to it, and within a plane the first basis vector is the unit's first
// index projected onto it, the second -S a / |S a|, so that an S already in the form gives W = I.
#include <vector>

namespace tensordiag::runtime {

// `s`: the k x k skew submatrix, row-major, k = 4 (units (0, 1), (2, 3)) or 3 (units (0, 1), (2)).
// Returns W, k x k row-major, orthogonal.
std::vector<double> murnaghan_step(const std::vector<double>& s, int k);

}  // namespace tensordiag::runtime
