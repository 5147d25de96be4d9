// One entry of X x_n M (DESIGN.md section 1: (X x_n M)[.., j, ..] = sum_i M[j, i] X[.., i, ..]).
// With S = STRIDE[n], memory splits as [A][N][S] in either layout, and
//   (X x_n M)[a][j][b] = sum_i M[j, i] X[a][i][b],
// accumulated in Wide (wide_scalar.cuh: double, or Complex<double>; a complex M is the unitary
// factor itself, T = C x_1 U_1 .. x_D U_D) in order i = 0..N-1 and rounded once
// (runtime/algorithm/verification.cpp). `t` is the entry's offset, `matrix` M row-major
// (M[j, i] = matrix[j * N + i]).
__device__ inline Scalar mode_product_entry(const Scalar* x, const Scalar* matrix, long long stride, long long t) {
  const int j = static_cast<int>(t / stride % N);
  const Scalar* column = x + t / (stride * N) * stride * N + t % stride;  // X[a][i][b] = column[i * S]
  Wide sum(0.0);
  for (int i = 0; i < N; ++i) sum += widen(matrix[j * N + i]) * widen(column[i * stride]);
  return narrow(sum);
}
