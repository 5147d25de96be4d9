#pragma once
// The kernels this process has fetched, by spec. The kernel cache names a request by its source's
// SHA-256, so even a hit there generates the kind's source, hashes it (10-40 us a kind) and copies
// the cubin; a run that asks again for a spec it had (the library called in a loop) gets the same
// kernel here without any of it (issue 15 item 4: the call end to end).
#include <memory>
#include <string>

#include "codegen/kernel_spec.hpp"
#include "runtime/cuda/kernel_cache.hpp"

namespace tensordiag::runtime {

// Every field of the spec that its source depends on, as text: two specs with the same
// fingerprint generate the same source. The rule by its name, objective and rotation form
// (its complex lift is derived from the objective).
std::string spec_fingerprint(const codegen::KernelSpec& spec);

// The kernel of `spec` for `arch`: this process's, else default_kernel_cache()'s (fetched or
// compiled; what it throws, this throws). `compiled` (optional) says whether NVRTC ran for it now.
std::shared_ptr<const CompiledKernel> kernel_for_spec(const codegen::KernelSpec& spec, const std::string& arch,
                                                      bool* compiled = nullptr);

// The kernel of `spec` for `arch` if this process has it; null otherwise.
std::shared_ptr<const CompiledKernel> known_kernel_for_spec(const codegen::KernelSpec& spec, const std::string& arch);

}  // namespace tensordiag::runtime
