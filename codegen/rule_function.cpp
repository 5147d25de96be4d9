#include "codegen/rule_function.hpp"

#include "codegen/ssa_printer.hpp"

namespace tensordiag::codegen {

std::string rule_function(const LoweredRule& rule, ScalarType scalar) {
  const std::string type(cuda_type(scalar));
  const std::string givens = "tensordiag::dsl::Givens<" + type + ">";
  SsaPrinter printer(scalar, "  ");
  std::string result;
  switch (rule.form) {
    case dsl::RotationForm::direction: {
      const std::string x = printer.emit(rule.operands[0]);
      const std::string y = printer.emit(rule.operands[1]);
      result = "tensordiag::dsl::givens_from_direction(" + x + ", " + y + ")";
      break;
    }
    case dsl::RotationForm::double_angle: {
      const std::string x = printer.emit(rule.operands[0]);
      const std::string y = printer.emit(rule.operands[1]);
      result = "tensordiag::dsl::givens_from_double_angle(" + x + ", " + y + ")";
      break;
    }
    case dsl::RotationForm::explicit_angle: {
      const std::string phi = printer.emit(rule.operands[0]);
      result = givens + "{" + math_function("cos", scalar) + "(" + phi + "), " + math_function("sin", scalar) + "(" +
               phi + ")}";
      break;
    }
  }
  std::string parameters;
  for (const char* name : {"a", "b", "d", "e"})
    parameters += std::string(parameters.empty() ? "" : ", ") + (printer.reads(name) ? "" : "[[maybe_unused]] ") + type +
                  " " + name;
  // An objective rule also shows the rotation form derived from it; an angle rule's description is that form.
  const bool derived = rule.description.find(rule.rotation) == std::string::npos;
  return "// Rule " + rule.description + "\n" + (derived ? "//   " + rule.rotation + "\n" : std::string()) +
         "TENSORDIAG_HOST_DEVICE inline " + givens + " rule_rotation(" + parameters + ") {\n" +
         printer.statements() +
         "  return " + result + ";\n"
         "}\n";
}

}  // namespace tensordiag::codegen
