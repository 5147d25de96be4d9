#include "runtime/algorithm/verification.hpp"

#include <omp.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include <Eigen/Dense>

#include "runtime/algorithm/run_result.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"

namespace tensordiag::runtime {

namespace {

using Eigen::Index;
// The checks run in W = wide_t<T>: double, or complex<double> for a complex tensor.
template <class W>
using RowMajorMatrix = Eigen::Matrix<W, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
template <class W>
using ColumnMatrix = Eigen::Matrix<W, Eigen::Dynamic, Eigen::Dynamic>;

// Below this many entries a loop runs on one thread: starting the others costs more.
constexpr Index parallel_work = Index{1} << 16;
// Core columns cast to double per product in the slowest mode: 2^16 doubles, an L2's worth.
constexpr Index chunk_budget = Index{1} << 16;

template <class U>
ColumnMatrix<wide_t<U>> to_eigen(const Matrix<U>& m) {
  using Stored = Eigen::Matrix<U, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  return Eigen::Map<const Stored>(m.data.data(), m.n, m.n).template cast<wide_t<U>>();
}

// The modes from the largest stride to the smallest: memory is C-ordered over them whatever the
// layout (C: 0, .., D-1; F: D-1, .., 0).
std::vector<int> memory_order(const std::vector<std::ptrdiff_t>& strides) {
  std::vector<int> modes(strides.size());
  for (std::size_t n = 0; n < modes.size(); ++n) modes[n] = static_cast<int>(n);
  std::sort(modes.begin(), modes.end(), [&strides](int a, int b) {
    return strides[static_cast<std::size_t>(a)] > strides[static_cast<std::size_t>(b)];
  });
  return modes;
}

// out = M[rows, :] x_s C for the slowest mode s: with C the N x N^(D-1) row-major matrix of mode s,
// row r of out is slab `first + r` of C x_s M_s, C-ordered over the other modes. The core is cast
// to double a chunk of columns at a time.
template <class T>
void slowest_mode_product(const HostTensor<T>& core, const ColumnMatrix<wide_t<T>>& m, Index first, Index chunk,
                          Eigen::Ref<RowMajorMatrix<wide_t<T>>> out) {
  using Stored = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Index n = core.size(), slab = out.cols(), chunks = (slab + chunk - 1) / chunk;
  const Eigen::Map<const Stored> c(core.data(), n, slab);
#pragma omp parallel for schedule(static) if (out.size() >= parallel_work)
  for (Index k = 0; k < chunks; ++k) {
    const Index width = std::min(chunk, slab - k * chunk);
    out.middleCols(k * chunk, width).noalias() =
        m.middleRows(first, out.rows()) * c.middleCols(k * chunk, width).template cast<wide_t<T>>();
  }
}

// x holds an order-k tensor C-ordered over modes (m_1, .., m_k); y receives X x_{m_1} M,
// C-ordered over (m_2, .., m_k, m_1). As matrices, X is N x N^(k-1) row-major and y = M X is
// stored column-major. k steps apply every mode once and bring the order back.
template <class W>
void cycling_mode_product(const W* x, W* y, const ColumnMatrix<W>& m, Index rest) {
  const Eigen::Map<const RowMajorMatrix<W>> xm(x, m.rows(), rest);
  Eigen::Map<ColumnMatrix<W>>(y, m.rows(), rest).noalias() = m * xm;
}

}  // namespace

// Slab j of the reconstruction (index j of the slowest mode s) is
//   (sum_i M_s[j, i] C[.., i, ..]) x_n M_n over the other modes n,
// so a block of slabs takes one product in mode s with the rows of M_s it needs, then each slab
// its D-1 other products (cycling_mode_product); each is compared with the same slab of T and
// dropped. Every product is a GEMM in double; work D N^(D+1) multiply-adds, as a full
// reconstruction's, memory a block of slabs.
template <class T>
double reconstruction_error(const HostTensor<T>& tensor, const HostTensor<T>& core,
                            const std::vector<Matrix<T>>& factors, std::size_t block_doubles) {
  using W = wide_t<T>;
  const Index n = core.size(), slab = static_cast<Index>(core.count()) / n;
  const std::vector<int> modes = memory_order(core.strides());
  std::vector<ColumnMatrix<W>> m;
  for (int mode : modes) m.push_back(to_eigen(factors[static_cast<std::size_t>(mode)]));

  // A block of at most a quarter of the slabs: fresh memory costs page faults, about as much per
  // byte as a pass over the core; a thread per slab at the least.
  const Index threads = omp_get_max_threads(), budget = static_cast<Index>(block_doubles);
  const Index block = std::min(n, std::max(std::min(budget / slab, n / 4), threads));
  const Index chunk = std::max<Index>(1, std::min(budget, chunk_budget) / n);
  RowMajorMatrix<W> slabs(block, slab);
  std::vector<std::vector<W>> scratch(static_cast<std::size_t>(threads), std::vector<W>(static_cast<std::size_t>(slab)));
  // Sums per slab, added in slab order: the same figures at any thread count and schedule.
  std::vector<double> slab_diff2(static_cast<std::size_t>(n)), slab_norm2(static_cast<std::size_t>(n));
  for (Index first = 0; first < n; first += block) {
    const Index rows = std::min(block, n - first);
    slowest_mode_product(core, m[0], first, chunk, slabs.topRows(rows));
#pragma omp parallel for schedule(dynamic) if (core.count() >= parallel_work)
    for (Index r = 0; r < rows; ++r) {
      // The slab's row of the block and the thread's scratch take turns as input and output.
      W* x = slabs.row(r).data();
      W* y = scratch[static_cast<std::size_t>(omp_get_thread_num())].data();
      for (std::size_t p = 1; p < m.size(); ++p) {
        cycling_mode_product(x, y, m[p], slab / n);
        std::swap(x, y);
      }
      const T* t = tensor.data() + (first + r) * slab;
      double diff2 = 0.0, norm2 = 0.0;
      for (Index i = 0; i < slab; ++i) {
        const W value = static_cast<W>(t[i]);
        diff2 += abs2(x[i] - value);
        norm2 += abs2(value);
      }
      slab_diff2[static_cast<std::size_t>(first + r)] = diff2;
      slab_norm2[static_cast<std::size_t>(first + r)] = norm2;
    }
  }
  double diff2 = 0.0, norm2 = 0.0;
  for (Index k = 0; k < n; ++k) {
    diff2 += slab_diff2[static_cast<std::size_t>(k)];
    norm2 += slab_norm2[static_cast<std::size_t>(k)];
  }
  return norm2 > 0 ? std::sqrt(diff2 / norm2) : std::sqrt(diff2);
}

template <class T>
double orthogonality_error(const std::vector<Matrix<T>>& factors) {
  double worst = 0.0;
  for (const auto& factor : factors) {
    using M = ColumnMatrix<wide_t<T>>;
    const M m = to_eigen(factor);
    const M gram = m.adjoint() * m;  // M^T M, or U^H U
    worst = std::max(worst, (gram - M::Identity(m.rows(), m.cols())).norm());
  }
  return worst;
}

template <class T>
Verification verify(const HostTensor<T>& tensor, const Result<T>& result) {
  const Stopwatch stopwatch;
  Verification verification;
  verification.reconstruction_error = reconstruction_error(tensor, result.core, result.factors);
  verification.orthogonality_error = orthogonality_error(result.factors);
  verification.seconds = stopwatch.seconds();
  return verification;
}

template <class T>
double diag_norm2(const HostTensor<T>& x) {
  double sum = 0.0;
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  for (int i = 0; i < x.size(); ++i) {
    sum += abs2(static_cast<wide_t<T>>(x.data()[static_cast<std::size_t>(i) * step]));
  }
  return sum;
}

template <class T>
double trace(const HostTensor<T>& x) {
  double sum = 0.0;
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  for (int i = 0; i < x.size(); ++i) sum += real_part(static_cast<wide_t<T>>(x.data()[static_cast<std::size_t>(i) * step]));
  return sum;
}

template <class T>
double off_norm2(const HostTensor<T>& x) {
  // The diagonal entries sit at k * step, k = 0..N-1: sum the runs between them.
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  const std::size_t runs = static_cast<std::size_t>(x.size());
  // Each run summed on its own, the runs then in order: the same figure at any thread count (an
  // OpenMP reduction would group the runs by thread).
  std::vector<double> run_sums(runs, 0.0);
#pragma omp parallel for schedule(static) if (x.count() >= (1u << 16))
  for (std::size_t k = 0; k < runs; ++k) {
    const std::size_t end = k + 1 < runs ? (k + 1) * step : x.count();
    double run_sum = 0.0;
    for (std::size_t i = k * step + 1; i < end; ++i) {
      run_sum += abs2(static_cast<wide_t<T>>(x.data()[i]));
    }
    run_sums[k] = run_sum;
  }
  double sum = 0.0;
  for (const double run_sum : run_sums) sum += run_sum;
  return sum;
}

#define TENSORDIAG_INSTANTIATE(T)                                                                         \
  template Verification verify(const HostTensor<T>&, const Result<T>&);                                   \
  template double reconstruction_error(const HostTensor<T>&, const HostTensor<T>&, const std::vector<Matrix<T>>&, \
                                       std::size_t);                                                      \
  template double orthogonality_error(const std::vector<Matrix<T>>&);                                     \
  template double diag_norm2(const HostTensor<T>&);                                                       \
  template double trace(const HostTensor<T>&);                                                            \
  template double off_norm2(const HostTensor<T>&);
TENSORDIAG_INSTANTIATE(float)
TENSORDIAG_INSTANTIATE(double)
TENSORDIAG_INSTANTIATE(std::complex<float>)
TENSORDIAG_INSTANTIATE(std::complex<double>)
#undef TENSORDIAG_INSTANTIATE

}  // namespace tensordiag::runtime
