#include "runtime/cuda/cublas_library.hpp"

#include <string>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/shared_library.hpp"

namespace tensordiag::runtime {

// cublas_v2.h maps the handle, stream, gemm and gemv names to their _v2 symbols; the batched gemms
// have one name only.
const CublasLibrary& cublas() {
  static const SharedLibrary library(TENSORDIAG_CUBLAS_SONAME);
  static const CublasLibrary entries{
      library.function<decltype(&cublasCreate)>("cublasCreate_v2"),
      library.function<decltype(&cublasDestroy)>("cublasDestroy_v2"),
      library.function<decltype(&cublasSetStream)>("cublasSetStream_v2"),
      library.function<decltype(&cublasSgemm)>("cublasSgemm_v2"),
      library.function<decltype(&cublasDgemm)>("cublasDgemm_v2"),
      library.function<decltype(&cublasSgemmStridedBatched)>("cublasSgemmStridedBatched"),
      library.function<decltype(&cublasDgemmStridedBatched)>("cublasDgemmStridedBatched"),
      library.function<decltype(&cublasSgemv)>("cublasSgemv_v2"),
      library.function<decltype(&cublasDgemv)>("cublasDgemv_v2"),
      library.function<decltype(&cublasCgemm)>("cublasCgemm_v2"),
      library.function<decltype(&cublasZgemm)>("cublasZgemm_v2"),
      library.function<decltype(&cublasCgemmStridedBatched)>("cublasCgemmStridedBatched"),
      library.function<decltype(&cublasZgemmStridedBatched)>("cublasZgemmStridedBatched"),
      library.function<decltype(&cublasCgemv)>("cublasCgemv_v2"),
      library.function<decltype(&cublasZgemv)>("cublasZgemv_v2"),
  };
  return entries;
}

void check_cublas(cublasStatus_t status, const char* what) {
  if (status != CUBLAS_STATUS_SUCCESS)
    throw cuda_error(std::string("cuBLAS error in ") + what + ": status " + std::to_string(static_cast<int>(status)));
}

}  // namespace tensordiag::runtime
