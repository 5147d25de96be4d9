#pragma once
// No Hana: the lowered rule (codegen/lowered_rule.hpp) carries it to the runtime.

namespace tensordiag::dsl {

// How a rule turns its walked operands into (c, s) (dsl/rule.hpp):
//   direction:      phi = atan2(y, x),    operands {x, y}
//   double_angle:   2 phi = atan2(y, x),  operands {x, y}
//   explicit_angle: phi given,            operands {phi}
enum class RotationForm { direction, double_angle, explicit_angle };

}  // namespace tensordiag::dsl
