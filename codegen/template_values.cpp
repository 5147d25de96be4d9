#include "codegen/template_values.hpp"

#include <string>

#include "codegen/kernel_signatures.hpp"

namespace tensordiag::codegen {

namespace {

using std::to_string;

Substitutions values_of(const PivotAnglesPlan& plan) { return {{"warps", to_string(plan.warps)}}; }

Substitutions values_of(const PivotAnglesSplitPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"head_modes", to_string(plan.head_modes)},
          {"contract_blocks", to_string(plan.contract_blocks)}};
}

Substitutions values_of(const PivotCheckGatherPlan& plan) {
  return {{"threads", to_string(plan.threads)}, {"team_lanes", to_string(plan.team_lanes)}};
}

Substitutions values_of(const GroupPassPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"register_bits", to_string(plan.register_bits)},
          {"inner_modes", to_string(plan.inner_modes)},
          {"x_threads", to_string(plan.x_threads)},
          {"chunk", to_string(plan.chunk)},
          {"pass_blocks", to_string(plan.pass_blocks)},
          {"warp_shuffles", plan.warp_shuffles ? "true" : "false"},
          {"fma", plan.fma ? "true" : "false"},
          {"launch_bounds", plan.min_blocks == 0 ? "THREADS" : "THREADS, " + to_string(plan.min_blocks)}};
}

Substitutions values_of(const ChunkPassPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"max_modes", to_string(plan.max_modes)},
          {"tiled", plan.run > 0 ? "true" : "false"},
          {"run", to_string(std::max(plan.run, 1))},
          {"slab_min_blocks", plan.run > 0 ? "1" : "2"},
          {"fma", plan.fma ? "true" : "false"}};
}

Substitutions values_of(const OffNormPlan& plan) {
  return {{"threads", to_string(plan.threads)}, {"partial_blocks", to_string(plan.partial_blocks)}};
}

Substitutions values_of(const ModeProductPlan& plan) { return {{"threads", to_string(plan.threads)}}; }

Substitutions values_of(const MultiModeProductPlan& plan) { return {{"threads", to_string(plan.threads)}}; }

Substitutions values_of(const SmallTensorPlan& plan) {
  return {{"warps", to_string(plan.warps)}, {"groups", to_string(plan.groups)},
          {"pipelined", plan.pipelined ? "true" : "false"}};
}

Substitutions values_of(const LambdaNormPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"steps", to_string(plan.steps)},
          {"tile_rows", to_string(plan.tile_rows)},
          {"gram", plan.gram ? "true" : "false"}};
}

Substitutions values_of(const QubitSweepPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"angle_threads", to_string(plan.angle_threads)},
          {"low_bits", to_string(plan.low_bits)},
          {"cell_bits", to_string(plan.cell_bits)},
          {"shares", to_string(plan.shares)},
          {"settle_blocks", to_string(plan.settle_blocks)}};
}

Substitutions values_of(const SubspaceAnglesPlan& plan) {
  return {{"warps", to_string(plan.warps)}, {"pipelined", plan.pipelined ? "true" : "false"}};
}

Substitutions values_of(const SymmetricAnglesPlan& plan) {
  Substitutions values{{"warps", to_string(plan.warps)},
                       {"host_step", plan.host_step ? "1" : "0"},
                       {"chunks", to_string(plan.chunks)}};
  // symmetric_angles and symmetric_pivot_sums stand on either side of #if SYMMETRIC_HOST_STEP: the
  // one switched off is no entry of the plan, so it gets its parameter list here.
  const KernelSignature& switched_off =
      plan.host_step ? kernel_signatures::symmetric_angles : kernel_signatures::symmetric_pivot_sums;
  values.emplace(std::string(switched_off.name) + "_parameters", parameter_list(switched_off));
  return values;
}

Substitutions values_of(const SkewAnglesPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"figure_threads", to_string(plan.figure_threads)},
          {"partial_blocks", to_string(plan.partial_blocks)}};
}

// A table's entries, `width` a row: "{a, b},\n    {c, d}" (a 2-D array, a line a row), or "a, b"
// (width 0).
template <class Number>
std::string list_of(const std::vector<Number>& values, std::size_t width = 0) {
  std::string out;
  for (std::size_t i = 0; i < values.size(); ++i) {
    const bool row_start = width > 0 && i % width == 0;
    if (i > 0) out += row_start ? "},\n    " : ", ";
    if (row_start) out += "{";
    out += to_string(values[i]);
  }
  return width > 0 && !values.empty() ? out + "}" : out;
}

Substitutions values_of(const PackedSymmetricPlan& plan) {
  const std::size_t rows = plan.classes.size() - 1;  // D
  Substitutions values{{"threads", to_string(plan.threads)},
          {"angle_warps", to_string(plan.angle_warps)},
          {"chunk", to_string(plan.chunk)},
          {"count", to_string(plan.count)},
          {"rest_symbols", to_string(plan.rest_symbols)},
          {"rotate_blocks", to_string(plan.rotate_blocks)},
          {"figure_blocks", to_string(plan.figure_blocks)},
          {"powers", to_string(plan.powers)},
          {"full_prefix", list_of(plan.full_prefix, plan.full_prefix.size() / rows)},
          {"rest_prefix", list_of(plan.rest_prefix, plan.rest_prefix.size() / rows)},
          {"classes", list_of(plan.classes)},
          {"chunk_end", list_of(plan.chunk_end)},
          {"power_offset", list_of(plan.power_offset)},
          {"group_orbits", plan.group_orbits ? "1" : "0"},
          {"alphabet", to_string(plan.alphabet)},
          {"orbits", to_string(plan.orbits)},
          {"max_orbit", to_string(plan.max_orbit)},
          {"group_blocks", to_string(plan.group_blocks)},
          {"orbit_prefix", list_of(plan.orbit_prefix, plan.orbit_prefix.size() / rows)}};
  // packed_group and packed_rotate stand on either side of #if PACKED_GROUP_ORBITS: the one
  // switched off is no entry of the plan, whose entries' parameter lists the source gets
  // (kernel_source.cpp), so it gets its own here.
  const KernelSignature& switched_off = plan.group_orbits ? kernel_signatures::packed_rotate : kernel_signatures::packed_group;
  values.emplace(std::string(switched_off.name) + "_parameters", parameter_list(switched_off));
  return values;
}

Substitutions values_of(const SubspaceApplyPlan& plan) {
  return {{"threads", to_string(plan.threads)},
          {"cell", to_string(1 << plan.cell_bits)},
          {"mirrored", plan.mirrored ? "true" : "false"},
          {"fused", to_string(plan.fused)}};
}

}  // namespace

Substitutions template_values(const KindPlan& plan) {
  return std::visit([](const auto& kind_plan) { return values_of(kind_plan); }, plan);
}

}  // namespace tensordiag::codegen
