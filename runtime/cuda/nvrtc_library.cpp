#include "runtime/cuda/nvrtc_library.hpp"

#include "runtime/cuda/shared_library.hpp"

namespace tensordiag::runtime {

const NvrtcLibrary& nvrtc() {
  static const SharedLibrary library(TENSORDIAG_NVRTC_SONAME);
  static const NvrtcLibrary entries{
      library.function<decltype(&nvrtcVersion)>("nvrtcVersion"),
      library.function<decltype(&nvrtcGetErrorString)>("nvrtcGetErrorString"),
      library.function<decltype(&nvrtcGetNumSupportedArchs)>("nvrtcGetNumSupportedArchs"),
      library.function<decltype(&nvrtcGetSupportedArchs)>("nvrtcGetSupportedArchs"),
      library.function<decltype(&nvrtcCreateProgram)>("nvrtcCreateProgram"),
      library.function<decltype(&nvrtcCompileProgram)>("nvrtcCompileProgram"),
      library.function<decltype(&nvrtcDestroyProgram)>("nvrtcDestroyProgram"),
      library.function<decltype(&nvrtcGetProgramLogSize)>("nvrtcGetProgramLogSize"),
      library.function<decltype(&nvrtcGetProgramLog)>("nvrtcGetProgramLog"),
      library.function<decltype(&nvrtcGetCUBINSize)>("nvrtcGetCUBINSize"),
      library.function<decltype(&nvrtcGetCUBIN)>("nvrtcGetCUBIN"),
      library.function<decltype(&nvrtcGetPTXSize)>("nvrtcGetPTXSize"),
      library.function<decltype(&nvrtcGetPTX)>("nvrtcGetPTX"),
  };
  return entries;
}

}  // namespace tensordiag::runtime
