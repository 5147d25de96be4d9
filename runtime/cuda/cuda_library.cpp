#include "runtime/cuda/cuda_library.hpp"

namespace tensordiag::runtime {

CudaLibrary::CudaLibrary(const std::vector<char>& cubin) {
  check_cuda(cudaLibraryLoadData(&library_, cubin.data(), nullptr, nullptr, 0, nullptr, nullptr, 0),
             "cudaLibraryLoadData");
}

CudaLibrary::~CudaLibrary() {
  if (library_) cudaLibraryUnload(library_);
}

cudaKernel_t CudaLibrary::kernel(const std::string& name) const {
  int device = 0;
  check_cuda(cudaGetDevice(&device), "cudaGetDevice");
  const std::lock_guard lock(mutex_);
  if (const auto found = loaded_.find({name, device}); found != loaded_.end()) return found->second;
  cudaKernel_t k = nullptr;
  check_cuda(cudaLibraryGetKernel(&k, library_, name.c_str()), ("cudaLibraryGetKernel(" + name + ")").c_str());
  // Load it into the context now: under CUDA's lazy loading (the default) the first launch would,
  // stalling the stream inside whatever the caller times (one small_tensor launch is a whole run).
  cudaFuncAttributes attributes{};
  check_cuda(cudaFuncGetAttributes(&attributes, reinterpret_cast<const void*>(k)),
             ("cudaFuncGetAttributes(" + name + ")").c_str());
  loaded_.emplace(std::make_pair(name, device), k);
  return k;
}

}  // namespace tensordiag::runtime
