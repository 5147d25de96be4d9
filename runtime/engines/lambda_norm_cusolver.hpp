#pragma once
// ||Lambda||_2 on the device with cuSOLVER: the largest singular value of the N x N Lambda of the
// pivot check (DESIGN.md section 2), from gesvd without singular vectors. Singular values come
// back in descending order, so the norm stays on the device at norm() for the angle kernel.
#include <cusolverDn.h>

#include "runtime/cuda/device_buffer.hpp"

namespace tensordiag::runtime {

class LambdaNormCusolver {
public:
  explicit LambdaNormCusolver(int size);
  ~LambdaNormCusolver();
  LambdaNormCusolver(const LambdaNormCusolver&) = delete;
  LambdaNormCusolver& operator=(const LambdaNormCusolver&) = delete;

  // Enqueues norm() <- ||lambda||_2 for the row-major N x N `lambda` (left unchanged).
  void enqueue(cudaStream_t stream, const double* lambda);
  const double* norm() const { return singular_values_.data(); }
  double* norm() { return singular_values_.data(); }

private:
  int size_;
  cusolverDnHandle_t handle_ = nullptr;
  DeviceBuffer<double> matrix_;  // gesvd overwrites its input: it works on a copy
  DeviceBuffer<double> singular_values_;
  DeviceBuffer<double> workspace_;
  DeviceBuffer<int> info_;
};

}  // namespace tensordiag::runtime
