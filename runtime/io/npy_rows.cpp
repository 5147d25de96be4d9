#include "runtime/io/npy_rows.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstring>
#include <string>

#include "runtime/core/errors.hpp"

namespace tensordiag::runtime {

namespace {

namespace fs = std::filesystem;

[[noreturn]] void fail(const fs::path& file, const std::string& what) {
  throw user_error(file.string() + ": " + what);
}

std::vector<std::size_t> cube(int order, int size) {
  return std::vector<std::size_t>(static_cast<std::size_t>(order), static_cast<std::size_t>(size));
}

// An open file descriptor, closed on every path out.
class FileHandle {
public:
  FileHandle(const fs::path& path, int flags) : fd_(::open(path.c_str(), flags | O_CLOEXEC, 0644)) {
    if (fd_ < 0) fail(path, std::string("cannot open: ") + std::strerror(errno));
  }
  ~FileHandle() {
    if (fd_ >= 0) ::close(fd_);
  }
  FileHandle(const FileHandle&) = delete;
  FileHandle& operator=(const FileHandle&) = delete;
  int fd() const { return fd_; }

private:
  int fd_;
};

// pread / pwrite of `count` bytes at `offset`, through short transfers and interrupts.
template <class Transfer, class Bytes>
bool transfer_all(Transfer transfer, int fd, Bytes* bytes, std::size_t count, off_t offset) {
  while (count > 0) {
    const ssize_t done = transfer(fd, bytes, count, offset);
    if (done < 0 && errno == EINTR) continue;
    if (done <= 0) return false;
    bytes += done;
    count -= static_cast<std::size_t>(done);
    offset += done;
  }
  return true;
}

template <class From, class T>
void read_rows_as(const fs::path& path, const TensorShape& shape, const std::vector<int>& rows, int row_parts, T* out) {
  const std::size_t row_length = entry_count(shape.order - 1, shape.size) / static_cast<std::size_t>(row_parts);
  const FileHandle file(path, O_RDONLY);
  std::vector<From> row(row_length);
  for (std::size_t t = 0; t < rows.size(); ++t) {
    const std::uintmax_t offset = shape.data_offset + static_cast<std::uintmax_t>(rows[t]) * row_length * sizeof(From);
    if (!transfer_all(::pread, file.fd(), reinterpret_cast<char*>(row.data()), row_length * sizeof(From),
                      static_cast<off_t>(offset)))
      fail(path, "read error in the data (row " + std::to_string(rows[t]) + "): " + std::strerror(errno));
    T* to = out + t * row_length;
    for (std::size_t k = 0; k < row_length; ++k) {
      if (!std::isfinite(row[k]))
        fail(path, "contains NaN or Inf at flat index " +
                       std::to_string(static_cast<std::size_t>(rows[t]) * row_length + k) + " (file order): " +
                       (std::isnan(row[k]) ? "nan" : row[k] > 0 ? "inf" : "-inf"));
      to[k] = static_cast<T>(row[k]);
    }
  }
}

}  // namespace

template <class T>
void read_npy_rows(const fs::path& path, const TensorShape& shape, const std::vector<int>& rows, T* out,
                   int row_parts) {
  if (is_complex(shape.dtype))
    fail(path, "holds " + std::string(to_string(shape.dtype)) + " data: the distributed engine takes real tensors");
  if (shape.dtype == Dtype::float32)
    read_rows_as<float>(path, shape, rows, row_parts, out);
  else
    read_rows_as<double>(path, shape, rows, row_parts, out);
}

template <class T>
void create_npy_tensor_file(const fs::path& path, int order, int size, Layout layout) {
  const std::string prefix = npy_prefix(dtype_of<T>(), layout == Layout::fortran_order, cube(order, size));
  const FileHandle file(path, O_WRONLY | O_CREAT | O_TRUNC);
  const std::uintmax_t bytes = prefix.size() + entry_count(order, size) * sizeof(T);
  if (!transfer_all(::pwrite, file.fd(), prefix.data(), prefix.size(), 0) ||
      ::ftruncate(file.fd(), static_cast<off_t>(bytes)) != 0)
    fail(path, std::string("write failed: ") + std::strerror(errno));
}

template <class T>
void write_npy_rows(const fs::path& path, int order, int size, Layout layout, const std::vector<int>& rows,
                    const T* values, int row_parts) {
  const std::size_t prefix = npy_prefix(dtype_of<T>(), layout == Layout::fortran_order, cube(order, size)).size();
  const std::size_t row_bytes = entry_count(order - 1, size) / static_cast<std::size_t>(row_parts) * sizeof(T);
  const FileHandle file(path, O_WRONLY);
  for (std::size_t t = 0; t < rows.size(); ++t)
    if (!transfer_all(::pwrite, file.fd(), reinterpret_cast<const char*>(values) + t * row_bytes, row_bytes,
                      static_cast<off_t>(prefix + static_cast<std::size_t>(rows[t]) * row_bytes)))
      fail(path, "write failed (row " + std::to_string(rows[t]) + "): " + std::strerror(errno));
  if (::fsync(file.fd()) != 0) fail(path, std::string("write failed: ") + std::strerror(errno));
}

template <class T>
NpyRowWriter<T>::NpyRowWriter(fs::path path, int order, int size, Layout layout)
    : path_(std::move(path)), out_(path_, std::ios::binary | std::ios::trunc), entries_left_(entry_count(order, size)) {
  if (!out_) fail(path_, std::string("cannot open for writing: ") + std::strerror(errno));
  const std::string prefix = npy_prefix(dtype_of<T>(), layout == Layout::fortran_order, cube(order, size));
  out_.write(prefix.data(), static_cast<std::streamsize>(prefix.size()));
}

template <class T>
void NpyRowWriter<T>::append(const T* row, std::size_t length) {
  if (length > entries_left_) throw internal_error("NpyRowWriter: more entries than the tensor has");
  entries_left_ -= length;
  out_.write(reinterpret_cast<const char*>(row), static_cast<std::streamsize>(length * sizeof(T)));
  if (!out_) fail(path_, std::string("write failed: ") + std::strerror(errno));
}

template <class T>
void NpyRowWriter<T>::finish() {
  if (entries_left_ != 0) throw internal_error("NpyRowWriter: " + std::to_string(entries_left_) + " entries missing");
  // The last buffered bytes reach the file only at close, so a full disk may show only there.
  out_.close();
  if (!out_) fail(path_, std::string("write failed: ") + std::strerror(errno));
}

template class NpyRowWriter<float>;
template class NpyRowWriter<double>;

#define TENSORDIAG_INSTANTIATE(T)                                                                       \
  template void read_npy_rows(const fs::path&, const TensorShape&, const std::vector<int>&, T*, int);   \
  template void create_npy_tensor_file<T>(const fs::path&, int, int, Layout);                          \
  template void write_npy_rows(const fs::path&, int, int, Layout, const std::vector<int>&, const T*, int);
TENSORDIAG_INSTANTIATE(float)
TENSORDIAG_INSTANTIATE(double)
#undef TENSORDIAG_INSTANTIATE

}  // namespace tensordiag::runtime
