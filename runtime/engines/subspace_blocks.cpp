#include "runtime/engines/subspace_blocks.hpp"

#include <omp.h>

#include <algorithm>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

// One mode product that also rotates the axes: x is row-major (rest, i) with the mode last;
// y[j, rest] = sum_i Q(i, j) x[rest, i] puts the mode first. Done D times on a cell, with the
// modes taken last to first, each mode meets its block once and the axes come back in order.
// CELL fixed at compile time so the i, j loops unroll and the rest loop vectorizes.
template <class T, int CELL>
void rotate_mode_product(const T* __restrict x, T* __restrict y, const Matrix<T>& q, std::size_t rest) {
  T w[CELL][CELL];
  for (int i = 0; i < CELL; ++i)
    for (int j = 0; j < CELL; ++j) w[i][j] = q(i, j);
  for (int j = 0; j < CELL; ++j) {
    T* out = y + static_cast<std::size_t>(j) * rest;
    for (std::size_t r = 0; r < rest; ++r) {
      T sum = 0;
      for (int i = 0; i < CELL; ++i) sum += w[i][j] * x[r * CELL + static_cast<std::size_t>(i)];
      out[r] = sum;
    }
  }
}

// The CPU's cells hold at most cpu_cell_entries = 2^14 entries at order >= 3, and a pass of one
// group is a group step: cells of 4, 8 or 16 a mode are all there are.
template <class T>
void rotate_mode_product(const T* x, T* y, const Matrix<T>& q, std::size_t rest) {
  switch (q.n) {
    case 4: return rotate_mode_product<T, 4>(x, y, q, rest);
    case 8: return rotate_mode_product<T, 8>(x, y, q, rest);
    case 16: return rotate_mode_product<T, 16>(x, y, q, rest);
    default: throw internal_error("apply_subspace_blocks: cells of 4, 8 or 16 a mode, not " + std::to_string(q.n));
  }
}

}  // namespace

CellOffsets::CellOffsets(const std::vector<std::ptrdiff_t>& strides, const SubspacePass& pass)
    : order_(static_cast<int>(strides.size())), cell_(pass.cell_size()), entries_(1), element_(strides.size()) {
  for (int n = 0; n < order_; ++n) {
    entries_ *= static_cast<std::size_t>(cell_);
    for (const int leader : pass.leaders)
      for (const int v : pass.span) element_[static_cast<std::size_t>(n)].push_back((leader ^ v) * strides[static_cast<std::size_t>(n)]);
  }
}

void CellOffsets::fill(const std::size_t* coset, std::ptrdiff_t* out) const {
  // Mode by mode, each filled entry e spreads to e * cell + t; descending, so no entry is
  // overwritten before it is spread.
  const std::size_t cell = static_cast<std::size_t>(cell_);
  std::size_t filled = 1;
  out[0] = 0;
  for (int n = 0; n < order_; ++n) {
    const std::ptrdiff_t* element = element_[static_cast<std::size_t>(n)].data() + coset[n] * cell;
    for (std::size_t e = filled; e-- > 0;)
      for (std::size_t t = cell; t-- > 0;) out[e * cell + t] = out[e] + element[t];
    filled *= cell;
  }
}

template <class T>
void apply_subspace_blocks(HostTensor<T>& tensor, const SubspacePass& pass, const SubspaceBlocks<T>& blocks, int threads) {
  const int order = tensor.order();
  const std::size_t cell = static_cast<std::size_t>(pass.cell_size());
  const std::size_t cosets = pass.leaders.size();
  const CellOffsets cells(tensor.strides(), pass);
  std::size_t cell_count = 1;
  for (int n = 0; n < order; ++n) cell_count *= cosets;
  T* data = tensor.data();
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<T> x(cells.entries()), y(cells.entries());
    std::vector<std::ptrdiff_t> offsets(cells.entries());
    std::vector<std::size_t> coset(static_cast<std::size_t>(order));
#pragma omp for schedule(static)
    for (std::size_t id = 0; id < cell_count; ++id) {
      std::size_t rest = id;  // the cell's coset in every mode, mode 0 slowest
      for (int n = order - 1; n >= 0; --n) coset[static_cast<std::size_t>(n)] = rest % cosets, rest /= cosets;
      cells.fill(coset.data(), offsets.data());
      for (std::size_t e = 0; e < x.size(); ++e) x[e] = data[offsets[e]];
      for (int n = order - 1; n >= 0; --n) {
        rotate_mode_product(x.data(), y.data(), blocks.at(coset[static_cast<std::size_t>(n)], n), x.size() / cell);
        std::swap(x, y);
      }
      for (std::size_t e = 0; e < x.size(); ++e) data[offsets[e]] = x[e];
    }
  }
}

template <class T>
void apply_subspace_blocks_to_factors(std::vector<Matrix<T>>& factors, const SubspacePass& pass,
                                      const SubspaceBlocks<T>& blocks) {
  const int cell = pass.cell_size();
  std::vector<T> row(static_cast<std::size_t>(cell));
  for (int mode = 0; mode < blocks.order; ++mode) {
    Matrix<T>& m = factors[static_cast<std::size_t>(mode)];
    for (std::size_t a = 0; a < pass.leaders.size(); ++a) {
      const Matrix<T>& q = blocks.at(a, mode);
      for (int r = 0; r < m.n; ++r) {
        for (int j = 0; j < cell; ++j) {
          T sum = 0;
          for (int i = 0; i < cell; ++i) sum += m(r, pass.leaders[a] ^ pass.span[static_cast<std::size_t>(i)]) * q(i, j);
          row[static_cast<std::size_t>(j)] = sum;
        }
        for (int j = 0; j < cell; ++j) m(r, pass.leaders[a] ^ pass.span[static_cast<std::size_t>(j)]) = row[static_cast<std::size_t>(j)];
      }
    }
  }
}

template void apply_subspace_blocks(HostTensor<float>&, const SubspacePass&, const SubspaceBlocks<float>&, int);
template void apply_subspace_blocks(HostTensor<double>&, const SubspacePass&, const SubspaceBlocks<double>&, int);
template void apply_subspace_blocks_to_factors(std::vector<Matrix<float>>&, const SubspacePass&, const SubspaceBlocks<float>&);
template void apply_subspace_blocks_to_factors(std::vector<Matrix<double>>&, const SubspacePass&, const SubspaceBlocks<double>&);

}  // namespace tensordiag::runtime
