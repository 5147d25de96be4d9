// expect: does not depend on c or s
#include "dsl/rule.hpp"
using namespace tensordiag::dsl::pivot;
constexpr auto flat = tensordiag::dsl::objective_rule("flat", sq(a) + b);
int main() { return 0; }
