// The general GPU engine's pass at odd N (runtime/engines/gpu_kernels.cpp): chunk_pass where
// group_pass's tiles would hold 20 times the tensor's entries in slots or more (N = 3 from D = 12,
// the crossover measured in bench/results/odd_pass_h100_2026-11-27.md), group_pass below it, at
// even N and wherever else it plans; TENSORDIAG_CHUNKED_PASS=1 takes chunk_pass everywhere, =0
// group_pass wherever it plans (chunk_pass still where it cannot). Codegen's plans only: no GPU.
#include <doctest/doctest.h>

#include <optional>
#include <string>

#include "codegen/kernel_spec.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/engines/gpu_kernels.hpp"
#include "runtime/engines/tuning_environment.hpp"
#include "scoped_environment.hpp"

using namespace tensordiag;
using codegen::KernelKind;

namespace {

KernelKind pass_of(int order, int size, const char* dtype, runtime::KernelSet set = runtime::KernelSet::general) {
  const runtime::GeneralKinds kinds =
      runtime::general_kinds(codegen::make_kernel_spec("group_pass", order, size, dtype, "C", "max_diag"), set);
  REQUIRE(kinds.refusal.empty());
  return kinds.pass;
}

}  // namespace

TEST_CASE("the general GPU engine takes chunk_pass at odd N where group_pass's slots would mostly be empty") {
  tensordiag::test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_CHUNKED_PASS", std::nullopt);
  for (const char* dtype : {"float32", "float64", "complex64", "complex128"}) {
    CAPTURE(std::string(dtype));
    // N = 3: (4/3)^(D-1) is 17.8 at D = 11 and 23.7 at D = 12.
    CHECK(pass_of(11, 3, dtype) == KernelKind::group_pass);
    CHECK(pass_of(12, 3, dtype) == KernelKind::chunk_pass);
    CHECK(pass_of(13, 3, dtype) == KernelKind::chunk_pass);
    // Larger odd N and even N keep group_pass where it plans.
    CHECK(pass_of(9, 5, dtype) == KernelKind::group_pass);
    CHECK(pass_of(7, 7, dtype) == KernelKind::group_pass);
    CHECK(pass_of(12, 4, dtype) == KernelKind::group_pass);
  }
  // Structure symmetric takes the same pass.
  CHECK(pass_of(12, 3, "float64", runtime::KernelSet::general_symmetric) == KernelKind::chunk_pass);
  CHECK(pass_of(11, 3, "float64", runtime::KernelSet::general_symmetric) == KernelKind::group_pass);
  // N = 2 from D = 17 (float32): group_pass's tile is over its registers, whatever the setting.
  CHECK(pass_of(17, 2, "float32") == KernelKind::chunk_pass);
  environment.set("TENSORDIAG_CHUNKED_PASS", "0");
  CHECK(pass_of(13, 3, "float32") == KernelKind::group_pass);
  CHECK(pass_of(17, 2, "float32") == KernelKind::chunk_pass);
  environment.set("TENSORDIAG_CHUNKED_PASS", "1");
  CHECK(pass_of(11, 3, "float32") == KernelKind::chunk_pass);
  CHECK(pass_of(6, 8, "float64") == KernelKind::chunk_pass);
  environment.set("TENSORDIAG_CHUNKED_PASS", "2");
  CHECK_THROWS_WITH_AS(pass_of(6, 8, "float64"), "TENSORDIAG_CHUNKED_PASS must be 0 or 1, not '2'", user_error);
}
