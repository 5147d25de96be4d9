// runtime/engines/spec_kernels.hpp: the process's kernels by spec. The fingerprint must tell apart
// any two specs whose sources differ (else a run would get another shape's kernel), and a spec asked
// again must get the kernel it got before without generating its source or asking the cache.
#include <doctest/doctest.h>

#include <functional>
#include <set>
#include <string>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "codegen/kernel_source.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/engines/spec_kernels.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

codegen::KernelSpec base_spec() { return codegen::make_kernel_spec("group_pass", 4, 6, "float32", "C", "max_diag"); }

}  // namespace

TEST_CASE("spec kernels: a change to any field of the spec changes the fingerprint") {
  const codegen::KernelSpec base = base_spec();
  // One edit per field that shapes a source.
  const std::vector<std::function<void(codegen::KernelSpec&)>> edits = {
      [](auto& s) { s.kind = codegen::KernelKind::pivot_angles; },
      [](auto& s) { s.order = 5; },
      [](auto& s) { s.size = 7; },
      [](auto& s) { s.dtype = codegen::ScalarType::float64; },
      [](auto& s) { s.layout = dsl::Layout::fortran_order; },
      [](auto& s) { s.symmetric = true; },
      [](auto& s) { s.rule = codegen::make_kernel_spec("group_pass", 4, 6, "float32", "C", "max_trace").rule; },
      [](auto& s) { s.rule.description += " "; },
      [](auto& s) { s.rule.rotation += " "; },
      [](auto& s) { s.rule.name += "x"; },
      [](auto& s) { s.rule.stalls_on = dsl::StallFigure::trace; },
      [](auto& s) { s.rule.form = dsl::RotationForm::explicit_angle; },
      [](auto& s) { s.rule.hermitian_terms.clear(); },
      [](auto& s) { s.tuning.block_size = 128; },
      [](auto& s) { s.tuning.pass_block_size = 256; },
      [](auto& s) { s.tuning.pass_register_bits = 3; },
      [](auto& s) { s.tuning.pass_warp_shuffles = 0; },
      [](auto& s) { s.tuning.pass_max_registers = 128; },
      [](auto& s) { s.tuning.shared_bytes = 32 * 1024; },
      [](auto& s) { s.tuning.partial_blocks = 512; },
      [](auto& s) { s.tuning.max_grid_blocks = 1024; },
      [](auto& s) { s.tuning.subspace_bits = 2; },
      [](auto& s) { s.tuning.subspace_shared_bytes = 64 * 1024; },
      [](auto& s) { s.tuning.pivot_gram_size = 0; },
  };
  std::set<std::string> seen{spec_fingerprint(base)};
  CHECK(spec_fingerprint(base_spec()) == spec_fingerprint(base));
  for (std::size_t i = 0; i < edits.size(); ++i) {
    codegen::KernelSpec edited = base;
    edits[i](edited);
    CAPTURE(i);
    CHECK(seen.insert(spec_fingerprint(edited)).second);
  }
  CHECK(seen.size() == edits.size() + 1);
}

TEST_CASE("spec kernels: a spec asked again gets the same kernel, without the cache, another spec its own") {
  const codegen::KernelSpec spec = codegen::make_kernel_spec("off_norm", 3, 5, "float64", "F", "max_diag");
  bool compiled = true;
  const auto first = kernel_for_spec(spec, "sm_90", &compiled);
  REQUIRE(first);
  CHECK(first->key == kernel_cache_key(codegen::kernel_source(spec), codegen::program_name(spec),
                                       nvrtc_options({}, "sm_90"), "sm_90"));
  const std::size_t compilations = default_kernel_cache().compilations();
  const auto again = kernel_for_spec(spec, "sm_90", &compiled);
  CHECK(again.get() == first.get());
  CHECK_FALSE(compiled);
  CHECK(known_kernel_for_spec(spec, "sm_90").get() == first.get());
  CHECK(default_kernel_cache().compilations() == compilations);
  // Another arch or another size is another kernel.
  CHECK(known_kernel_for_spec(spec, "sm_80") == nullptr);
  codegen::KernelSpec other = spec;
  other.size = 6;
  const auto second = kernel_for_spec(other, "sm_90");
  CHECK(second.get() != first.get());
  CHECK(second->key != first->key);
}
