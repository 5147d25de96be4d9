#include "codegen/lower.hpp"

#include <string>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

ir::Expr lower_operation(dsl::op::OpKind kind, std::span<const ir::Expr> x) {
  using dsl::op::OpKind;
  if (static_cast<int>(x.size()) != dsl::op::arity(kind))
    throw internal_codegen_error("lower_operation: operation " + std::to_string(static_cast<int>(kind)) + " takes " +
                                 std::to_string(dsl::op::arity(kind)) + " operands, not " + std::to_string(x.size()));
  using ir::BinaryOp, ir::UnaryOp;
  switch (kind) {
    case OpKind::add: return ir::Binary::make(BinaryOp::add, x[0], x[1]);
    case OpKind::sub: return ir::Binary::make(BinaryOp::sub, x[0], x[1]);
    case OpKind::mul: return ir::Binary::make(BinaryOp::mul, x[0], x[1]);
    case OpKind::div: return ir::Binary::make(BinaryOp::div, x[0], x[1]);
    case OpKind::neg: return ir::Unary::make(UnaryOp::neg, x[0]);
    // sq(x) = x * x, as dsl::op::sq computes it; sharing the product lets CSE see a*a and sq(a) as one.
    case OpKind::sq: return ir::Binary::make(BinaryOp::mul, x[0], x[0]);
    case OpKind::sqrt: return ir::Unary::make(UnaryOp::sqrt, x[0]);
    case OpKind::abs: return ir::Unary::make(UnaryOp::abs, x[0]);
    case OpKind::sign: return ir::Unary::make(UnaryOp::sign, x[0]);
    case OpKind::atan2: return ir::Binary::make(BinaryOp::atan2, x[0], x[1]);
    case OpKind::min: return ir::Binary::make(BinaryOp::min, x[0], x[1]);
    case OpKind::max: return ir::Binary::make(BinaryOp::max, x[0], x[1]);
  }
  throw internal_codegen_error("lower_operation: operation " + std::to_string(static_cast<int>(kind)) +
                               " has no lowering");
}

}  // namespace tensordiag::codegen
