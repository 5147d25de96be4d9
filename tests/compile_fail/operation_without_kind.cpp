// expect: this operation has no OpKind, so codegen cannot lower it to CUDA
// A custom op tag evaluates and prints on the host, but codegen lowers by OpKind: lowering a rule
// that uses it must fail at compile time, naming what is missing.
#include <string_view>

#include "codegen/lower_rule.hpp"
using namespace tensordiag::dsl::pivot;
struct foo {
  static constexpr std::string_view name = "foo";
  static constexpr tensordiag::dsl::op::Notation notation = tensordiag::dsl::op::Notation::call;
  template <class T> static T apply(T x) { return x; }
};
const auto lowered = tensordiag::codegen::lower_rule(tensordiag::dsl::angle_rule("uses_foo", tensordiag::dsl::make_node<foo>(a) + b));
int main() { return 0; }
