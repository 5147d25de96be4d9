#include "runtime/cuda/cusolver_library.hpp"

#include <string>

#include "runtime/cuda/cuda_check.hpp"
#include "runtime/cuda/shared_library.hpp"

namespace tensordiag::runtime {

const CusolverLibrary& cusolver() {
  static const SharedLibrary library(TENSORDIAG_CUSOLVER_SONAME);
  static const CusolverLibrary entries{
      library.function<decltype(&cusolverDnCreate)>("cusolverDnCreate"),
      library.function<decltype(&cusolverDnDestroy)>("cusolverDnDestroy"),
      library.function<decltype(&cusolverDnSetStream)>("cusolverDnSetStream"),
      library.function<decltype(&cusolverDnDgesvd_bufferSize)>("cusolverDnDgesvd_bufferSize"),
      library.function<decltype(&cusolverDnDgesvd)>("cusolverDnDgesvd"),
      library.function<decltype(&cusolverDnSsyevd_bufferSize)>("cusolverDnSsyevd_bufferSize"),
      library.function<decltype(&cusolverDnSsyevd)>("cusolverDnSsyevd"),
      library.function<decltype(&cusolverDnDsyevd_bufferSize)>("cusolverDnDsyevd_bufferSize"),
      library.function<decltype(&cusolverDnDsyevd)>("cusolverDnDsyevd"),
      library.function<decltype(&cusolverDnCheevd_bufferSize)>("cusolverDnCheevd_bufferSize"),
      library.function<decltype(&cusolverDnCheevd)>("cusolverDnCheevd"),
      library.function<decltype(&cusolverDnZheevd_bufferSize)>("cusolverDnZheevd_bufferSize"),
      library.function<decltype(&cusolverDnZheevd)>("cusolverDnZheevd"),
  };
  return entries;
}

void check_cusolver(cusolverStatus_t status, const char* what) {
  if (status != CUSOLVER_STATUS_SUCCESS)
    throw cuda_error(std::string("cuSOLVER error in ") + what + ": status " + std::to_string(static_cast<int>(status)));
}

}  // namespace tensordiag::runtime
