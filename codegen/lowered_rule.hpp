#pragma once
// A rotation rule lowered to the IR: the form of its rotation (dsl/walk.hpp) and the IR of the
// form's operands, plus the texts that name the rule in generated sources. Built from any DSL rule
// (lower_rule) or from a built-in rule's name (lower_builtin_rule); codegen works on this plain
// value from here on.
#include <string>
#include <string_view>
#include <vector>

#include "codegen/lower.hpp"
#include "dsl/rule.hpp"

namespace tensordiag::codegen {

struct LoweredRule {
  std::string name;         // "max_diag"
  std::string description;  // dsl::describe: "max_diag: maximize sq(a*c + b*s) + sq(d*c - e*s)"
  std::string rotation;     // dsl::to_string of the rotation form: "2*phi = atan2(...)"
  dsl::RotationForm form;
  std::vector<ir::Expr> operands;  // {x, y} for direction and double_angle, {phi} for explicit_angle
};

template <class Objective, class Rotation>
LoweredRule lower_rule(const dsl::Rule<Objective, Rotation>& rule) {
  IrBuilder builder;
  auto walked = dsl::walk_rotation(rule, builder);
  return {std::string(rule.name), dsl::describe(rule), dsl::to_string(rule.rotation), walked.form,
          std::move(walked.operands)};
}

// A built-in rule (dsl/builtin_rules.hpp) by name; throws codegen_error for an unknown name.
LoweredRule lower_builtin_rule(std::string_view name);

}  // namespace tensordiag::codegen
