#pragma once
// The tuples of a MultisetIndex (the distinct entries of a packed symmetric tensor, or any run of
// sorted index tuples) visited in parallel parts, each part in order.
#include <omp.h>

#include <span>
#include <vector>

#include "runtime/core/multiset_index.hpp"

namespace tensordiag::runtime {

// How many parts a traversal of `work` units should take: 1 below `threshold` (a parallel region
// would cost more than it saves), else `threads` (0: OpenMP's default).
inline int tuple_parts(std::size_t work, std::size_t threshold, int threads) {
  if (work < threshold) return 1;
  return threads > 0 ? threads : omp_get_max_threads();
}

// visit(part, position, tuple) for every tuple of `index`, split into `parts` contiguous runs of
// positions, one OpenMP thread each (one run and no parallel region when parts <= 1); each run
// unranks its first tuple and steps with next().
template <class Visit>
void for_each_tuple(const MultisetIndex& index, int parts, Visit&& visit) {
  const std::size_t count = index.count();
  const int team = parts > 1 ? parts : 1;
#pragma omp parallel num_threads(team) if (team > 1)
  {
    const auto part = static_cast<std::size_t>(omp_get_thread_num());
    const std::size_t begin = count * part / static_cast<std::size_t>(team);
    const std::size_t end = count * (part + 1) / static_cast<std::size_t>(team);
    std::vector<int> tuple(static_cast<std::size_t>(index.length()));
    if (begin < end) index.unrank(begin, tuple);
    for (std::size_t position = begin; position < end; ++position) {
      if (position > begin) index.next(tuple);
      visit(static_cast<int>(part), position, std::span<const int>(tuple));
    }
  }
}

}  // namespace tensordiag::runtime
