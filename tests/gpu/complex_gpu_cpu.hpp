#pragma once
// A complex tensor's GPU run against the CPU complex engine on the same input and schedule (issue
// 11, item 3): the options the complex GPU tests run with, and the comparison they share.
#include <doctest/doctest.h>

#include <complex>
#include <cmath>
#include <cstddef>

#include "relative_difference.hpp"
#include "gpu/test_shape.hpp"
#include "runtime/diagonalize_complex.hpp"

namespace tensordiag::testing {

inline runtime::Options on(runtime::Backend backend) {
  runtime::Options options;
  options.backend = backend;
  options.verify = true;
  options.max_sweeps = 40;
  return options;
}

// On the GPU for exactly `sweeps` sweeps: no tolerance or stall stop.
inline runtime::Options fixed_sweeps(int sweeps) {
  runtime::Options options = on(runtime::Backend::cuda);
  options.max_sweeps = sweeps;
  options.tol = 0.0;
  options.stall_tol = 0.0;
  return options;
}

// The GPU run against the CPU complex engine with the same options and the schedule the GPU ran
// (its XOR subspace passes are the CPU's XOR groups in the same order): the same sweeps, core and
// U_1 within `bound` relative, off_rel within 10 bound, ||diag C||^2 never down. Returns the GPU
// result.
template <class R>
runtime::Result<std::complex<R>> check_gpu_equals_cpu(const runtime::HostTensor<std::complex<R>>& tensor,
                                                      runtime::Options options, double bound) {
  options.backend = runtime::Backend::cuda;
  const runtime::Result<std::complex<R>> gpu = runtime::diagonalize_complex(tensor, options);
  options.backend = runtime::Backend::cpu;
  if (gpu.schedule == "xor") options.schedule = runtime::SweepSchedule::xor_subspaces;
  const runtime::Result<std::complex<R>> cpu = runtime::diagonalize_complex(tensor, options);
  REQUIRE(gpu.backend == runtime::Backend::cuda);
  CHECK((gpu.engine == "cuda" || gpu.engine == "cuda_one_block" || gpu.engine == "cuda_qubit"));
  CHECK(cpu.engine == "cpu_complex");
  CHECK(gpu.schedule == cpu.schedule);
  REQUIRE(gpu.sweeps() == cpu.sweeps());
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= bound);
  for (std::size_t n = 0; n < gpu.factors.size(); ++n) {
    CAPTURE(n);
    CHECK(relative_difference(gpu.factors[n].data, cpu.factors[n].data) <= bound);
  }
  for (std::size_t k = 0; k < cpu.history.size(); ++k)
    CHECK(std::abs(gpu.history[k].off_rel - cpu.history[k].off_rel) <= 10 * bound);
  for (std::size_t k = 1; k < gpu.history.size(); ++k)
    CHECK(gpu.history[k].diag_norm2 >= gpu.history[k - 1].diag_norm2 * (1 - 10 * bound));
  // The diagonal real and >= 0 (the phases fixed on the host, as on the CPU).
  for (int i = 0; i < tensor.size(); ++i) {
    const std::complex<R> c = gpu.core.data()[i * gpu.core.diagonal_stride()];
    CHECK(c.imag() == R(0));
    CHECK(c.real() >= R(0));
  }
  return gpu;
}

}  // namespace tensordiag::testing
