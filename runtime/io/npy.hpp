#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian float32 ('<f4'), float64
// ('<f8'), complex64 ('<c8') and complex128 ('<c16'); '=' is read as '<'), C or Fortran order. Everything else is a
// user_error with a one-line message that names the file. Files are written in version 1.0 (2.0
// when the header needs more than 65535 bytes), the header padded to a multiple of 64 bytes.
#include <filesystem>
#include <functional>
#include <memory>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

// An array as stored in a .npy file: any shape, data in file order.
struct NpyArray {
  Dtype dtype = Dtype::float64;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> bytes;  // raw little-endian values, shape product x element size
};

// Any shape, including () and (0,). Shapes whose byte count overflows, or that the file does not
// hold, are rejected before anything is allocated.
NpyArray read_npy_array(const std::filesystem::path& path);
// The same reader over a whole .npy file already in memory, with `name` standing for the file in
// messages. The file readers parse through the same code (npy_source.hpp), which is what the
// fuzzer (fuzz/npy_fuzzer.cpp) feeds.
NpyArray read_npy_array(std::span<const unsigned char> bytes, const std::filesystem::path& name);
// Throws internal_error when array.bytes does not hold exactly shape product x element size.
void write_npy_array(const std::filesystem::path& path, const NpyArray& array);
// The user_error for a file whose `bytes` of data do not fit this machine's memory.
[[noreturn]] void fail_too_large(const std::filesystem::path& file, std::size_t bytes);
// A .npy file whose data comes in parts, each call of `next_part` giving the next bytes in file
// order (valid until the next call), until the shape's bytes are written: a stacked batch is
// written from its items without a buffer of its own size. internal_error when a part is empty
// or runs past the shape's bytes; user_error naming the file when it cannot be written.
void write_npy_in_parts(const std::filesystem::path& path, Dtype dtype, bool fortran_order,
                        const std::vector<std::size_t>& shape,
                        const std::function<std::span<const unsigned char>()>& next_part);

// A .npy file whose header is read and checked on opening (as read_npy_array checks it) and whose
// data is read later, once, straight into values of the caller's type: one copy of the data in
// memory, where read_npy_array holds its bytes and a caller that wants typed values makes a second.
// The caller can refuse a dtype or shape before anything is allocated.
class NpyReader {
public:
  explicit NpyReader(const std::filesystem::path& path);
  ~NpyReader();
  NpyReader(const NpyReader&) = delete;
  NpyReader& operator=(const NpyReader&) = delete;

  Dtype dtype() const;
  bool fortran_order() const;
  const std::vector<std::size_t>& shape() const;

  // Every value in file order. T must be the file's dtype (internal_error otherwise); the data is
  // read at the first call, a second call is an internal_error. A value count over this machine's
  // memory or a short read is a user_error naming the file.
  template <class T>
  std::vector<T> values();
  // The data in file order instead, at most `chunk_bytes` at a time (whole values), each chunk
  // handed to `take`: the file passes through one buffer of that size, for a caller that places the
  // values itself (a batch's tensors). Once, and not with values(); a short read as values().
  void read_chunks(std::size_t chunk_bytes, const std::function<void(std::span<const unsigned char>)>& take);

private:
  struct State;
  std::unique_ptr<State> state_;
};

// Writes `values` as a one-dimensional array of their dtype.
template <class T>
void write_vector(const std::filesystem::path& path, std::span<const T> values);

// A cubical tensor of order >= 3 and size N >= 2 (order 2 is rejected with a pointer to an SVD;
// order < 2, non-cubical shapes and N < 2 are rejected), with every value finite. The data stays
// in file order: a Fortran-ordered file gives a tensor with Layout::fortran_order.
// A symmetric `structure` admits order 2 (check_tensor_shape); the symmetry itself is checked by
// the run, not here.
AnyTensor read_tensor(const std::filesystem::path& path, Structure structure = Structure::general);
AnyTensor read_tensor(std::span<const unsigned char> bytes, const std::filesystem::path& name);
// The same for a complex64 or complex128 file (read_tensor refuses them, this one real files;
// both are user_errors naming the file). Both parts of every value finite. Structure symmetric
// takes order 2 too (complex symmetric matrices: the Takagi factorization).
AnyComplexTensor read_complex_tensor(const std::filesystem::path& path, Structure structure = Structure::general);

// What read_tensor would read, from the header alone (checked as read_tensor checks it; the data
// is not read): for decisions before a large tensor is loaded.
struct TensorShape {
  int order = 0;
  int size = 0;
  Dtype dtype = Dtype::float64;
  Layout layout = Layout::c_order;
  std::uintmax_t data_offset = 0;  // bytes before the data: magic, version, length and header
};
TensorShape read_tensor_shape(const std::filesystem::path& path, Structure structure = Structure::general);

// The bytes that open a .npy file of this dtype, order and shape, up to its data (npy_rows.hpp
// writes a tensor's data in parts after it).
std::string npy_prefix(Dtype dtype, bool fortran_order, const std::vector<std::size_t>& shape);

// Writes the tensor in its own layout and dtype. Writes `path` directly: callers that need
// atomicity write to a temporary name and rename.
template <class T>
void write_tensor(const std::filesystem::path& path, const HostTensor<T>& tensor);
// Writes an n x n C-order array.
template <class T>
void write_matrix(const std::filesystem::path& path, const Matrix<T>& matrix);

extern template std::vector<float> NpyReader::values<float>();
extern template std::vector<double> NpyReader::values<double>();
extern template void write_vector(const std::filesystem::path&, std::span<const float>);
extern template void write_vector(const std::filesystem::path&, std::span<const double>);
extern template void write_tensor(const std::filesystem::path&, const HostTensor<float>&);
extern template void write_tensor(const std::filesystem::path&, const HostTensor<double>&);
extern template void write_matrix(const std::filesystem::path&, const Matrix<float>&);
extern template void write_matrix(const std::filesystem::path&, const Matrix<double>&);
extern template void write_tensor(const std::filesystem::path&, const HostTensor<std::complex<float>>&);
extern template void write_tensor(const std::filesystem::path&, const HostTensor<std::complex<double>>&);
extern template void write_matrix(const std::filesystem::path&, const Matrix<std::complex<float>>&);
extern template void write_matrix(const std::filesystem::path&, const Matrix<std::complex<double>>&);

}  // namespace tensordiag::runtime
