#include "codegen/lower.hpp"

#include <string>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

namespace {

// One row per DSL operation of dsl/operations.hpp.
struct Lowering {
  std::string_view name;
  std::size_t arity;
  ir::Expr (*lower)(std::span<const ir::Expr> x);
};

ir::Expr binary(ir::BinaryOp op, std::span<const ir::Expr> x) { return ir::Binary::make(op, x[0], x[1]); }
ir::Expr unary(ir::UnaryOp op, std::span<const ir::Expr> x) { return ir::Unary::make(op, x[0]); }

constexpr Lowering lowering_table[] = {
    {"+", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::add, x); }},
    {"-", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::sub, x); }},
    {"*", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::mul, x); }},
    {"/", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::div, x); }},
    {"-", 1, [](std::span<const ir::Expr> x) { return unary(ir::UnaryOp::neg, x); }},
    // sq(x) = x * x, as dsl::op::sq computes it; sharing the product lets CSE see a*a and sq(a) as one.
    {"sq", 1, [](std::span<const ir::Expr> x) { return ir::Binary::make(ir::BinaryOp::mul, x[0], x[0]); }},
    {"sqrt", 1, [](std::span<const ir::Expr> x) { return unary(ir::UnaryOp::sqrt, x); }},
    {"abs", 1, [](std::span<const ir::Expr> x) { return unary(ir::UnaryOp::abs, x); }},
    {"sign", 1, [](std::span<const ir::Expr> x) { return unary(ir::UnaryOp::sign, x); }},
    {"atan2", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::atan2, x); }},
    {"min", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::min, x); }},
    {"max", 2, [](std::span<const ir::Expr> x) { return binary(ir::BinaryOp::max, x); }},
};

}  // namespace

ir::Expr lower_operation(std::string_view name, std::span<const ir::Expr> operands) {
  for (const Lowering& row : lowering_table)
    if (row.name == name && row.arity == operands.size()) return row.lower(operands);
  throw codegen_error("operation '" + std::string(name) + "' has no CUDA lowering (with " +
                      std::to_string(operands.size()) + (operands.size() == 1 ? " operand)" : " operands)"));
}

}  // namespace tensordiag::codegen
