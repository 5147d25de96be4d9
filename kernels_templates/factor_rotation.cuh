// One row of M_n <- M_n R_n (DESIGN.md section 2): columns p and q mix as
//   M[., p] <- c M[., p] + s M[., q],   M[., q] <- c M[., q] - conj(s) M[., p]
// (runtime/engines/group_pass.cpp, apply_group_to_factors; a complex (c, s) = (al, be), al real:
// U <- U G).
__device__ inline void rotate_factor_row(Scalar* row, int p, int q, Rotation g) {
  const Scalar x = row[p];
  const Scalar y = row[q];
  row[p] = real_cosine(g.c) * x + g.s * y;
  row[q] = real_cosine(g.c) * y - conj(g.s) * x;
}

// Work item u of the groups' factor update, M_n <- M_n R_n over every mode, row and pair, the pair
// fastest: a warp's threads take one row's pairs, which together cover the row, so its sectors are
// read whole. With the row fastest each thread's two entries lay N apart from its neighbour's, a
// sector each; at D = 2 (one factor a mode as large as the matrix) that made the factor blocks most
// of each group's pass (H200, float64, N = 3432, 2 sweeps 5.91 -> 1.27 s;
// bench/results/factor_rows_h200_2026-11-29.md). subspace_apply keeps its rows fastest: each of its
// items reads a CELL x CELL block, which a warp of rows shares. Each item touches its own entries:
// the order is free, the results the same bit for bit.
struct FactorItem {
  int mode, row, pair;
};
__device__ __forceinline__ FactorItem factor_item(long long u) {
  return {static_cast<int>(u / (static_cast<long long>(N) * PAIRS)), static_cast<int>(u / PAIRS % N),
          static_cast<int>(u % PAIRS)};
}
