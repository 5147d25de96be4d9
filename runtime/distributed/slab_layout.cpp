#include "runtime/distributed/slab_layout.hpp"

#include <algorithm>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

int SlabLayout::owner(int index) const {
  for (int r = 0; r < ranks(); ++r)
    if (std::binary_search(rows[static_cast<std::size_t>(r)].begin(), rows[static_cast<std::size_t>(r)].end(), index))
      return r;
  throw internal_error("SlabLayout: no rank holds row " + std::to_string(index));
}

int SlabLayout::position(int index) const {
  const auto& held = rows[static_cast<std::size_t>(owner(index))];
  return static_cast<int>(std::lower_bound(held.begin(), held.end(), index) - held.begin());
}

bool SlabLayout::holds_whole(const PivotGroup& group) const {
  return std::all_of(group.begin(), group.end(), [this](PivotPair pair) { return owner(pair.p) == owner(pair.q); });
}

}  // namespace tensordiag::runtime
