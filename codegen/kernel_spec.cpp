#include "codegen/kernel_spec.hpp"

#include <array>
#include <limits>

#include "codegen/builtin_rules.hpp"
#include "codegen/codegen_error.hpp"

namespace tensordiag::codegen {

namespace {

constexpr std::array<std::string_view, 16> kind_names = {
    "pivot_angles", "pivot_angles_split", "pivot_check_gather", "group_pass",      "chunk_pass",
    "off_norm",     "mode_product",       "multi_mode_product", "small_tensor",    "lambda_norm",
    "qubit_sweep",  "subspace_angles",    "subspace_apply",     "symmetric_angles", "skew_angles",
    "packed_symmetric",
};

}  // namespace

std::string_view to_string(KernelKind kind) { return kind_names[static_cast<std::size_t>(kind)]; }

KernelKind parse_kernel_kind(std::string_view name) {
  for (std::size_t i = 0; i < kind_names.size(); ++i)
    if (kind_names[i] == name) return static_cast<KernelKind>(i);
  std::string known;
  for (const std::string_view kind : kind_names) known += (known.empty() ? "" : ", ") + std::string(kind);
  throw codegen_error("unknown kernel kind '" + std::string(name) + "': the kinds are " + known);
}

std::vector<std::string> kernel_kinds() { return {kind_names.begin(), kind_names.end()}; }

std::string_view to_string(dsl::Layout layout) { return layout == dsl::Layout::c_order ? "C" : "F"; }

dsl::Layout parse_layout(std::string_view name) {
  if (name == "C") return dsl::Layout::c_order;
  if (name == "F") return dsl::Layout::fortran_order;
  throw codegen_error("unknown layout '" + std::string(name) + "': use C (last index fastest) or F (first index fastest)");
}

bool symmetric_step_on_host(const KernelSpec& spec) {
  // dsl::symmetric_unitary_max_order: the closed form's orders.
  return spec.kind == KernelKind::symmetric_angles && is_complex(spec.dtype) && spec.order > 3;
}

void validate(const KernelSpec& spec) {
  // A symmetric matrix (structure symmetric, one Q: the Jacobi eigenvalue method) takes the
  // symmetric angles, the passes, the figures and the device verification's mode products;
  // per-mode rotations of a general matrix stall.
  const bool matrix_kind = spec.kind == KernelKind::symmetric_angles || spec.kind == KernelKind::group_pass ||
                           spec.kind == KernelKind::chunk_pass || spec.kind == KernelKind::off_norm ||
                           spec.kind == KernelKind::mode_product || spec.kind == KernelKind::packed_symmetric;
  if (spec.order == 2 && !matrix_kind)
    throw codegen_error("order 2 (a matrix) is out of scope for " + std::string(to_string(spec.kind)) +
                        ": per-mode rotations stall far from the SVD; use an SVD (a symmetric matrix takes "
                        "symmetric_angles, group_pass, chunk_pass, off_norm, mode_product and packed_symmetric)");
  if (spec.order < 2) throw codegen_error("order " + std::to_string(spec.order) + ": a tensor has order D >= 3");
  if (spec.kind == KernelKind::packed_symmetric && spec.order > packed_symmetric_max_order)
    throw codegen_error("packed_symmetric takes order D <= " + std::to_string(packed_symmetric_max_order) +
                        " (order " + std::to_string(spec.order) +
                        "): larger classes rotate in long double, on the CPU");
  if (spec.symmetric && spec.kind != KernelKind::small_tensor && spec.kind != KernelKind::subspace_angles &&
      spec.kind != KernelKind::subspace_apply)
    throw codegen_error("structure symmetric is a variant of small_tensor, subspace_angles and subspace_apply only (" +
                        std::string(to_string(spec.kind)) + " is the same for it, or symmetric_angles serves it)");
  if (spec.skew && spec.kind != KernelKind::small_tensor)
    throw codegen_error("structure skew is a variant of small_tensor only (" + std::string(to_string(spec.kind)) +
                        " is the same for it, or skew_angles serves it)");
  if (spec.skew && (spec.symmetric || is_complex(spec.dtype) || spec.size < spec.order))
    throw codegen_error("structure skew takes one structure, a real dtype and N >= D");
  if (spec.symmetric && is_complex(spec.dtype) && spec.order > 3)
    throw codegen_error("structure symmetric of a complex dtype takes order 2 or 3 in " + std::string(to_string(spec.kind)) +
                        ", not " + std::to_string(spec.order) +
                        " (dsl/symmetric_unitary_angle.hpp: the unitary step's closed form; symmetric_angles leaves "
                        "higher orders' step to the host)");
  if (spec.size < 2) throw codegen_error("size " + std::to_string(spec.size) + ": every mode needs N >= 2");
  // Kernels index N x N matrices (factors, Lambda) with 32-bit integers.
  if (spec.size > 32768) throw codegen_error("size " + std::to_string(spec.size) + ": the kernels support N <= 32768");
  // N^D entries, and their byte offsets, must stay addressable with 64-bit signed integers.
  const long long limit = std::numeric_limits<long long>::max() / 8;
  long long entries = 1;
  for (int n = 0; n < spec.order; ++n) {
    if (entries > limit / spec.size)
      throw codegen_error("a tensor of " + std::to_string(spec.size) + "^" + std::to_string(spec.order) +
                          " entries is beyond 64-bit addressing");
    entries *= spec.size;
  }
  const Tuning& t = spec.tuning;
  if (t.block_size < 32 || t.block_size > 1024 || t.block_size % 32 != 0)
    throw codegen_error("block_size " + std::to_string(t.block_size) + ": use a multiple of 32 in 32..1024");
  if (t.pass_block_size != 0 && (t.pass_block_size < 32 || t.pass_block_size > 1024 || t.pass_block_size % 32 != 0))
    throw codegen_error("pass_block_size " + std::to_string(t.pass_block_size) +
                        ": use 0 (by order) or a multiple of 32 in 32..1024");
  if (t.pass_register_bits < 0 || t.pass_register_bits > 6)
    throw codegen_error("pass_register_bits " + std::to_string(t.pass_register_bits) + " is outside 1..6 (0: the dtype's)");
  if (t.pass_warp_shuffles < -1 || t.pass_warp_shuffles > 1)
    throw codegen_error("pass_warp_shuffles " + std::to_string(t.pass_warp_shuffles) + ": use -1 (the default), 0 or 1");
  if (t.pass_max_registers != 0 && t.pass_max_registers != -1 && (t.pass_max_registers < 32 || t.pass_max_registers > 255))
    throw codegen_error("pass_max_registers " + std::to_string(t.pass_max_registers) +
                        ": use -1 (the default), 0 (no bound) or 32..255");
  if (t.pass_inner_modes != -1 && t.pass_inner_modes < 1)
    throw codegen_error("pass_inner_modes " + std::to_string(t.pass_inner_modes) + ": use -1 (the default) or 1 and more (above D - 2 the plan takes D - 2)");
  if (t.pass_fma < -1 || t.pass_fma > 1)
    throw codegen_error("pass_fma " + std::to_string(t.pass_fma) + ": use -1 (the default), 0 or 1");
  if (t.subspace_fused < -1 || t.subspace_fused > 2)
    throw codegen_error("subspace_fused " + std::to_string(t.subspace_fused) + ": use -1 (the default), 0, 1 or 2");
  if (t.pipelined_groups < -1 || t.pipelined_groups > 1)
    throw codegen_error("pipelined_groups " + std::to_string(t.pipelined_groups) + ": use -1 (the default), 0 or 1");
  if (t.subspace_angle_warps < 0 || t.subspace_angle_warps > 32)
    throw codegen_error("subspace_angle_warps " + std::to_string(t.subspace_angle_warps) + ": use 0 (32) or 1..32");
  if (t.packed_max_orbit < -1 || t.packed_max_orbit > 4096)
    throw codegen_error("packed_max_orbit " + std::to_string(t.packed_max_orbit) + ": use -1 (the default) or 0..4096");
  if (t.chunk_tile_bytes < -1 || t.chunk_tile_bytes > 227 * 1024)
    throw codegen_error("chunk_tile_bytes " + std::to_string(t.chunk_tile_bytes) +
                        ": use -1 (the default), 0 (the register form) or up to 232448 bytes");
  if (t.opt_in_shared_bytes < 1024)
    throw codegen_error("opt_in_shared_bytes " + std::to_string(t.opt_in_shared_bytes) + ": use at least 1024 bytes");
  if (t.pivot_gram_size < -1 || t.pivot_gram_size > 128)
    throw codegen_error("pivot_gram_size " + std::to_string(t.pivot_gram_size) + ": use -1 (the default) or 0..128");
  if (t.subspace_bits != 0 && (t.subspace_bits < 2 || t.subspace_bits > 10))
    throw codegen_error("subspace_bits " + std::to_string(t.subspace_bits) + ": use 0 (the largest that fits) or 2..10");
  if (t.shared_bytes < 1 || t.subspace_shared_bytes < 1 || t.partial_blocks < 1 || t.max_grid_blocks < 1)
    throw codegen_error("shared_bytes, partial_blocks and max_grid_blocks must be positive");
}

KernelSpec make_kernel_spec(std::string_view kind, int order, int size, std::string_view dtype,
                            std::string_view layout, std::string_view rule, Tuning tuning) {
  KernelSpec spec{parse_kernel_kind(kind), order, size, parse_scalar_type(dtype), parse_layout(layout),
                  lower_builtin_rule(rule), tuning};
  validate(spec);
  return spec;
}

}  // namespace tensordiag::codegen
