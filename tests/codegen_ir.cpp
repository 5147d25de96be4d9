// Lowering DSL expressions to the IR, and the SSA printer's common-subexpression elimination.
#include <doctest/doctest.h>

#include <string>

#include "codegen/codegen_error.hpp"
#include "codegen/builtin_rules.hpp"
#include "codegen/lower_rule.hpp"
#include "codegen/ssa_printer.hpp"
#include "dsl/builtin_rules.hpp"

using namespace tensordiag;
using namespace tensordiag::codegen;
using namespace tensordiag::dsl::pivot;

namespace {

std::size_t occurrences(const std::string& text, const std::string& needle) {
  std::size_t count = 0;
  for (std::size_t at = text.find(needle); at != std::string::npos; at = text.find(needle, at + 1)) ++count;
  return count;
}

// The statements and the result name of one expression, in float.
std::string print(const ir::Expr& expr, std::string* result = nullptr) {
  SsaPrinter printer(ScalarType::float32, "");
  const std::string name = printer.emit(expr);
  if (result) *result = name;
  return printer.statements();
}

}  // namespace

TEST_CASE("lowering keeps the DSL expression's structure") {
  CHECK(ir::to_string(lower(a * b + sqrt(d))) == "((a * b) + sqrt(d))");
  CHECK(ir::to_string(lower(-e)) == "neg(e)");
  CHECK(ir::to_string(lower(atan2(b, a))) == "atan2(b, a)");
  CHECK(ir::to_string(lower(min(a, 2.5))) == "min(a, 2.5)");
  // sq(x) is x * x, as the host evaluates it.
  CHECK(ir::to_string(lower(sq(a + b))) == "((a + b) * (a + b))");
}

TEST_CASE("CSE: identical subexpressions are named once") {
  // sq(a*b) + sq(a*b): a*b, its square and the sum: three temporaries.
  std::string result;
  const std::string text = print(lower(sq(a * b) + sq(a * b)), &result);
  CHECK(text == "const float t0 = a * b;\nconst float t1 = t0 * t0;\nconst float t2 = t1 + t1;\n");
  CHECK(result == "t2");
  CHECK(occurrences(text, "a * b") == 1);
}

TEST_CASE("CSE: operand order of + and * does not hide a shared subexpression") {
  // max_diag's derived a*b + b*a: IEEE gives a*b == b*a bit for bit, so both are t0.
  const std::string text = print(lower(a * b + b * a));
  CHECK(text == "const float t0 = a * b;\nconst float t1 = t0 + t0;\n");
  // Not for -, / or min: those are not commutative.
  CHECK(occurrences(print(lower((a - b) * (b - a))), " - ") == 2);
  CHECK(occurrences(print(lower(min(a, b) + min(b, a))), "?") == 2);
}

TEST_CASE("CSE: the printer reuses temporaries across expressions, and leaves are written in place") {
  SsaPrinter printer(ScalarType::float64, "  ");
  CHECK(printer.emit(lower(a * b)) == "t0");
  CHECK(printer.emit(lower(b * a + 1)) == "t1");
  CHECK(printer.emit(lower(a)) == "a");
  CHECK(printer.statements() == "  const double t0 = a * b;\n  const double t1 = t0 + 1.0;\n");
  CHECK(printer.reads("a"));
  CHECK_FALSE(printer.reads("e"));
}

TEST_CASE("the built-in rules print deterministically, each shared product once") {
  const LoweredRule rule = lower_builtin_rule("max_diag");
  const std::string first = print(rule.operands[1]);
  CHECK(first == print(lower_builtin_rule("max_diag").operands[1]));
  // y = a*b + b*a - (d*e + e*d): a*b and d*e once each.
  CHECK(occurrences(first, "a * b") == 1);
  CHECK(occurrences(first, "d * e") == 1);
  CHECK(rule.form == dsl::RotationForm::double_angle);
  CHECK(lower_builtin_rule("max_trace").form == dsl::RotationForm::direction);
}

TEST_CASE("literals are typed and exact for the scalar type") {
  CHECK(literal(2.0, ScalarType::float32) == "2.0f");
  CHECK(literal(2.0, ScalarType::float64) == "2.0");
  CHECK(literal(0.1, ScalarType::float32) == "0.1f");
  CHECK(literal(1e-300, ScalarType::float64) == "1e-300");
  CHECK(print(lower(a * -3.0)) == "const float t0 = a * (-3.0f);\n");
  CHECK_THROWS_AS(literal(1e300, ScalarType::float32), codegen_error);
}

TEST_CASE("lowering checks an operation's operand count against its kind's arity") {
  const ir::Expr x = ir::Variable::make("a");
  const ir::Expr three[] = {x, x, x};
  CHECK_THROWS_AS(lower_operation(dsl::op::OpKind::neg, three), internal_codegen_error);
  CHECK_THROWS_AS(lower_operation(dsl::op::OpKind::atan2, std::span<const ir::Expr>(three, 1)), internal_codegen_error);
  CHECK(print(lower_operation(dsl::op::OpKind::atan2, std::span<const ir::Expr>(three, 2))) ==
        "const float t0 = atan2f(a, a);\n");
}

TEST_CASE("unknown built-in rules are a codegen_error listing the known ones") {
  try {
    lower_builtin_rule("max_everything");
    FAIL("expected a codegen_error");
  } catch (const codegen_error& e) {
    const std::string what = e.what();
    CHECK(what.find("max_everything") != std::string::npos);
    CHECK(what.find("max_diag, max_trace") != std::string::npos);
  }
}
