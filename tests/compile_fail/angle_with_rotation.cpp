// expect: an explicit angle may not mention c or s
#include "dsl/rule.hpp"
using namespace tensordiag::dsl::pivot;
constexpr auto circular = tensordiag::dsl::angle_rule("circular", atan2(s, c));
int main() { return 0; }
