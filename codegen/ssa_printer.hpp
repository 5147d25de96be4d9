#pragma once
// Emits IR expressions as CUDA C++ statements with one SSA temporary per distinct subexpression,
// the habit of Halide's CodeGen_C. Identical subtrees are named once and reused: the key of a node
// is its operation applied to its operands' names (value numbering), with the operands of + and *
// in sorted order since IEEE arithmetic gives x + y == y + x and x * y == y * x bit for bit; so
// max_diag's derived a*b + b*a becomes t0 = a * b; t1 = t0 + t0. Leaves (variables, literals) are
// written in place. Temporaries are named t0, t1, ... in the order the walk first meets them, so
// the output is deterministic.
#include <map>
#include <set>
#include <string>
#include <string_view>

#include "codegen/ir.hpp"
#include "codegen/scalar_type.hpp"

namespace tensordiag::codegen {

class SsaPrinter {
public:
  SsaPrinter(ScalarType scalar, std::string indent) : scalar_(scalar), indent_(std::move(indent)) {}

  // Appends the statements `expr` needs beyond those already emitted; returns the operand text
  // that names its value (a temporary, a variable or a literal).
  std::string emit(const ir::Expr& expr);

  // The statements so far, one per line, each starting with the indent.
  const std::string& statements() const { return statements_; }

  // Whether some emitted expression reads the variable `name`.
  bool reads(const std::string& name) const { return variables_read_.count(name) != 0; }

private:
  std::string name_value(const std::string& key, const std::string& text);

  ScalarType scalar_;
  std::string indent_;
  std::string statements_;
  std::map<std::string, std::string> temporaries_;  // structural key -> temporary name
  std::set<std::string> variables_read_;
};

}  // namespace tensordiag::codegen
