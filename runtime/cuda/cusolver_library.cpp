#include "runtime/cuda/cusolver_library.hpp"

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
  };
  return entries;
}

}  // namespace tensordiag::runtime
