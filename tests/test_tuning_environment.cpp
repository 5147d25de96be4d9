// runtime/engines/tuning_environment.hpp: the tuning variables reach every GPU spec where the
// engines make it (kernel_spec_for), field by field; a variable that is unset keeps the caller's
// value. (Each variable's accepted and refused texts: test_xor_schedule.cpp.)
#include <doctest/doctest.h>

#include <optional>
#include <vector>

#include "codegen/builtin_rules.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/tuning_environment.hpp"
#include "scoped_environment.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

constexpr const char* kVariables[] = {"TENSORDIAG_SUBSPACE_BITS",      "TENSORDIAG_SUBSPACE_ANGLE_WARPS",
                                      "TENSORDIAG_PIVOT_GRAM_SIZE",    "TENSORDIAG_PASS_BLOCK_SIZE",
                                      "TENSORDIAG_PASS_WARP_SHUFFLES", "TENSORDIAG_PASS_MAX_REGISTERS",
                                      "TENSORDIAG_PACKED_MAX_ORBIT",   "TENSORDIAG_CHUNK_TILE_BYTES",
                                      "TENSORDIAG_SUBSPACE_MIRRORED",  "TENSORDIAG_SUBSPACE_FUSED",
                                      "TENSORDIAG_PIPELINED_GROUPS",   "TENSORDIAG_PASS_INNER_MODES",
                                      "TENSORDIAG_PASS_REGISTER_BITS", "TENSORDIAG_PASS_FMA"};

// The fourteen fields the variables name, in kVariables's order.
std::vector<long long> tuned_fields(const codegen::Tuning& t) {
  return {t.subspace_bits,      t.subspace_angle_warps, t.pivot_gram_size,  t.pass_block_size,
          t.pass_warp_shuffles, t.pass_max_registers,   t.packed_max_orbit, t.chunk_tile_bytes,
          t.subspace_mirrored,  t.subspace_fused,       t.pipelined_groups, t.pass_inner_modes,
          t.pass_register_bits, t.pass_fma};
}

codegen::Tuning spec_tuning(codegen::KernelKind kind) {
  return kernel_spec_for<float>(4, 8, dsl::Layout::c_order, codegen::lower_builtin_rule("max_diag"), kind).tuning;
}

}  // namespace

TEST_CASE("kernel_spec_for: every tuning variable set in the environment reaches the spec, whatever its kind, and "
          "unset ones leave the defaults") {
  test::ScopedEnvironment environment;
  for (const char* name : kVariables) environment.set(name, std::nullopt);
  const std::vector<long long> defaults = tuned_fields(codegen::Tuning{});
  for (const codegen::KernelKind kind : {codegen::KernelKind::group_pass, codegen::KernelKind::lambda_norm,
                                         codegen::KernelKind::subspace_apply, codegen::KernelKind::chunk_pass})
    CHECK(tuned_fields(spec_tuning(kind)) == defaults);

  // A value other than the default for each (within its range).
  const char* texts[] = {"2", "4", "32", "128", "0", "64", "16", "49152", "1", "2", "0", "2", "4", "1"};
  const std::vector<long long> set{2, 4, 32, 128, 0, 64, 16, 49152, 1, 2, 0, 2, 4, 1};
  for (std::size_t i = 0; i < set.size(); ++i) REQUIRE(set[i] != defaults[i]);
  for (std::size_t i = 0; i < set.size(); ++i) environment.set(kVariables[i], texts[i]);
  for (const codegen::KernelKind kind : {codegen::KernelKind::group_pass, codegen::KernelKind::lambda_norm,
                                         codegen::KernelKind::subspace_apply, codegen::KernelKind::chunk_pass}) {
    CAPTURE(static_cast<int>(kind));
    CHECK(tuned_fields(spec_tuning(kind)) == set);
  }
}

TEST_CASE("tuning_from_environment: a set variable replaces its field, an unset one keeps the caller's value") {
  test::ScopedEnvironment environment;
  for (const char* name : kVariables) environment.set(name, std::nullopt);
  codegen::Tuning asked;
  asked.subspace_bits = 3;
  asked.subspace_angle_warps = 8;
  asked.pivot_gram_size = 0;
  asked.pass_block_size = 256;
  asked.pass_warp_shuffles = 1;
  asked.pass_max_registers = 128;
  asked.packed_max_orbit = 0;
  asked.chunk_tile_bytes = 0;
  asked.subspace_mirrored = 0;
  asked.pass_inner_modes = 1;
  asked.pass_register_bits = 5;
  asked.pass_fma = 0;
  const std::vector<long long> kept = tuned_fields(asked);
  CHECK(tuned_fields(tuning_from_environment(asked)) == kept);
  // Each variable alone replaces its own field and no other.
  const char* texts[] = {"2", "4", "32", "128", "0", "64", "16", "49152", "1", "2", "0", "2", "4", "1"};
  const std::vector<long long> set{2, 4, 32, 128, 0, 64, 16, 49152, 1, 2, 0, 2, 4, 1};
  for (std::size_t i = 0; i < set.size(); ++i) {
    CAPTURE(kVariables[i]);
    environment.set(kVariables[i], texts[i]);
    std::vector<long long> expected = kept;
    expected[i] = set[i];
    CHECK(tuned_fields(tuning_from_environment(asked)) == expected);
    environment.set(kVariables[i], std::nullopt);
  }
}
