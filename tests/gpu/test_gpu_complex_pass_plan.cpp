// group_pass's plan for wide complex tensors (codegen/kernel_plan.cpp, wide_complex_pass: N >= 4
// from 256 MB; R = 4 or more, tiles of at most 512 threads, blocks of 128, a register bound of 96 or
// 128). A plan moves the same entries through other threads and registers, and every entry still
// takes the modes in the same order: so the core and factors are those of the old plan (R = 3,
// tiles up to 1024 threads, asked through the tuning variables) bit for bit. On small tensors the
// same settings, asked, are also held to the CPU engine (1e-12, complex64 1e-4). A tile that missed
// or doubled an entry, or mixed it with the wrong partner, would differ from both.
#include <doctest/doctest.h>

#include <algorithm>
#include <complex>
#include <map>
#include <optional>
#include <string>
#include <type_traits>

#include "fixed_sweeps_agreement.hpp"
#include "random_tensor.hpp"
#include "scoped_environment.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize_complex.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::check_within;
using tensordiag::testing::fixed_round_robin;
using tensordiag::testing::random_tensor;

namespace {

using Settings = std::map<std::string, std::optional<std::string>>;

template <class T>
Result<T> run(const HostTensor<T>& tensor, Backend backend, const Settings& settings) {
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_CHUNKED_PASS", "0");
  for (const auto& [name, value] : settings) environment.set(name, value);
  return diagonalize_complex(tensor, fixed_round_robin(backend, 3));
}

// The run under `plan` against the run under `other` (bit for bit) and, where `against_cpu`, the
// CPU engine.
template <class T>
void check_plans(int order, int size, Layout layout, unsigned seed, const Settings& plan, const Settings& other,
                 bool against_cpu) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(sizeof(T));
  CAPTURE(static_cast<int>(layout));
  const HostTensor<T> tensor = random_tensor<T>(order, size, seed, layout);
  const Result<T> planned = run(tensor, Backend::cuda, plan);
  const Result<T> old = run(tensor, Backend::cuda, other);
  REQUIRE(planned.engine == "cuda");
  REQUIRE(std::find(planned.kernels.begin(), planned.kernels.end(), "group_pass") != planned.kernels.end());
  REQUIRE(planned.sweeps() == old.sweeps());
  CHECK(planned.core.values() == old.core.values());
  for (std::size_t n = 0; n < old.factors.size(); ++n) {
    CAPTURE(n);
    CHECK(planned.factors[n].data == old.factors[n].data);
  }
  if (!against_cpu) return;
  check_within(planned, run(tensor, Backend::cpu, {}), std::is_same_v<T, std::complex<float>> ? 1e-4 : 1e-12);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("group_pass's plan for wide complex tensors: the old plan's core and factors bit for bit, the CPU's "
            "within rounding") {
    if (!cuda_device()) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    // Small tensors (the old plan by default): R = 4 and a register bound asked, against the
    // default and the CPU (11 x 4: a tile of 256 threads against 512).
    const Settings wide_asked{{"TENSORDIAG_PASS_REGISTER_BITS", "4"}, {"TENSORDIAG_PASS_MAX_REGISTERS", "96"}};
    check_plans<std::complex<float>>(11, 4, Layout::c_order, 71, wide_asked, {}, true);
    check_plans<std::complex<double>>(11, 4, Layout::fortran_order, 72, wide_asked, {}, true);
    // From 256 MB the plan's own: against R = 3 (complex128 8 x 8: two tiles of 64 a block against
    // one of 128) and against tiles of 1024 threads (complex128 12 x 4: R = 4 at 512 threads against
    // R = 3 at 1024; complex64 13 x 4: R raised to 5 for 512 threads against R = 4 at 1024).
    const Settings three_bits{{"TENSORDIAG_PASS_REGISTER_BITS", "3"}, {"TENSORDIAG_PASS_MAX_REGISTERS", "0"}};
    const Settings tiles_of_1024{{"TENSORDIAG_PASS_BLOCK_SIZE", "1024"},
                                 {"TENSORDIAG_PASS_REGISTER_BITS", "3"},
                                 {"TENSORDIAG_PASS_MAX_REGISTERS", "0"}};
    check_plans<std::complex<double>>(8, 8, Layout::c_order, 73, {}, three_bits, false);
    check_plans<std::complex<double>>(12, 4, Layout::fortran_order, 74, {}, tiles_of_1024, false);
    check_plans<std::complex<float>>(13, 4, Layout::c_order, 75, {}, tiles_of_1024, false);
  }
}
