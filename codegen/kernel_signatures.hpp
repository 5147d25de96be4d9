#pragma once
// The parameters of every extern "C" kernel, written once: codegen prints each list into its
// template (`name(${name_parameters}) {`), and the runtime's launchers take exactly these types for
// the engine's scalar type (runtime/engines/kernel_launcher.hpp), so a launch with a wrong argument
// type fails to compile. What each argument means: see the template's comment.
#include <span>
#include <string>
#include <string_view>

namespace tensordiag::codegen {

// Pointers are __restrict__ in the kernels. Scalar is the spec's dtype, Rotation its (c, s).
enum class ParameterType {
  scalar_pointer,          // Scalar*
  const_scalar_pointer,    // const Scalar*
  int_pointer,             // int*
  const_int_pointer,       // const int*
  rotation_pointer,        // Rotation*
  const_rotation_pointer,  // const Rotation*
  double_pointer,          // double*
  const_double_pointer,    // const double*
  int_value,               // int
  double_value,            // double
};

struct Parameter {
  std::string_view name;
  ParameterType type;
  // Begins a line of the printed list whether or not it would fit on the one before: the layout
  // the hand-written list had, which the generated source keeps byte for byte.
  bool starts_line = false;
};

struct KernelSignature {
  std::string_view name;  // the kernel's symbol
  std::span<const Parameter> parameters;
};

namespace kernel_parameters {

using enum ParameterType;

inline constexpr Parameter pivot_angles[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter pivot_subtensors[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"subtensors", scalar_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter gathered_angles[] = {
    {"subtensors", const_scalar_pointer},
    {"rotations", rotation_pointer},
};
inline constexpr Parameter symmetric_angles[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
};
inline constexpr Parameter symmetric_pivot_sums[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"sums", double_pointer},
};
inline constexpr Parameter skew_angles[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
    {"live", int_value},
};
inline constexpr Parameter skew_figures_partial[] = {
    {"tensor", const_scalar_pointer},
    {"partials", double_pointer},
};
inline constexpr Parameter pivot_head[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter pivot_contract[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"partials", double_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter pivot_tail[] = {
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
    {"partials", const_double_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter pivot_check_gather[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"mode", int_value},
    {"lambda", double_pointer},
    {"lines", double_pointer},
};
inline constexpr Parameter pivot_check_lines[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"mode", int_value},
    {"lines", double_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter lambda_from_lines[] = {
    {"lines", const_double_pointer},
    {"lambda", double_pointer},
};
inline constexpr Parameter checked_angles[] = {
    {"pairs", const_int_pointer},
    {"lines", const_double_pointer},
    {"lambda", const_double_pointer},
    {"lambda_norm", const_double_pointer},
    {"eta", double_value},
    {"mode", int_value},
    {"rotations", rotation_pointer},
};
inline constexpr Parameter group_pass[] = {
    {"tensor", scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"factors", scalar_pointer},
    {"partials", double_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter chunk_pass[] = {
    {"tensor", scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"first", int_value},
    {"count", int_value},
};
inline constexpr Parameter chunk_pass_slab[] = {
    {"tensor", scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"first", int_value},
    {"count", int_value},
    {"rows", const_int_pointer},
};
inline constexpr Parameter group_factors[] = {
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
    {"factors", scalar_pointer},
};
inline constexpr Parameter off_norm_partial[] = {
    {"tensor", const_scalar_pointer},
    {"partials", double_pointer},
    {"rows", const_int_pointer},
};
inline constexpr Parameter off_norm_final[] = {
    {"partials", const_double_pointer},
    {"count", int_value},
    {"figures", double_pointer},
};
inline constexpr Parameter residual_partial[] = {
    {"tensor", const_scalar_pointer},
    {"reconstruction", const_scalar_pointer},
    {"partials", double_pointer},
};
inline constexpr Parameter mode_product[] = {
    {"x", const_scalar_pointer},
    {"matrix", const_scalar_pointer},
    {"out", scalar_pointer},
    {"mode", int_value},
};
inline constexpr Parameter multi_mode_product[] = {
    {"x", const_scalar_pointer},
    {"factors", const_scalar_pointer},
    {"out", scalar_pointer},
};
inline constexpr Parameter small_tensor[] = {
    {"tensors", scalar_pointer},
    {"factors", scalar_pointer},
    {"schedule", const_int_pointer},
    {"max_sweeps", int_value},
    {"tol", double_value},
    {"stall_tol", double_value},
    {"stall_on_trace", int_value},
    {"history", double_pointer},
    {"sweeps", int_pointer},
    {"stop_reason", int_pointer, true},  // starts_line
};
inline constexpr Parameter lambda_norm[] = {
    {"lambda", const_double_pointer},
    {"basis", double_pointer},
    {"norm", double_pointer},
    {"pairs", const_int_pointer},
    {"eta", double_value},
    {"exact_norms", int_pointer},
    {"lines", const_double_pointer},
    {"mode", int_value},
    {"rotations", rotation_pointer},
};
inline constexpr Parameter qubit_reduce_low[] = {
    {"tensor", const_scalar_pointer},
    {"accumulated", const_double_pointer},
    {"small", double_pointer},
    {"first_row", int_value},
    {"row_count", int_value},
};
inline constexpr Parameter qubit_reduce_high[] = {
    {"tensor", const_scalar_pointer},
    {"accumulated", const_double_pointer},
    {"partials", double_pointer},
    {"first_row", int_value},
    {"row_count", int_value},
};
inline constexpr Parameter qubit_settle[] = {
    {"partials", const_double_pointer},
    {"shares", int_value},
    {"small", double_pointer},
    {"accumulated", const_double_pointer},
    {"half", int_value},
    {"first", int_value},
    {"count", int_value},
};
inline constexpr Parameter qubit_angles[] = {
    {"small", const_double_pointer},
    {"accumulated", double_pointer},
    {"half", int_value},
    {"figures", double_pointer},
};

inline constexpr Parameter subspace_angles[] = {
    {"tensor", const_scalar_pointer},
    {"indices", const_int_pointer},
    {"tensor_size", int_value},
    {"fortran", int_value},
    {"groups", const_int_pointer},
    {"group_count", int_value},
    {"blocks", scalar_pointer},
};
inline constexpr Parameter subspace_apply[] = {
    {"tensor", scalar_pointer},
    {"indices", const_int_pointer},
    {"blocks", const_scalar_pointer},
    {"factors", scalar_pointer},
};
inline constexpr Parameter packed_angles[] = {
    {"tensor", const_scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", rotation_pointer},
    {"powers", double_pointer},
};
inline constexpr Parameter packed_group[] = {
    {"tensor", scalar_pointer},
    {"symbols", const_int_pointer},
    {"powers", const_double_pointer},
};
inline constexpr Parameter packed_rotate[] = {
    {"tensor", scalar_pointer},
    {"pairs", const_int_pointer},
    {"powers", const_double_pointer},
    {"pair", int_value},
};
inline constexpr Parameter packed_factor[] = {
    {"factor", scalar_pointer},
    {"pairs", const_int_pointer},
    {"rotations", const_rotation_pointer},
};
inline constexpr Parameter packed_figures[] = {
    {"tensor", const_scalar_pointer},
    {"partials", double_pointer},
};
inline constexpr Parameter packed_figures_final[] = {
    {"tensor", const_scalar_pointer},
    {"partials", const_double_pointer},
    {"figures", double_pointer},
};

}  // namespace kernel_parameters

namespace kernel_signatures {

inline constexpr KernelSignature pivot_angles{"pivot_angles", kernel_parameters::pivot_angles};
inline constexpr KernelSignature pivot_subtensors{"pivot_subtensors", kernel_parameters::pivot_subtensors};
inline constexpr KernelSignature gathered_angles{"gathered_angles", kernel_parameters::gathered_angles};
inline constexpr KernelSignature pivot_head{"pivot_head", kernel_parameters::pivot_head};
inline constexpr KernelSignature pivot_contract{"pivot_contract", kernel_parameters::pivot_contract};
inline constexpr KernelSignature pivot_tail{"pivot_tail", kernel_parameters::pivot_tail};
inline constexpr KernelSignature pivot_check_gather{"pivot_check_gather", kernel_parameters::pivot_check_gather};
inline constexpr KernelSignature pivot_check_lines{"pivot_check_lines", kernel_parameters::pivot_check_lines};
inline constexpr KernelSignature lambda_from_lines{"lambda_from_lines", kernel_parameters::lambda_from_lines};
inline constexpr KernelSignature checked_angles{"checked_angles", kernel_parameters::checked_angles};
inline constexpr KernelSignature group_pass{"group_pass", kernel_parameters::group_pass};
inline constexpr KernelSignature chunk_pass{"chunk_pass", kernel_parameters::chunk_pass};
inline constexpr KernelSignature chunk_pass_slab{"chunk_pass_slab", kernel_parameters::chunk_pass_slab};
inline constexpr KernelSignature group_factors{"group_factors", kernel_parameters::group_factors};
inline constexpr KernelSignature off_norm_partial{"off_norm_partial", kernel_parameters::off_norm_partial};
inline constexpr KernelSignature off_norm_final{"off_norm_final", kernel_parameters::off_norm_final};
inline constexpr KernelSignature residual_partial{"residual_partial", kernel_parameters::residual_partial};
inline constexpr KernelSignature mode_product{"mode_product", kernel_parameters::mode_product};
inline constexpr KernelSignature multi_mode_product{"multi_mode_product", kernel_parameters::multi_mode_product};
inline constexpr KernelSignature small_tensor{"small_tensor", kernel_parameters::small_tensor};
inline constexpr KernelSignature lambda_norm{"lambda_norm", kernel_parameters::lambda_norm};
inline constexpr KernelSignature qubit_reduce_low{"qubit_reduce_low", kernel_parameters::qubit_reduce_low};
inline constexpr KernelSignature qubit_reduce_high{"qubit_reduce_high", kernel_parameters::qubit_reduce_high};
inline constexpr KernelSignature qubit_settle{"qubit_settle", kernel_parameters::qubit_settle};
inline constexpr KernelSignature qubit_angles{"qubit_angles", kernel_parameters::qubit_angles};
inline constexpr KernelSignature subspace_angles{"subspace_angles", kernel_parameters::subspace_angles};
inline constexpr KernelSignature subspace_apply{"subspace_apply", kernel_parameters::subspace_apply};
inline constexpr KernelSignature symmetric_angles{"symmetric_angles", kernel_parameters::symmetric_angles};
inline constexpr KernelSignature symmetric_pivot_sums{"symmetric_pivot_sums", kernel_parameters::symmetric_pivot_sums};
inline constexpr KernelSignature skew_angles{"skew_angles", kernel_parameters::skew_angles};
inline constexpr KernelSignature skew_figures_partial{"skew_figures_partial", kernel_parameters::skew_figures_partial};
inline constexpr KernelSignature packed_angles{"packed_angles", kernel_parameters::packed_angles};
inline constexpr KernelSignature packed_group{"packed_group", kernel_parameters::packed_group};
inline constexpr KernelSignature packed_rotate{"packed_rotate", kernel_parameters::packed_rotate};
inline constexpr KernelSignature packed_factor{"packed_factor", kernel_parameters::packed_factor};
inline constexpr KernelSignature packed_figures{"packed_figures", kernel_parameters::packed_figures};
inline constexpr KernelSignature packed_figures_final{"packed_figures_final", kernel_parameters::packed_figures_final};

inline constexpr KernelSignature all[] = {
    pivot_angles,   pivot_subtensors, gathered_angles, pivot_head,       pivot_contract, pivot_tail,   pivot_check_gather,
    pivot_check_lines, lambda_from_lines, checked_angles,
    group_pass,     chunk_pass,       chunk_pass_slab, group_factors,  off_norm_partial, off_norm_final, residual_partial,
    mode_product,   multi_mode_product, small_tensor, lambda_norm, qubit_reduce_low, qubit_reduce_high,
    qubit_settle,   qubit_angles, subspace_angles, subspace_apply, symmetric_angles, symmetric_pivot_sums, skew_angles,
    skew_figures_partial, packed_angles, packed_group, packed_rotate, packed_factor, packed_figures, packed_figures_final};

}  // namespace kernel_signatures

// The signature of the kernel `name`; throws internal_codegen_error when no kernel has that name.
const KernelSignature& kernel_signature(std::string_view name);

// The parameter list as it stands in the template, `name(<list>) {`: CUDA spellings joined by ", ",
// a line broken before a parameter that would take the line past column 120 (or that starts_line),
// continuation lines aligned under the first parameter.
std::string parameter_list(const KernelSignature& signature);

}  // namespace tensordiag::codegen
