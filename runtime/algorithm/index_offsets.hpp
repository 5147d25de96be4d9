#pragma once
// Where the entry with index i in mode n lives, relative to the tensor's first entry: i * stride[n],
// except in one mode of a slab of a distributed tensor (runtime/distributed/), which holds only some
// of that mode's indices: there a table gives the offset of each index it holds, and -1 for the rest.
// The pivot gathers (pivot_subtensor.hpp, pivot_check.hpp) read through it, so one code serves a
// whole tensor and a slab, and both do the same arithmetic.
#include <cstddef>
#include <utility>
#include <vector>

namespace tensordiag::runtime {

struct IndexOffsets {
  std::vector<std::ptrdiff_t> strides;        // per mode, in entries
  int sliced_mode = -1;                       // the mode held in part, or -1 (a whole tensor)
  std::vector<std::ptrdiff_t> sliced_offsets;  // per index of sliced_mode: its offset, or -1

  explicit IndexOffsets(std::vector<std::ptrdiff_t> strides_) : strides(std::move(strides_)) {}
  IndexOffsets(std::vector<std::ptrdiff_t> strides_, int mode, std::vector<std::ptrdiff_t> offsets)
      : strides(std::move(strides_)), sliced_mode(mode), sliced_offsets(std::move(offsets)) {}

  int order() const { return static_cast<int>(strides.size()); }
  bool holds(int mode, int index) const {
    return mode != sliced_mode || sliced_offsets[static_cast<std::size_t>(index)] >= 0;
  }
  // @pre holds(mode, index)
  std::ptrdiff_t operator()(int mode, int index) const {
    return mode == sliced_mode ? sliced_offsets[static_cast<std::size_t>(index)]
                               : index * strides[static_cast<std::size_t>(mode)];
  }
};

}  // namespace tensordiag::runtime
