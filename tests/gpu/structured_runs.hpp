#pragma once
// The options of the structured GPU tests (structure symmetric and skew against the CPU engines):
// a shape with its layout, a structure on a backend, and a fixed number of sweeps on the GPU.
#include "gpu/test_shape.hpp"
#include "runtime/diagonalize.hpp"

namespace tensordiag::testing {

inline runtime::Options structured_on(runtime::Structure structure, runtime::Backend backend) {
  runtime::Options options;
  options.structure = structure;
  options.backend = backend;
  return options;
}

// Exactly `sweeps` sweeps of `structure` on the GPU (no tolerance or stall stop).
inline runtime::Options fixed_sweeps(runtime::Structure structure, int sweeps) {
  runtime::Options options = structured_on(structure, runtime::Backend::cuda);
  options.max_sweeps = sweeps;
  options.tol = 1e-300;
  options.stall_tol = 0;
  return options;
}

}  // namespace tensordiag::testing
