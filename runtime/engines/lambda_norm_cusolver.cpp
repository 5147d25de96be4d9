#include "runtime/engines/lambda_norm_cusolver.hpp"

#include "runtime/cuda/cusolver_library.hpp"

namespace tensordiag::runtime {

LambdaNormCusolver::LambdaNormCusolver(int size)
    : size_(size), matrix_(static_cast<std::size_t>(size) * size), singular_values_(static_cast<std::size_t>(size)),
      info_(1) {
  check_cusolver(cusolver().create(&handle_), "cusolverDnCreate");
  int work = 0;
  check_cusolver(cusolver().dgesvd_buffer_size(handle_, size, size, &work), "cusolverDnDgesvd_bufferSize");
  workspace_ = DeviceBuffer<double>(static_cast<std::size_t>(work));
}

LambdaNormCusolver::~LambdaNormCusolver() { cusolver().destroy(handle_); }

void LambdaNormCusolver::enqueue(cudaStream_t stream, const double* lambda) {
  check_cusolver(cusolver().set_stream(handle_, stream), "cusolverDnSetStream");
  check_cuda(cudaMemcpyAsync(matrix_.data(), lambda, matrix_.bytes(), cudaMemcpyDeviceToDevice, stream),
             "cudaMemcpyAsync (Lambda)");
  // Row-major Lambda is column-major Lambda^T: the same singular values.
  check_cusolver(cusolver().dgesvd(handle_, 'N', 'N', size_, size_, matrix_.data(), size_, singular_values_.data(),
                                  nullptr, size_, nullptr, size_, workspace_.data(),
                                  static_cast<int>(workspace_.count()), nullptr, info_.data()),
                 "cusolverDnDgesvd");
}

}  // namespace tensordiag::runtime
