#include "codegen/kernel_plan.hpp"

#include <algorithm>
#include <limits>
#include <numeric>
#include <utility>

#include "codegen/codegen_error.hpp"
#include "dsl/multisets.hpp"

namespace tensordiag::codegen {

namespace {

long long ceil_div(long long x, long long m) { return (x + m - 1) / m; }

PlanAttempt planned(KernelPlan plan) { return {std::move(plan), {}}; }
PlanAttempt refused(std::string reason) { return {std::nullopt, std::move(reason)}; }

// base^exponent, saturating at a bound far beyond any shared-memory budget: sizes past it only
// need to compare as too large.
long long saturating_power(long long base, int exponent) {
  constexpr long long bound = std::numeric_limits<long long>::max() / 1024;
  long long x = 1;
  for (int i = 0; i < exponent; ++i) x = x > bound / base ? bound : x * base;
  return x;
}

// The spec's sizes, in the names the templates use.
struct Sizes {
  int d;
  int n;
  long long entries;       // N^D
  long long scalar;        // bytes per entry
  long long pairs;         // N / 2
  long long subtensor;     // 2^D
  long long rotation;      // bytes of one (c, s)
};

Sizes sizes_of(const KernelSpec& spec) {
  const long long scalar = static_cast<long long>(size_of(spec.dtype));
  return {spec.order, spec.size, saturating_power(spec.size, spec.order), scalar, spec.size / 2,
          saturating_power(2, spec.order), 2 * scalar};
}

// Threads for `work` independent items: a whole number of warps, at most the tuning's block size.
int threads_for(long long work, const Tuning& tuning) {
  return static_cast<int>(std::clamp<long long>(ceil_div(work, 32) * 32, 32, tuning.block_size));
}

std::string bytes(long long n) { return std::to_string(n) + " bytes"; }

// Warps per block for kernels where each warp holds one pivot subtensor in shared memory, given
// the shared bytes the rest of the block takes.
int subtensor_warps(const KernelSpec& spec, const Sizes& z, long long other_bytes) {
  const long long per_warp = z.subtensor * z.scalar;
  const long long fit = (spec.tuning.shared_bytes - other_bytes) / per_warp;
  return static_cast<int>(std::min<long long>({spec.tuning.block_size / 32, std::max<long long>(z.pairs, 1), fit}));
}

PlanAttempt plan_pivot_angles(const KernelSpec& spec, const Sizes& z) {
  const int warps = subtensor_warps(spec, z, 0);
  if (warps < 1)
    return refused("pivot_angles: a pivot subtensor of 2^" + std::to_string(z.d) + " entries (" +
                   bytes(z.subtensor * z.scalar) + ") exceeds the shared memory limit (" +
                   bytes(spec.tuning.shared_bytes) + ")");
  const PivotAnglesPlan plan{warps, ceil_div(z.pairs, warps)};
  return planned({{"pivot_subtensor.cuh"},
                  true,
                  plan,
                  {{"pivot_angles", 32 * warps, plan.blocks},
                   {"pivot_subtensors", 32 * warps, plan.blocks},
                   {"gathered_angles", 32 * warps, plan.blocks}}});
}

// The tail: the most modes whose two contractions P and Q (2 * 2^tail scalars) and block_sum's
// 512 bytes fit the shared memory, fewer than D (the head has a mode at least). It serves every
// shape; the engine takes it only where pivot_angles cannot (a pivot subtensor over one warp's
// shared memory). Contraction blocks: about 256 over all pairs, each at least one head row.
PlanAttempt plan_pivot_angles_split(const KernelSpec& spec, const Sizes& z) {
  int tail = 0;
  while (tail + 1 < z.d && 2 * (2LL << tail) * z.scalar + 512 <= spec.tuning.shared_bytes) ++tail;
  const int head = z.d - tail;
  const int threads = static_cast<int>(std::clamp<long long>(1LL << tail, 32, 512));
  const long long contract_blocks = std::clamp<long long>(256 / std::max<long long>(z.pairs, 1), 1, 1LL << std::min(head, 20));
  // The partials are Wide (wide_scalar.cuh): two doubles an entry for a complex tensor.
  const long long doubles_per_entry = is_complex(spec.dtype) ? 2 : 1;
  const PivotAnglesSplitPlan plan{threads, head, contract_blocks,
                                  z.pairs * contract_blocks * 2 * (1LL << tail) * doubles_per_entry};
  return planned({{"figures.cuh", "wide_scalar.cuh"},
                  true,
                  plan,
                  {{"pivot_head", threads, z.pairs},
                   {"pivot_contract", threads, z.pairs * contract_blocks},
                   {"pivot_tail", threads, z.pairs}}});
}

// A team of lanes per entry of Lambda's strict upper triangle (at least one block: it writes the
// diagonal); for a slab, a team per entry of the N x N lines, then a thread per entry of Lambda.
// The team sums an entry's terms, 4 * 2^n of them at mode n (pivot_check_gather.cu): a warp where
// the entries alone give the GPU about 2^17 lanes, more where they are few, up to a block (N = 8:
// 28 entries of up to 1024 terms; with teams of a warp each lane took 32 of them in a row and the
// gather at D = 9's last mode was 40 us on an H100, ten times its first mode's).
PlanAttempt plan_pivot_check_gather(const KernelSpec& spec, const Sizes& z) {
  const long long upper = static_cast<long long>(z.n) * (z.n - 1) / 2;
  const long long square = static_cast<long long>(z.n) * z.n;
  constexpr long long wanted_lanes = 1LL << 17;
  const long long block_power_of_two = spec.tuning.block_size & -spec.tuning.block_size;  // teams never straddle blocks
  long long team = 32;
  while (team < block_power_of_two && team * upper < wanted_lanes) team *= 2;
  // The largest team a mode takes: 4 * 2^(D-1) terms (the lines: 2^(D-1)), at least a warp.
  const long long top_terms = 1LL << std::min(z.d - 1, 30);
  const long long gather_team = std::clamp(4 * top_terms, 32LL, team);
  const long long line_team = std::clamp(top_terms, 32LL, team);
  const int threads = threads_for(team * upper, spec.tuning);
  const PivotCheckGatherPlan plan{threads, static_cast<int>(team),
                                  std::max<long long>(1, ceil_div(upper * gather_team, threads)),
                                  ceil_div(square * line_team, threads), ceil_div(square, threads)};
  // checked_angles: a thread a pair of the group, within the template's launch bound THREADS (which
  // is never fewer: team * upper >= 32 pairs).
  const int angle_threads = std::min(threads_for(z.pairs, spec.tuning), threads);
  return planned({{"group_membership.cuh", "lambda_layout.cuh", "wide_scalar.cuh", "checked_rotation.cuh"},
                  true,
                  plan,
                  {{"pivot_check_gather", threads, plan.blocks},
                   {"pivot_check_lines", threads, plan.line_blocks},
                   {"lambda_from_lines", threads, plan.form_blocks},
                   {"checked_angles", angle_threads, std::max<long long>(1, ceil_div(z.pairs, angle_threads))}}});
}

// The tile of kernels_templates/group_pass.cu: 2^(D-m) slots of the m innermost modes' N^m entries
// (group_pass_inner_modes says m). R = min(D - m, pass_register_bits (default_register_bits), the
// bits of 256 bytes of registers) outer modes mix in registers, the other T = D - m - R through
// shared memory between threads; a tile takes N^m << T threads, and a block as many whole tiles as
// pass_block_size (default 512, complex 256, 128 for small tensors: small_pass_blocks) allows. Each thread
// holds at least 8 entries (several innermost positions when 2^R < 8: more loads in flight between
// barriers), and a tile wider than pass_block_size (1024 by default) first moves thread modes into
// registers, then gives each thread more innermost positions. When the exchange buffer would not
// fit the shared memory, a block takes fewer tiles, then exchanges fewer registers per round.
// The register modes a thread may hold: 2^R entries of at most 256 bytes (6 for float32, 5 for
// float64 and complex64, 4 for complex128, whose 32 entries spilled: 255 registers and a stack).
// Exchanged modes whose partner is a lane of the same warp take shuffles (pass_warp_shuffles),
// float64 is held to 128 registers a thread and complex64 to 64 (pass_max_registers): measured on
// an H100, float32 D = 9, N = 8 35.5 -> 33.0 ms, float64 64.0 -> 59.8 ms (without the bound the
// shuffles took it to 130 registers and 67.3 ms), complex64 94.3 -> 90.3 -> 86.1 ms (64 registers:
// four blocks of 256 threads a multiprocessor, more loads in flight; float32 at 64 spilled and took
// 41.6 ms); bench/results/warp_exchange_h100_2026-11-26.md.
int register_bits_cap(const Sizes& z) {
  int bits = 0;
  while ((z.scalar << (bits + 1)) <= 256) ++bits;
  return bits;
}

// Blocks of 128 threads for a tensor of at most 2^21 entries with N even, 6 to 16. There the default
// blocks left the pass on few multiprocessors (float32 D = 5, N = 8: 4 blocks of 512 threads), and
// with 128 threads 10 round-robin sweeps took 0.81-1.00 of the time in 34 of 36 shape and dtype
// cells measured (D x N = 5 x 8, 6 x 8, 7 x 8, 4 x 12, 5 x 12, 6 x 6, 7 x 6, 4 x 16, 5 x 16; complex64
// 5 x 12 1.04); at N = 4 (D = 8 to 10) no block size gained and 128 lost up to 11% (complex64
// 10 x 4). NVIDIA H200, bench/results/pass_blocks_h200_2026-11-28.md.
bool small_pass_blocks(const Sizes& z) {
  return z.n % 2 == 0 && z.n >= 6 && z.n <= 16 && z.entries <= (1LL << 21);
}

// Complex tensors of N >= 4 and at least 256 MB (complex64 2^25 entries, complex128 2^24): group_pass
// holds 16 entries a thread (R = 4), a tile of at most 512 threads (R raised past 4 for that: a tile
// of 1024 threads leaves 64 registers a thread), blocks of 128 threads (whole tiles; a larger tile
// is its own block), and a bound of 96 registers a thread for complex64, 128 for complex128. Under
// the fused mixing the old plan (R = 3, blocks of 256, a bound of 64 for complex64, tiles up to 1024
// threads) kept too few entries in flight. Measured on an H200 (round robin, 10 sweeps, ms, old plan
// -> this one; bench/results/complex_pass_plan_h200_2026-11-29.md): complex64 9 x 8 64.9 -> 56.6
// (2.27x float32's 24.9), 13 x 4 31.6 -> 22.2, 10 x 6 33.9 -> 27.3; complex128 9 x 8 115.5 -> 95.7,
// 12 x 4 15.3 -> 10.2, 10 x 6 72.8 -> 46.5, 8 x 8 15.7 -> 12.3. The kernel then takes NVRTC 0.1-0.35 s
// more (2-core machine: complex64 9 x 8 0.35-0.40 -> 0.52-0.66 s), so, as float32's six register
// bits, the plan waits for 256 MB: smaller tensors gained at most 2.1 ms a 10 sweeps (complex64
// 12 x 4 9.41 -> 8.34, 11 x 4 2.38 -> 2.17, 9 x 6 5.87 -> 5.44, 8 x 8 8.00 -> 7.60; complex128 9 x 6
// 10.0 -> 8.0) and keep the old plan, as does N = 2 (not measured).
bool wide_complex_pass(const KernelSpec& spec, const Sizes& z) {
  return is_complex(spec.dtype) && z.n >= 4 && z.entries >= (1LL << 28) / z.scalar;
}

// group_pass's register bits unless the tuning asks: 3 for complex dtypes (4 for wide_complex_pass's
// tensors), 6 for float32 at N = 4 and 8 from 2^26 entries (256 MB), else 5. Measured on an H200
// (float32, 10 sweeps, ms, R = 5 -> 6; bench/results/pass_register_bits_h200_2026-11-29.md):
// 9 x 8 28.65 -> 25.10, 10 x 8 281.8 -> 238.1, 13 x 4 18.85 -> 13.92, 12 x 4 (2^24) 4.03 -> 3.57,
// 8 x 8 (2^24) 3.53 -> 3.62, and at N = 6 and 16 slower (9 x 6 2.42 -> 2.71, 11 x 6 95.1 -> 109.0,
// 7 x 16 87.5 -> 92.5). Six bits cost a shape's first compile 0.3-0.7 s more (9 x 8: 0.59 ->
// 0.91 s), so they wait for tensors whose sweeps and reading dwarf it.
int default_register_bits(const KernelSpec& spec, const Sizes& z) {
  if (is_complex(spec.dtype)) return wide_complex_pass(spec, z) ? 4 : 3;
  const bool large_power_of_two = (z.n == 4 || z.n == 8) && z.entries >= (1LL << 26);
  return spec.dtype == ScalarType::float32 && large_power_of_two ? 6 : 5;
}

// A group_pass tile's shape for m inner modes (see above): its register bits R, its run of N^m
// entries a slot, the run's threads and the tile's threads.
struct PassTile {
  int inner_modes, outer, register_bits;
  long long run, x_threads, tile_threads;
};
PassTile pass_tile(const KernelSpec& spec, const Sizes& z, int inner_modes) {
  const long long max_threads = spec.tuning.pass_block_size != 0 ? spec.tuning.pass_block_size
                                : wide_complex_pass(spec, z)     ? 512
                                                                 : 1024;
  const int outer = z.d - inner_modes;
  const long long run = saturating_power(z.n, inner_modes);
  const int asked_bits = spec.tuning.pass_register_bits != 0 ? spec.tuning.pass_register_bits : default_register_bits(spec, z);
  int r = std::min({outer, asked_bits, register_bits_cap(z)});
  while ((run << (outer - r)) > max_threads && r < outer) ++r;
  const long long x_per_thread = std::min<long long>(run, std::max(ceil_div(run, max_threads), ceil_div(8, 1LL << r)));
  const long long x_threads = ceil_div(run, x_per_thread);
  return {inner_modes, outer, r, run, x_threads, x_threads << (outer - r)};
}

// The passes' mixing by fused multiply-adds (Tuning::pass_fma; group_pass and chunk_pass). Unset:
// for complex dtypes, whose entries it takes from ten instructions a mode to six; real ones keep
// the CPU engine's arithmetic bit for bit. Measured on an H200 (round robin, 10 sweeps, ms,
// separate -> fused; bench/results/pass_fma_h200_2026-11-29.md): complex64 9 x 8 76.4 -> 64.8,
// 13 x 4 38.4 -> 31.6, 8 x 8 9.21 -> 7.91, faster at all ten shapes; complex128 9 x 8 124.1 -> 115.3,
// 12 x 4 17.3 -> 15.3, 8 x 8 15.56 -> 15.71 (the one loss); float32 9 x 8 25.0 -> 26.1, 8 x 8 3.51
// -> 3.79 (slower: its registers, 128 -> 152 at 9 x 8); float64 within -5% .. +2%.
bool pass_fma(const KernelSpec& spec) {
  return spec.tuning.pass_fma == -1 ? is_complex(spec.dtype) : spec.tuning.pass_fma == 1;
}

// The innermost memory modes a group_pass tile takes whole (Tuning::pass_inner_modes, at most
// D - 2, so that a slab's two outermost modes stay outer: runtime/distributed/slab.hpp). By default
// two where N is even, at least 4, and a row of N entries is under a 32-byte sector (float32 N = 4
// and 6), when the tile of two then takes at most 512 threads, else one. Measured on an H200
// (float32, 10 sweeps, ms, one inner mode -> two; bench/results/pass_inner_modes_h200_2026-11-29.md):
//   12 x 4  4.81 -> 4.03    9 x 6   3.02 -> 2.41    13 x 4 (1024 threads) 18.85 -> 16.74
//   10 x 6 15.51 -> 12.88   11 x 6 (576 threads) 94.9 -> 108.3   14 x 4 (R raised to 6) 72.9 -> 272
// and with N = 8 (32-byte rows) mixed: 9 x 8 28.60 -> 26.85, but 8 x 8 3.53 -> 3.92 and 10 x 8
// 280.6 -> 303.0, so one there. (All at R = 5; where default_register_bits gives 6, 13 x 4's tile of
// two takes 512 threads and two inner modes: 13.9 ms.)
int group_pass_inner_modes(const KernelSpec& spec, const Sizes& z) {
  const int most = std::max(1, z.d - 2);
  if (spec.tuning.pass_inner_modes != -1) return std::min(spec.tuning.pass_inner_modes, most);
  const bool short_rows = z.n % 2 == 0 && z.n >= 4 && z.n * z.scalar < 32;
  return short_rows && most >= 2 && pass_tile(spec, z, 2).tile_threads <= 512 ? 2 : 1;
}

PlanAttempt plan_group_pass(const KernelSpec& spec, const Sizes& z) {
  const bool complex = is_complex(spec.dtype);
  const PassTile tile = pass_tile(spec, z, group_pass_inner_modes(spec, z));
  const int inner_modes = tile.inner_modes, outer = tile.outer, r = tile.register_bits;
  const long long run = tile.run, x_threads = tile.x_threads, tile_threads = tile.tile_threads;
  const int register_cap = register_bits_cap(z);
  if (r > register_cap)
    return refused("group_pass: a tile of " + std::to_string(run) + " x 2^" + std::to_string(outer) + " entries needs 2^" +
                   std::to_string(r) + " registers a thread, over the 2^" + std::to_string(register_cap) +
                   " that do not spill (small N with large D: the pass has no tiling for it yet)");
  // A tile of 1024 threads leaves each thread 64 registers, 256 bytes: a thread's 2^R entries of 256
  // bytes fill them and leave nothing for the rest, so such a tile is refused and the pass is
  // chunk_pass's. Measured on an H200 (10 sweeps, round robin, ms, group_pass against chunk_pass;
  // bench/results/pass_register_bits_h200_2026-11-29.md, chunked_pass_h200_2026-11-29.md):
  //   float32 15 x 4 (64 entries, 736 bytes spilled)   1616 against 348
  //   complex128 13 x 4 (16 entries, 1040 spilled)      409 against 126
  // while tiles of 1024 threads with 128 bytes a thread spill less and keep group_pass ahead:
  //   complex64 13 x 4 (352 spilled) 38.3 against 77.0; complex128 12 x 4 (288) 17.3 against 29.4.
  if (tile_threads >= 1024 && (z.scalar << r) >= 256)
    return refused("group_pass: a tile of " + std::to_string(tile_threads) + " threads leaves 64 registers a thread, too few for its 2^" +
                   std::to_string(r) + " entries of " + std::to_string(z.scalar) + " bytes (they spill): the pass is chunk_pass's");
  const int t = outer - r;
  const bool wide_complex = wide_complex_pass(spec, z);
  const long long target = spec.tuning.pass_block_size != 0         ? spec.tuning.pass_block_size
                            : small_pass_blocks(z) || wide_complex ? 128
                            : complex                              ? 256
                                                                   : 512;
  long long tiles_per_block = std::max<long long>(1, target / tile_threads);
  long long chunk = 1LL << r;
  const long long representatives = (z.n + 1) / 2;
  // group, held_representatives, second_representatives, partner_of, pair_of, held_count,
  // second_count and figures.cuh's warp_sums
  const long long tables = 4 * representatives * 4 + 2LL * z.n * 4 + 16 + 32 * 16;
  const auto shared = [&] { return tiles_per_block * chunk * (run << t) * z.scalar + tables; };
  while (shared() > spec.tuning.shared_bytes && tiles_per_block > 1) tiles_per_block /= 2;
  while (shared() > spec.tuning.shared_bytes && chunk > 1) chunk /= 2;
  if (shared() > spec.tuning.shared_bytes)
    return refused("group_pass: one exchange row of " + std::to_string(run << t) +
                   " entries and the index tables (" + bytes(shared()) + ") exceed the shared memory limit (" +
                   bytes(spec.tuning.shared_bytes) + ")");
  const int threads = static_cast<int>(ceil_div(tiles_per_block * tile_threads, 32) * 32);
  const long long tiles = saturating_power(representatives, outer);
  const long long pass_blocks = std::min(ceil_div(tiles, tiles_per_block), spec.tuning.max_grid_blocks);
  const long long factor_blocks = ceil_div(static_cast<long long>(z.d) * z.pairs * z.n, threads);
  const bool warp_shuffles = spec.tuning.pass_warp_shuffles != 0;
  const int max_registers = spec.tuning.pass_max_registers != -1 ? spec.tuning.pass_max_registers
                            : spec.dtype == ScalarType::float64   ? 128
                            : spec.dtype == ScalarType::complex64 ? (wide_complex ? 96 : 64)
                            : wide_complex                        ? 128  // complex128
                                                                  : 0;
  // The bound as whole blocks a multiprocessor; a bound of one block is left out, as the block's own
  // size bounds the registers as much, and NVRTC took more registers with it than without.
  const int blocks = max_registers == 0 ? 0 : 65536 / (threads * max_registers);
  const int min_blocks = blocks >= 2 ? blocks : 0;
  const GroupPassPlan plan{threads,       r,          inner_modes, x_threads, chunk, pass_blocks, factor_blocks, 2 * pass_blocks,
                           warp_shuffles, min_blocks, pass_fma(spec)};
  return planned(
      {{"factor_rotation.cuh", "figures.cuh", "fused_mix.cuh"}, false, plan, {{"group_pass", threads, pass_blocks + factor_blocks}}});
}

// Chunks of memory modes, outermost first, in launches of about equal counts; every shape has them.
// Two forms (kernels_templates/chunk_pass.cu):
// - the register form: a thread's unit of 2^count entries, count at most group_pass's register
//   cap (2^cap registers of at most 256 bytes a thread). Dense where N is even (every index in a
//   pair); at odd N the unpaired index leaves most of a unit's registers empty (N = 3: 11 of 64).
// - the tiled form: a block copies a tile of N^count rows by a run of 128 bytes of the modes after
//   the chunk into shared memory (coalesced, asynchronous copies), rotates the chunk's modes there
//   and writes it back, with the next tile's copies in flight in a second buffer; a chunk mixes
//   the most modes whose two buffers fit chunk_tile_bytes.
// Measured on an H100 (float32, 10 sweeps, ms; bench/results/chunk_tiles_h100_2026-11-27.md):
//                         16 x 3   17 x 3   19 x 3   16 x 4
//   registers               88.8    209.5     1424     1879
//   tiled, 48 KB, 256 t     33.0    137.8     1266     6045
//   tiled, 48 KB, 352 t     38.2    167.9     1355
//   tiled, 192 KB, 256 t    46.8    138.1     1068     3952
//   tiled, 192 KB, 1024 t   32.4     91.6     1319 (992 t)
// So the default: at odd N the tiled form within 192 KB, 1024 threads a block where a tile holds 16384 entries or more (there 729 x 32), else
// 256; at even N the register form. A budget asked for takes the tiled form at any N, the
// register form where not one mode's tile fits it. Either budget stops at the device's opt-in
// shared memory less 1 KB for the kernel's static shared memory.
PlanAttempt plan_chunk_pass(const KernelSpec& spec, const Sizes& z) {
  const bool asked = spec.tuning.chunk_tile_bytes != -1;
  const long long wanted = !asked ? (z.n % 2 == 1 ? 192 * 1024 : 0) : spec.tuning.chunk_tile_bytes;
  const long long tile_budget = std::min<long long>(wanted, spec.tuning.opt_in_shared_bytes - 1024);
  const int run = static_cast<int>(128 / z.scalar);
  // Two buffers of N^modes rows of `run` entries, and `run` entries of padding each (chunk_pass.cu).
  const auto tile_bytes = [&](int modes) { return 2 * (saturating_power(z.n, modes) + 1) * run * z.scalar; };
  int tiled_modes = 0;
  while (tiled_modes < z.d && tile_bytes(tiled_modes + 1) <= tile_budget) ++tiled_modes;
  const bool tiled = tile_budget > 0 && tiled_modes > 0;
  const int most = tiled ? tiled_modes : std::min(z.d, register_bits_cap(z));
  // Launches of equal counts (the first ones one more where D does not divide), so that the
  // tile, sized for the largest, is no larger than the chunks need.
  const int launches = static_cast<int>(ceil_div(z.d, most));
  const int max_modes = static_cast<int>(ceil_div(z.d, launches));
  const long long tile_entries = saturating_power(z.n, max_modes) * run;
  const int threads = tiled && tile_entries >= 16384 ? 1024 : 256;
  ChunkPassPlan plan{threads, max_modes, tiled ? run : 0, tiled ? tile_bytes(max_modes) : 0, 0, 0, {}, pass_fma(spec)};
  for (int l = 0, first = 0; l < launches; ++l) {
    const int count = z.d / launches + (l < z.d % launches ? 1 : 0);
    plan.chunks.emplace_back(first, count);
    first += count;
  }
  // Grid-stride: the register form about two units a thread; the tiled one loops over its tiles
  // (the next one's copies in flight), so its grid is at most the blocks the device holds at once.
  const long long work = tiled ? ceil_div(z.entries, tile_entries) : ceil_div(z.entries, 2 * threads);
  plan.blocks = std::min(work, spec.tuning.max_grid_blocks);
  plan.factor_blocks = ceil_div(static_cast<long long>(z.d) * z.pairs * z.n, threads);
  const long long blocks = plan.blocks, factor_blocks = plan.factor_blocks, shared = plan.tile_bytes;
  return planned({{"factor_rotation.cuh", "fused_mix.cuh"},
                  false,
                  std::move(plan),
                  {{"chunk_pass", threads, blocks, false, shared, tiled},
                   {"chunk_pass_slab", threads, blocks, false, shared, tiled},
                   {"group_factors", threads, factor_blocks}}});
}

// off_norm's first stage: the grid whose partial sums off_norm_final reduces (skew_angles' figures
// take the same, so that the partials buffer serves both).
long long figure_partial_blocks(const KernelSpec& spec, const Sizes& z) {
  return std::min<long long>(spec.tuning.partial_blocks, ceil_div(z.entries, spec.tuning.block_size));
}

PlanAttempt plan_off_norm(const KernelSpec& spec, const Sizes& z) {
  const int threads = spec.tuning.block_size;
  const long long partial_blocks = figure_partial_blocks(spec, z);
  return planned({{"figures.cuh"},
                  false,
                  OffNormPlan{threads, partial_blocks, 2 * partial_blocks},
                  {{"off_norm_partial", threads, partial_blocks},
                   {"off_norm_final", threads, 1},
                   {"residual_partial", threads, partial_blocks}}});
}

PlanAttempt plan_mode_product(const KernelSpec& spec, const Sizes& z) {
  const int threads = threads_for(z.entries, spec.tuning);
  const ModeProductPlan plan{threads, std::min(ceil_div(z.entries, threads), spec.tuning.max_grid_blocks)};
  return planned({{"wide_scalar.cuh", "mode_product_entry.cuh"}, false, plan, {{"mode_product", threads, plan.blocks}}});
}

std::string too_large_for_a_block(std::string_view kind, const Sizes& z, long long needed, const Tuning& tuning) {
  return std::string(kind) + ": a tensor of " + std::to_string(z.n) + "^" + std::to_string(z.d) + " entries needs " +
         bytes(needed) + " of shared memory, over the limit of " + bytes(tuning.shared_bytes) + " per block";
}

PlanAttempt plan_multi_mode_product(const KernelSpec& spec, const Sizes& z) {
  const long long needed = 2 * z.entries * z.scalar;  // two ping-pong buffers
  if (needed > spec.tuning.shared_bytes)
    return refused(too_large_for_a_block("multi_mode_product", z, needed, spec.tuning) +
                   "; chain mode_product instead");
  const int threads = threads_for(z.entries, spec.tuning);
  return planned(
      {{"wide_scalar.cuh", "mode_product_entry.cuh"}, false, MultiModeProductPlan{threads}, {{"multi_mode_product", threads, 1, true}}});
}

// Structure skew's groups a sweep at most (runtime/algorithm/skew_schedule.hpp): the round robin
// over the N / D blocks and N mod D leftover indices, D^2 groups a round at most.
long long skew_groups_at_most(const Sizes& z) {
  const long long units = z.n / z.d + z.n % z.d;
  const long long rounds = units < 2 ? 0 : units % 2 == 0 ? units - 1 : units;
  return std::max<long long>(1, rounds * z.d * z.d);
}

// Whether the one-block kinds (small_tensor, subspace_angles) run their groups pipelined
// (kernels_templates/pipelined_group_steps.cuh: a group's rotations beside the next group's angles,
// which the angle warps compute from 2^D-entry blocks a lane) where `room` holds the second tensor
// buffer, structure general. The default is measured (an H200, float32, 10 sweeps;
// bench/results/pipelined_groups_h200_2026-11-29.md): small_tensor at D = 3, where N = 8, 12, 14, 16
// ran 0.96, 0.85, 0.83 and 0.89 of the time one group after another (N = 4, 10, 18 within 1%); at
// D = 4 it ran 1.04x at N = 4..6 and 0.96 at N = 8, and the XOR passes' subspace_angles 1.01x at
// D = 3 (cells of 8) and 1.09x at D = 4 (cells of 4). Tuning::pipelined_groups 1 takes both kinds
// at D <= 5, 0 neither. The kernel also asks for the pivot subtensor in registers and warps beyond
// the angle warps.
bool pipelined_groups(const KernelSpec& spec, const Sizes& z, bool room) {
  if (!room || spec.skew || spec.symmetric || spec.tuning.pipelined_groups == 0) return false;
  if (spec.tuning.pipelined_groups == 1) return z.d <= 5;
  return spec.kind == KernelKind::small_tensor && z.d == 3;
}

PlanAttempt plan_small_tensor(const KernelSpec& spec, const Sizes& z) {
  // The core, the factors, the rotation table, the schedule's groups (with structure skew each
  // group's live count too), block_sum's 32 double2.
  const long long groups = spec.skew ? skew_groups_at_most(z) : z.n % 2 == 0 ? z.n - 1 : z.n;
  const long long fixed = z.entries * z.scalar + static_cast<long long>(z.d) * z.n * z.n * z.scalar +
                          z.d * z.pairs * z.rotation + groups * (2 * z.pairs + (spec.skew ? 1 : 0)) * 4 + 32 * 16;
  const int warps = subtensor_warps(spec, z, fixed);
  if (warps < 1)
    return refused(too_large_for_a_block("small_tensor", z, fixed + z.subtensor * z.scalar, spec.tuning) +
                   "; use the group kernels (pivot_angles, group_pass)");
  // Pipelined: a second core and rotation table, and each group's positions (group_positions).
  const long long pipelined_bytes = z.entries * z.scalar + z.d * z.pairs * z.rotation + groups * z.n * 4;
  const bool pipelined =
      pipelined_groups(spec, z, fixed + pipelined_bytes + warps * z.subtensor * z.scalar <= spec.tuning.shared_bytes);
  std::vector<std::string_view> fragments{"pivot_subtensor.cuh", "figures.cuh", "mode_rotations.cuh",
                                          "register_blocks.cuh", "factor_rotation.cuh"};
  if (spec.skew) fragments.emplace_back("skew_blocks.cuh");
  fragments.emplace_back("shared_group_step.cuh");
  fragments.emplace_back("pipelined_group_steps.cuh");
  return planned({fragments,
                  true,
                  SmallTensorPlan{warps, static_cast<int>(groups), pipelined},
                  {{"small_tensor", 32 * warps, 1, true}}});
}

// One block, on the M x M Lambda (M = N, or 2N for a complex tensor's embedding: lambda_layout.cuh).
// M <= 128: Lambda in registers, ROWS = 8 rows per warp (fewer for M < 8), a warp per 8 rows (512
// threads at M = 128). Larger M up to 1024: Lambda read from global memory (L2), a thread per vector
// entry. The static shared memory stays under 48 KB; stages 2 and 3 of the bounds (M <= 128) opt in
// to dynamic shared memory for a copy of Lambda. At most 128 Lanczos
// steps (N for smaller N); the basis holds one vector more than the steps.
PlanAttempt plan_lambda_norm(const KernelSpec& spec, const Sizes& z) {
  constexpr int largest_size = 1024;
  constexpr int largest_in_registers = 128;
  // A complex tensor's Lambda comes as its real 2N x 2N embedding (lambda_layout.cuh).
  const bool embedded = is_complex(spec.dtype);
  const long long m = embedded ? 2 * z.n : z.n;
  if (m > largest_size)
    return refused("lambda_norm: size " + std::to_string(z.n) + " is above " +
                   std::to_string(embedded ? largest_size / 2 : largest_size) +
                   ", the largest whose Lanczos vectors fit one block" +
                   (embedded ? " (complex: its 2N x 2N embedding)" : "") + "; take the norm with cuSOLVER");
  int rows = 0;
  int threads = 0;
  if (m <= largest_in_registers) {
    rows = 1;
    while (rows < 8 && rows < m) rows *= 2;
    threads = static_cast<int>(32 * ceil_div(m, rows));
  } else {
    threads = static_cast<int>(std::max<long long>(256, ceil_div(m, 32) * 32));
  }
  const int steps = static_cast<int>(std::min<long long>(m, 128));
  constexpr int default_gram_size = 64;
  const int gram_size = spec.tuning.pivot_gram_size < 0 ? default_gram_size : spec.tuning.pivot_gram_size;
  // Stages 2 and 3 factor in the register tile, with the scaled Lambda in dynamic shared memory
  // (M rows of 32 ceil(M / 32) doubles) beside at most 48 KB of static shared memory.
  const long long lambda_copy_bytes = m * 32 * ceil_div(m, 32) * 8;
  const bool gram = m <= gram_size && rows > 0 && lambda_copy_bytes + 48 * 1024 <= spec.tuning.opt_in_shared_bytes;
  const LambdaNormPlan plan{threads, steps, rows, static_cast<long long>(steps + 1) * m, gram};
  return planned({{"lambda_layout.cuh", "wide_scalar.cuh", "checked_rotation.cuh"},
                  true,
                  plan,
                  {{"lambda_norm", threads, 1, false, gram ? lambda_copy_bytes : 0}}});
}

// N = 2 only. A row of 2^low_bits entries is D / 2 bits, at least one tile of 16-byte loads
// (256 threads) and at most 16 bits; the high half's two weight tables (2^ceil(high/2) pairs of
// Wide each, 16 or 32 bytes) keep it to 20 bits for a real tensor, 18 for a complex one (both
// tables in 32 KB of shared memory): D <= 36 (float32 275 GB) or 34 (complex64 137 GB), past any
// one device. Row shares: about 1024 blocks for qubit_reduce_high, each at least 64 rows, a power
// of two. The small arrays and the partials hold a pair of Wide an index: 2 doubles, or 4 for a
// complex tensor.
PlanAttempt plan_qubit_sweep(const KernelSpec& spec, const Sizes& z) {
  const bool complex = is_complex(spec.dtype);
  const int largest_high = complex ? 18 : 20;
  constexpr int threads = 256, largest_low = 16;
  int tile_bits = 0;  // log2(threads * 16 bytes / scalar)
  while ((1LL << (tile_bits + 1)) * z.scalar <= 16LL * threads) ++tile_bits;
  if (z.n != 2) return refused("qubit_sweep: N = 2 only (N is " + std::to_string(z.n) + ")");
  const int low = std::min(z.d / 2, largest_low);
  if (low < tile_bits || z.d - low > largest_high)
    return refused("qubit_sweep: D = " + std::to_string(z.d) + " is outside " + std::to_string(2 * tile_bits) + ".." +
                   std::to_string(largest_low + largest_high) + " for this dtype");
  const int high = z.d - low;
  const long long tiles = 1LL << (low - tile_bits);
  const long long pair_doubles = complex ? 4 : 2;
  long long shares = 1;
  while (shares * 2 * tiles <= 1024 && (shares * 2) << 6 <= (1LL << high)) shares *= 2;
  const QubitSweepPlan plan{threads, 1024, low, 10, 256, shares, shares * (pair_doubles << low), pair_doubles << low,
                            pair_doubles << high};
  return planned({{"figures.cuh", "wide_scalar.cuh"},
                  true,
                  plan,
                  {{"qubit_reduce_low", threads, std::min<long long>(1LL << high, 2048)},
                   {"qubit_reduce_high", threads, tiles * shares},
                   {"qubit_settle", threads, plan.settle_blocks},
                   {"qubit_angles", 1024, 1}}});
}

// A cell of the size of the spec's tensor: the diagonal cell in dynamic shared memory, the D
// accumulated blocks, the rotation table, the pass's groups (N - 1 at most), the offsets and the
// warps' subtensors static.
PlanAttempt plan_subspace_angles(const KernelSpec& spec, const Sizes& z) {
  if ((z.n & (z.n - 1)) != 0)
    return refused("subspace_angles: a cell has 2^k indices a mode (N is " + std::to_string(z.n) + ")");
  const long long dynamic = z.entries * z.scalar;
  const long long fixed = static_cast<long long>(z.d) * z.n * z.n * z.scalar + z.d * z.pairs * z.rotation +
                          (z.n - 1) * 2 * z.pairs * 4 + static_cast<long long>(z.d) * z.n * 8;
  // More warps than pairs: all of them rotate the cell, which is bound by shared-memory latency in a
  // grid of few blocks (N / 2^k). 8 warps for cells of up to 1024 entries, 32 above: measured on an
  // H100 (float32, 10 sweeps; bench/results/angle_warps_h100_2026-11-26.md), 8 against 32 took
  // D = 3, N = 64 1.79 against 1.89 ms (cells of 512), N = 128 5.73 against 5.88, D = 4, N = 16 0.70
  // against 0.88 (256), D = 5, N = 16 1.14 against 1.27 (1024), but D = 6, N = 16 7.22 against 6.61
  // (4096). Within the static 48 KB, and fewer where the block would pass the budget.
  const long long per_warp = z.subtensor * z.scalar;
  const long long room = spec.tuning.subspace_shared_bytes - dynamic - fixed;
  const long long most = spec.tuning.subspace_angle_warps > 0 ? spec.tuning.subspace_angle_warps
                         : z.entries <= 1024                  ? 8
                                                              : 32;
  const int warps = static_cast<int>(std::min<long long>({most, (spec.tuning.shared_bytes - fixed) / per_warp, room / per_warp}));
  if (warps < 1)
    return refused("subspace_angles: a cell of " + std::to_string(z.n) + "^" + std::to_string(z.d) + " entries needs " +
                   bytes(dynamic + fixed + per_warp) + " of shared memory, over the limit of " +
                   bytes(spec.tuning.subspace_shared_bytes) + " per block");
  // Pipelined: a second cell (dynamic), rotation table and the groups' positions (static).
  const long long pipelined_static = z.d * z.pairs * z.rotation + (z.n - 1) * z.n * 4;
  const bool pipelined =
      pipelined_groups(spec, z,
                       fixed + pipelined_static + warps * per_warp <= spec.tuning.shared_bytes &&
                           2 * dynamic + fixed + pipelined_static + warps * per_warp <= spec.tuning.subspace_shared_bytes);
  const long long cells = pipelined ? 2 * dynamic : dynamic;
  return planned({{"pivot_subtensor.cuh", "mode_rotations.cuh", "register_blocks.cuh", "factor_rotation.cuh",
                   "shared_group_step.cuh", "pipelined_group_steps.cuh"},
                  true,
                  SubspaceAnglesPlan{warps, cells, pipelined},
                  {{"subspace_angles", 32 * warps, 1, false, cells}}});
}

// binom(n + r - 1, r), the multisets of size r over n symbols (n >= 1); saturates at 2^62. Also
// the tiles of a symmetric subspace_apply (non-decreasing outer cosets).
constexpr long long multiset_limit = 1LL << 62;
long long multisets(long long n, int r) { return dsl::multiset_count(n, r, multiset_limit).value_or(multiset_limit); }

// The most distinct arrangements of `length` cosets out of `values`: length! / prod m_i! with the
// multiplicities m_i as even as they can be.
long long most_arrangements(long long values, int length) {
  long long count = 1;
  for (int i = 2; i <= length; ++i) count *= i;
  const long long low = length / values, high_count = length % values;  // high_count runs of low + 1
  const auto factorial = [](long long m) {
    long long f = 1;
    for (long long i = 2; i <= m; ++i) f *= i;
    return f;
  };
  for (long long v = 0; v < std::min<long long>(values, length); ++v) count /= factorial(v < high_count ? low + 1 : low);
  return count;
}

// Whether subspace_apply mirrors its tiles under structure symmetric (the tuning's choice where set):
// from 2^24 entries where a tile has at most 24 arrangements. Measured on an H200 (auto's XOR
// passes, 10 sweeps, float32 and float64; bench/results/symmetric_mirrored_apply_h200_2026-11-28.md):
// from 2^24 entries mirroring took 0.67-0.85 of the unmirrored run's time at D = 3, N = 256 (2
// arrangements at most), D = 4, N = 64 (6) and D = 5, N = 32 (24), and 2.24x it at D = 6, N = 16
// (60: the blocks that write them all are the pass's tail); below 2^24 entries, where the
// unmirrored pass's grid is about a wave or less, mirroring saved little or lost: 0.95-0.99 at
// D = 3, N = 128, 0.99-1.02 at N = 32, and 1.03-2.19x at D = 3, N = 64, D = 4, N <= 32 and D = 5,
// N <= 16.
bool subspace_mirrored(const KernelSpec& spec, const Sizes& z, long long cosets) {
  if (spec.tuning.subspace_mirrored >= 0) return spec.tuning.subspace_mirrored == 1;
  return z.entries >= (1LL << 24) && most_arrangements(cosets, z.d - 1) <= 24;
}

// Which outer memory modes subspace_apply fuses with its global memory traffic (the tuning's choice
// where set): the last with the store from 2^24 entries. Measured on an H200 (auto's XOR passes, 10
// sweeps, every dtype; bench/results/subspace_fused_store_h200_2026-11-28.md): from 2^24 entries
// the fused store took 0.89-0.99 of the unfused time in every dtype that takes the XOR passes there
// (D = 3, N = 256; D = 4, N = 64; D = 5, N = 32; D = 6, N = 16); below it 0.83-1.09, with no rule
// in dtype, structure or cell size; fusing the load too lost where the store alone won (0.91-1.08:
// the load is then issued only after the pass's angles end, where the copy into the tile overlaps them).
int subspace_fused(const KernelSpec& spec, const Sizes& z, bool mirrored) {
  if (mirrored) return 0;
  if (spec.tuning.subspace_fused >= 0) return spec.tuning.subspace_fused;
  return z.entries >= (1LL << 24) ? 1 : 0;
}

// Shared memory of subspace_apply for cells of 2^bits a mode: its tile (one coset in every memory
// mode but the innermost, all N there), padded, and the blocks of the tile's cosets.
long long subspace_apply_bytes(const Sizes& z, int bits) {
  const long long cell = 1LL << bits;
  const long long tile = saturating_power(cell, z.d - 1) * z.n;
  return (tile + tile / z.n) * z.scalar + (z.d - 1 + z.n / cell) * cell * cell * z.scalar;
}

// Its static shared memory: a row's start (8 bytes) for each of the tile's cell^(D-1) rows, the
// cosets' N indices, the tile's outer cosets (one int, unused, when not mirrored), and where
// mirrored each row's source row (4 bytes; kernels_templates/subspace_apply.cu's
// row_offset, inner_index, mirrored_coset and source). A block's opt-in limit counts them all.
long long subspace_apply_static_bytes(const Sizes& z, int bits, bool mirrored) {
  return saturating_power(1LL << bits, z.d - 1) * (mirrored ? 12 : 8) + static_cast<long long>(z.n) * 4 +
         4LL * (mirrored ? z.d - 1 : 1);
}

PlanAttempt plan_subspace_apply(const KernelSpec& spec, const Sizes& z) {
  if (z.n < 4 || (z.n & (z.n - 1)) != 0)
    return refused("subspace_apply: the XOR schedule takes N a power of two >= 4 (N is " + std::to_string(z.n) + ")");
  int log_n = 0;
  while ((1 << log_n) < z.n) ++log_n;
  // Unasked: cells of 8 where they fit the budget, else of 4 (on the H100, cells of 8 beat 4 and
  // 16 at every D = 3 shape measured: bench/results/xor_h100_2026-11-23.md). Asked-for cells may
  // take up to the most a block can opt in to on the device (Tuning::opt_in_shared_bytes: 227 KB
  // on an H100), one block a multiprocessor.
  int bits = spec.tuning.subspace_bits;
  const bool asked = bits != 0;
  const long long budget = asked ? spec.tuning.opt_in_shared_bytes : spec.tuning.subspace_shared_bytes;
  // The bytes held against the budget: the tile and blocks, and against the device's opt-in limit
  // the static arrays too.
  // Structure symmetric may rotate only the tiles with non-decreasing outer cosets and write each
  // to every arrangement of its cosets (subspace_apply.cu, MIRRORED).
  const auto mirrored = [&](int k) { return spec.symmetric && subspace_mirrored(spec, z, z.n >> k); };
  const auto held = [&](int k) {
    return subspace_apply_bytes(z, k) + (asked ? subspace_apply_static_bytes(z, k, mirrored(k)) : 0);
  };
  if (!asked)
    for (int k = std::min(3, log_n); k >= 2 && bits == 0; --k)
      if (held(k) <= budget) bits = k;
  if (bits == 0 || bits > log_n || held(bits) > budget)
    return refused("subspace_apply: a tile of " + std::to_string(1 << std::max(bits, 2)) + "^" + std::to_string(z.d - 1) +
                   " x " + std::to_string(z.n) + " entries needs " + bytes(held(std::max(bits, 2))) +
                   " of shared memory, over the limit of " + bytes(budget) + " per block (N = " + std::to_string(z.n) +
                   " allows cells of at most 2^" + std::to_string(log_n) + ")");
  const long long cell = 1LL << bits;
  const long long cosets = z.n / cell;
  // 512 threads; 256 where a thread holds an 8 x 8 block in registers (64 of them, besides its fiber).
  const int threads = bits >= 3 ? 256 : 512;
  const bool mirrors = mirrored(bits);
  const long long tiles = mirrors ? multisets(cosets, z.d - 1) : saturating_power(cosets, z.d - 1);
  const long long factor_blocks = ceil_div(static_cast<long long>(z.d) * cosets * z.n, threads);
  const long long shared = subspace_apply_bytes(z, bits);
  return planned({{},
                  false,
                  SubspaceApplyPlan{threads, bits, tiles, mirrors, subspace_fused(spec, z, mirrors), factor_blocks,
                                    cosets * z.d * cell * cell, shared},
                  {{"subspace_apply", threads, tiles + factor_blocks, false, shared}}});
}

// A warp per pair (4 a block at most: the blocks spread over the multiprocessors); any shape the
// spec allows. No shared memory: each lane holds its chart's polynomial (2K + 1 doubles,
// K = floor(D/2); symmetric_warp_angle.cuh) in registers.
PlanAttempt plan_symmetric_angles(const KernelSpec& spec, const Sizes& z) {
  if (symmetric_step_on_host(spec)) {
    // symmetric_pivot_sums: up to 8 warps a block, about 32 entries a thread, and at most 2048
    // blocks in all (a pair's chunks are summed on the host: PAIRS x chunks x (D + 1) values).
    const int warps = static_cast<int>(std::clamp<long long>(ceil_div(z.subtensor, 32 * 32), 1, 8));
    const long long chunks =
        std::clamp<long long>(ceil_div(z.subtensor, 32LL * 32 * warps), 1, std::max<long long>(1, 2048 / z.pairs));
    const SymmetricAnglesPlan plan{warps, z.pairs * chunks, true, chunks};
    return planned({{}, false, plan, {{"symmetric_pivot_sums", 32 * warps, plan.blocks}}});
  }
  const int warps = static_cast<int>(std::clamp<long long>(z.pairs, 1, 4));
  const SymmetricAnglesPlan plan{warps, ceil_div(z.pairs, warps)};
  return planned({{}, false, plan, {{"symmetric_angles", 32 * warps, plan.blocks}}});
}

// A thread per pair: four loads and the rule's closed form. The figures as off_norm_partial's grid.
PlanAttempt plan_skew_angles(const KernelSpec& spec, const Sizes& z) {
  const int threads = threads_for(std::max<long long>(z.pairs, 1), spec.tuning);
  const SkewAnglesPlan plan{threads, ceil_div(std::max<long long>(z.pairs, 1), threads), spec.tuning.block_size,
                            figure_partial_blocks(spec, z)};
  return planned({{"figures.cuh", "skew_blocks.cuh"},
                  true,
                  plan,
                  {{"skew_angles", plan.threads, plan.blocks},
                   {"skew_figures_partial", plan.figure_threads, plan.partial_blocks}}});
}

// MultisetIndex(n, r)'s prefix table (runtime/core/multiset_index.hpp), for shapes validate() took.
std::vector<long long> multiset_prefix(int n, int rows) { return dsl::multiset_prefix(n, rows, multiset_limit); }

// The entries of the largest orbit of a group: prod (m_u + 1) over the pairs whose p the reduced
// multiset holds m_u >= 1 times (sum m_u <= D, at most `pairs` of them), largest where the D slots
// spread evenly over as many pairs as there are.
long long largest_orbit(int order, long long pairs) {
  long long best = 1;
  for (long long t = 1; t <= std::min<long long>(order, pairs); ++t) {
    long long product = 1;
    for (long long j = 0; j < t; ++j) product *= order / t + (j < order % t ? 1 : 0) + 1;
    best = std::max(best, product);
  }
  return best;
}

// Tuning::packed_max_orbit's default (measured: see there).
constexpr long long default_max_group_orbit = 16;

// packed_rotate's launch is one pair's classes, few for small N (D = 6, N = 16: 11628): a thread
// takes a chunk of consecutive classes only where that still leaves this many threads (an H100's
// 132 multiprocessors, 4 blocks of 256 deep), at most 8 classes.
constexpr long long packed_rotate_threads = 132 * 4 * 256;

// A thread a chunk of classes of one m in packed_rotate, an orbit in packed_group; packed_figures
// one run of the entries a thread.
PlanAttempt plan_packed_symmetric(const KernelSpec& spec, const Sizes& z) {
  PackedSymmetricPlan plan;
  plan.threads = spec.tuning.block_size;
  plan.angle_warps = static_cast<int>(std::clamp<long long>(z.pairs, 1, 4));
  plan.count = multisets(z.n, z.d);
  if (plan.count >= (1LL << 62)) return refused("packed_symmetric: the tensor has more distinct entries than addressing allows");
  plan.rest_symbols = std::max(z.n - 2, 1);
  plan.full_prefix = multiset_prefix(z.n, z.d);
  plan.rest_prefix = multiset_prefix(plan.rest_symbols, z.d);
  plan.classes.assign(static_cast<std::size_t>(z.d) + 1, 0);
  plan.power_offset.assign(static_cast<std::size_t>(z.d) + 1, 0);
  plan.powers = 0;
  for (int m = 0; m <= z.d; ++m) {
    const int r = z.d - m;
    if (m > 0) plan.classes[static_cast<std::size_t>(m)] = z.n == 2 && r > 0 ? 0 : multisets(plan.rest_symbols, r);
    plan.power_offset[static_cast<std::size_t>(m)] = plan.powers;
    plan.powers += (m + 1) * (m + 1);
  }
  const long long pair_classes = std::accumulate(plan.classes.begin(), plan.classes.end(), 0LL);
  plan.chunk = static_cast<int>(std::clamp<long long>(pair_classes / packed_rotate_threads, 1, 8));
  plan.chunk_end.assign(static_cast<std::size_t>(z.d) + 1, 0);
  for (std::size_t m = 1; m < plan.chunk_end.size(); ++m)
    plan.chunk_end[m] = plan.chunk_end[m - 1] + ceil_div(plan.classes[m], plan.chunk);
  plan.rotate_blocks = std::clamp<long long>(ceil_div(plan.chunk_end.back(), plan.threads), 1, spec.tuning.max_grid_blocks);
  plan.factor_blocks = ceil_div(static_cast<long long>(z.n) * std::max<long long>(z.pairs, 1), plan.threads);
  plan.figure_blocks = static_cast<int>(std::clamp<long long>(ceil_div(plan.count, 8LL * plan.threads), 1, spec.tuning.partial_blocks));
  plan.alphabet = z.n - static_cast<int>(z.pairs);
  plan.orbits = multisets(plan.alphabet, z.d);
  const long long max_group_orbit = spec.tuning.packed_max_orbit < 0 ? default_max_group_orbit : spec.tuning.packed_max_orbit;
  plan.max_orbit = static_cast<int>(std::min(largest_orbit(z.d, z.pairs), max_group_orbit + 1));
  plan.group_orbits = plan.max_orbit <= max_group_orbit;
  if (!plan.group_orbits) plan.max_orbit = 1;  // packed_group is not generated
  plan.group_blocks = std::clamp<long long>(ceil_div(plan.orbits, plan.threads), 1, spec.tuning.max_grid_blocks);
  plan.orbit_prefix = multiset_prefix(plan.alphabet, z.d);
  const long long angle_blocks = ceil_div(std::max<long long>(z.pairs, 1), plan.angle_warps);
  std::vector<KernelEntry> entries{{"packed_angles", 32 * plan.angle_warps, angle_blocks},
                                   plan.group_orbits ? KernelEntry{"packed_group", plan.threads, plan.group_blocks}
                                                     : KernelEntry{"packed_rotate", plan.threads, plan.rotate_blocks},
                                   {"packed_factor", plan.threads, plan.factor_blocks},
                                   {"packed_figures", plan.threads, plan.figure_blocks},
                                   {"packed_figures_final", plan.threads, 1}};
  return planned({{"figures.cuh", "factor_rotation.cuh"}, false, std::move(plan), std::move(entries)});
}

}  // namespace

namespace {

// The kinds a complex dtype has (issue 11, item 3): the general engine's angles and passes, the
// pivot check (its skew-Hermitian Lambda as the real 2N x 2N embedding, whose norm the real Lanczos
// takes), the figures, the one-block run, the XOR subspace passes and the symmetric angles (complex
// symmetric tensors, orders 2 and 3: validate), the split angles of pivot subtensors over a
// warp's shared memory, the mode products of the device verification, and the N = 2 sweeps of
// qubit_sweep (U in SU(2) a mode). The others are real arithmetic and refuse it.
bool takes_complex(KernelKind kind) {
  return kind == KernelKind::pivot_angles || kind == KernelKind::pivot_angles_split ||
         kind == KernelKind::mode_product || kind == KernelKind::multi_mode_product ||
         kind == KernelKind::pivot_check_gather || kind == KernelKind::symmetric_angles ||
         kind == KernelKind::lambda_norm || kind == KernelKind::group_pass ||
         kind == KernelKind::chunk_pass || kind == KernelKind::off_norm || kind == KernelKind::small_tensor ||
         kind == KernelKind::subspace_angles || kind == KernelKind::subspace_apply || kind == KernelKind::qubit_sweep;
}

}  // namespace

PlanAttempt try_plan(const KernelSpec& spec) {
  validate(spec);
  if (is_complex(spec.dtype) && !takes_complex(spec.kind))
    return refused(std::string(to_string(spec.kind)) + ": takes real dtypes (" + std::string(to_string(spec.dtype)) +
                   " runs pivot_angles, pivot_angles_split, the pivot check's kinds, group_pass, chunk_pass, off_norm, "
                   "the mode products, small_tensor, the subspace kinds, qubit_sweep and symmetric_angles)");
  if (is_complex(spec.dtype) &&
      (spec.kind == KernelKind::pivot_angles || spec.kind == KernelKind::pivot_angles_split ||
       spec.kind == KernelKind::small_tensor || spec.kind == KernelKind::qubit_sweep) &&
      spec.rule.hermitian_terms.empty())
    return refused("rule '" + spec.rule.name + "' is real-only (its objective has no complex lift): complex tensors take "
                   "rule max_diag");
  const Sizes z = sizes_of(spec);
  switch (spec.kind) {
    case KernelKind::pivot_angles: return plan_pivot_angles(spec, z);
    case KernelKind::pivot_angles_split: return plan_pivot_angles_split(spec, z);
    case KernelKind::pivot_check_gather: return plan_pivot_check_gather(spec, z);
    case KernelKind::group_pass: return plan_group_pass(spec, z);
    case KernelKind::chunk_pass: return plan_chunk_pass(spec, z);
    case KernelKind::off_norm: return plan_off_norm(spec, z);
    case KernelKind::mode_product: return plan_mode_product(spec, z);
    case KernelKind::multi_mode_product: return plan_multi_mode_product(spec, z);
    case KernelKind::small_tensor: return plan_small_tensor(spec, z);
    case KernelKind::lambda_norm: return plan_lambda_norm(spec, z);
    case KernelKind::qubit_sweep: return plan_qubit_sweep(spec, z);
    case KernelKind::subspace_angles: return plan_subspace_angles(spec, z);
    case KernelKind::subspace_apply: return plan_subspace_apply(spec, z);
    case KernelKind::symmetric_angles: return plan_symmetric_angles(spec, z);
    case KernelKind::skew_angles: return plan_skew_angles(spec, z);
    case KernelKind::packed_symmetric: return plan_packed_symmetric(spec, z);
  }
  throw internal_codegen_error("try_plan: kernel kind " + std::to_string(static_cast<int>(spec.kind)) +
                               " has no plan");
}

KernelPlan plan_kernel(const KernelSpec& spec) {
  PlanAttempt attempt = try_plan(spec);
  if (!attempt.plan) throw codegen_error(attempt.refusal);
  return std::move(*attempt.plan);
}

std::vector<KernelEntry> kernel_entries(const KernelSpec& spec) { return plan_kernel(spec).entries; }

}  // namespace tensordiag::codegen
