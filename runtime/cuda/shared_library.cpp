#include "runtime/cuda/shared_library.hpp"

#include <dlfcn.h>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

SharedLibrary::SharedLibrary(const std::string& soname) : soname_(soname) {
  handle_ = dlopen(soname.c_str(), RTLD_NOW | RTLD_LOCAL);
  if (!handle_) {
    const std::string first_reason = dlerror();
    const std::string in_toolkit = std::string(TENSORDIAG_CUDA_LIBRARY_DIR) + "/" + soname;
    handle_ = dlopen(in_toolkit.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle_)
      throw user_error("cannot load " + soname + " (the CUDA toolkit's; searched the loader's path and " +
                       TENSORDIAG_CUDA_LIBRARY_DIR + "): " + first_reason);
  }
}

SharedLibrary::~SharedLibrary() {
  if (handle_) dlclose(handle_);
}

void* SharedLibrary::address(const char* name) const {
  dlerror();
  void* found = dlsym(handle_, name);
  if (!found) throw user_error(soname_ + " has no " + name + ": a CUDA toolkit older than the build's?");
  return found;
}

}  // namespace tensordiag::runtime
