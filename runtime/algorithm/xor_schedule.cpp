#include "runtime/algorithm/xor_schedule.hpp"

#include <algorithm>
#include <bit>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

int SubspacePass::dimension() const { return std::countr_zero(span.size()); }

PivotGroup SubspacePass::local_group(int c) const {
  PivotGroup group;
  for (int t = 0; t < cell_size(); ++t) {
    const int partner = static_cast<int>(std::lower_bound(span.begin(), span.end(), span[t] ^ c) - span.begin());
    if (t < partner) group.push_back({t, partner});
  }
  return group;
}

PivotGroup SubspacePass::global_group(int c) const {
  PivotGroup group;
  const int size = cell_size() * static_cast<int>(leaders.size());
  for (int i = 0; i < size; ++i)
    if (i < (i ^ c)) group.push_back({i, i ^ c});
  return group;
}

bool has_xor_schedule(int size) { return size >= 2 && std::has_single_bit(static_cast<unsigned>(size)); }

namespace {

// The elements of the span of `basis`, sorted.
std::vector<int> span_of(const std::vector<int>& basis) {
  std::vector<int> span{0};
  for (const int b : basis) {
    const std::size_t half = span.size();
    for (std::size_t i = 0; i < half; ++i) span.push_back(span[i] ^ b);
  }
  std::sort(span.begin(), span.end());
  return span;
}

// Every i whose bits at the leading bits of an echelon basis of V are clear: one per coset, and
// the smallest of it.
std::vector<int> coset_leaders(const std::vector<int>& span, int size) {
  int leading = 0;  // the leading bits of the reduced echelon basis: the top bits of V's elements
  for (const int v : span)
    if (v != 0) leading |= std::bit_floor(static_cast<unsigned>(v));
  std::vector<int> leaders;
  for (int i = 0; i < size; ++i)
    if ((i & leading) == 0) leaders.push_back(i);
  return leaders;
}

}  // namespace

std::vector<SubspacePass> xor_schedule(int size, int max_dimension) {
  if (!has_xor_schedule(size)) throw internal_error("the XOR schedule needs N a power of two");
  const int bits = std::countr_zero(static_cast<unsigned>(size));
  const int dimension = std::clamp(max_dimension, 1, std::max(bits, 1));
  std::vector<char> done(static_cast<std::size_t>(size), 0);
  done[0] = 1;
  int left = size - 1;
  std::vector<SubspacePass> passes;
  while (left > 0) {
    std::vector<int> basis;
    std::vector<int> span{0};
    for (int d = 0; d < dimension; ++d) {
      int best = 0, best_gain = -1;
      for (int v = 1; v < size; ++v) {
        if (std::find(span.begin(), span.end(), v) != span.end()) continue;
        int gain = 0;
        for (const int s : span) gain += done[static_cast<std::size_t>(s ^ v)] ? 0 : 1;
        if (gain > best_gain) best = v, best_gain = gain;
      }
      // A vector that adds no group still grows the span: every pass has dimension k, so one
      // kernel specialization (cell size 2^k) serves the sweep.
      basis.push_back(best);
      span = span_of(basis);
    }
    SubspacePass pass;
    pass.span = span;
    for (const int c : span)
      if (!done[static_cast<std::size_t>(c)]) {
        pass.groups.push_back(c);
        done[static_cast<std::size_t>(c)] = 1;
        --left;
      }
    pass.leaders = coset_leaders(pass.span, size);
    passes.push_back(std::move(pass));
  }
  return passes;
}

PivotSchedule xor_groups_in_pass_order(int size, int max_dimension) {
  PivotSchedule groups;
  for (const SubspacePass& pass : xor_schedule(size, max_dimension))
    for (const int c : pass.groups) groups.push_back(pass.global_group(c));
  return groups;
}

}  // namespace tensordiag::runtime
