#pragma once
// Lowering DSL expressions to the IR. dsl::walk hands every node over as plain values (a symbol,
// a constant, or an operation's kind and lowered operands); lower_operation switches on the kind
// (lower.cpp), so -Wswitch makes every dsl::op::OpKind have its lowering. An op tag without a kind
// (a custom operation the host can evaluate) is refused by dsl::walk at compile time.
#include <span>

#include "codegen/ir.hpp"
#include "dsl/walk.hpp"

namespace tensordiag::codegen {

// The IR of the DSL operation `kind` applied to `operands`. Throws internal_codegen_error when the
// operand count is not the kind's arity (dsl::walk never passes such a call).
ir::Expr lower_operation(dsl::op::OpKind kind, std::span<const ir::Expr> operands);

// The dsl::walk visitor that builds IR.
struct IrBuilder {
  ir::Expr symbol(dsl::Symbol symbol) const { return ir::Variable::make(std::string(dsl::symbol_name(symbol))); }
  ir::Expr constant(double value) const { return ir::FloatImm::make(value); }
  ir::Expr operation(dsl::op::OpKind kind, std::span<const ir::Expr> operands) const {
    return lower_operation(kind, operands);
  }
};

template <dsl::Expression X>
ir::Expr lower(const X& expression) {
  IrBuilder builder;
  return dsl::walk(expression, builder);
}

}  // namespace tensordiag::codegen
