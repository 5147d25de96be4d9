#pragma once
// NumPy .npy files (format versions 1.0, 2.0 and 3.0): little-endian float32 ('<f4') and float64
// ('<f8'), C or Fortran order. Everything else is a user_error with a one-line message that names
// the file.
#include <filesystem>
#include <vector>

#include "runtime/tensor.hpp"

namespace tensordiag::runtime {

// An array as stored in a .npy file: any shape, data in file order.
struct NpyArray {
  Dtype dtype = Dtype::float64;
  bool fortran_order = false;
  std::vector<std::size_t> shape;
  std::vector<unsigned char> bytes;  // raw little-endian values, shape product x element size
};

NpyArray read_npy_array(const std::filesystem::path& path);
void write_npy_array(const std::filesystem::path& path, const NpyArray& array);

// A cubical tensor of order >= 3 (order 2 is rejected with a pointer to an SVD; order < 2 and
// non-cubical shapes are rejected), with every value finite.
AnyTensor read_tensor(const std::filesystem::path& path);

// Writes the tensor in its own layout and dtype. Writes `path` directly: callers that need
// atomicity write to a temporary name and rename.
template <class T>
void write_tensor(const std::filesystem::path& path, const HostTensor<T>& tensor);
template <class T>
void write_matrix(const std::filesystem::path& path, const Matrix<T>& matrix);

}  // namespace tensordiag::runtime
