#pragma once
// Compiles generated CUDA sources to cubins with nvcc, for the tests that check every kernel kind
// compiles. A stand-in: once the runtime's NVRTC compiler (runtime/nvrtc_*) is on main, these tests
// compile through it instead, exactly as the GPU engine will. nvcc is run as NVRTC would be asked:
// device code only (--cubin), C++17, sm_90 (H100), every warning an error.
#include <string>
#include <vector>

namespace tensordiag::test {

struct CudaSource {
  std::string name;  // a file name stem: letters, digits, underscores
  std::string text;
};

struct CompileOutcome {
  std::string name;
  bool compiled = false;
  std::string log;  // nvcc's output (warnings and errors), with the command
};

// Compiles every source, `jobs` at a time; the outcomes come back in the sources' order.
std::vector<CompileOutcome> compile_with_nvcc(const std::string& nvcc, const std::vector<CudaSource>& sources,
                                              int jobs);

}  // namespace tensordiag::test
