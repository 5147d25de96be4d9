#include "runtime/cuda/shared_library.hpp"

#include <dlfcn.h>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

// RTLD_NODELETE: the library stays mapped after dlclose. NVRTC keeps allocations of its own for the
// life of the process; unmapped, LeakSanitizer could only report them from "<unknown module>",
// which no suppression (scripts/lsan-suppressions.txt) can name.
constexpr int open_flags = RTLD_NOW | RTLD_LOCAL | RTLD_NODELETE;

SharedLibrary::SharedLibrary(const std::string& soname) : soname_(soname) {
  handle_ = dlopen(soname.c_str(), open_flags);
  if (!handle_) {
    const std::string first_reason = dlerror();
    const std::string in_toolkit = std::string(TENSORDIAG_CUDA_LIBRARY_DIR) + "/" + soname;
    handle_ = dlopen(in_toolkit.c_str(), open_flags);
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
