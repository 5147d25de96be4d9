#pragma once
// A stacked (B, M) array in file order against its B rows of M values: row b's entry e is value
// b M + e of a C-ordered file and value e B + b of a Fortran-ordered one. Reading places the file's
// values into the rows a chunk at a time as they arrive (NpyReader::read_chunks); writing gives the
// file's bytes a part at a time from the rows (write_npy_in_parts): a batch file is never held a
// second time beside its tensors (runtime/io/npy_batch.*, npy_packed.*).
#include <algorithm>
#include <cstddef>
#include <cstring>
#include <filesystem>
#include <functional>
#include <new>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

// The rows, filled from the file's bytes in order.
template <class T>
class BatchRowFiller {
public:
  BatchRowFiller(std::size_t rows, std::size_t length, bool fortran_order)
      : rows_(rows, std::vector<T>(length)), length_(length), fortran_order_(fortran_order) {}

  // The next bytes of the file's data: a whole number of values.
  void take(std::span<const unsigned char> bytes) {
    const std::size_t values = bytes.size() / sizeof(T);
    if (values * sizeof(T) != bytes.size() || next_ + values > rows_.size() * length_)
      throw internal_error("BatchRowFiller: " + std::to_string(bytes.size()) + " bytes do not fit the batch");
    for (std::size_t k = 0; k < values; ++k, ++next_) {
      const std::size_t row = fortran_order_ ? next_ % rows_.size() : next_ / length_;
      const std::size_t entry = fortran_order_ ? next_ / rows_.size() : next_ % length_;
      std::memcpy(&rows_[row][entry], bytes.data() + k * sizeof(T), sizeof(T));
    }
  }

  // The rows, once every value has come.
  std::vector<std::vector<T>> rows() && {
    if (next_ != rows_.size() * length_) throw internal_error("BatchRowFiller: the batch's data ended early");
    return std::move(rows_);
  }

private:
  std::vector<std::vector<T>> rows_;
  std::size_t length_;
  bool fortran_order_;
  std::size_t next_ = 0;  // the next value's place in the file
};

// The file's bytes, a part at a time, from rows of `length` values each (pointers the caller keeps
// alive): in C order each row's own bytes, in Fortran order a buffer of at most `part_bytes`
// interleaved values.
template <class T>
class BatchRowParts {
public:
  BatchRowParts(std::vector<const T*> rows, std::size_t length, bool fortran_order,
                std::size_t part_bytes = std::size_t{16} << 20)
      : rows_(std::move(rows)), length_(length), fortran_order_(fortran_order),
        part_values_(std::max<std::size_t>(1, part_bytes / sizeof(T))) {}

  std::span<const unsigned char> next() {
    const std::size_t total = rows_.size() * length_;
    if (next_ >= total) throw internal_error("BatchRowParts: asked past the batch's data");
    if (!fortran_order_) {
      const T* row = rows_[next_ / length_];
      next_ += length_;
      return {reinterpret_cast<const unsigned char*>(row), length_ * sizeof(T)};
    }
    buffer_.resize(std::min(part_values_, total - next_));
    for (T& value : buffer_) {
      value = rows_[next_ % rows_.size()][next_ / rows_.size()];
      ++next_;
    }
    return {reinterpret_cast<const unsigned char*>(buffer_.data()), buffer_.size() * sizeof(T)};
  }

private:
  std::vector<const T*> rows_;
  std::size_t length_;
  bool fortran_order_;
  std::size_t part_values_;
  std::vector<T> buffer_;
  std::size_t next_ = 0;  // the next value's place in the file
};

// The data's bytes in file order, handed to `take` a chunk at a time (NpyReader::read_chunks), or
// all at once (a file already in memory).
using BatchByteFeed = std::function<void(const std::function<void(std::span<const unsigned char>)>& take)>;

// A file's data passes through 16 MiB at a time.
inline constexpr std::size_t batch_read_chunk_bytes = std::size_t{16} << 20;

inline BatchByteFeed file_feed(NpyReader& reader) {
  return [&reader](const auto& take) { reader.read_chunks(batch_read_chunk_bytes, take); };
}

// The B rows of `length` values of the batch `feed` gives; the reader's user_error naming the file
// when they do not fit this machine's memory (fail_too_large).
template <class T>
std::vector<std::vector<T>> read_batch_rows(std::size_t rows, std::size_t length, bool fortran_order,
                                            const BatchByteFeed& feed, const std::filesystem::path& path) {
  std::optional<BatchRowFiller<T>> filler;
  try {
    filler.emplace(rows, length, fortran_order);
  } catch (const std::bad_alloc&) {
    fail_too_large(path, rows * length * sizeof(T));
  } catch (const std::length_error&) {
    fail_too_large(path, rows * length * sizeof(T));
  }
  feed([&](std::span<const unsigned char> bytes) { filler->take(bytes); });
  return std::move(*filler).rows();
}

// Rows of `length` values each, written as the stacked array (B, item_shape..).
template <class T>
void write_batch_rows(const std::filesystem::path& path, std::vector<const T*> rows, std::size_t length,
                      const std::vector<std::size_t>& item_shape, bool fortran_order) {
  std::vector<std::size_t> shape{rows.size()};
  shape.insert(shape.end(), item_shape.begin(), item_shape.end());
  BatchRowParts<T> parts(std::move(rows), length, fortran_order);
  write_npy_in_parts(path, dtype_of<T>(), fortran_order, shape, [&] { return parts.next(); });
}

}  // namespace tensordiag::runtime
