#include "runtime/cuda_library.hpp"

namespace tensordiag::runtime {

CudaLibrary::CudaLibrary(const std::vector<char>& cubin) {
  check_cuda(cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
             "cudaLibraryLoadData");
}

CudaLibrary::~CudaLibrary() {
  if (library_) cudaLibraryUnload(library_);
}

cudaKernel_t CudaLibrary::kernel(const std::string& name) const {
  cudaKernel_t k = nullptr;
  check_cuda(cudaLibraryGetKernel(&k, library_, name.c_str()), ("cudaLibraryGetKernel(" + name + ")").c_str());
  return k;
}

}  // namespace tensordiag::runtime
