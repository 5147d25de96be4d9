#pragma once
// One group step on the CPU (DESIGN.md sections 2 and 3): the rule's D micro-iterations run on the
// 2^D pivot subtensor of every pair (with the optional pivot check), reading only the entries each
// mode needs, and all D modes' rotations are then applied to the tensor in one pass.
#include <optional>
#include <vector>

#include "dsl/rule.hpp"
#include "runtime/algorithm/group_rotations.hpp"
#include "runtime/algorithm/index_offsets.hpp"
#include "runtime/algorithm/pivot_check.hpp"
#include "runtime/algorithm/pivot_norm_bounds.hpp"
#include "runtime/engines/group_pass.hpp"
#include "runtime/engines/pivot_corners.hpp"

namespace tensordiag::runtime {

// The pivot check's verdict on every pair of a mode: by bounds on ||Lambda||_2 when they decide
// them all (pivot_norm_bounds.hpp: column bounds, power steps, a Cholesky test), by its exact value
// (an eigensolver) otherwise; `count`, when given, adds the check, the exact norm and the tests.
inline std::vector<bool> pivot_verdicts(const std::vector<double>& lambda, int size, const PivotGroup& pairs,
                                        double eta, PivotCheckCount* count) {
  const BoundsDecision decision = decide_by_bounds(lambda, size, pairs, eta);
  if (count) count->add(decision);
  if (decision.verdicts) return *decision.verdicts;
  const double norm = skew_spectral_norm(lambda, size);
  std::vector<bool> verdicts;
  for (const auto& pair : pairs) verdicts.push_back(passes_pivot_check(lambda, size, norm, pair, eta));
  return verdicts;
}

// A whole tensor's gathers need no summing across ranks.
inline void one_rank(std::vector<double>&) {}

// Every rank's rotations of modes < `modes` in `group`: each pair's (c, s) comes from the rank that
// owns it, the others add zeros (exact).
template <class T, class SumAcrossRanks>
void share_rotations(GroupRotations<T>& group, const std::vector<bool>& owned, int modes,
                     SumAcrossRanks&& sum_across_ranks) {
  const std::size_t pairs = group.pairs.size();
  std::vector<double> values(2 * pairs * static_cast<std::size_t>(modes), 0.0);
  for (int mode = 0; mode < modes; ++mode)
    for (std::size_t k = 0; k < pairs; ++k)
      if (owned[k]) {
        const std::size_t at = 2 * (static_cast<std::size_t>(mode) * pairs + k);
        values[at] = static_cast<double>(group.at(mode, k).c);
        values[at + 1] = static_cast<double>(group.at(mode, k).s);
      }
  sum_across_ranks(values);
  for (int mode = 0; mode < modes; ++mode)
    for (std::size_t k = 0; k < pairs; ++k) {
      const std::size_t at = 2 * (static_cast<std::size_t>(mode) * pairs + k);
      group.at(mode, k) = {static_cast<T>(values[at]), static_cast<T>(values[at + 1])};
    }
}

// The rotations of the pairs `owned` marks (all of them when it is empty; the others keep the
// identity), from their pivot subtensors read through `offsets` (pivot_corners.hpp: the four entries
// each mode reads, on `threads` threads, 0 for OpenMP's default): the rule's D micro-iterations,
// with the pivot check when eta > 0. For a slab of a tensor spread over ranks (runtime/distributed/),
// `sum_across_ranks(v)` sums v over the ranks in place: the check's gathers are summed, and before
// the check of the sliced mode the rotations of the earlier modes are shared (its gather reads
// other ranks' pairs).
template <class T, class Rule, class SumAcrossRanks>
GroupRotations<T> group_angles(const T* core, const IndexOffsets& offsets, int size, const PivotGroup& pairs,
                               const std::vector<bool>& owned, const Rule& rule, double eta, int threads,
                               PivotCheckCount* count, SumAcrossRanks&& sum_across_ranks) {
  const int order = offsets.order();
  GroupRotations<T> group(order, pairs);
  const auto mine = [&owned](std::size_t k) { return owned.empty() || owned[k]; };
  std::vector<std::optional<PivotCorners<T>>> corners(pairs.size());
  for (std::size_t k = 0; k < pairs.size(); ++k)
    if (mine(k)) corners[k].emplace(core, offsets, pairs[k], threads);
  for (int mode = 0; mode < order; ++mode) {
    std::vector<bool> passes(pairs.size(), true);
    if (eta > 0) {
      if (!owned.empty() && mode == offsets.sliced_mode && mode > 0) share_rotations(group, owned, mode, sum_across_ranks);
      std::vector<double> diagonal = pivot_lambda_diagonal(core, offsets, size, mode, &group);
      sum_across_ranks(diagonal);
      std::vector<double> products = pivot_lambda_products(core, offsets, size, mode, &group, diagonal);
      sum_across_ranks(products);
      passes = pivot_verdicts(skew_part(products, size), size, pairs, eta, count);
    }
    for (std::size_t k = 0; k < pairs.size(); ++k) {
      if (!passes[k] || !mine(k)) continue;
      const auto g = dsl::rotation(rule, corners[k]->at(mode));
      group.at(mode, k) = g;
      corners[k]->rotate(mode, g);
    }
  }
  return group;
}

// One group step on `core`: angles from each pair's pivot subtensor, then one fused pass. `count`,
// when given, adds the pivot checks and the exact norms they needed.
template <class T, class Rule>
GroupRotations<T> group_step(HostTensor<T>& core, const PivotGroup& pairs, const Rule& rule, double eta, int threads,
                             PivotCheckCount* count = nullptr) {
  GroupRotations<T> group =
      group_angles(core.data(), IndexOffsets(core.strides()), core.size(), pairs, {}, rule, eta, threads, count,
                   one_rank);
  apply_group_pass(core, group, threads);
  return group;
}

}  // namespace tensordiag::runtime
