#pragma once
// A tensor's .npy file read and written a row at a time, for a tensor spread over processes
// (runtime/distributed/): a row is the N^(D-1) entries with one index of the slowest memory mode
// fixed (mode 1 in C order, mode D in Fortran order), contiguous in the file, so each process reads
// and writes only its own rows and no process ever holds the whole tensor.
#include <filesystem>
#include <fstream>
#include <vector>

#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

// Reads rows `rows` of the tensor file `path` (its header read as `shape`) into `out`, one after the
// other, converted to T. Throws user_error naming the file on a read error or a NaN/Inf entry.
// With `row_parts` > 1 each row is cut into that many equal parts and `rows` numbers parts
// (runtime/distributed/slab.hpp), as in write_npy_rows.
template <class T>
void read_npy_rows(const std::filesystem::path& path, const TensorShape& shape, const std::vector<int>& rows, T* out,
                   int row_parts = 1);

// Creates `path` as a .npy file of the whole tensor (header, then N^D entries of T that read as
// zeros until written), in `layout`: write_npy_rows then fills it.
template <class T>
void create_npy_tensor_file(const std::filesystem::path& path, int order, int size, Layout layout);

// Writes rows `rows`, one after the other in `values`, into the file create_npy_tensor_file made.
// Processes may write their rows of one file at the same time. Throws user_error on a write error.
template <class T>
void write_npy_rows(const std::filesystem::path& path, int order, int size, Layout layout,
                    const std::vector<int>& rows, const T* values, int row_parts = 1);

// A tensor's .npy file written front to back (`tensordiag generate`, which makes tensors larger
// than memory): the header at construction, then append() the data in file order, in chunks of
// any length, then finish(), which checks that all N^D entries came and reached the file.
template <class T>
class NpyRowWriter {
public:
  // Throws user_error naming the file when it cannot be created.
  NpyRowWriter(std::filesystem::path path, int order, int size, Layout layout);
  void append(const T* row, std::size_t length);
  void finish();

private:
  std::filesystem::path path_;
  std::ofstream out_;
  std::size_t entries_left_;
};

extern template class NpyRowWriter<float>;
extern template class NpyRowWriter<double>;

}  // namespace tensordiag::runtime
