// expect: must be linear in (c, s)
#include "dsl/rule.hpp"
using namespace tensordiag::dsl::pivot;
constexpr auto cubic = tensordiag::dsl::objective_rule("cubic", a * c * c * c + b * s);
int main() { return 0; }
