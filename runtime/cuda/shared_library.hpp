#pragma once
// A CUDA toolkit library opened on first use (dlopen) instead of linked: a process that never
// compiles a kernel or takes cuSOLVER's norm maps neither NVRTC nor cuSOLVER (with its cuBLAS,
// cuBLASLt, cuSPARSE and nvJitLink), so `tensordiag --help` and CPU runs start in milliseconds
// (issue 15: 297 MB resident and 0.43 s before). The library is looked up by soname through the
// loader's search path, then in the toolkit's library directory the build found.
#include <string>

namespace tensordiag::runtime {

class SharedLibrary {
public:
  // Throws user_error naming the library and the loader's reason when neither lookup opens it.
  explicit SharedLibrary(const std::string& soname);
  ~SharedLibrary();
  SharedLibrary(const SharedLibrary&) = delete;
  SharedLibrary& operator=(const SharedLibrary&) = delete;

  // The entry point `name`, as a pointer of its declared type (decltype(&nvrtcVersion)); throws
  // user_error when the library lacks it (an older toolkit than the build's).
  template <class Function>
  Function function(const char* name) const {
    return reinterpret_cast<Function>(address(name));
  }

private:
  void* address(const char* name) const;

  std::string soname_;
  void* handle_ = nullptr;
};

}  // namespace tensordiag::runtime
