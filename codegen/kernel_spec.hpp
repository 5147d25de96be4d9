#pragma once
// What to generate: a kernel kind specialized for one shape, dtype, layout and rule, with tuning
// parameters. Every field becomes a compile-time constant of the generated source.
#include <string>
#include <string_view>
#include <vector>

#include "codegen/codegen_error.hpp"
#include "codegen/lowered_rule.hpp"
#include "codegen/scalar_type.hpp"
#include "dsl/layout.hpp"

namespace tensordiag::codegen {

// The kernel kinds, one template each (kernels_templates/<kind>.cu); see kernel_source.hpp for
// what each source defines.
enum class KernelKind {
  pivot_angles,
  pivot_angles_split,
  pivot_check_gather,
  group_pass,
  chunk_pass,
  off_norm,
  mode_product,
  multi_mode_product,
  small_tensor,
  lambda_norm,
  qubit_sweep,
  subspace_angles,
  subspace_apply,
  symmetric_angles,
  skew_angles,
  packed_symmetric,
};

std::string_view to_string(KernelKind kind);
KernelKind parse_kernel_kind(std::string_view name);  // throws codegen_error naming the kinds
std::vector<std::string> kernel_kinds();               // every kind's name, in the enum's order

std::string_view to_string(dsl::Layout layout);      // "C" | "F", as runtime::to_string
dsl::Layout parse_layout(std::string_view name);      // throws codegen_error for other names

struct Tuning {
  int block_size = 256;                // threads per block at most: a multiple of 32, 32..1024
  // group_pass's threads per block (whole tiles, rounded up to a warp); 0 = 512 for real dtypes:
  // within 1% of the best of the H100 sweep for every shape but one, and 9 points of copy
  // bandwidth above 256 threads at D = 3, N = 256 (bench/results/gpu_h100_2026-11-22.md); 256 for
  // complex ones (bench/results/complex_gpu_h100_2026-11-25.md); 128 for tensors of at most 2^21
  // entries with N even, 6 to 16 (kernel_plan.cpp: small_pass_blocks), and for complex tensors of
  // N >= 4 from 256 MB (kernel_plan.cpp: wide_complex_pass). Also caps a tile's threads
  // (0: 1024; 512 for wide_complex_pass's tensors).
  int pass_block_size = 0;
  // group_pass: outer modes mixed in registers at most (2^bits registers), 1..6; 0 = the plan's
  // (kernel_plan.cpp, default_register_bits): 6 for float32 N = 4 and 8 from 2^26 entries, else 5
  // for real dtypes (6 bits moved 0.88 of copy bandwidth at D = 9, N = 8 against 0.78 with 5, but
  // NVRTC took 0.95 s over that one kernel against 0.30 s), 3 for complex ones (complex64 at D = 9,
  // N = 8: 0.54 against 0.43 with 5, which took 255 registers; complex128 0.73 against 0.50 with 4),
  // 4 for complex tensors of N >= 4 from 256 MB under a register bound that holds them
  // (kernel_plan.cpp: wide_complex_pass).
  int pass_register_bits = 0;
  // group_pass: the exchanged modes whose partner thread is a lane of the same warp go by warp
  // shuffles (1) or through shared memory as the others (0); -1 = the default, shuffles (measured:
  // kernel_plan.cpp, plan_group_pass).
  int pass_warp_shuffles = -1;
  // group_pass: registers a thread at most, through __launch_bounds__'s blocks a multiprocessor
  // (64K registers / (block x this)); 0 = no bound beyond the block's size (__launch_bounds__ with
  // the block alone: NVRTC then keeps fewer registers than with a bound of one block); -1 = the
  // default, 128 for float64, 64 for complex64 (96 from 256 MB with N >= 4), 128 for complex128
  // from 256 MB with N >= 4, none for the others (measured: kernel_plan.cpp, plan_group_pass
  // and wide_complex_pass).
  int pass_max_registers = -1;
  // group_pass: the innermost memory modes a tile takes whole (its rows runs of N^modes entries),
  // at least 1, at most D - 2 taken (1 at D = 2); -1 = the default (measured: kernel_plan.cpp,
  // group_pass_inner_modes).
  int pass_inner_modes = -1;
  // group_pass and chunk_pass: each entry's c x + t y as a product and a fused multiply-add (1)
  // rather than two products and a sum (0); a complex entry's as two products and four fused
  // multiply-adds instead of six products and four sums (kernels_templates/fused_mix.cuh). Not bit
  // for bit the CPU engine's (one rounding fewer an entry and mode); -1 = the default, 1 for complex
  // dtypes and 0 for real ones (measured: kernel_plan.cpp, pass_fma).
  int pass_fma = -1;
  int shared_bytes = 48 * 1024;        // static shared memory per block at most (CUDA's limit without opt-in)
  int partial_blocks = 1024;           // off_norm: blocks of the first reduction stage at most
  long long max_grid_blocks = 65536;   // grid-stride kernels: the grid suggested at most
  // subspace_apply: the XOR subspace dimension k (cells of 2^k indices a mode), 2..10; 0 = 3, or 2
  // where a tile of cells of 8 passes subspace_shared_bytes.
  int subspace_bits = 0;
  // subspace_angles and subspace_apply: shared memory per block at most, with the opt-in above
  // 48 KB (dynamic shared memory). 100 KB keeps two blocks on an H100 multiprocessor.
  int subspace_shared_bytes = 100 * 1024;
  // subspace_apply under structure symmetric: 1 = mirrored tiles (only the tiles of non-decreasing
  // outer cosets rotated, each written to every arrangement of its cosets;
  // kernels_templates/subspace_apply.cu, MIRRORED), 0 = every tile rotated (as the general apply);
  // -1 = the default (measured: kernel_plan.cpp, subspace_mirrored).
  int subspace_mirrored = -1;
  // subspace_apply: which outer memory modes' products go between registers and global memory
  // instead of through the tile (kernels_templates/subspace_apply.cu, FUSED): 0 none, 1 the last's
  // (with the store), 2 the first's too (with the load); -1 = the default, 1 from 2^24 entries,
  // else 0 (measured: kernel_plan.cpp, subspace_fused). Mirrored tiles take 0.
  int subspace_fused = -1;
  // subspace_angles: warps a block at most, 1..32; 0 = 8 for cells of up to 1024 entries, else 32
  // (measured: kernel_plan.cpp, plan_subspace_angles).
  int subspace_angle_warps = 0;
  // small_tensor and subspace_angles: a group's rotations beside the next group's angles
  // (kernels_templates/pipelined_group_steps.cuh) where the block has room for a second tensor
  // buffer: 0 never, 1 both kinds at every order the pivot subtensor's register form takes
  // (D <= 5), -1 = the default, small_tensor at D = 3 (measured: kernel_plan.cpp, pipelined_groups).
  int pipelined_groups = -1;
  // lambda_norm: the power steps and the Cholesky test of the pivot check's norm (stages 2 and 3)
  // for Lambda's size M <= this (N, or 2N for a complex tensor), -1 = the default, 64 (measured
  // against 0, 32 and 128 on an H100: bench/results/pivot_gram_registers_h100_2026-11-28.md; at
  // M = 128 the test cost 2.2x the Lanczos norm it saved; with the blocked LDL^T test, on an H200,
  // D = 3, N = 128 still 463 against 235 ms: pivot_check_launches_h200_2026-11-29.md); at most 128,
  // the largest M whose Lambda the kernel holds in registers.
  int pivot_gram_size = -1;
  // packed_symmetric: packed_group (a group in one launch, a thread an orbit in local memory) where
  // a group's largest orbit holds at most this many entries, else packed_rotate (a launch a pair);
  // 0 = always packed_rotate; at most 4096; -1 = 16, from an H100 (float64, 10 sweeps,
  // bench/results/packed_gpu_h100_2026-11-26.md): packed_group was 2.3-23x faster where the
  // largest orbit held 8 or 16 entries (D = 3 and 4), packed_rotate 1.1-8.0x faster where it held
  // 36 to 576 (D = 6 to 10; only D = 12, N = 4, 49 entries, ran faster grouped: 0.67 against
  // 0.90 ms a sweep); 32 (D = 5) was not measured. (packed_rotate with 8 classes a thread; after
  // its launches took one class a thread, it beat packed_group at D = 4, N = 16 too, 0.77 against
  // 1.29 ms, but not at D = 4, N = 32 or D = 3.)
  int packed_max_orbit = -1;
  // chunk_pass (small N with large D, or N too large for group_pass's exchange row): the bytes of
  // the tile a block copies into shared memory (the chunk's modes whole, by a run of 128 bytes of
  // the modes after it; kernels_templates/chunk_pass.cu), which bound how many memory modes a
  // launch mixes; 0 = the register form (a thread's unit of 2^modes entries, up to 64 registers);
  // -1 = the default, measured in kernel_plan.cpp (plan_chunk_pass). Above 48 KB the tile takes
  // the opt-in dynamic shared memory; where not even one mode's tile fits, the register form runs.
  int chunk_tile_bytes = -1;
  // The shared memory a block may opt in to on the device (cudaDevAttrMaxSharedMemoryPerBlockOptin;
  // the GPU engine sets it, the default is an H100's 227 KB): chunk_pass keeps its tiles within it,
  // less 1 KB for its static shared memory (an A100 allows 163 KB, compute capability 7.5 64 KB),
  // and subspace_apply's asked-for cells theirs.
  int opt_in_shared_bytes = 227 * 1024;
};

struct KernelSpec {
  KernelKind kind;
  int order;  // D >= 3 (D = 2 for the kinds of a symmetric matrix: validate())
  int size;   // N >= 2
  ScalarType dtype;
  dsl::Layout layout;
  LoweredRule rule;
  Tuning tuning;
  // Structure symmetric (DESIGN.md section 7) for the kinds that find a group's angles themselves
  // in shared memory (small_tensor, subspace_angles): one rotation a pair, the same in every mode,
  // by dsl/symmetric_angle.hpp instead of the rule's per-mode micro-iterations; and for
  // subspace_apply: only the tiles of non-decreasing outer cosets are rotated, each written to every
  // arrangement of its cosets. Complex dtypes up to order 3.
  bool symmetric = false;
  // Structure skew for small_tensor (the one-block run): the skew order's groups, each with its
  // count of live pairs (runtime/algorithm/skew_schedule.hpp), the angles from the block entries
  // (skew_blocks.cuh, as skew_angles takes them), the skew core's figures. Real dtypes, N >= D.
  bool skew = false;
};

// Whether symmetric_angles leaves the step to the host: a complex dtype from order 4, whose unitary
// step has no closed form (runtime/algorithm/symmetric_unitary_search.hpp); the source then defines
// symmetric_pivot_sums, the pairs' sums the step needs, instead of symmetric_angles.
bool symmetric_step_on_host(const KernelSpec& spec);

// packed_symmetric's largest order: its classes of m <= 12 slots rotate by the rotation's symmetric
// powers in double, as the CPU's do (runtime/algorithm/packed_rotation.cpp); the CPU rotates larger
// ones slot by slot in long double, which the GPU does not have.
inline constexpr int packed_symmetric_max_order = 12;

// Throws codegen_error when the spec cannot be generated: D < 3 (matrices: use an SVD; a
// symmetric matrix's kinds take D = 2),
// N < 2 or N > 32768, N^D beyond 64-bit addressing, or tuning out of range.
void validate(const KernelSpec& spec);

// A spec with a built-in rule, from the names the CLI takes: kind ("group_pass"), dtype
// ("float32" | "float64"), layout ("C" | "F"), rule ("max_diag" | "max_trace"). Validated.
KernelSpec make_kernel_spec(std::string_view kind, int order, int size, std::string_view dtype,
                            std::string_view layout, std::string_view rule, Tuning tuning = {});

}  // namespace tensordiag::codegen
