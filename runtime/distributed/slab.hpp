#pragma once
// One rank's part of a tensor spread over ranks (slab_layout.hpp): the rows of the slowest memory
// mode it holds now, each N^(D-1) entries in the tensor's layout, one after the other in a buffer
// sized for the most rows the rank holds at any stage of the sweep. An N = 2 tensor over more than
// two GPU ranks (gpu_qubit_ranks.hpp) cuts each row into `row_parts` equal parts, contiguous in
// memory and in the file: its "rows" are then those parts, part j of row i numbered
// i * row_parts + j, and a rank's one part is the tensor's entries whose log2(P) slowest memory
// indices spell the rank's number.
#include <cstddef>
#include <vector>

#include "runtime/algorithm/index_offsets.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/core/tensor.hpp"
#include "runtime/distributed/slab_layout.hpp"

namespace tensordiag::runtime {

template <class T>
struct Slab {
  int order = 0;
  int size = 0;
  Layout layout = Layout::c_order;
  int rank = 0;
  SlabLayout held;        // every rank's rows now
  std::vector<T> values;  // capacity x row_length() entries; rows() of them in use
  int row_parts = 1;      // parts a row is cut into (above); 1 but for an N = 2 tensor on P > 2 GPU ranks

  // The mode the rows are indices of: the slowest in memory.
  int sliced_mode() const { return layout == Layout::c_order ? 0 : order - 1; }
  std::size_t row_length() const { return entry_count(order - 1, size) / static_cast<std::size_t>(row_parts); }
  const std::vector<int>& rows() const { return held.rows[static_cast<std::size_t>(rank)]; }
  T* row(std::size_t position) { return values.data() + position * row_length(); }
  const T* row(std::size_t position) const { return values.data() + position * row_length(); }

  // The whole tensor's strides, with the sliced mode's indices through the rows held (whole rows
  // only: the engines that address entries this way never see parts).
  IndexOffsets offsets() const {
    if (row_parts != 1) throw internal_error("Slab::offsets of a slab of row parts");
    std::vector<std::ptrdiff_t> table(static_cast<std::size_t>(size), -1);
    const auto& mine = rows();
    for (std::size_t t = 0; t < mine.size(); ++t)
      table[static_cast<std::size_t>(mine[t])] = static_cast<std::ptrdiff_t>(t * row_length());
    return IndexOffsets(strides_of(order, size, layout), sliced_mode(), std::move(table));
  }
};

}  // namespace tensordiag::runtime
