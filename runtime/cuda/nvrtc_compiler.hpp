#pragma once
// Compiling CUDA C++ source to a cubin with NVRTC for one real architecture ("sm_90"). NVRTC needs
// no GPU and no driver, so every generated kernel compiles on CI too. Nothing here prints: failures
// are thrown with everything needed to reproduce them, and NVRTC's warnings are returned.
#include <string>
#include <string_view>
#include <vector>

#include "runtime/cuda/cubin_resources.hpp"
#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

// Generated code that NVRTC rejects is our bug, hence an internal_error (STYLE.md: Halide's
// split). As in jitify2 it carries the program name, the complete NVRTC options and the NVRTC log;
// with SourceOnError::attach also the numbered source, as CuPy dumps it. what() holds all of them.
class CompileError : public internal_error {
public:
  CompileError(std::string name, std::vector<std::string> options, std::string log,
               std::string numbered_source);

  const std::string& name() const noexcept { return name_; }
  const std::vector<std::string>& options() const noexcept { return options_; }
  const std::string& log() const noexcept { return log_; }
  const std::string& numbered_source() const noexcept { return numbered_source_; }  // or empty

private:
  std::string name_;
  std::vector<std::string> options_;
  std::string log_;
  std::string numbered_source_;
};

struct Cubin {
  std::vector<char> image;               // an ELF file, ready for cudaLibraryLoadData
  std::vector<KernelResources> kernels;  // every __global__ entry point in it
  std::string log;                       // NVRTC's warnings; empty when there were none
  double compile_seconds = 0;            // wall time of the NVRTC calls (steady_clock)
};

enum class SourceOnError { omit, attach };

// "major.minor" of the NVRTC library loaded at run time.
std::string nvrtc_version();

// The real architectures this NVRTC compiles for, oldest first: "sm_75", "sm_80", ...
std::vector<std::string> supported_architectures();

// Accepts "sm_<cc>" with <cc> in supported_architectures(), optionally with the suffix "a"
// (architecture-specific features) or "f" (family-portable). Anything else, including a virtual
// "compute_<cc>" that would give PTX instead of a cubin, comes from the user: throws user_error.
void check_architecture(const std::string& arch);

// The complete NVRTC options for `arch`: ours first (-std=c++20, -default-device, the target),
// then `extra` (e.g. "-lineinfo"). Never --use_fast_math unless the caller passes it: the results
// promise their digits.
std::vector<std::string> nvrtc_options(const std::vector<std::string>& extra,
                                       const std::string& arch);

// Compiles `source` as the program `name` (NVRTC's log cites lines as "name(line)") with
// nvrtc_options(extra_options, arch). Throws user_error for an unsupported arch, CompileError when
// NVRTC rejects the program or an option, internal_error when NVRTC itself fails.
Cubin compile_cubin(std::string_view source, const std::string& name,
                    const std::vector<std::string>& extra_options, const std::string& arch,
                    SourceOnError on_error = SourceOnError::omit);

// The PTX of `source` for the virtual architecture compute_<capability>, with the same options as
// compile_cubin: what NVRTC's front end makes of a kernel before ptxas, for tests that check the
// loads it chose (tests/codegen_reads_after_wait.cpp). Throws as compile_cubin (the source attached
// to a CompileError; an unsupported capability as check_architecture does for sm_<capability>).
std::string compile_ptx(std::string_view source, const std::string& name,
                        const std::vector<std::string>& extra_options, int capability);

}  // namespace tensordiag::runtime
