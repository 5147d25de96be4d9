#include "codegen/kernel_signatures.hpp"

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

namespace {

constexpr std::size_t column_limit = 120;

std::string_view cuda_spelling(ParameterType type) {
  switch (type) {
    case ParameterType::scalar_pointer: return "Scalar* __restrict__";
    case ParameterType::const_scalar_pointer: return "const Scalar* __restrict__";
    case ParameterType::int_pointer: return "int* __restrict__";
    case ParameterType::const_int_pointer: return "const int* __restrict__";
    case ParameterType::rotation_pointer: return "Rotation* __restrict__";
    case ParameterType::const_rotation_pointer: return "const Rotation* __restrict__";
    case ParameterType::double_pointer: return "double* __restrict__";
    case ParameterType::const_double_pointer: return "const double* __restrict__";
    case ParameterType::int_value: return "int";
    case ParameterType::double_value: return "double";
  }
  throw internal_codegen_error("parameter type " + std::to_string(static_cast<int>(type)) + " has no CUDA spelling");
}

}  // namespace

const KernelSignature& kernel_signature(std::string_view name) {
  for (const KernelSignature& signature : kernel_signatures::all)
    if (signature.name == name) return signature;
  throw internal_codegen_error("no kernel signature is named '" + std::string(name) + "'");
}

std::string parameter_list(const KernelSignature& signature) {
  const std::string opening = std::string(signature.name) + "(";
  const std::string continuation = ",\n" + std::string(opening.size(), ' ');
  constexpr std::string_view closing = ") {";
  std::string list;
  std::size_t line = opening.size();  // the current line's length so far
  for (std::size_t i = 0; i < signature.parameters.size(); ++i) {
    const Parameter& parameter = signature.parameters[i];
    const std::string text = std::string(cuda_spelling(parameter.type)) + " " + std::string(parameter.name);
    // The line must hold the parameter and what follows it: the comma, or the closing ") {".
    const std::size_t ending = i + 1 < signature.parameters.size() ? 1 : closing.size();
    if (i > 0 && (parameter.starts_line || line + 2 + text.size() + ending > column_limit)) {
      list += continuation;
      line = opening.size();
    } else if (i > 0) {
      list += ", ";
      line += 2;
    }
    list += text;
    line += text.size();
  }
  return list;
}

}  // namespace tensordiag::codegen
