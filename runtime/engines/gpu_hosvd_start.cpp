#include "runtime/engines/gpu_hosvd_start.hpp"

#include <algorithm>
#include <climits>
#include <complex>
#include <string>
#include <type_traits>
#include <utility>

#include "runtime/algorithm/hosvd_basis.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/core/stopwatch.hpp"
#include "runtime/cuda/cublas_library.hpp"
#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/cusolver_library.hpp"
#include "runtime/cuda/device_buffer.hpp"
#include "runtime/engines/tuning_environment.hpp"

namespace tensordiag::runtime {

bool host_hosvd_start_pays(std::size_t tensor_bytes) {
  const long long asked = host_hosvd_bytes_from_environment();
  const long long limit = asked >= 0 ? asked : 4LL << 20;
  return static_cast<long long>(tensor_bytes) <= limit;
}

namespace {

// Mode n of the tensor in cuBLAS's column-major terms. With s the mode's stride and A = N^D / (N s)
// blocks of the slower modes, entry (.., i, ..) lies at a N s + i s + b (b < s): block a is the
// s x N column-major matrix X_a (leading dimension s; X_a(b, i)), so that
//   G_n = sum_a X_a^T X_a   and   block a of T x_n Q^T = X_a Q.
// For s = 1 the blocks are the columns of one N x A matrix W (leading dimension N):
//   G_n = W W^T             and   T x_n Q^T = Q^T W,
// one gemm each rather than A products of a single row.
struct ModeBlocks {
  int stride;  // s
  int count;   // A
};

// The Gram's batched products P_a = X_a^T X_a held at once (N x N each), summed batch by batch.
constexpr std::size_t products_entries = std::size_t{1} << 22;

int gram_batch(int size) {
  return std::max(1, static_cast<int>(products_entries / (static_cast<std::size_t>(size) * size)));
}

// std::complex<R> as the CUDA libraries' complex types (the same layout), real pointers as they are.
template <class T>
auto* cu(T* x) {
  if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<float>>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const cuComplex, cuComplex>*>(x);
  else if constexpr (std::is_same_v<std::remove_const_t<T>, std::complex<double>>)
    return reinterpret_cast<std::conditional_t<std::is_const_v<T>, const cuDoubleComplex, cuDoubleComplex>*>(x);
  else
    return x;
}

class BlasHandle {
public:
  explicit BlasHandle(cudaStream_t stream) {
    check_cublas(cublas().create(&handle_), "cublasCreate");
    const cublasStatus_t status = cublas().set_stream(handle_, stream);
    if (status != CUBLAS_STATUS_SUCCESS) cublas().destroy(handle_);
    check_cublas(status, "cublasSetStream");
  }
  ~BlasHandle() { cublas().destroy(handle_); }
  BlasHandle(const BlasHandle&) = delete;
  BlasHandle& operator=(const BlasHandle&) = delete;

  // C <- op(A) op(B) + beta C (column-major, alpha = 1). std::complex<R> is laid out as cuComplex
  // and cuDoubleComplex are.
  template <class T>
  void gemm(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* a, int lda, const T* b, int ldb,
            T beta, T* c, int ldc) const {
    const T one = 1;
    if constexpr (std::is_same_v<T, float>)
      check_cublas(cublas().sgemm(handle_, ta, tb, m, n, k, &one, a, lda, b, ldb, &beta, c, ldc), "cublasSgemm");
    else if constexpr (std::is_same_v<T, double>)
      check_cublas(cublas().dgemm(handle_, ta, tb, m, n, k, &one, a, lda, b, ldb, &beta, c, ldc), "cublasDgemm");
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      check_cublas(cublas().cgemm(handle_, ta, tb, m, n, k, cu(&one), cu(a), lda, cu(b), ldb, cu(&beta), cu(c), ldc),
                   "cublasCgemm");
    else
      check_cublas(cublas().zgemm(handle_, ta, tb, m, n, k, cu(&one), cu(a), lda, cu(b), ldb, cu(&beta), cu(c), ldc),
                   "cublasZgemm");
  }

  // C_j <- op(A_j) op(B_j) for j < batches, X_j = X + j * stride_x (alpha = 1, beta = 0).
  template <class T>
  void gemm_batched(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, const T* a, int lda,
                    long long stride_a, const T* b, int ldb, long long stride_b, T* c, int ldc, long long stride_c,
                    int batches) const {
    const T one = 1, zero = 0;
    if constexpr (std::is_same_v<T, float>)
      check_cublas(cublas().sgemm_strided_batched(handle_, ta, tb, m, n, k, &one, a, lda, stride_a, b, ldb, stride_b,
                                                  &zero, c, ldc, stride_c, batches),
                   "cublasSgemmStridedBatched");
    else if constexpr (std::is_same_v<T, double>)
      check_cublas(cublas().dgemm_strided_batched(handle_, ta, tb, m, n, k, &one, a, lda, stride_a, b, ldb, stride_b,
                                                  &zero, c, ldc, stride_c, batches),
                   "cublasDgemmStridedBatched");
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      check_cublas(cublas().cgemm_strided_batched(handle_, ta, tb, m, n, k, cu(&one), cu(a), lda, stride_a, cu(b), ldb,
                                                  stride_b, cu(&zero), cu(c), ldc, stride_c, batches),
                   "cublasCgemmStridedBatched");
    else
      check_cublas(cublas().zgemm_strided_batched(handle_, ta, tb, m, n, k, cu(&one), cu(a), lda, stride_a, cu(b), ldb,
                                                  stride_b, cu(&zero), cu(c), ldc, stride_c, batches),
                   "cublasZgemmStridedBatched");
  }

  // y <- A x + beta y for the column-major m x n A (leading dimension m).
  template <class T>
  void gemv(int m, int n, const T* a, const T* x, T beta, T* y) const {
    const T one = 1;
    if constexpr (std::is_same_v<T, float>)
      check_cublas(cublas().sgemv(handle_, CUBLAS_OP_N, m, n, &one, a, m, x, 1, &beta, y, 1), "cublasSgemv");
    else if constexpr (std::is_same_v<T, double>)
      check_cublas(cublas().dgemv(handle_, CUBLAS_OP_N, m, n, &one, a, m, x, 1, &beta, y, 1), "cublasDgemv");
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      check_cublas(cublas().cgemv(handle_, CUBLAS_OP_N, m, n, cu(&one), cu(a), m, cu(x), 1, cu(&beta), cu(y), 1),
                   "cublasCgemv");
    else
      check_cublas(cublas().zgemv(handle_, CUBLAS_OP_N, m, n, cu(&one), cu(a), m, cu(x), 1, cu(&beta), cu(y), 1),
                   "cublasZgemv");
  }

private:
  cublasHandle_t handle_ = nullptr;
};

class SolverHandle {
public:
  explicit SolverHandle(cudaStream_t stream) {
    check_cusolver(cusolver().create(&handle_), "cusolverDnCreate");
    const cusolverStatus_t status = cusolver().set_stream(handle_, stream);
    if (status != CUSOLVER_STATUS_SUCCESS) cusolver().destroy(handle_);
    check_cusolver(status, "cusolverDnSetStream");
  }
  ~SolverHandle() { cusolver().destroy(handle_); }
  SolverHandle(const SolverHandle&) = delete;
  SolverHandle& operator=(const SolverHandle&) = delete;
  cusolverDnHandle_t get() const { return handle_; }

private:
  cusolverDnHandle_t handle_ = nullptr;
};

// cuSOLVER's syevd (heevd for a complex tensor's Hermitian Gram) for one N x N matrix: its
// eigenvectors, column-major by ascending eigenvalue (what hosvd_basis takes), overwrite it and are
// downloaded.
template <class T>
class Eigenvectors {
public:
  Eigenvectors(int size, T* matrix, cudaStream_t stream)
      : size_(size), handle_(stream), values_(static_cast<std::size_t>(size)), info_(1) {
    int work = 0;
    const auto h = handle_.get();
    if constexpr (std::is_same_v<T, float>)
      check_cusolver(cusolver().ssyevd_buffer_size(h, mode, fill, size, matrix, size, values_.data(), &work),
                     "cusolverDnSsyevd_bufferSize");
    else if constexpr (std::is_same_v<T, double>)
      check_cusolver(cusolver().dsyevd_buffer_size(h, mode, fill, size, matrix, size, values_.data(), &work),
                     "cusolverDnDsyevd_bufferSize");
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      check_cusolver(cusolver().cheevd_buffer_size(h, mode, fill, size, cu(matrix), size, values_.data(), &work),
                     "cusolverDnCheevd_bufferSize");
    else
      check_cusolver(cusolver().zheevd_buffer_size(h, mode, fill, size, cu(matrix), size, values_.data(), &work),
                     "cusolverDnZheevd_bufferSize");
    workspace_ = DeviceBuffer<T>(static_cast<std::size_t>(std::max(work, 1)));
  }

  std::vector<T> of(T* matrix, cudaStream_t stream) {
    const int work = static_cast<int>(workspace_.count());
    const auto h = handle_.get();
    if constexpr (std::is_same_v<T, float>)
      check_cusolver(cusolver().ssyevd(h, mode, fill, size_, matrix, size_, values_.data(), workspace_.data(), work,
                                       info_.data()),
                     "cusolverDnSsyevd");
    else if constexpr (std::is_same_v<T, double>)
      check_cusolver(cusolver().dsyevd(h, mode, fill, size_, matrix, size_, values_.data(), workspace_.data(), work,
                                       info_.data()),
                     "cusolverDnDsyevd");
    else if constexpr (std::is_same_v<T, std::complex<float>>)
      check_cusolver(cusolver().cheevd(h, mode, fill, size_, cu(matrix), size_, values_.data(), cu(workspace_.data()),
                                       work, info_.data()),
                     "cusolverDnCheevd");
    else
      check_cusolver(cusolver().zheevd(h, mode, fill, size_, cu(matrix), size_, values_.data(), cu(workspace_.data()),
                                       work, info_.data()),
                     "cusolverDnZheevd");
    std::vector<T> vectors(static_cast<std::size_t>(size_) * size_);
    int info = 0;
    check_cuda(cudaMemcpyAsync(vectors.data(), matrix, vectors.size() * sizeof(T), cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync (eigenvectors)");
    check_cuda(cudaMemcpyAsync(&info, info_.data(), sizeof info, cudaMemcpyDeviceToHost, stream),
               "cudaMemcpyAsync (syevd info)");
    check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
    if (info != 0) throw cuda_error("cuSOLVER syevd did not converge on a Gram matrix: info " + std::to_string(info));
    return vectors;
  }

private:
  static constexpr cusolverEigMode_t mode = CUSOLVER_EIG_MODE_VECTOR;
  static constexpr cublasFillMode_t fill = CUBLAS_FILL_MODE_LOWER;
  int size_;
  SolverHandle handle_;
  DeviceBuffer<real_t<T>> values_;
  DeviceBuffer<T> workspace_;
  DeviceBuffer<int> info_;
};

// The transpose that forms a Gram matrix: the conjugate one for a complex tensor.
template <class T>
constexpr cublasOperation_t adjoint_op = is_complex_v<T> ? CUBLAS_OP_C : CUBLAS_OP_T;

// g <- G_n of the tensor x (ModeBlocks' formulas): for s > 1, the products P_a of a batch of blocks
// by one strided-batched gemm, then summed as the N^2 x batch matrix [P_a] times a vector of ones.
// A complex tensor's G_n = T_(n) T_(n)^H: W W^H for s = 1; for s > 1 the products X_a^H X_a, whose
// sum is conj(G_n) (returns true: its eigenvectors are the conjugates of G_n's, the eigenvalues the
// same).
template <class T>
bool gram(const BlasHandle& blas, const T* x, ModeBlocks m, int size, DeviceBuffer<T>& products,
          const DeviceBuffer<T>& ones, T* g) {
  if (m.stride == 1) {
    blas.gemm<T>(CUBLAS_OP_N, adjoint_op<T>, size, size, m.count, x, size, x, size, T(0), g, size);
    return false;
  }
  const long long block = static_cast<long long>(size) * m.stride;
  const int batch = static_cast<int>(ones.count());
  for (int first = 0; first < m.count; first += batch) {
    const int count = std::min(batch, m.count - first);
    const T* blocks = x + first * block;
    blas.gemm_batched<T>(adjoint_op<T>, CUBLAS_OP_N, size, size, m.stride, blocks, m.stride, block, blocks, m.stride,
                         block, products.data(), size, static_cast<long long>(size) * size, count);
    blas.gemv<T>(size * size, count, products.data(), ones.data(), T(first == 0 ? 0 : 1), g);
  }
  return is_complex_v<T>;
}

// y <- x x_n Q^T, `q` = Q row-major, which cuBLAS reads as the column-major Q^T (a complex tensor
// passes conj(Q) for x x_n Q^H).
template <class T>
void mode_product(const BlasHandle& blas, const T* x, ModeBlocks m, int size, const T* q, T* y) {
  if (m.stride == 1) {
    blas.gemm<T>(CUBLAS_OP_N, CUBLAS_OP_N, size, m.count, size, q, size, x, size, T(0), y, size);
    return;
  }
  const long long block = static_cast<long long>(size) * m.stride;
  blas.gemm_batched<T>(CUBLAS_OP_N, CUBLAS_OP_T, m.stride, size, size, x, m.stride, block, q, size, 0, y, m.stride,
                       block, m.count);
}

}  // namespace

double gpu_hosvd_start_bytes(int order, int size, std::size_t scalar_bytes) {
  double entries = 1;
  for (int n = 0; n < order; ++n) entries *= size;
  const double square = static_cast<double>(size) * size;
  const double products = static_cast<double>(gram_batch(size)) * square;
  // The second tensor, the products and their ones, G, Q and syevd's workspace (a few N^2).
  return (entries + products + 8 * square + 8 * size) * static_cast<double>(scalar_bytes);
}

template <class T>
GpuHosvdStart<T> gpu_hosvd_start(T* tensor, int order, int size, const std::vector<std::ptrdiff_t>& strides,
                                 Structure structure, cudaStream_t stream) {
  const Stopwatch clock;
  std::size_t entries = 1;
  for (int n = 0; n < order; ++n) entries *= static_cast<std::size_t>(size);
  if (entries > static_cast<std::size_t>(INT_MAX))
    throw user_error("the HOSVD start on the GPU takes tensors of fewer than 2^31 entries (this one has " +
                     std::to_string(entries) + "): use init identity or backend cpu");
  const std::size_t square = static_cast<std::size_t>(size) * size;
  const BlasHandle blas(stream);
  DeviceBuffer<T> gram_matrix(square), basis(square), scratch(entries);
  Eigenvectors<T> eigenvectors(size, gram_matrix.data(), stream);
  const int batch = gram_batch(size);
  DeviceBuffer<T> products(static_cast<std::size_t>(batch) * square), ones(static_cast<std::size_t>(batch));
  ones.upload(std::vector<T>(static_cast<std::size_t>(batch), T(1)), stream);

  GpuHosvdStart<T> start;
  T* x = tensor;
  T* y = scratch.data();
  for (int mode = 0; mode < order; ++mode) {
    const auto stride = static_cast<std::size_t>(strides[static_cast<std::size_t>(mode)]);
    const ModeBlocks m{static_cast<int>(stride), static_cast<int>(entries / (static_cast<std::size_t>(size) * stride))};
    // G_n of the partly rotated x is T's own: rotations of the other modes multiply T_(n) on the
    // right by an orthogonal matrix.
    if (mode == 0 || !shares_one_factor(structure)) {
      const bool conjugated = gram(blas, x, m, size, products, ones, gram_matrix.data());
      std::vector<T> vectors = eigenvectors.of(gram_matrix.data(), stream);
      if (conjugated)
        for (T& v : vectors) v = conjugate(v);
      start.bases.push_back(hosvd_basis<T>(vectors.data(), size));
      std::vector<T> uploaded = start.bases.back().data;  // Q, or conj(Q) for x x_n Q^H
      for (T& v : uploaded) v = conjugate(v);
      basis.upload(uploaded, stream);
    } else {
      start.bases.push_back(start.bases.front());
    }
    mode_product(blas, x, m, size, basis.data(), y);
    std::swap(x, y);
  }
  if (x != tensor)
    check_cuda(cudaMemcpyAsync(tensor, x, entries * sizeof(T), cudaMemcpyDeviceToDevice, stream),
               "cudaMemcpyAsync (HOSVD start)");
  check_cuda(cudaStreamSynchronize(stream), "cudaStreamSynchronize");
  start.seconds = clock.seconds();
  return start;
}

template GpuHosvdStart<float> gpu_hosvd_start(float*, int, int, const std::vector<std::ptrdiff_t>&, Structure,
                                              cudaStream_t);
template GpuHosvdStart<double> gpu_hosvd_start(double*, int, int, const std::vector<std::ptrdiff_t>&, Structure,
                                               cudaStream_t);
template GpuHosvdStart<std::complex<float>> gpu_hosvd_start(std::complex<float>*, int, int,
                                                            const std::vector<std::ptrdiff_t>&, Structure, cudaStream_t);
template GpuHosvdStart<std::complex<double>> gpu_hosvd_start(std::complex<double>*, int, int,
                                                             const std::vector<std::ptrdiff_t>&, Structure, cudaStream_t);

}  // namespace tensordiag::runtime
