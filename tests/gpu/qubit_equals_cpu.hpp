#pragma once
// The qubit path's three sweeps (cuda_qubit, called directly) against a CPU engine's on the same
// input, in float64 or complex128: the same sweeps, core, every factor and figures to 1e-10, and
// the kernels the path loads. Shared by the real and the complex qubit tests.
#include <doctest/doctest.h>

#include <cmath>
#include <string>
#include <vector>

#include "relative_difference.hpp"
#include "runtime/algorithm/run_result.hpp"

namespace tensordiag::testing {

template <class T>
void check_qubit_run_equals_cpu(const runtime::Result<T>& gpu, const runtime::Result<T>& cpu) {
  REQUIRE(gpu.sweeps() == 3);
  REQUIRE(cpu.sweeps() == 3);
  CHECK(relative_difference(gpu.core.values(), cpu.core.values()) <= 1e-10);
  for (std::size_t n = 0; n < cpu.factors.size(); ++n) {
    CAPTURE(n);
    CHECK(relative_difference(gpu.factors[n].data, cpu.factors[n].data) <= 1e-10);
  }
  for (std::size_t k = 0; k < cpu.history.size(); ++k) {
    CAPTURE(k);
    CHECK(std::abs(gpu.history[k].off_rel - cpu.history[k].off_rel) <= 1e-9);
    CHECK(std::abs(gpu.history[k].diag_norm2 - cpu.history[k].diag_norm2) <= 1e-10 * cpu.history[k].diag_norm2);
    CHECK(std::abs(gpu.history[k].trace - cpu.history[k].trace) <= 1e-10 * std::sqrt(cpu.history[k].diag_norm2));
  }
  CHECK(gpu.kernels == std::vector<std::string>{"qubit_sweep", "chunk_pass", "off_norm"});
}

}  // namespace tensordiag::testing
