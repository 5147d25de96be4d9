#include "codegen/ir.hpp"

#include "codegen/codegen_error.hpp"
#include "dsl/format_number.hpp"

namespace tensordiag::codegen::ir {

namespace {

Expr make_node(Node node) { return Expr(std::make_shared<const Node>(std::move(node))); }

void require_defined(const Expr& operand, std::string_view what) {
  if (!operand.defined()) throw internal_codegen_error("ir::" + std::string(what) + "::make: undefined operand");
}

}  // namespace

std::string_view to_string(UnaryOp op) {
  constexpr std::string_view names[] = {"neg", "sqrt", "abs", "sign"};
  return names[static_cast<int>(op)];
}

std::string_view to_string(BinaryOp op) {
  constexpr std::string_view names[] = {"+", "-", "*", "/", "min", "max", "atan2"};
  return names[static_cast<int>(op)];
}

Expr Variable::make(std::string name) { return make_node({Variable{std::move(name)}}); }

Expr FloatImm::make(double value) { return make_node({FloatImm{value}}); }

Expr Unary::make(UnaryOp op, Expr operand) {
  require_defined(operand, "Unary");
  return make_node({Unary{op, std::move(operand)}});
}

Expr Binary::make(BinaryOp op, Expr a, Expr b) {
  require_defined(a, "Binary");
  require_defined(b, "Binary");
  return make_node({Binary{op, std::move(a), std::move(b)}});
}

std::string to_string(const Expr& expr) {
  struct Printer {
    std::string operator()(const Variable& v) const { return v.name; }
    std::string operator()(const FloatImm& k) const { return dsl::format_number(k.value); }
    std::string operator()(const Unary& u) const {
      return std::string(to_string(u.op)) + "(" + to_string(u.operand) + ")";
    }
    std::string operator()(const Binary& b) const {
      if (b.op == BinaryOp::min || b.op == BinaryOp::max || b.op == BinaryOp::atan2)
        return std::string(to_string(b.op)) + "(" + to_string(b.a) + ", " + to_string(b.b) + ")";
      std::string text = "(";  // appended, not "(" + ...: g++ 12 -O3 misreports -Wrestrict on that
      return text + to_string(b.a) + " " + std::string(to_string(b.op)) + " " + to_string(b.b) + ")";
    }
  };
  return visit(expr, Printer{});
}

}  // namespace tensordiag::codegen::ir
