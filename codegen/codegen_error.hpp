#pragma once
// Codegen's two kinds of failure, kept apart as in Halide (STYLE.md):
//   codegen_error:          the request cannot be generated (unknown kernel kind or rule, a rule
//                           operation with no CUDA lowering, a shape a kernel does not support).
//   internal_codegen_error: codegen broke its own contract (a kernel template and the values
//                           filled into it disagree, an IR node without operands): a bug.
// Messages start with the error's name so one line on stderr says which it is.
#include <stdexcept>
#include <string>

namespace tensordiag::codegen {

struct codegen_error : std::runtime_error {
  explicit codegen_error(const std::string& what) : std::runtime_error("codegen_error: " + what) {}
};

struct internal_codegen_error : std::logic_error {
  explicit internal_codegen_error(const std::string& what)
      : std::logic_error("internal_codegen_error (a tensordiag bug): " + what) {}
};

}  // namespace tensordiag::codegen
