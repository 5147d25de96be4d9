// group_pass's plan for wide complex tensors (codegen/kernel_plan.cpp, wide_complex_pass: N >= 4
// from 2^22 entries; R = 4 or more, tiles of at most 512 threads, blocks of 128, a register bound
// of 96 or 128). A plan moves the same entries through other threads and registers, and every
// entry still takes the modes in the same order: so the core and factors are those of the old plan
// (R = 3, tiles up to 1024 threads, asked through the tuning variables) bit for bit, and within a
// few roundings of the CPU engine's (1e-12, complex64 1e-4). A tile that missed or doubled an
// entry, or mixed it with the wrong partner, would differ from both.
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

// The default plan against `old_plan` (bit for bit) and, where `against_cpu`, the CPU engine.
template <class T>
void check_wide_plan(int order, int size, Layout layout, unsigned seed, const Settings& old_plan, bool against_cpu) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(sizeof(T));
  CAPTURE(static_cast<int>(layout));
  const HostTensor<T> tensor = random_tensor<T>(order, size, seed, layout);
  const Result<T> planned = run(tensor, Backend::cuda, {});
  const Result<T> old = run(tensor, Backend::cuda, old_plan);
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
    // R = 3 as before (11 x 4: a tile of 512 threads, 2 blocks of 256 a multiprocessor before: the
    // old bound of 64 for complex64, none for complex128).
    const Settings old_complex64{{"TENSORDIAG_PASS_REGISTER_BITS", "3"}, {"TENSORDIAG_PASS_MAX_REGISTERS", "64"}};
    const Settings old_complex128{{"TENSORDIAG_PASS_REGISTER_BITS", "3"}, {"TENSORDIAG_PASS_MAX_REGISTERS", "0"}};
    check_wide_plan<std::complex<float>>(11, 4, Layout::c_order, 71, old_complex64, true);
    check_wide_plan<std::complex<double>>(11, 4, Layout::fortran_order, 72, old_complex128, true);
    check_wide_plan<std::complex<double>>(8, 8, Layout::c_order, 73, old_complex128, false);  // two tiles of 64 a block
    // 12 x 4: R = 4 at 512 threads now, R = 3 at 1024 before; 13 x 4: R raised to 5 for a tile of
    // 512 threads, R raised to 4 for 1024 before.
    const Settings tiles_of_1024{{"TENSORDIAG_PASS_BLOCK_SIZE", "1024"},
                                 {"TENSORDIAG_PASS_REGISTER_BITS", "3"},
                                 {"TENSORDIAG_PASS_MAX_REGISTERS", "0"}};
    check_wide_plan<std::complex<float>>(12, 4, Layout::fortran_order, 74, tiles_of_1024, false);
    check_wide_plan<std::complex<float>>(13, 4, Layout::c_order, 75, tiles_of_1024, false);
  }
}
