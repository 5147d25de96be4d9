#include "runtime/io/npy_batch.hpp"

#include <algorithm>
#include <complex>
#include <utility>

#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/io/batch_rows.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

namespace {

// The B tensors of a batch whose data `feed` gives: tensor b's entry f (in the file's order) is
// value b + B f of a Fortran-ordered file and b N^D + f of a C-ordered one. user_error naming the
// first tensor with a NaN or Inf.
template <class T>
std::vector<HostTensor<T>> split(std::size_t batch, bool fortran_order, int order, int size, const BatchByteFeed& feed,
                                 const std::filesystem::path& path) {
  std::vector<std::vector<T>> rows = read_batch_rows<T>(batch, entry_count(order, size), fortran_order, feed, path);
  const Layout layout = fortran_order ? Layout::fortran_order : Layout::c_order;
  std::vector<HostTensor<T>> tensors;
  tensors.reserve(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    if (!std::all_of(rows[b].begin(), rows[b].end(), [](const T& x) { return is_finite(x); }))
      throw user_error(path.string() + ": tensor " + std::to_string(b) + " of the batch contains NaN or Inf");
    tensors.emplace_back(order, size, layout, std::move(rows[b]));
  }
  return tensors;
}

// The batch's order and size, checked as read_tensor checks one tensor's shape.
std::pair<int, int> batch_tensor_shape(const std::vector<std::size_t>& shape, const std::filesystem::path& path,
                                       Structure structure) {
  if (shape.size() < 2 || shape[0] == 0)
    throw user_error(path.string() + ": a batch needs shape (B, N, .., N) with B >= 1; this one has shape " +
                     shape_text(shape));
  const std::vector<std::size_t> tensor_shape(shape.begin() + 1, shape.end());
  try {
    check_tensor_shape(tensor_shape, structure);
  } catch (const user_error& error) {
    throw user_error(path.string() + ": each tensor of the batch: " + error.what());
  }
  return {static_cast<int>(tensor_shape.size()), static_cast<int>(tensor_shape[0])};
}

AnyTensorBatch split_batch(Dtype dtype, bool fortran_order, const std::vector<std::size_t>& shape, const BatchByteFeed& feed,
                           const std::filesystem::path& path, Structure structure) {
  if (is_complex(dtype))
    throw user_error(path.string() + ": holds " + std::string(to_string(dtype)) +
                     " data: read it with read_complex_tensor_batch");
  const auto [order, size] = batch_tensor_shape(shape, path, structure);
  if (dtype == Dtype::float32) return split<float>(shape[0], fortran_order, order, size, feed, path);
  return split<double>(shape[0], fortran_order, order, size, feed, path);
}

AnyComplexTensorBatch split_complex_batch(Dtype dtype, bool fortran_order, const std::vector<std::size_t>& shape,
                                          const BatchByteFeed& feed, const std::filesystem::path& path,
                                          Structure structure) {
  if (!is_complex(dtype))
    throw user_error(path.string() + ": holds " + std::string(to_string(dtype)) + " data, not complex64 or complex128");
  const auto [order, size] = batch_tensor_shape(shape, path, structure);
  if (dtype == Dtype::complex64) return split<std::complex<float>>(shape[0], fortran_order, order, size, feed, path);
  return split<std::complex<double>>(shape[0], fortran_order, order, size, feed, path);
}

}  // namespace

AnyTensorBatch read_tensor_batch(const std::filesystem::path& path, Structure structure) {
  NpyReader reader(path);
  return split_batch(reader.dtype(), reader.fortran_order(), reader.shape(), file_feed(reader), path, structure);
}

AnyComplexTensorBatch read_complex_tensor_batch(const std::filesystem::path& path, Structure structure) {
  NpyReader reader(path);
  return split_complex_batch(reader.dtype(), reader.fortran_order(), reader.shape(), file_feed(reader), path, structure);
}

AnyTensorBatch read_tensor_batch(std::span<const unsigned char> bytes, const std::filesystem::path& name) {
  const NpyArray array = read_npy_array(bytes, name);
  return split_batch(array.dtype, array.fortran_order, array.shape, [&](const auto& take) { take(array.bytes); }, name,
                     Structure::general);
}

template <class T>
void write_tensor_batch(const std::filesystem::path& path, const std::vector<const HostTensor<T>*>& tensors) {
  if (tensors.empty()) throw internal_error("write_tensor_batch: an empty batch");
  const auto& first = *tensors.front();
  std::vector<const T*> rows;
  for (const HostTensor<T>* tensor : tensors) {
    if (tensor->count() != first.count() || tensor->layout() != first.layout())
      throw internal_error("write_tensor_batch: tensors of different shapes or layouts");
    rows.push_back(tensor->data());
  }
  write_batch_rows(path, std::move(rows), first.count(),
                   std::vector<std::size_t>(static_cast<std::size_t>(first.order()), static_cast<std::size_t>(first.size())),
                   first.layout() == Layout::fortran_order);
}

template <class T>
void write_tensor_batch(const std::filesystem::path& path, const std::vector<HostTensor<T>>& tensors) {
  write_tensor_batch(path, pointers_to(tensors));
}

template <class T>
void write_matrix_batch(const std::filesystem::path& path, const std::vector<const Matrix<T>*>& matrices) {
  if (matrices.empty()) throw internal_error("write_matrix_batch: an empty batch");
  const auto n = static_cast<std::size_t>(matrices.front()->n);
  std::vector<const T*> rows;
  for (const Matrix<T>* matrix : matrices) {
    if (matrix->data.size() != n * n) throw internal_error("write_matrix_batch: matrices of different sizes");
    rows.push_back(matrix->data.data());
  }
  write_batch_rows(path, std::move(rows), n * n, {n, n}, false);
}

template <class T>
void write_matrix_batch(const std::filesystem::path& path, const std::vector<Matrix<T>>& matrices) {
  write_matrix_batch(path, pointers_to(matrices));
}

#define TENSORDIAG_BATCH_WRITERS(T)                                                                         \
  template void write_tensor_batch(const std::filesystem::path&, const std::vector<HostTensor<T>>&);        \
  template void write_tensor_batch(const std::filesystem::path&, const std::vector<const HostTensor<T>*>&); \
  template void write_matrix_batch(const std::filesystem::path&, const std::vector<Matrix<T>>&);            \
  template void write_matrix_batch(const std::filesystem::path&, const std::vector<const Matrix<T>*>&);
TENSORDIAG_BATCH_WRITERS(float)
TENSORDIAG_BATCH_WRITERS(double)
TENSORDIAG_BATCH_WRITERS(std::complex<float>)
TENSORDIAG_BATCH_WRITERS(std::complex<double>)
#undef TENSORDIAG_BATCH_WRITERS

}  // namespace tensordiag::runtime
