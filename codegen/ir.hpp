#pragma once
// A small IR for scalar expressions, in the manner of Halide's IR.h: nodes are small immutable
// structs built with a static `make`, held through the handle `Expr`; `visit` dispatches on the
// node. Lowering (codegen/lower.hpp) builds it from DSL expressions; the SSA printer
// (codegen/ssa_printer.hpp) emits it as CUDA C++.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace tensordiag::codegen::ir {

struct Node;

// A shared handle to an immutable node; copying an Expr shares the subtree.
class Expr {
public:
  Expr() = default;
  explicit Expr(std::shared_ptr<const Node> node) : node_(std::move(node)) {}

  bool defined() const { return node_ != nullptr; }
  const Node& node() const { return *node_; }

private:
  std::shared_ptr<const Node> node_;
};

enum class UnaryOp { neg, sqrt, abs, sign };
enum class BinaryOp { add, sub, mul, div, min, max, atan2 };

std::string_view to_string(UnaryOp op);
std::string_view to_string(BinaryOp op);

// x op y == y op x bit for bit in IEEE arithmetic; min and max are not (signed zeros).
constexpr bool is_commutative(BinaryOp op) { return op == BinaryOp::add || op == BinaryOp::mul; }

// A named scalar input of the function being generated (a pivot entry a, b, d or e).
struct Variable {
  std::string name;
  static Expr make(std::string name);
};

// A number, held in double; the printer types it for the kernel's scalar.
struct FloatImm {
  double value;
  static Expr make(double value);
};

struct Unary {
  UnaryOp op;
  Expr operand;
  static Expr make(UnaryOp op, Expr operand);
};

// atan2(a, b) is atan2(y = a, x = b); min and max follow dsl/operations.hpp (ternaries).
struct Binary {
  BinaryOp op;
  Expr a;
  Expr b;
  static Expr make(BinaryOp op, Expr a, Expr b);
};

struct Node {
  std::variant<Variable, FloatImm, Unary, Binary> value;
};

// Calls visitor(const X&) with the node's struct X, one of Variable, FloatImm, Unary, Binary.
template <class Visitor>
decltype(auto) visit(const Expr& expr, Visitor&& visitor) {
  return std::visit(std::forward<Visitor>(visitor), expr.node().value);
}

// Fully parenthesized text, for messages and tests: "((a * b) + sqrt(c))".
std::string to_string(const Expr& expr);

}  // namespace tensordiag::codegen::ir
