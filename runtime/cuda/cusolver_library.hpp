#pragma once
// The cuSOLVER entry points the pivot check's norm takes (engines/lambda_norm_cusolver.*), loaded
// with the library (and its cuBLAS, cuSPARSE, nvJitLink) on first use (shared_library.hpp).
#include <cusolverDn.h>

namespace tensordiag::runtime {

struct CusolverLibrary {
  decltype(&cusolverDnCreate) create;
  decltype(&cusolverDnDestroy) destroy;
  decltype(&cusolverDnSetStream) set_stream;
  decltype(&cusolverDnDgesvd_bufferSize) dgesvd_buffer_size;
  decltype(&cusolverDnDgesvd) dgesvd;
};

// Opens cuSOLVER the first time (thread-safe); throws user_error when it cannot be loaded.
const CusolverLibrary& cusolver();

}  // namespace tensordiag::runtime
