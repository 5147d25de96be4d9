#pragma once
// A typed plan as the values of its template's placeholders (kernels_templates/<kind>.cu): the
// only place where a plan's fields become text.
#include "codegen/kernel_plan.hpp"
#include "codegen/template_filler.hpp"

namespace tensordiag::codegen {

Substitutions template_values(const KindPlan& plan);

}  // namespace tensordiag::codegen
