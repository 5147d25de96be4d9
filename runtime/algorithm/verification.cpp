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

// The buffers Eigen's products write into, aligned to Eigen's packets. Where a destination starts
// decides which of its entries Eigen's small products compute as scalars (a reduction in one
// order) and which as packets (another order): with std::vector's 16 bytes, the same core and
// factors gave reconstruction errors that differed in the last bits with the heap's addresses
// (a batch against the same tensor alone). Aligned, the figures depend on the data alone.
template <class W>
using AlignedVector = std::vector<W, Eigen::aligned_allocator<W>>;

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

// cycling_mode_product with its columns in fixed blocks over the threads (one large tensor row).
template <class W>
void parallel_cycling_mode_product(const W* x, W* y, const ColumnMatrix<W>& m, Index rest) {
  const Index n = m.rows(), block = std::max<Index>(1, chunk_budget / n), blocks = (rest + block - 1) / block;
  const Eigen::Map<const RowMajorMatrix<W>> xm(x, n, rest);
#pragma omp parallel for schedule(static) if (n * rest >= parallel_work)
  for (Index b = 0; b < blocks; ++b) {
    const Index begin = b * block, length = std::min(block, rest - begin);
    Eigen::Map<ColumnMatrix<W>>(y + begin * n, n, length).noalias() = m * xm.middleCols(begin, length);
  }
}

// The two sums of the relative error over part of the tensor.
struct ErrorSums {
  double diff2 = 0.0;  // sum |X - T|^2
  double norm2 = 0.0;  // sum |T|^2
};

template <class W, class T>
ErrorSums compare(const W* x, const T* t, Index count) {
  ErrorSums sums;
  for (Index i = 0; i < count; ++i) {
    const W value = static_cast<W>(t[i]);
    sums.diff2 += abs2(x[i] - value);
    sums.norm2 += abs2(value);
  }
  return sums;
}

// The parts added in their order: the same figures at any thread count and schedule.
ErrorSums in_order(const std::vector<ErrorSums>& parts) {
  ErrorSums total;
  for (const ErrorSums& part : parts) {
    total.diff2 += part.diff2;
    total.norm2 += part.norm2;
  }
  return total;
}

// The extra memory of the host verification when the caller gives none: 32 MiB, or half the
// tensor's bytes when that is more. With the input and the core resident, a run's peak stays
// within 2.5 times the tensor's bytes (issue 15's bound) plus the factors and chunks.
template <class T>
std::size_t budget_doubles_for(const HostTensor<T>& tensor, std::size_t asked) {
  if (asked > 0) return asked;
  return std::max(default_block_doubles, tensor.count() * sizeof(T) / (2 * sizeof(double)));
}

// Blocks of slabs, a slab a thread (slab j: index j of the slowest mode s). Slab j of the
// reconstruction is
//   (sum_i M_s[j, i] C[.., i, ..]) x_n M_n over the other modes n,
// so a block of slabs takes one product in mode s with the rows of M_s it needs, then each slab
// its D-1 other products (cycling_mode_product); each is compared with the same slab of T and
// dropped. Every product is a GEMM in double; work D N^(D+1) multiply-adds, as a full
// reconstruction's. Memory: the block, a slab per thread (the caller checks 2 threads' slabs fit).
template <class T>
ErrorSums slab_block_sums(const HostTensor<T>& tensor, const HostTensor<T>& core,
                          const std::vector<ColumnMatrix<wide_t<T>>>& m, Index budget) {
  using W = wide_t<T>;
  const Index n = core.size(), slab = static_cast<Index>(core.count()) / n;
  // A block of at most a quarter of the slabs: fresh memory costs page faults, about as much per
  // byte as a pass over the core; a thread per slab at the least.
  const Index threads = omp_get_max_threads();
  const Index block = std::min(n, std::max(std::min(budget / slab - threads, n / 4), threads));
  const Index chunk = std::max<Index>(1, std::min(budget, chunk_budget) / n);
  RowMajorMatrix<W> slabs(block, slab);
  std::vector<AlignedVector<W>> scratch(static_cast<std::size_t>(threads), AlignedVector<W>(static_cast<std::size_t>(slab)));
  // Sums per slab, added in slab order: the same figures at any thread count and schedule.
  std::vector<ErrorSums> slab_sums(static_cast<std::size_t>(n));
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
      slab_sums[static_cast<std::size_t>(first + r)] = compare(x, tensor.data() + (first + r) * slab, slab);
    }
  }
  return in_order(slab_sums);
}

// Rows one at a time, each product parallel over its columns, for tensors whose slabs are too
// large to hold two a thread. A row fixes the indices j_1..j_k of the k slowest modes s_1..s_k,
// k the fewest whose rows fit two in `budget`:
//   row (j_1..j_k) = (sum over i_1..i_k of M_s1[j_1, i_1] .. M_sk[j_k, i_k] C[i_1, .., i_k, ..])
//                    x_n M_n over the other modes n,
// the first factor a weighted sum of the core's N^k rows (one read of the core a row, N^k weights
// an entry: at k = 1 the slab's product), the other D - k products cycled as above. Memory: two
// rows of N^(D-k) doubles and the weights.
template <class T>
ErrorSums row_sums(const HostTensor<T>& tensor, const HostTensor<T>& core, const std::vector<ColumnMatrix<wide_t<T>>>& m,
                   Index budget) {
  using W = wide_t<T>;
  const Index n = core.size(), count = static_cast<Index>(core.count());
  int k = 1;
  Index width = count / n;  // the row's entries, N^(D-k)
  while (2 * width > budget && width >= n * n) {
    ++k;
    width /= n;
  }
  const Index rows = count / width;
  // Fixed column blocks (not a split by thread): the same sums at any thread count.
  const Index block = std::max<Index>(1, chunk_budget / rows);
  const Index blocks = (width + block - 1) / block;
  AlignedVector<W> x(static_cast<std::size_t>(width)), y(static_cast<std::size_t>(width)),
      weights(static_cast<std::size_t>(rows));
  std::vector<ErrorSums> block_sums(static_cast<std::size_t>(blocks)), row_totals(static_cast<std::size_t>(rows));
  using Stored = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;
  const Eigen::Map<const Stored> c(core.data(), rows, width);
  for (Index row = 0; row < rows; ++row) {
    // weights[i] = prod_m M_sm[j_m, i_m], (j_m) the digits of `row` and (i_m) those of i, base N.
    for (Index i = 0; i < rows; ++i) {
      W w{1};
      for (Index digit = k - 1, r = row, q = i; digit >= 0; --digit, r /= n, q /= n) w *= m[static_cast<std::size_t>(digit)](r % n, q % n);
      weights[static_cast<std::size_t>(i)] = w;
    }
    const Eigen::Map<const Eigen::Matrix<W, 1, Eigen::Dynamic>> weight_row(weights.data(), rows);
#pragma omp parallel for schedule(static) if (width >= parallel_work)
    for (Index b = 0; b < blocks; ++b) {
      const Index begin = b * block, length = std::min(block, width - begin);
      Eigen::Map<Eigen::Matrix<W, 1, Eigen::Dynamic>>(x.data() + begin, length).noalias() =
          weight_row * c.middleCols(begin, length).template cast<W>();
    }
    W* in = x.data();
    W* out = y.data();
    for (std::size_t p = static_cast<std::size_t>(k); p < m.size(); ++p) {
      parallel_cycling_mode_product(in, out, m[p], width / n);
      std::swap(in, out);
    }
    const T* t = tensor.data() + row * width;
#pragma omp parallel for schedule(static) if (width >= parallel_work)
    for (Index b = 0; b < blocks; ++b) {
      const Index begin = b * block;
      block_sums[static_cast<std::size_t>(b)] = compare(in + begin, t + begin, std::min(block, width - begin));
    }
    row_totals[static_cast<std::size_t>(row)] = in_order(block_sums);
  }
  return in_order(row_totals);
}

}  // namespace

template <class T>
double reconstruction_error(const HostTensor<T>& tensor, const HostTensor<T>& core,
                            const std::vector<Matrix<T>>& factors, std::size_t budget_doubles) {
  using W = wide_t<T>;
  std::vector<ColumnMatrix<W>> m;
  for (int mode : memory_order(core.strides())) m.push_back(to_eigen(factors[static_cast<std::size_t>(mode)]));
  const Index slab = static_cast<Index>(core.count()) / core.size();
  // The budget in entries of W (a complex<double> is two doubles).
  const Index budget = static_cast<Index>(budget_doubles_for(tensor, budget_doubles) * sizeof(double) / sizeof(W));
  const ErrorSums sums = 2 * omp_get_max_threads() * slab <= budget ? slab_block_sums(tensor, core, m, budget)
                                                                   : row_sums(tensor, core, m, budget);
  return sums.norm2 > 0 ? std::sqrt(sums.diff2 / sums.norm2) : std::sqrt(sums.diff2);
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
