#pragma once
// NVRTC's entry points, loaded with the library on first use (shared_library.hpp).
#include <nvrtc.h>

namespace tensordiag::runtime {

struct NvrtcLibrary {
  decltype(&nvrtcVersion) version;
  decltype(&nvrtcGetErrorString) error_string;
  decltype(&nvrtcGetNumSupportedArchs) supported_arch_count;
  decltype(&nvrtcGetSupportedArchs) supported_archs;
  decltype(&nvrtcCreateProgram) create_program;
  decltype(&nvrtcCompileProgram) compile_program;
  decltype(&nvrtcDestroyProgram) destroy_program;
  decltype(&nvrtcGetProgramLogSize) program_log_size;
  decltype(&nvrtcGetProgramLog) program_log;
  decltype(&nvrtcGetCUBINSize) cubin_size;
  decltype(&nvrtcGetCUBIN) cubin;
  decltype(&nvrtcGetPTXSize) ptx_size;
  decltype(&nvrtcGetPTX) ptx;
};

// Opens NVRTC the first time (thread-safe); throws user_error when it cannot be loaded.
const NvrtcLibrary& nvrtc();

}  // namespace tensordiag::runtime
