#include "runtime/algorithm/verification.hpp"

#include <cmath>

namespace tensordiag::runtime {

namespace {

template <class U>
Matrix<double> to_double(const Matrix<U>& m) {
  return {m.n, std::vector<double>(m.data.begin(), m.data.end())};
}

}  // namespace

// Mode n with stride B splits memory into [A][N][B] whatever the layout:
// out[a][j][b] = sum_i M[j, i] x[a][i][b].
template <class T>
HostTensor<double> mode_product(const HostTensor<T>& x, int mode, const Matrix<double>& m) {
  HostTensor<double> out(x.order(), x.size(), x.layout());
  const std::size_t n = static_cast<std::size_t>(x.size());
  const std::size_t inner = static_cast<std::size_t>(x.strides()[static_cast<std::size_t>(mode)]);
  const std::size_t outer = x.count() / (n * inner);
#pragma omp parallel for schedule(static) if (x.count() >= (1u << 16))
  for (std::size_t a = 0; a < outer; ++a)
    for (std::size_t j = 0; j < n; ++j) {
      double* dst = out.data() + (a * n + j) * inner;
      for (std::size_t i = 0; i < n; ++i) {
        const double w = m(static_cast<int>(j), static_cast<int>(i));
        const T* src = x.data() + (a * n + i) * inner;
        for (std::size_t b = 0; b < inner; ++b) dst[b] += w * static_cast<double>(src[b]);
      }
    }
  return out;
}

template <class T, class U>
HostTensor<double> reconstruct(const HostTensor<T>& core, const std::vector<Matrix<U>>& factors) {
  HostTensor<double> t = mode_product(core, 0, to_double(factors[0]));
  for (int mode = 1; mode < core.order(); ++mode) t = mode_product(t, mode, to_double(factors[static_cast<std::size_t>(mode)]));
  return t;
}

template <class T>
double reconstruction_error(const HostTensor<T>& tensor, const HostTensor<T>& core, const std::vector<Matrix<T>>& factors) {
  const HostTensor<double> t = reconstruct(core, factors);
  double diff2 = 0.0, norm2 = 0.0;
#pragma omp parallel for reduction(+ : diff2, norm2) schedule(static) if (t.count() >= (1u << 16))
  for (std::size_t i = 0; i < t.count(); ++i) {
    const double x = static_cast<double>(tensor.values()[i]);
    diff2 += (t.values()[i] - x) * (t.values()[i] - x);
    norm2 += x * x;
  }
  return norm2 > 0 ? std::sqrt(diff2 / norm2) : std::sqrt(diff2);
}

template <class T>
double orthogonality_error(const std::vector<Matrix<T>>& factors) {
  double worst = 0.0;
  for (const auto& m : factors) {
    double err2 = 0.0;
    for (int i = 0; i < m.n; ++i)
      for (int j = 0; j < m.n; ++j) {
        double dot = 0.0;
        for (int r = 0; r < m.n; ++r) dot += static_cast<double>(m(r, i)) * static_cast<double>(m(r, j));
        const double deviation = dot - (i == j ? 1.0 : 0.0);
        err2 += deviation * deviation;
      }
    worst = std::max(worst, std::sqrt(err2));
  }
  return worst;
}

template <class T>
double diag_norm2(const HostTensor<T>& x) {
  double sum = 0.0;
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  for (int i = 0; i < x.size(); ++i) {
    const double v = static_cast<double>(x.values()[static_cast<std::size_t>(i) * step]);
    sum += v * v;
  }
  return sum;
}

template <class T>
double trace(const HostTensor<T>& x) {
  double sum = 0.0;
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  for (int i = 0; i < x.size(); ++i) sum += static_cast<double>(x.values()[static_cast<std::size_t>(i) * step]);
  return sum;
}

template <class T>
double off_norm2(const HostTensor<T>& x) {
  // The diagonal entries sit at k * step, k = 0..N-1: sum the runs between them.
  const std::size_t step = static_cast<std::size_t>(x.diagonal_stride());
  const std::size_t runs = static_cast<std::size_t>(x.size());
  double sum = 0.0;
#pragma omp parallel for reduction(+ : sum) schedule(static) if (x.count() >= (1u << 16))
  for (std::size_t k = 0; k < runs; ++k) {
    const std::size_t end = k + 1 < runs ? (k + 1) * step : x.count();
    double run_sum = 0.0;
    for (std::size_t i = k * step + 1; i < end; ++i) {
      const double v = static_cast<double>(x.values()[i]);
      run_sum += v * v;
    }
    sum += run_sum;
  }
  return sum;
}

#define TENSORDIAG_INSTANTIATE(T)                                                                           \
  template HostTensor<double> mode_product(const HostTensor<T>&, int, const Matrix<double>&);               \
  template HostTensor<double> reconstruct(const HostTensor<T>&, const std::vector<Matrix<T>>&);             \
  template double reconstruction_error(const HostTensor<T>&, const HostTensor<T>&, const std::vector<Matrix<T>>&); \
  template double orthogonality_error(const std::vector<Matrix<T>>&);                                       \
  template double diag_norm2(const HostTensor<T>&);                                                         \
  template double trace(const HostTensor<T>&);                                                              \
  template double off_norm2(const HostTensor<T>&);
TENSORDIAG_INSTANTIATE(float)
TENSORDIAG_INSTANTIATE(double)
#undef TENSORDIAG_INSTANTIATE
template HostTensor<double> reconstruct(const HostTensor<float>&, const std::vector<Matrix<double>>&);

}  // namespace tensordiag::runtime
