#pragma once
// Lowering DSL expressions to the IR. dsl::walk hands every node over as plain values (a symbol,
// a constant, or an operation's name and lowered operands); the lowering table in lower.cpp maps
// each DSL operation, identified by name and arity, to IR. An operation the table lacks (a custom
// op tag) is a codegen_error naming it, raised when the rule is lowered.
#include <span>
#include <string_view>

#include "codegen/ir.hpp"
#include "dsl/walk.hpp"

namespace tensordiag::codegen {

// The IR of DSL operation `name` applied to `operands`; throws codegen_error when none exists.
ir::Expr lower_operation(std::string_view name, std::span<const ir::Expr> operands);

// The dsl::walk visitor that builds IR.
struct IrBuilder {
  ir::Expr symbol(dsl::Symbol symbol) const { return ir::Variable::make(std::string(dsl::symbol_name(symbol))); }
  ir::Expr constant(double value) const { return ir::FloatImm::make(value); }
  ir::Expr operation(std::string_view name, std::span<const ir::Expr> operands) const {
    return lower_operation(name, operands);
  }
};

template <dsl::Expression X>
ir::Expr lower(const X& expression) {
  IrBuilder builder;
  return dsl::walk(expression, builder);
}

}  // namespace tensordiag::codegen
