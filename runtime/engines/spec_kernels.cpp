#include "runtime/engines/spec_kernels.hpp"

#include <mutex>
#include <unordered_map>

#include "codegen/kernel_source.hpp"
#include "codegen/scalar_type.hpp"

namespace tensordiag::runtime {

namespace {

// A field added to the spec must reach the fingerprint: each structured binding below names every
// field of its struct, so adding or removing one fails to compile here until the fingerprint (and
// this list) take it.
[[maybe_unused]] void every_field_is_fingerprinted(const codegen::KernelSpec& spec) {
  [[maybe_unused]] const auto& [kind, order, size, dtype, layout, rule, tuning, symmetric, skew] = spec;
  [[maybe_unused]] const auto& [block_size, pass_block_size, pass_register_bits, pass_warp_shuffles,
                                pass_max_registers, pass_inner_modes, pass_fma, shared_bytes, partial_blocks,
                                max_grid_blocks, subspace_bits, subspace_shared_bytes, subspace_mirrored,
                                subspace_fused, subspace_angle_warps, pipelined_groups, pivot_gram_size, packed_max_orbit, chunk_tile_bytes,
                                opt_in_shared_bytes] = spec.tuning;
  [[maybe_unused]] const auto& [name, description, rotation, form, operands, stalls_on, hermitian_terms] = spec.rule;
}

struct Known {
  std::mutex mutex;
  std::unordered_map<std::string, std::shared_ptr<const CompiledKernel>> kernels;
};

Known& known() {
  static Known table;
  return table;
}

}  // namespace

std::string spec_fingerprint(const codegen::KernelSpec& spec) {
  const codegen::Tuning& t = spec.tuning;
  // The kind, order, size, dtype, layout, rule name and structure are in the program's name.
  std::string text = codegen::program_name(spec);
  for (const long long value : {static_cast<long long>(t.block_size), static_cast<long long>(t.pass_block_size),
                                static_cast<long long>(t.pass_register_bits),
                                static_cast<long long>(t.pass_warp_shuffles),
                                static_cast<long long>(t.pass_max_registers),
                                static_cast<long long>(t.pass_inner_modes), static_cast<long long>(t.pass_fma),
                                static_cast<long long>(t.shared_bytes),
                                static_cast<long long>(t.partial_blocks), t.max_grid_blocks,
                                static_cast<long long>(t.subspace_bits), static_cast<long long>(t.subspace_shared_bytes),
                                static_cast<long long>(t.subspace_mirrored), static_cast<long long>(t.subspace_fused),
                                static_cast<long long>(t.subspace_angle_warps),
                                static_cast<long long>(t.pipelined_groups),
                                static_cast<long long>(t.pivot_gram_size), static_cast<long long>(t.packed_max_orbit),
                                static_cast<long long>(t.chunk_tile_bytes),
                                static_cast<long long>(t.opt_in_shared_bytes),
                                static_cast<long long>(spec.rule.form),
                                static_cast<long long>(spec.rule.stalls_on),
                                static_cast<long long>(spec.rule.hermitian_terms.size())})
    text.append("|").append(std::to_string(value));
  // Length-prefixed: no two different rules give the same text.
  for (const std::string* part : {&spec.rule.name, &spec.rule.description, &spec.rule.rotation})
    text.append("|").append(std::to_string(part->size())).append(":").append(*part);
  return text;
}

namespace {

std::string table_key(const codegen::KernelSpec& spec, const std::string& arch) {
  return std::string(arch).append("|").append(spec_fingerprint(spec));
}

std::shared_ptr<const CompiledKernel> find(const std::string& key) {
  Known& table = known();
  const std::lock_guard lock(table.mutex);
  const auto found = table.kernels.find(key);
  return found == table.kernels.end() ? nullptr : found->second;
}

}  // namespace

std::shared_ptr<const CompiledKernel> known_kernel_for_spec(const codegen::KernelSpec& spec, const std::string& arch) {
  return find(table_key(spec, arch));
}

std::shared_ptr<const CompiledKernel> kernel_for_spec(const codegen::KernelSpec& spec, const std::string& arch,
                                                      bool* compiled) {
  if (compiled) *compiled = false;
  const std::string key = table_key(spec, arch);
  if (auto kernel = find(key)) return kernel;
  auto kernel = std::make_shared<const CompiledKernel>(
      default_kernel_cache().get_or_compile(codegen::kernel_source(spec), codegen::program_name(spec), {}, arch));
  if (compiled) *compiled = kernel->origin == KernelOrigin::compiled;
  Known& table = known();
  const std::lock_guard lock(table.mutex);
  // Two threads may have fetched it at once: the first stays (the same bytes either way).
  return table.kernels.emplace(key, std::move(kernel)).first->second;
}

}  // namespace tensordiag::runtime
