#pragma once
// How each kernel kind is specialized for a spec: the fragments its template builds on, the
// values of its placeholders (block sizes, tile geometry, all compile-time constants of the
// source), and the kernels it defines with their launch shapes. The decisions that depend on the
// shape -- how many warps fit, how large an orbit tile is, whether a tensor fits in one block --
// are made here, on the host, and raise codegen_error when a kind cannot serve the spec.
#include <string>
#include <string_view>
#include <vector>

#include "codegen/kernel_spec.hpp"
#include "codegen/template_filler.hpp"

namespace tensordiag::codegen {

// One extern "C" __global__ function of a generated source and how to launch it.
struct KernelEntry {
  std::string name;        // the symbol: the kind's own name or a fixed variant of it
  int block_threads;       // blockDim.x; the kernel is compiled for exactly this (__launch_bounds__)
  long long grid_blocks;   // gridDim.x; for per_tensor kernels, per tensor of the batch
  bool per_tensor = false; // batch kernels: launch batch_size * grid_blocks blocks
};

struct KernelPlan {
  std::vector<std::string_view> fragments;  // embedded kernels_templates/*.cuh, in source order
  bool uses_rule = false;                   // the template calls rule_rotation
  Substitutions values;                     // the placeholders of kernels_templates/<kind>.cu
  std::vector<KernelEntry> entries;
};

// Throws codegen_error when the kind cannot serve the spec (a tensor too large for one block's
// shared memory, a pivot subtensor too large for it).
KernelPlan plan_kernel(const KernelSpec& spec);

// The most Lanczos steps lambda_norm takes for size N: min(N, 128). Its `basis` workspace holds
// lambda_norm_steps(N) + 1 vectors of N doubles.
int lambda_norm_steps(int size);

// The kernels the source for `spec` defines, with their launch shapes.
std::vector<KernelEntry> kernel_entries(const KernelSpec& spec);

}  // namespace tensordiag::codegen
