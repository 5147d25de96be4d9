#pragma once
// The cuBLAS entry points the HOSVD start on the device takes (engines/gpu_hosvd_start.*): Gram
// matrices and mode products of the tensor as (strided-batched) gemms, real and complex, loaded on first use
// (shared_library.hpp) as cuSOLVER is, so that CPU runs map neither.
#include <cublas_v2.h>

namespace tensordiag::runtime {

struct CublasLibrary {
  decltype(&cublasCreate) create;
  decltype(&cublasDestroy) destroy;
  decltype(&cublasSetStream) set_stream;
  decltype(&cublasSgemm) sgemm;
  decltype(&cublasDgemm) dgemm;
  decltype(&cublasSgemmStridedBatched) sgemm_strided_batched;
  decltype(&cublasDgemmStridedBatched) dgemm_strided_batched;
  decltype(&cublasSgemv) sgemv;
  decltype(&cublasDgemv) dgemv;
  // Complex tensors' (complex64, complex128).
  decltype(&cublasCgemm) cgemm;
  decltype(&cublasZgemm) zgemm;
  decltype(&cublasCgemmStridedBatched) cgemm_strided_batched;
  decltype(&cublasZgemmStridedBatched) zgemm_strided_batched;
  decltype(&cublasCgemv) cgemv;
  decltype(&cublasZgemv) zgemv;
};

// Opens cuBLAS the first time (thread-safe); throws user_error when it cannot be loaded.
const CublasLibrary& cublas();

// Throws cuda_error naming `what` and the status unless it is CUBLAS_STATUS_SUCCESS.
void check_cublas(cublasStatus_t status, const char* what);

}  // namespace tensordiag::runtime
