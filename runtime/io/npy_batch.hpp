#pragma once
// A batch of tensors of one shape in one .npy file: shape (B, N, .., N), the batch index first.
// Each tensor keeps the file's order: in a C-ordered file tensor b is one contiguous C-ordered
// block; in a Fortran-ordered one its entries are B apart and it is Fortran-ordered.
#include <complex>
#include <filesystem>
#include <span>
#include <variant>
#include <vector>

#include "runtime/core/tensor.hpp"

namespace tensordiag::runtime {

using AnyTensorBatch = std::variant<std::vector<HostTensor<float>>, std::vector<HostTensor<double>>>;
using AnyComplexTensorBatch =
    std::variant<std::vector<HostTensor<std::complex<float>>>, std::vector<HostTensor<std::complex<double>>>>;

// user_error, naming the file, for anything read_tensor refuses in one tensor of the batch, or a
// file with fewer than 2 axes or an empty batch. The file's data passes through a 16 MiB buffer
// into the tensors: the batch is held once.
AnyTensorBatch read_tensor_batch(const std::filesystem::path& path, Structure structure = Structure::general);
// The same for a complex64 or complex128 file (read_tensor_batch refuses them, this one real files):
// both parts of every value finite.
AnyComplexTensorBatch read_complex_tensor_batch(const std::filesystem::path& path,
                                                Structure structure = Structure::general);
// The same over a whole .npy file in memory, `name` standing for the file in messages (the fuzzer's
// entry point).
AnyTensorBatch read_tensor_batch(std::span<const unsigned char> bytes, const std::filesystem::path& name);

// Tensors of one shape and layout, written as (B, N, .., N) in their order, straight from their
// values (no stacked copy: the file is written a tensor, or 16 MiB, at a time).
template <class T>
void write_tensor_batch(const std::filesystem::path& path, const std::vector<const HostTensor<T>*>& tensors);
template <class T>
void write_tensor_batch(const std::filesystem::path& path, const std::vector<HostTensor<T>>& tensors);
// Matrices N x N written as (B, N, N), C order.
template <class T>
void write_matrix_batch(const std::filesystem::path& path, const std::vector<const Matrix<T>*>& matrices);
template <class T>
void write_matrix_batch(const std::filesystem::path& path, const std::vector<Matrix<T>>& matrices);

// Pointers to each item, for the writers above.
template <class Item>
std::vector<const Item*> pointers_to(const std::vector<Item>& items) {
  std::vector<const Item*> pointers;
  pointers.reserve(items.size());
  for (const Item& item : items) pointers.push_back(&item);
  return pointers;
}

}  // namespace tensordiag::runtime
