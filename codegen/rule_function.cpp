#include "codegen/rule_function.hpp"

#include "codegen/codegen_error.hpp"
#include "codegen/ssa_printer.hpp"

namespace tensordiag::codegen {

namespace {

// The complex lift's rotation (dsl/hermitian_form.hpp, DESIGN.md section 7): the Hermitian form
// H = sum_k |x_k al + y_k be|^2 of the rule's terms at the pivot entries, and its dominant
// eigenvector (dsl/unitary_closed_form.hpp) as the Givens<Complex> (c, s) = (al, be).
std::string complex_rule_function(const LoweredRule& rule, ScalarType scalar) {
  if (rule.hermitian_terms.empty())
    throw codegen_error("rule '" + rule.name + "' is real-only (its objective has no complex lift): complex tensors take "
                        "rule max_diag");
  const std::string type(cuda_type(scalar));
  const std::string real(cuda_type(real_type(scalar)));
  SsaPrinter printer(scalar, "  ");
  std::string sums;
  for (const HermitianTermIr& term : rule.hermitian_terms) {
    std::string x = printer.emit(term.x), y = printer.emit(term.y);
    if (term.on_row_p) {
      x = "conj(" + x + ")";
      y = "conj(" + y + ")";
    }
    sums += "  tensordiag::dsl::add_hermitian_term(" + x + ", " + y + ", h11, h22, h12);\n";
  }
  std::string parameters;
  for (const char* name : {"a", "b", "d", "e"})
    parameters += std::string(parameters.empty() ? "" : ", ") + (printer.reads(name) ? "" : "[[maybe_unused]] ") + type +
                  " " + name;
  const std::string zero = literal(0.0, scalar);
  return "// Rule " + rule.description + "\n"
         "//   complex lift: H = sum_k |x_k al + y_k be|^2 (x_k, y_k conjugated on row p), (c, s) = (al, be) its\n"
         "//   dominant eigenvector\n"
         "TENSORDIAG_HOST_DEVICE inline tensordiag::dsl::Givens<" + type + "> rule_rotation(" + parameters + ") {\n" +
         printer.statements() +
         "  " + real + " h11 = " + zero + ", h22 = " + zero + ";\n"
         "  " + type + " h12(" + zero + ");\n" +
         sums +
         "  " + real + " al;\n"
         "  " + type + " be;\n"
         "  tensordiag::dsl::dominant_unitary_rotation(h11, h22, h12, al, be);\n"
         "  return {" + type + "(al), be};\n"
         "}\n";
}

}  // namespace

std::string rule_function(const LoweredRule& rule, ScalarType scalar) {
  if (is_complex(scalar)) return complex_rule_function(rule, scalar);
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
