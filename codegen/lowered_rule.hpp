#pragma once
// A rotation rule lowered to the IR: the form of its rotation (dsl/rotation_form.hpp), the IR of
// the form's operands, the texts that name the rule in generated sources, and the figure its stall
// test watches. Plain values, no Hana: the runtime and codegen work on this from here on. Built
// from any DSL rule by lower_rule (codegen/lower_rule.hpp) or from a built-in rule's name by
// lower_builtin_rule (codegen/builtin_rules.hpp).
#include <string>
#include <vector>

#include "codegen/ir.hpp"
#include "dsl/rotation_form.hpp"
#include "dsl/rule_info.hpp"

namespace tensordiag::codegen {

// One term |x al + y be|^2 of a rule's complex lift (dsl/hermitian_form.hpp): x and y in the
// pivot entries, conjugated first when the term reads row p (a, b).
struct HermitianTermIr {
  ir::Expr x, y;
  bool on_row_p;
};

struct LoweredRule {
  std::string name;         // "max_diag"
  std::string description;  // dsl::describe: "max_diag: maximize sq(a*c + b*s) + sq(d*c - e*s)"
  std::string rotation;     // dsl::to_string of the rotation form: "2*phi = atan2(...)"
  dsl::RotationForm form;
  std::vector<ir::Expr> operands;  // {x, y} for direction and double_angle, {phi} for explicit_angle
  dsl::StallFigure stalls_on = dsl::StallFigure::diag_norm2;
  // The complex lift's terms; empty for a rule without one (a linear objective, an angle rule):
  // such a rule is real-only.
  std::vector<HermitianTermIr> hermitian_terms = {};
};

}  // namespace tensordiag::codegen
