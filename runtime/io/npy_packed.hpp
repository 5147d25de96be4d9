#pragma once
// Packed symmetric tensors in .npy files (packed_symmetric.hpp): a one-dimensional float32 or
// float64 array of the binom(N + D - 1, D) distinct entries in lexicographic order of their sorted
// index tuples. The file does not say D, so the reader is told it; N follows from the length.
#include <filesystem>
#include <variant>
#include <vector>

#include "runtime/core/packed_symmetric.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

// user_error naming the file for anything else: another shape, a complex dtype, a length that no
// N gives for this order. The data is read straight into the tensor's values: the file's bytes are
// held once.
AnyPackedTensor read_packed_symmetric(const std::filesystem::path& path, int order);

// A packed symmetric tensor's file, its header read and checked on opening (read_packed_symmetric's
// checks, the same user_errors), its values read once, on read(): a run's options can be checked
// against the shape before a large file's data is read, without parsing the header twice.
struct PackedShape {
  int order = 0;
  int size = 0;
  Dtype dtype = Dtype::float64;
};
class PackedSymmetricFile {
public:
  PackedSymmetricFile(const std::filesystem::path& path, int order);
  const PackedShape& shape() const { return shape_; }
  AnyPackedTensor read();  // once (NpyReader::values)

private:
  NpyReader reader_;
  PackedShape shape_;
};

template <class T>
void write_packed_symmetric(const std::filesystem::path& path, const PackedSymmetricTensor<T>& tensor);

// A batch of packed symmetric tensors of one order and size in one file: a two-dimensional array
// (B, binom(N + D - 1, D)), row b the distinct entries of tensor b (C order; a Fortran-ordered file
// is read row by row all the same). user_error naming the file for anything else: another number
// of axes, an empty batch, a complex dtype, a row length that no N gives for this order.
using AnyPackedBatch =
    std::variant<std::vector<PackedSymmetricTensor<float>>, std::vector<PackedSymmetricTensor<double>>>;
AnyPackedBatch read_packed_batch(const std::filesystem::path& path, int order);
// Such a file with its header read and checked on opening (the same user_errors) and its values
// read once, on read(): the options can be checked against the shape before the data is read.
class PackedBatchFile {
public:
  PackedBatchFile(const std::filesystem::path& path, int order);
  const PackedShape& shape() const { return shape_; }  // of every tensor of the batch
  std::size_t count() const { return count_; }         // B
  AnyPackedBatch read();  // through a 16 MiB buffer: the batch is held once

private:
  std::filesystem::path path_;
  NpyReader reader_;
  std::size_t count_ = 0;
  PackedShape shape_;
};
// Tensors of one order and size, written as (B, binom(N + D - 1, D)) in C order.
// Straight from their values, a tensor at a time.
template <class T>
void write_packed_batch(const std::filesystem::path& path, const std::vector<const PackedSymmetricTensor<T>*>& tensors);

// user_error for a dtype packed storage does not hold (complex), naming it as --dtype.
void require_packed_dtype(Dtype dtype);

// The same tensor in another real dtype (require_packed_dtype's error for a complex one).
AnyPackedTensor convert(const AnyPackedTensor& tensor, Dtype dtype);

extern template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<float>&);
extern template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<double>&);
extern template void write_packed_batch(const std::filesystem::path&,
                                       const std::vector<const PackedSymmetricTensor<float>*>&);
extern template void write_packed_batch(const std::filesystem::path&,
                                       const std::vector<const PackedSymmetricTensor<double>*>&);

}  // namespace tensordiag::runtime
