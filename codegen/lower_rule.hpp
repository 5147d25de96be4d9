#pragma once
// The bridge from a DSL rule (dsl/rule.hpp, Hana) to codegen's plain values: the LoweredRule of
// any rule (with its complex lift where it has one), and a KernelSpec with it (custom rules; built-in ones go by name, kernel_spec.hpp).
#include <string>
#include <utility>

#include "codegen/kernel_spec.hpp"
#include "codegen/lower.hpp"
#include "codegen/lowered_rule.hpp"
#include "dsl/hermitian_form.hpp"
#include "dsl/rule.hpp"

namespace tensordiag::codegen {

// A rule written outside the registry climbs ||diag C||^2 unless the caller says otherwise.
template <class Objective, class Rotation>
LoweredRule lower_rule(const dsl::Rule<Objective, Rotation>& rule,
                       dsl::StallFigure stalls_on = dsl::StallFigure::diag_norm2) {
  IrBuilder builder;
  auto walked = dsl::walk_rotation(rule, builder);
  std::vector<HermitianTermIr> hermitian_terms;
  if constexpr (dsl::has_hermitian_lift<dsl::Rule<Objective, Rotation>>)
    boost::hana::for_each(dsl::complex_rule_terms(rule), [&](const auto& term) {
      ir::Expr x = dsl::walk(term.x, builder);
      hermitian_terms.push_back({std::move(x), dsl::walk(term.y, builder), term.on_row_p});
    });
  return {std::string(rule.name), dsl::describe(rule), dsl::to_string(rule.rotation), walked.form,
          std::move(walked.operands), stalls_on, std::move(hermitian_terms)};
}

// A spec with any DSL rule. Validated.
template <class Objective, class Rotation>
KernelSpec make_kernel_spec(KernelKind kind, int order, int size, ScalarType dtype, dsl::Layout layout,
                            const dsl::Rule<Objective, Rotation>& rule, Tuning tuning = {}) {
  KernelSpec spec{kind, order, size, dtype, layout, lower_rule(rule), tuning};
  validate(spec);
  return spec;
}

}  // namespace tensordiag::codegen
