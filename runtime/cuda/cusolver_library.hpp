#pragma once
// The cuSOLVER entry points the pivot check's norm (engines/lambda_norm_cusolver.*) and the HOSVD
// start's eigenvectors (engines/gpu_hosvd_start.*) take, loaded
// with the library (and its cuBLAS, cuSPARSE, nvJitLink) on first use (shared_library.hpp).
#include <cusolverDn.h>

namespace tensordiag::runtime {

struct CusolverLibrary {
  decltype(&cusolverDnCreate) create;
  decltype(&cusolverDnDestroy) destroy;
  decltype(&cusolverDnSetStream) set_stream;
  decltype(&cusolverDnDgesvd_bufferSize) dgesvd_buffer_size;
  decltype(&cusolverDnDgesvd) dgesvd;
  decltype(&cusolverDnSsyevd_bufferSize) ssyevd_buffer_size;
  decltype(&cusolverDnSsyevd) ssyevd;
  decltype(&cusolverDnDsyevd_bufferSize) dsyevd_buffer_size;
  decltype(&cusolverDnDsyevd) dsyevd;
  decltype(&cusolverDnCheevd_bufferSize) cheevd_buffer_size;
  decltype(&cusolverDnCheevd) cheevd;
  decltype(&cusolverDnZheevd_bufferSize) zheevd_buffer_size;
  decltype(&cusolverDnZheevd) zheevd;
};

// Opens cuSOLVER the first time (thread-safe); throws user_error when it cannot be loaded.
const CusolverLibrary& cusolver();

// Throws cuda_error naming `what` and the status unless it is CUSOLVER_STATUS_SUCCESS.
void check_cusolver(cusolverStatus_t status, const char* what);

}  // namespace tensordiag::runtime
