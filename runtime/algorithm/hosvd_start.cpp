#include "runtime/algorithm/hosvd_start.hpp"

#include <omp.h>

#include <Eigen/Dense>
#include <algorithm>
#include <type_traits>

#include "runtime/algorithm/hosvd_basis.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

namespace {

using Index = Eigen::Index;
// Computed in W = wide_t<T>: double, or complex<double> for a complex tensor.
template <class W>
using RowMajor = Eigen::Matrix<W, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class W>
using Square = Eigen::Matrix<W, Eigen::Dynamic, Eigen::Dynamic>;

// Mode n of a cubic tensor in either layout as `count` N x `columns` matrices: entry (i, l) of
// matrix m at m * matrix_step + i * row_step + l * column_step. With stride s of mode n and
// A = N^D / (N s) blocks of the slower modes, entry (.., i, ..) is at a N s + i s + b (b < s): the
// matrices run over a (N x s each) or over b (N x A each), whichever gives fewer and wider ones, so
// that a fast mode is not N^(D-1) products of one column.
struct ModeMatrices {
  Index count, columns, row_step, column_step, matrix_step;
};

ModeMatrices mode_matrices(const std::vector<std::ptrdiff_t>& strides, int mode, std::size_t entries, int size) {
  const auto s = static_cast<Index>(strides[static_cast<std::size_t>(mode)]);
  const Index n = size, blocks = static_cast<Index>(entries) / (n * s);
  if (s >= blocks) return {blocks, s, s, 1, n * s};
  return {s, blocks, s, n * s, 1};
}

int thread_count(int threads) { return threads > 0 ? threads : omp_get_max_threads(); }

// Columns a task takes at once: an N x 2048 double buffer per thread.
constexpr Index task_columns = 2048;

// Calls task(view, ...) for every piece of at most task_columns columns of every mode matrix,
// in parallel; `view` is an Eigen map of the piece (N x width, strided). The tasks run piece by
// piece, the matrices of a piece one after another: when the matrices interleave (the narrow
// branch of mode_matrices, a middle mode's b < s), a piece of every matrix lies on the same cache
// lines, which are then read from memory once rather than once a matrix.
template <class T, class Task>
void for_mode_pieces(T* data, const ModeMatrices& m, int size, int threads, Task&& task) {
  const Index pieces = (m.columns + task_columns - 1) / task_columns;
  using Stored = Eigen::Matrix<std::remove_const_t<T>, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  using Map = Eigen::Map<std::conditional_t<std::is_const_v<T>, const Stored, Stored>, 0,
                         Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>>;
#pragma omp parallel num_threads(thread_count(threads))
  {
    RowMajor<wide_t<std::remove_const_t<T>>> buffer(size, task_columns);
#pragma omp for schedule(static)
    for (Index t = 0; t < m.count * pieces; ++t) {
      const Index matrix = t % m.count, first = t / m.count * task_columns;
      const Index width = std::min(task_columns, m.columns - first);
      Map view(data + matrix * m.matrix_step + first * m.column_step, size, width,
               Eigen::Stride<Eigen::Dynamic, Eigen::Dynamic>(m.row_step, m.column_step));
      task(view, buffer.leftCols(width));
    }
  }
}

// G_n = T_(n) T_(n)^H = sum over the mode matrices' pieces X of X X^H (X^T for real T), summed in
// double.
template <class T>
Square<wide_t<T>> gram(const HostTensor<T>& tensor, int mode, int threads) {
  using W = wide_t<T>;
  const int size = tensor.size();
  const ModeMatrices m = mode_matrices(tensor.strides(), mode, tensor.count(), size);
  std::vector<Square<W>> parts(static_cast<std::size_t>(thread_count(threads)), Square<W>::Zero(size, size));
  for_mode_pieces(tensor.data(), m, size, threads, [&parts](const auto& view, auto piece) {
    piece = view.template cast<W>();
    parts[static_cast<std::size_t>(omp_get_thread_num())].template selfadjointView<Eigen::Lower>().rankUpdate(piece);
  });
  Square<W> total = Square<W>::Zero(size, size);
  for (const Square<W>& part : parts) total += part;
  return total.template selfadjointView<Eigen::Lower>();
}

// tensor <- tensor x_mode M: every piece X of the mode matrices becomes M X, in double.
template <class T>
void mode_product_in_place(HostTensor<T>& tensor, int mode, const Square<wide_t<T>>& m, int threads) {
  const int size = tensor.size();
  const ModeMatrices matrices = mode_matrices(tensor.strides(), mode, tensor.count(), size);
  for_mode_pieces(tensor.data(), matrices, size, threads, [&m](auto& view, auto piece) {
    piece.noalias() = m * view.template cast<wide_t<T>>();
    view = piece.template cast<T>();
  });
}

}  // namespace

template <class T>
HosvdStart<T> hosvd_start(const HostTensor<T>& tensor, int threads, Structure structure) {
  const Stopwatch clock;
  HosvdStart<T> start;
  start.rotated = tensor;
  using W = wide_t<T>;
  Matrix<W> q;
  for (int mode = 0; mode < tensor.order(); ++mode) {
    if (mode == 0 || !shares_one_factor(structure)) {
      const Eigen::SelfAdjointEigenSolver<Square<W>> solver(gram(tensor, mode, threads));
      q = hosvd_basis<W>(solver.eigenvectors().data(), tensor.size());
    }
    Matrix<T> basis{q.n, std::vector<T>(q.data.size())};
    for (std::size_t k = 0; k < q.data.size(); ++k) basis.data[k] = T(q.data[k]);
    start.bases.push_back(std::move(basis));
    // T' = T x_n Q_n^H (Q_n^T for real T): the sweeps' factors compose as Q_n M'_n.
    const Eigen::Map<const RowMajor<W>> map(q.data.data(), tensor.size(), tensor.size());
    mode_product_in_place(start.rotated, mode, Square<W>(map.adjoint()), threads);
  }
  start.seconds = clock.seconds();
  return start;
}

template <class T>
void compose_with_bases(std::vector<Matrix<T>>& factors, const std::vector<Matrix<T>>& bases) {
  using Stored = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  for (std::size_t n = 0; n < factors.size(); ++n) {
    const int size = factors[n].n;
    Eigen::Map<Stored> m(factors[n].data.data(), size, size);
    const Eigen::Map<const Stored> q(bases[n].data.data(), size, size);
    const RowMajor<wide_t<T>> product = q.template cast<wide_t<T>>() * m.template cast<wide_t<T>>();
    m = product.template cast<T>();
  }
}

template HosvdStart<float> hosvd_start(const HostTensor<float>&, int, Structure);
template HosvdStart<double> hosvd_start(const HostTensor<double>&, int, Structure);
template void compose_with_bases(std::vector<Matrix<float>>&, const std::vector<Matrix<float>>&);
template void compose_with_bases(std::vector<Matrix<double>>&, const std::vector<Matrix<double>>&);
template HosvdStart<std::complex<float>> hosvd_start(const HostTensor<std::complex<float>>&, int, Structure);
template HosvdStart<std::complex<double>> hosvd_start(const HostTensor<std::complex<double>>&, int, Structure);
template void compose_with_bases(std::vector<Matrix<std::complex<float>>>&, const std::vector<Matrix<std::complex<float>>>&);
template void compose_with_bases(std::vector<Matrix<std::complex<double>>>&,
                                 const std::vector<Matrix<std::complex<double>>>&);

}  // namespace tensordiag::runtime
