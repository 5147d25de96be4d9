#pragma once
// How each kernel kind is specialized for a spec: the fragments its template builds on, a typed
// plan of the kind (block sizes, tile geometry, all compile-time constants of the source, and the
// buffer sizes a caller allocates for it), and the kernels it defines with their launch shapes.
// The decisions that depend on the shape -- how many warps fit, how large an orbit tile is,
// whether a tensor fits in one block -- are made here, on the host, and only here; a kind that
// cannot serve the spec refuses it with a reason.
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "codegen/kernel_spec.hpp"

namespace tensordiag::codegen {

// One extern "C" __global__ function of a generated source and how to launch it.
struct KernelEntry {
  std::string name;        // the symbol: the kind's own name or a fixed variant of it
  int block_threads;       // blockDim.x; the kernel is compiled for exactly this (__launch_bounds__)
  long long grid_blocks;   // gridDim.x; for per_tensor kernels, per tensor of the batch
  bool per_tensor = false; // batch kernels: launch batch_size * grid_blocks blocks
  long long dynamic_shared_bytes = 0;  // launched with this much dynamic shared memory
  // The grid at most the blocks the device holds at once (its multiprocessors times the blocks of
  // this kernel each can hold), for kernels that loop over their work and overlap its steps.
  bool resident_grid = false;
};

// A warp per pivot pair, its subtensor in shared memory.
struct PivotAnglesPlan {
  int warps;         // per block
  long long blocks;  // ceil(pairs / warps)
};

// Pivot subtensors over the shared memory: the head modes from small corners, one contraction of
// every subtensor, the tail modes in shared memory (kernels_templates/pivot_angles_split.cu).
struct PivotAnglesSplitPlan {
  int threads;
  int head_modes;             // HEAD; the other D - HEAD modes are the tail, 2^(D - HEAD) entries
  long long contract_blocks;  // per pair
  long long partial_doubles;  // the partials buffer: pairs * contract_blocks * 2 * 2^(D - HEAD), twice for complex
};

// A team of lanes per entry of Lambda's strict upper triangle (plan_pivot_check_gather says how many).
struct PivotCheckGatherPlan {
  int threads;
  int team_lanes;          // TEAM: the most lanes that sum one entry's terms, a power of two dividing threads
  long long blocks;        // pivot_check_gather's
  long long line_blocks;   // pivot_check_lines' (a slab's check: runtime/distributed/)
  long long form_blocks;   // lambda_from_lines'
};

// The tile of kernels_templates/group_pass.cu (plan_group_pass in kernel_plan.cpp says how).
struct GroupPassPlan {
  int threads;
  int register_bits;        // R: outer modes mixed in registers
  int inner_modes;          // the innermost memory modes a tile takes whole
  long long x_threads;      // threads along a slot's run of N^inner_modes entries
  long long chunk;          // registers exchanged per round through shared memory
  long long pass_blocks;    // the blocks that rotate the tensor; the rest rotate the factors
  long long factor_blocks;
  long long partial_doubles;  // the partials buffer with figures: 2 doubles per pass block
  bool warp_shuffles;         // exchanges between lanes of a warp by shuffles
  int min_blocks;             // __launch_bounds__'s blocks a multiprocessor (0: the block's bound only)
  bool fma;                   // the mixing by fused multiply-adds (Tuning::pass_fma)
};

// A group's rotations a run of memory modes at a time (kernels_templates/chunk_pass.cu).
struct ChunkPassPlan {
  int threads;
  int max_modes;              // memory modes a launch mixes at most; the register form: 2^max_modes registers a thread
  int run;                    // the tiled form: entries of the modes after a chunk a tile row takes; 0: the register form
  long long tile_bytes;       // the tiled form: two tiles of N^max_modes rows of `run` entries (the launch's dynamic shared memory)
  long long blocks;           // chunk_pass's grid (grid-stride)
  long long factor_blocks;    // group_factors' grid
  std::vector<std::pair<int, int>> chunks;  // (first memory mode, count) of each launch, in order
  bool fma;                   // the mixing by fused multiply-adds (Tuning::pass_fma)
};

struct OffNormPlan {
  int threads;
  long long partial_blocks;   // off_norm_partial's and residual_partial's grid: off_norm_final reduces this many
  long long partial_doubles;  // the partials buffer: 2 doubles per block
};

struct ModeProductPlan {
  int threads;
  long long blocks;
};

struct MultiModeProductPlan {
  int threads;  // one block per tensor
};

struct SmallTensorPlan {
  int warps;   // one block per tensor
  int groups;  // groups a sweep: the round robin's; with structure skew, at most this many (the run says how many)
  bool pipelined;  // room for pipelined_group_steps' second tensor buffer, table and positions (pipelined_groups)
};

// One block: Lambda in registers (tile_rows rows per warp) for N <= 128, else from global memory.
struct LambdaNormPlan {
  int threads;
  int steps;                // the most Lanczos steps: min(N, 128)
  int tile_rows;            // 0 when Lambda is read from global memory
  long long basis_doubles;  // the `basis` workspace: steps + 1 Lanczos vectors of N doubles
  bool gram;                // stages 2 and 3 of the bounds (Tuning::pivot_gram_size)
  // (A complex tensor's Lambda is its real 2N x 2N embedding: the sizes above are of that matrix.)
};

// N = 2 sweeps from two reductions of the unchanged tensor (kernels_templates/qubit_sweep.cu): the
// memory bits split into low_bits (a row) and D - low_bits.
struct QubitSweepPlan {
  int threads;                 // the reductions' and qubit_settle's blocks
  int angle_threads;           // qubit_angles' one block
  int low_bits;
  int cell_bits;               // qubit_settle's bits a launch at most
  long long settle_blocks;     // qubit_settle's grid (grid-stride over cells)
  long long shares;            // qubit_reduce_high's row shares
  long long partial_doubles;   // qubit_reduce_high's output: shares * 2^low_bits * 2 (4 complex)
  long long small_low_doubles;   // the low half's small array: 2^low_bits * 2 (4 complex)
  long long small_high_doubles;  // the high half's: 2^(D - low_bits) * 2 (4 complex)
};

// The angles of an XOR subspace pass (kernels_templates/subspace_angles.cu); the spec's size is the
// cell's, 2^k: one block per coset, the grid set by the caller (tensor N / 2^k).
struct SubspaceAnglesPlan {
  int warps;
  long long dynamic_shared_bytes;  // the cell, two where pipelined
  bool pipelined;  // pipelined_group_steps (pipelined_groups)
};

// The tensor pass of an XOR subspace pass (kernels_templates/subspace_apply.cu).
struct SubspaceApplyPlan {
  int threads;
  int cell_bits;                   // k: cells of 2^k indices a mode
  long long tiles;                 // (N / 2^k)^(D-1) blocks rotate the tensor, a tile each; where
                                   // mirrored, the tiles of non-decreasing outer cosets, each written
                                   // to every arrangement of its cosets
  bool mirrored;                   // structure symmetric's mirrored tiles (Tuning::subspace_mirrored)
  int fused;                       // 0, 1 or 2: the outer modes fused with the store and load
                                   // (Tuning::subspace_fused)
  long long factor_blocks;         // the rest rotate the factors
  long long block_scalars;         // the Q blocks buffer: (N / 2^k) * D * 4^k scalars
  long long dynamic_shared_bytes;
};

// The angles of a symmetric tensor's group (kernels_templates/symmetric_angles.cu): a warp per
// pair sums its pivot subtensor by the number of indices q, no shared memory.
struct SymmetricAnglesPlan {
  int warps;         // per block
  long long blocks;  // ceil(pairs / warps); with host_step PAIRS * chunks
  // symmetric_step_on_host: symmetric_pivot_sums, a block per run of `chunks` of each pair's
  // subtensor; the host adds a pair's chunks in order.
  bool host_step = false;
  long long chunks = 1;
};

// Structure skew's group angles and figures (kernels_templates/skew_angles.cu): a thread per pair
// reads its four block entries; the figures' first stage is off_norm_partial's shape, so that
// off_norm_final reduces it.
struct SkewAnglesPlan {
  int threads;                // skew_angles: per block
  long long blocks;           // ceil(pairs / threads)
  int figure_threads;         // skew_figures_partial: per block
  long long partial_blocks;   // its grid, off_norm's: 2 doubles each in the partials buffer
};

// Structure symmetric in packed storage (kernels_templates/packed_symmetric.cu): the rank tables
// and class counts of the shape, written into the source as constants.
struct PackedSymmetricPlan {
  int threads;                 // packed_rotate's, packed_factor's and the figures' blocks
  int angle_warps;             // packed_angles: a warp a pair
  int chunk;                   // classes a thread of packed_rotate, consecutive in R's order
  long long count;             // distinct entries, binom(N + D - 1, D)
  int rest_symbols;            // R's alphabet: max(N - 2, 1)
  long long rotate_blocks;     // packed_rotate's grid (grid-stride over the chunks)
  long long factor_blocks;     // packed_factor's grid
  int figure_blocks;           // packed_figures' grid: the partials buffer holds this many doubles
  int powers;                  // doubles a pair in the powers buffer: sum_{m=0..D} (m + 1)^2
  std::vector<long long> full_prefix;   // D x (N + 1), MultisetIndex(N, D)'s table
  std::vector<long long> rest_prefix;   // D x (rest_symbols + 1)
  std::vector<long long> classes;       // D + 1: the multisets R of D - m other indices, by m
  std::vector<long long> chunk_end;     // D + 1: the chunks of m' <= m
  std::vector<int> power_offset;        // D + 1: K_m's first double in a pair's powers
  // packed_group: a group in one launch, a thread an orbit, where the largest orbit holds at most
  // Tuning::packed_max_orbit entries; else packed_rotate, one launch a pair.
  bool group_orbits;
  int alphabet;                         // N - N / 2: the indices that are no pair's q
  long long orbits;                     // binom(alphabet + D - 1, D)
  int max_orbit;                        // entries of the largest orbit
  long long group_blocks;               // packed_group's grid
  std::vector<long long> orbit_prefix;  // D x (alphabet + 1), MultisetIndex(alphabet, D)'s table
};

// The typed plan of each kind, in KernelKind's order.
using KindPlan = std::variant<PivotAnglesPlan, PivotAnglesSplitPlan, PivotCheckGatherPlan, GroupPassPlan, ChunkPassPlan, OffNormPlan, ModeProductPlan,
                              MultiModeProductPlan, SmallTensorPlan, LambdaNormPlan, QubitSweepPlan, SubspaceAnglesPlan,
                              SubspaceApplyPlan, SymmetricAnglesPlan, SkewAnglesPlan, PackedSymmetricPlan>;

struct KernelPlan {
  std::vector<std::string_view> fragments;  // embedded kernels_templates/*.cuh, in source order
  bool uses_rule = false;                   // the template calls rule_rotation
  KindPlan kind_plan;                       // the spec's kind's alternative
  std::vector<KernelEntry> entries;
};

// A plan, or why the kind cannot serve the spec (a tensor too large for one block's shared
// memory, a pivot subtensor too large for it).
struct PlanAttempt {
  std::optional<KernelPlan> plan;
  std::string refusal;  // empty when planned
};

// Throws codegen_error only for a spec that fails validate(); a kind's refusal is returned.
PlanAttempt try_plan(const KernelSpec& spec);

// try_plan's plan; throws codegen_error with the refusal when the kind cannot serve the spec.
KernelPlan plan_kernel(const KernelSpec& spec);

// The kernels the source for `spec` defines, with their launch shapes.
std::vector<KernelEntry> kernel_entries(const KernelSpec& spec);

}  // namespace tensordiag::codegen
