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
