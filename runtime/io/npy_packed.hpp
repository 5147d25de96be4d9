#pragma once
// Packed symmetric tensors in .npy files (packed_symmetric.hpp): a one-dimensional float32 or
// float64 array of the binom(N + D - 1, D) distinct entries in lexicographic order of their sorted
// index tuples. The file does not say D, so the reader is told it; N follows from the length.
#include <filesystem>

#include "runtime/core/packed_symmetric.hpp"

namespace tensordiag::runtime {

// user_error naming the file for anything else: another shape, a complex dtype, a length that no
// N gives for this order. The data is read straight into the tensor's values: the file's bytes are
// held once.
AnyPackedTensor read_packed_symmetric(const std::filesystem::path& path, int order);

// What read_packed_symmetric would read, from the header alone, with the same checks: for checking
// a run's options before a large file is read.
struct PackedShape {
  int order = 0;
  int size = 0;
  Dtype dtype = Dtype::float64;
};
PackedShape read_packed_symmetric_shape(const std::filesystem::path& path, int order);

template <class T>
void write_packed_symmetric(const std::filesystem::path& path, const PackedSymmetricTensor<T>& tensor);

// The same tensor in another real dtype.
AnyPackedTensor convert(const AnyPackedTensor& tensor, Dtype dtype);

extern template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<float>&);
extern template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<double>&);

}  // namespace tensordiag::runtime
