// expect: c and s may appear only under + - * / sq and unary minus
#include "dsl/rule.hpp"
using namespace tensordiag::dsl::pivot;
constexpr auto rooted = tensordiag::dsl::objective_rule("rooted", sqrt(a * c + b * s));
int main() { return 0; }
