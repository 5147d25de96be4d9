#pragma once
// Tuning the GPU engine takes from the environment, for measuring alternatives without rebuilding
// (bench/gpu_bench runs each). Unset, empty: the plan's choice. A value out of range is a
// user_error naming the variable and the value.
//   TENSORDIAG_SUBSPACE_BITS=k      the XOR subspace passes' cells of 2^k indices a mode (0: the
//                                   plan's, codegen Tuning::subspace_bits; else 2..10)
//   TENSORDIAG_SUBSPACE_ANGLE_WARPS=w  the XOR subspace passes' angle kernel's warps a block at
//                                   most (0: the plan's, 8 or 32 by the cell; codegen
//                                   Tuning::subspace_angle_warps; else 1..32)
//   TENSORDIAG_SUBSPACE_MIRRORED=b  structure symmetric's XOR subspace passes: only the tiles of
//                                   non-decreasing outer cosets rotated, each written to every
//                                   arrangement of its cosets (1), or every tile rotated (0)
//                                   (codegen Tuning::subspace_mirrored)
//   TENSORDIAG_SUBSPACE_FUSED=f     the XOR subspace apply's outer modes whose products go between
//                                   registers and global memory: 0 none, 1 the last (with the
//                                   store), 2 the first too (with the load) (codegen
//                                   Tuning::subspace_fused)
//   TENSORDIAG_PIPELINED_GROUPS=b   the one-block engine's sweeps and the XOR passes' angles: a
//                                   group's rotations beside the next group's angles (1, both at
//                                   D <= 5; unset: the one-block engine at D = 3) or after them (0)
//                                   (codegen Tuning::pipelined_groups)
//   TENSORDIAG_PASS_WARP_SHUFFLES=b group_pass's exchanges between lanes of a warp by shuffles (1)
//                                   or through shared memory (0) (codegen Tuning::pass_warp_shuffles)
//   TENSORDIAG_PASS_BLOCK_SIZE=t    group_pass's threads a block, whole tiles (0: the plan's; else a
//                                   multiple of 32 in 32..1024; codegen Tuning::pass_block_size)
//   TENSORDIAG_PASS_MAX_REGISTERS=r group_pass's registers a thread at most (0: no bound beyond the
//                                   block's size; else 32..255; unset: 128 for float64, 64 for
//                                   complex64; codegen
//                                   Tuning::pass_max_registers)
//   TENSORDIAG_PASS_INNER_MODES=m   group_pass's tiles take the m innermost memory modes whole (at
//                                   most D - 2: a larger m takes D - 2; 1..64; unset: the plan's;
//                                   codegen Tuning::pass_inner_modes)
//   TENSORDIAG_PASS_FMA=b           group_pass's and chunk_pass's mixing by fused multiply-adds (1)
//                                   or by separate products and sums, bit for bit the CPU's (0);
//                                   unset: 1 for complex dtypes, 0 for real ones (codegen
//                                   Tuning::pass_fma)
//   TENSORDIAG_PASS_REGISTER_BITS=r group_pass's outer modes mixed in registers at most (2^r
//                                   registers a thread; 0: the plan's; else 1..6; codegen
//                                   Tuning::pass_register_bits)
//   TENSORDIAG_PIVOT_GRAM_SIZE=n    the pivot check's Cholesky test (lambda_norm's stages 2 and 3)
//                                   for Lambda's size M <= n (N, or 2N for a complex tensor; 0: never;
//                                   at most 128; codegen Tuning::pivot_gram_size)
//   TENSORDIAG_PACKED_MAX_ORBIT=n   packed storage on the GPU: a group in one launch (packed_group)
//                                   where its largest orbit holds at most n entries, else a launch a
//                                   pair (0: always a pair; at most 4096; codegen
//                                   Tuning::packed_max_orbit)
//   TENSORDIAG_PACKED_FULL_BYTES=b  the CPU: a packed tensor of order <= 4 runs through full storage
//                                   when the full tensor is at most b bytes (0: never; unset: 256
//                                   MiB; runtime/engines/cpu_packed_route.hpp)
//   TENSORDIAG_HOST_HOSVD_BYTES=b   the GPU engines: the HOSVD start on the host for a tensor of at
//                                   most b bytes (0: never, the device's start; unset: 4 MiB;
//                                   gpu_hosvd_start.hpp: host_hosvd_start_pays)
//   TENSORDIAG_EXCHANGE_PIECES=k    GPU ranks: a change of layout that swaps rows in place starts
//                                   during the pass before it, the leaving rows sent in k pieces
//                                   as the pass writes them (0: the change after the pass; at most
//                                   64; unset: 4; runtime/distributed/overlapped_change.hpp)
//   TENSORDIAG_EXCHANGE_PIPELINE=b  GPU ranks: an overlapped change within a sweep runs the pass
//                                   after it as its pieces land (1), or after the whole change (0);
//                                   unset: 1 (runtime/distributed/overlapped_change.hpp)
//   TENSORDIAG_EXCHANGE_STAGING=m   GPU ranks: a row swap moves its rows through two staging
//                                   buffers of m MiB each (1..4096; unset: 512 where the device
//                                   has room beside the slab, else 128;
//                                   runtime/distributed/nccl_communicator.hpp)
//   TENSORDIAG_CHUNK_TILE_BYTES=b   chunk_pass's shared-memory tile, bytes a block at most (0: the
//                                   register form; at most 232448; codegen Tuning::chunk_tile_bytes)
//   TENSORDIAG_CHUNKED_PASS=b       the general engine's pass: chunk_pass wherever it plans (1), or
//                                   group_pass wherever it plans (0); unset: chunk_pass where
//                                   group_pass cannot plan and where it pays (gpu_kernels.cpp)
#include "codegen/kernel_spec.hpp"

namespace tensordiag::runtime {

// `tuning` with the variables above that shape a kernel's source set in it (a set variable
// replaces its field, an unset one keeps it): SUBSPACE_BITS, SUBSPACE_ANGLE_WARPS,
// PIVOT_GRAM_SIZE, PASS_BLOCK_SIZE, PASS_WARP_SHUFFLES, PASS_MAX_REGISTERS, PASS_INNER_MODES,
// PASS_FMA, PASS_REGISTER_BITS, PACKED_MAX_ORBIT, CHUNK_TILE_BYTES, SUBSPACE_MIRRORED, SUBSPACE_FUSED,
// PIPELINED_GROUPS.
// The engines' specs take them where they are made (kernel_spec_for) and again in GpuKernels (for
// specs made elsewhere), so `tensordiag kernels` prints and compiles what a run under the same
// environment compiles. The others choose paths, not sources.
codegen::Tuning tuning_from_environment(codegen::Tuning tuning);

int subspace_bits_from_environment();    // 0 when unset
int subspace_angle_warps_from_environment();  // 0 when unset
int subspace_mirrored_from_environment();  // -1 when unset
int subspace_fused_from_environment();     // -1 when unset
int pipelined_groups_from_environment();   // -1 when unset
int pivot_gram_size_from_environment();  // -1 when unset
int pass_block_size_from_environment();  // 0 when unset
int pass_warp_shuffles_from_environment();  // -1 when unset
int pass_max_registers_from_environment();  // -1 when unset
int pass_inner_modes_from_environment();  // -1 when unset
int pass_fma_from_environment();  // -1 when unset
int pass_register_bits_from_environment();  // 0 when unset
int packed_max_orbit_from_environment(); // -1 when unset
int exchange_pieces_from_environment();  // -1 when unset
int exchange_staging_mib_from_environment();  // -1 when unset
int exchange_pipeline_from_environment();  // -1 when unset
int chunk_tile_bytes_from_environment();  // -1 when unset
int chunked_pass_from_environment();  // -1 when unset
long long packed_full_bytes_from_environment();  // -1 when unset
long long host_hosvd_bytes_from_environment();  // -1 when unset

}  // namespace tensordiag::runtime
