#pragma once
// KernelSpec -> the full CUDA C++ source of one kernel kind, ready for NVRTC: a header comment
// naming the kind, the rule (dsl::describe and its rotation form), D, N, dtype, layout, the
// templates and the launch shapes; then dsl/givens.hpp, the shape constants (prelude.cu), the
// rule's device function where the kind needs it, the fragments, and kernels_templates/<kind>.cu.
// The output is deterministic: the same spec gives the same text, byte for byte.
//
// The sources and the kernels they define (arguments: see each template's comment):
//   pivot_angles        pivot_angles (all modes, no pivot check)
//   pivot_angles_split  pivot_head, pivot_contract, pivot_tail (all modes, no pivot check, for pivot
//                       subtensors over one block's shared memory: head modes from small corners,
//                       one contraction of each subtensor, tail modes in shared memory)
//   pivot_check_gather  pivot_check_gather (Lambda of one mode, for the pivot check, and the
//                       group's pivot entries), pivot_check_lines and lambda_from_lines (the same
//                       on a slab of GPU ranks), checked_angles (one mode's checked rotations)
//   group_pass          group_pass (all modes' rotations of a group in one read+write pass, the
//                       factors' columns p, q, and for a sweep's last group the convergence
//                       figures' partial sums)
//   chunk_pass          chunk_pass (a group's rotations in a run of memory modes), group_factors
//                       (M_n <- M_n R_n): the group pass for tiles group_pass cannot hold
//   off_norm            off_norm_partial, off_norm_final (off(C)^2 and ||diag C||^2 in double),
//                       residual_partial (||T - R||^2 and ||T||^2 of a reconstruction R, in double)
//   mode_product        mode_product (X x_n M)
//   multi_mode_product  multi_mode_product (C x_1 M_1 ... x_D M_D, one block per small tensor)
//   small_tensor        small_tensor (the whole run, one block per small tensor)
//   lambda_norm         lambda_norm (||Lambda||_2 of the pivot check, one block, N <= 1024)
//   qubit_sweep         qubit_reduce_low, qubit_reduce_high, qubit_settle, qubit_angles (an N = 2
//                       sweep from two reductions of the unchanged tensor, large D)
//   subspace_angles     subspace_angles (an XOR subspace pass's groups on the diagonal cells; the
//                       spec's size is the cell's, 2^k)
//   subspace_apply      subspace_apply (an XOR subspace pass's blocks applied to every cell, and to
//                       the factors, in one pass)
//   symmetric_angles    symmetric_angles (a symmetric tensor's group: one angle a pair, the same in
//                       every mode, by dsl/symmetric_angle.hpp, whose text the source holds), or
//                       for a complex dtype from order 4 symmetric_pivot_sums (the pairs' sums the
//                       host's searched step takes: symmetric_step_on_host)
//   skew_angles         skew_angles (a skew-symmetric tensor's group: one angle a pair from its four
//                       block entries, the same in every mode), skew_figures_partial (off-block^2)
//   packed_symmetric    packed_angles, packed_group (where a group's orbits are small) or
//                       packed_rotate, packed_factor, packed_figures, packed_figures_final (a
//                       symmetric tensor in packed storage, D <= 12)
#include <string>
#include <vector>

#include "codegen/kernel_plan.hpp"
#include "codegen/kernel_spec.hpp"

namespace tensordiag::codegen {

// Throws codegen_error when the spec cannot be generated (kernel_plan.hpp, kernel_spec.hpp).
std::string kernel_source(const KernelSpec& spec);

// The name to compile the source under, from every field but the tuning:
// "group_pass_d3_n64_float32_C_max_diag.cu". NVRTC's log cites lines as name(line), and the kernel
// cache's file names start with it.
std::string program_name(const KernelSpec& spec);

// One kind's source for a shape, or why that kind cannot serve it.
struct KindSource {
  KernelSpec spec;
  std::string source;   // kernel_source(spec); empty when refused
  std::string refusal;  // the codegen_error's message when the kind's plan refuses the shape

  bool generated() const { return refusal.empty(); }
};

// The structure of the run a kind's source is asked for (runtime::Structure as codegen sees it):
// structured runs load some kinds only, some as their variants (KernelSpec::symmetric, ::skew).
enum class KernelStructure { general, symmetric, skew };

// "general", "symmetric" or "skew"; throws codegen_error naming the three for another name.
KernelStructure parse_kernel_structure(std::string_view name);

// Every kind, in kernel_kinds() order, for the shape, dtype, layout, rule and tuning of `spec` (its
// kind is ignored). The whole-tensor kinds refuse tensors too large for one block's shared memory,
// so a shape is served by some kinds and refused by others; throws only for a spec that no kind can
// be asked about (it is validated first). `structure`: the kinds a run of that structure loads, as
// for_structure gives them; the kinds it never loads are refused with that reason.
std::vector<KindSource> every_kind_source(const KernelSpec& spec, KernelStructure structure = KernelStructure::general);

// Whether a run of `structure` loads `kind` (DESIGN.md section 7). Symmetric: not the per-mode
// rule's angles, the pivot check's kinds, the N = 2 engine's or skew_angles. Skew: skew_angles, the
// passes (group_pass, chunk_pass), the figures, the verification's mode products and small_tensor.
bool used_by_structure(KernelKind kind, KernelStructure structure);
// `spec` as a run of `structure` loads it: KernelSpec::symmetric set for small_tensor,
// subspace_angles and subspace_apply under symmetric, KernelSpec::skew for small_tensor under skew;
// codegen_error for a kind such a run does not use.
KernelSpec for_structure(KernelSpec spec, KernelStructure structure);

}  // namespace tensordiag::codegen
