#include "codegen/ssa_printer.hpp"

#include <utility>

#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

std::string SsaPrinter::name_value(const std::string& key, const std::string& text) {
  const auto found = temporaries_.find(key);
  if (found != temporaries_.end()) return found->second;
  std::string name = "t";  // appended, not "t" + ...: g++ 12 -O3 misreports -Wrestrict on that
  name += std::to_string(temporaries_.size());
  statements_ += indent_ + "const " + std::string(cuda_type(scalar_)) + " " + name + " = " + text + ";\n";
  temporaries_.emplace(key, name);
  return name;
}

std::string SsaPrinter::emit(const ir::Expr& expr) {
  struct Emitter {
    SsaPrinter& printer;

    std::string operator()(const ir::Variable& v) const {
      printer.variables_read_.insert(v.name);
      return v.name;
    }
    std::string operator()(const ir::FloatImm& k) const {
      const std::string text = literal(k.value, printer.scalar_);
      return text.front() == '-' ? "(" + text + ")" : text;
    }
    // Complex values take +, -, * and division by a constant (dsl/complex_number.hpp): the other
    // operations are real ones (no order, no branch of sqrt to choose).
    void refuse_on_complex(std::string_view op) const {
      if (is_complex(printer.scalar_))
        throw codegen_error("the operation " + std::string(op) + " has no complex form: a complex rule's terms take +, -, * "
                            "and division by a number");
    }
    std::string operator()(const ir::Unary& u) const {
      if (u.op != ir::UnaryOp::neg) refuse_on_complex(ir::to_string(u.op));
      const std::string x = printer.emit(u.operand);
      const ScalarType scalar = printer.scalar_;
      std::string text;
      switch (u.op) {
        case ir::UnaryOp::neg: text = "-" + x; break;
        case ir::UnaryOp::sqrt: text = math_function("sqrt", scalar) + "(" + x + ")"; break;
        case ir::UnaryOp::abs: text = math_function("fabs", scalar) + "(" + x + ")"; break;
        case ir::UnaryOp::sign: {
          // sign(0) = 0, as dsl::op::sign: T((x > 0) - (x < 0)).
          const std::string zero = literal(0.0, scalar);
          text = std::string(cuda_type(scalar)) + "((" + x + " > " + zero + ") - (" + x + " < " + zero + "))";
          break;
        }
      }
      return printer.name_value(std::string(ir::to_string(u.op)) + "(" + x + ")", text);
    }
    std::string operator()(const ir::Binary& b) const {
      const bool complex_safe = b.op == ir::BinaryOp::add || b.op == ir::BinaryOp::sub || b.op == ir::BinaryOp::mul ||
                                (b.op == ir::BinaryOp::div && std::holds_alternative<ir::FloatImm>(b.b.node().value));
      if (!complex_safe) refuse_on_complex(ir::to_string(b.op));
      const std::string x = printer.emit(b.a);
      const std::string y = printer.emit(b.b);
      std::string text;
      switch (b.op) {
        case ir::BinaryOp::add:
        case ir::BinaryOp::sub:
        case ir::BinaryOp::mul:
        case ir::BinaryOp::div: text = x + " " + std::string(ir::to_string(b.op)) + " " + y; break;
        // min and max as dsl::op::min / op::max compute them, so NaN and signed zeros agree.
        case ir::BinaryOp::min: text = "(" + y + " < " + x + " ? " + y + " : " + x + ")"; break;
        case ir::BinaryOp::max: text = "(" + x + " < " + y + " ? " + y + " : " + x + ")"; break;
        case ir::BinaryOp::atan2: text = math_function("atan2", printer.scalar_) + "(" + x + ", " + y + ")"; break;
      }
      const bool swap = ir::is_commutative(b.op) && y < x;
      const std::string key = "(" + (swap ? y : x) + " " + std::string(ir::to_string(b.op)) + " " + (swap ? x : y) + ")";
      return printer.name_value(key, text);
    }
  };
  return ir::visit(expr, Emitter{*this});
}

}  // namespace tensordiag::codegen
