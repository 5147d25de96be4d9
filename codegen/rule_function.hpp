#pragma once
// The function a kernel calls for the angle of one micro-iteration (DESIGN.md section 2):
//   TENSORDIAG_HOST_DEVICE inline tensordiag::dsl::Givens<float> rule_rotation(float a, float b, float d, float e)
// computing the rule's rotation form with the closed forms of dsl/givens.hpp:
//   direction      -> givens_from_direction(x, y)      (phi = atan2(y, x))
//   double_angle   -> givens_from_double_angle(x, y)   (2 phi = atan2(y, x), trig-free)
//   explicit_angle -> (cos phi, sin phi)
// Generated sources embed givens.hpp, so host and kernels share one formula; givens.hpp defines
// TENSORDIAG_HOST_DEVICE, so the same text also compiles on the host, where the tests compare it
// with dsl::rotation. For a complex scalar the function takes and returns Complex values
// (dsl/complex_number.hpp): the rule's complex lift, its Hermitian form of the pivot entries and
// that form's dominant eigenvector (dsl/unitary_closed_form.hpp); a rule without a lift is a
// codegen_error.
#include <string>

#include "codegen/lowered_rule.hpp"
#include "codegen/scalar_type.hpp"

namespace tensordiag::codegen {

std::string rule_function(const LoweredRule& rule, ScalarType scalar);

}  // namespace tensordiag::codegen
