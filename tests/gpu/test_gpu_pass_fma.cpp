// The passes' mixing by fused multiply-adds (TENSORDIAG_PASS_FMA, codegen Tuning::pass_fma;
// kernels_templates/fused_mix.cuh): each entry's c x + t y rounded once fewer than the CPU rounds
// it. So the run is not the CPU engine's bit for bit, but within a few roundings of it: 3 sweeps of
// the round robin on the general engine, through group_pass and through chunk_pass, agree with the
// CPU to 1e-12 (complex64 to 1e-4; core, factors, off_rel), real and complex, even and odd N, both
// layouts; the fused run differs from the separate one (else the setting would not reach the
// kernel); and unset, the complex dtypes run fused and the real ones separate, bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <complex>
#include <optional>
#include <string>
#include <type_traits>

#include "fixed_sweeps_agreement.hpp"
#include "random_tensor.hpp"
#include "scoped_environment.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"
#include "runtime/diagonalize_complex.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::check_within;
using tensordiag::testing::fixed_round_robin;
using tensordiag::testing::random_tensor;

namespace {

template <class T>
Result<T> run(const HostTensor<T>& tensor, Backend backend, std::optional<std::string> fma, bool chunked) {
  test::ScopedEnvironment environment;
  environment.set("TENSORDIAG_PASS_FMA", fma);
  environment.set("TENSORDIAG_CHUNKED_PASS", chunked ? "1" : "0");
  const Options options = fixed_round_robin(backend, 3);
  if constexpr (std::is_floating_point_v<T>) return diagonalize(tensor, options);
  else return diagonalize_complex(tensor, options);
}

template <class T>
void check_fused_pass(int order, int size, Layout layout, unsigned seed, bool chunked = false) {
  CAPTURE(order);
  CAPTURE(size);
  CAPTURE(sizeof(T));
  CAPTURE(static_cast<int>(layout));
  CAPTURE(chunked);
  const HostTensor<T> tensor = random_tensor<T>(order, size, seed, layout);
  const Result<T> fused = run(tensor, Backend::cuda, "1", chunked);
  const Result<T> unfused = run(tensor, Backend::cuda, "0", chunked);
  const Result<T> by_default = run(tensor, Backend::cuda, std::nullopt, chunked);
  const Result<T> cpu = run(tensor, Backend::cpu, std::nullopt, chunked);
  REQUIRE(fused.engine == "cuda");
  const char* pass = chunked ? "chunk_pass" : "group_pass";
  REQUIRE(std::find(fused.kernels.begin(), fused.kernels.end(), pass) != fused.kernels.end());
  // complex64: float's rounding, as the other complex64 GPU cases against the CPU.
  check_within(fused, cpu, std::is_same_v<T, std::complex<float>> ? 1e-4 : 1e-12);
  // The fused kernel is another kernel: its core differs from the separate one's in some entry.
  CHECK(fused.core.values() != unfused.core.values());
  // Unset: fused for a complex dtype, separate (the CPU's arithmetic) for a real one.
  const Result<T>& expected = std::is_floating_point_v<T> ? unfused : fused;
  CHECK(by_default.core.values() == expected.core.values());
  for (std::size_t n = 0; n < cpu.factors.size(); ++n) CHECK(by_default.factors[n].data == expected.factors[n].data);
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("the passes' fused multiply-adds: within 1e-12 of the CPU engine, real and complex, not the separate "
            "products' results, and the default for complex dtypes") {
    if (!cuda_device()) {
      MESSAGE("skipped: no CUDA device");
      return;
    }
    check_fused_pass<double>(5, 8, Layout::c_order, 61);
    check_fused_pass<double>(4, 9, Layout::fortran_order, 62);   // odd N: the unpaired index
    check_fused_pass<double>(9, 4, Layout::c_order, 63);         // thread modes and exchanges
    check_fused_pass<std::complex<double>>(5, 6, Layout::c_order, 64);
    check_fused_pass<std::complex<double>>(4, 7, Layout::fortran_order, 65);
    check_fused_pass<std::complex<float>>(6, 6, Layout::c_order, 66);
    // chunk_pass: tiled (N = 3, both layouts) and the register form (N = 2).
    check_fused_pass<double>(9, 3, Layout::c_order, 67, true);
    check_fused_pass<std::complex<double>>(7, 3, Layout::fortran_order, 68, true);
    check_fused_pass<std::complex<double>>(12, 2, Layout::c_order, 69, true);  // over the one-block engine's 1024 entries
  }
}
