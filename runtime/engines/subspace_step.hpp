#pragma once
// One pass of the XOR subspace schedule on the CPU (xor_schedule.hpp): the pass's groups run as
// group steps on each diagonal cell (a + V)^D, a tensor of 2^k a mode, accumulating per mode the
// orthogonal block they compose to; then one pass applies the blocks to the whole tensor and the
// factors. Equal to the same groups applied one by one, up to rounding (the cells are closed).
#include <omp.h>

#include <variant>
#include <vector>

#include "runtime/algorithm/run_settings.hpp"
#include "runtime/algorithm/xor_schedule.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/group_step.hpp"
#include "runtime/engines/subspace_blocks.hpp"

namespace tensordiag::runtime {

// The blocks of every coset: a small Jacobi on its diagonal cell, cosets in parallel.
template <class T, class Rule>
SubspaceBlocks<T> subspace_angles(const HostTensor<T>& core, const SubspacePass& pass, const Rule& rule, int threads) {
  const int order = core.order();
  const std::size_t cosets = pass.leaders.size();
  SubspaceBlocks<T> blocks{order, std::vector<std::vector<Matrix<T>>>(
                                      cosets, std::vector<Matrix<T>>(static_cast<std::size_t>(order),
                                                                     Matrix<T>::identity(pass.cell_size())))};
  std::vector<PivotGroup> local_groups;
  for (const int c : pass.groups) local_groups.push_back(pass.local_group(c));
  const CellOffsets cells(core.strides(), pass);
#pragma omp parallel num_threads(threads > 0 ? threads : omp_get_max_threads())
  {
    std::vector<std::ptrdiff_t> offsets(cells.entries());
    std::vector<std::size_t> diagonal(static_cast<std::size_t>(order));
#pragma omp for schedule(static)
    for (std::size_t a = 0; a < cosets; ++a) {
      diagonal.assign(diagonal.size(), a);
      cells.fill(diagonal.data(), offsets.data());
      HostTensor<T> cell(order, pass.cell_size(), Layout::c_order);  // row-major, as CellOffsets numbers it
      for (std::size_t e = 0; e < offsets.size(); ++e) cell.data()[e] = core.data()[offsets[e]];
      for (const PivotGroup& pairs : local_groups)
        apply_group_to_factors(blocks.by_coset[a], group_step(cell, pairs, rule, 0.0, 1));
    }
  }
  return blocks;
}

// A pass of a sweep: one pivot group (round-robin, or the XOR schedule at k = 1 or with the pivot
// check, whose Lambda needs the whole tensor between groups), or a subspace of several groups.
using SweepPass = std::variant<PivotGroup, SubspacePass>;

// The pass on the tensor and the factors.
template <class T, class Rule>
void sweep_pass(HostTensor<T>& core, std::vector<Matrix<T>>& factors, const SweepPass& pass, const Rule& rule,
                double eta, int threads, PivotCheckCount* count = nullptr) {
  if (const auto* pairs = std::get_if<PivotGroup>(&pass)) {
    apply_group_to_factors(factors, group_step(core, *pairs, rule, eta, threads, count), threads);
    return;
  }
  const SubspacePass& subspace = std::get<SubspacePass>(pass);
  const SubspaceBlocks<T> blocks = subspace_angles(core, subspace, rule, threads);
  apply_subspace_blocks(core, subspace, blocks, threads);
  apply_subspace_blocks_to_factors(factors, subspace, blocks);
}

// The CPU engine's sweep. xor when asked (N a power of two): subspaces as large as keep a cell
// within cpu_cell_entries (one group a pass with the pivot check). auto takes the round robin:
// on the CPU the XOR passes are slower, since a cell's D block products cost more than the
// group pass they save (N = 8, D = 7 float32, one thread: 0.044 s a sweep against 0.026 s).
inline constexpr std::size_t cpu_cell_entries = std::size_t{1} << 14;

inline std::vector<SweepPass> cpu_sweep_passes(int order, int size, const RunSettings& settings) {
  std::vector<SweepPass> passes;
  if (settings.schedule != SweepSchedule::xor_subspaces || !has_xor_schedule(size)) {
    for (PivotGroup& group : round_robin_schedule(size)) passes.emplace_back(std::move(group));
    return passes;
  }
  int dimension = 1;
  while (settings.eta == 0 && (1 << (dimension + 1)) <= size &&
         std::size_t{1} << ((dimension + 1) * order) <= cpu_cell_entries)
    ++dimension;
  for (SubspacePass& pass : xor_schedule(size, dimension)) {
    if (pass.dimension() > 1) {
      passes.emplace_back(std::move(pass));
      continue;
    }
    for (const int c : pass.groups) passes.emplace_back(pass.global_group(c));
  }
  return passes;
}

}  // namespace tensordiag::runtime
