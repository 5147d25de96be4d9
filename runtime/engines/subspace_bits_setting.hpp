#pragma once
// TENSORDIAG_SUBSPACE_BITS=k asks the GPU's XOR subspace passes for cells of 2^k indices a mode
// (2..10; bench/gpu_bench --schedules measures each). Unset, empty or 0: the plan's choice
// (codegen Tuning::subspace_bits). Any other value is a user_error naming it.
namespace tensordiag::runtime {

int subspace_bits_from_environment();

}  // namespace tensordiag::runtime
