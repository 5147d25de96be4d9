#include "runtime/io/npy_batch.hpp"

#include <complex>
#include <cstring>
#include <utility>

#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

namespace {

// Tensor b of the batch: entry f of it (f in the file's order) is entry b + B f of a Fortran-ordered
// file, and entry b N^D + f of a C-ordered one.
template <class T>
std::vector<HostTensor<T>> split(const NpyArray& array, int order, int size, const std::filesystem::path& path) {
  const std::size_t batch = array.shape[0];
  const std::size_t count = entry_count(order, size);
  const Layout layout = array.fortran_order ? Layout::fortran_order : Layout::c_order;
  std::vector<HostTensor<T>> tensors;
  tensors.reserve(batch);
  for (std::size_t b = 0; b < batch; ++b) {
    std::vector<T> values(count);
    for (std::size_t f = 0; f < count; ++f) {
      const std::size_t at = array.fortran_order ? b + batch * f : b * count + f;
      std::memcpy(&values[f], array.bytes.data() + at * sizeof(T), sizeof(T));
      if (!is_finite(values[f]))
        throw user_error(path.string() + ": tensor " + std::to_string(b) + " of the batch contains NaN or Inf");
    }
    tensors.emplace_back(order, size, layout, std::move(values));
  }
  return tensors;
}

template <class Item>
NpyArray stack(const std::vector<Item>& items, std::vector<std::size_t> item_shape, bool fortran_order,
               auto&& values_of) {
  using T = std::remove_cvref_t<decltype(values_of(items.front())[0])>;
  NpyArray array;
  array.dtype = dtype_of<T>();
  array.fortran_order = fortran_order;
  array.shape = {items.size()};
  array.shape.insert(array.shape.end(), item_shape.begin(), item_shape.end());
  const std::size_t batch = items.size();
  const std::size_t count = values_of(items.front()).size();
  array.bytes.resize(batch * count * sizeof(T));
  for (std::size_t b = 0; b < batch; ++b)
    for (std::size_t f = 0; f < count; ++f) {
      const std::size_t at = fortran_order ? b + batch * f : b * count + f;
      std::memcpy(array.bytes.data() + at * sizeof(T), &values_of(items[b])[f], sizeof(T));
    }
  return array;
}

// The batch's order and size, checked as read_tensor checks one tensor's shape.
std::pair<int, int> batch_tensor_shape(const NpyArray& array, const std::filesystem::path& path, Structure structure) {
  if (array.shape.size() < 2 || array.shape[0] == 0)
    throw user_error(path.string() + ": a batch needs shape (B, N, .., N) with B >= 1; this one has shape " +
                     shape_text(array.shape));
  const std::vector<std::size_t> tensor_shape(array.shape.begin() + 1, array.shape.end());
  try {
    check_tensor_shape(tensor_shape, structure);
  } catch (const user_error& error) {
    throw user_error(path.string() + ": each tensor of the batch: " + error.what());
  }
  return {static_cast<int>(tensor_shape.size()), static_cast<int>(tensor_shape[0])};
}

AnyTensorBatch split_batch(const NpyArray& array, const std::filesystem::path& path, Structure structure) {
  if (is_complex(array.dtype))
    throw user_error(path.string() + ": holds " + std::string(to_string(array.dtype)) +
                     " data: read it with read_complex_tensor_batch");
  const auto [order, size] = batch_tensor_shape(array, path, structure);
  if (array.dtype == Dtype::float32) return split<float>(array, order, size, path);
  return split<double>(array, order, size, path);
}

AnyComplexTensorBatch split_complex_batch(const NpyArray& array, const std::filesystem::path& path) {
  if (!is_complex(array.dtype))
    throw user_error(path.string() + ": holds " + std::string(to_string(array.dtype)) +
                     " data, not complex64 or complex128");
  const auto [order, size] = batch_tensor_shape(array, path, Structure::general);
  if (array.dtype == Dtype::complex64) return split<std::complex<float>>(array, order, size, path);
  return split<std::complex<double>>(array, order, size, path);
}

}  // namespace

AnyTensorBatch read_tensor_batch(const std::filesystem::path& path, Structure structure) {
  return split_batch(read_npy_array(path), path, structure);
}

AnyComplexTensorBatch read_complex_tensor_batch(const std::filesystem::path& path) {
  return split_complex_batch(read_npy_array(path), path);
}

AnyTensorBatch read_tensor_batch(std::span<const unsigned char> bytes, const std::filesystem::path& name) {
  return split_batch(read_npy_array(bytes, name), name, Structure::general);
}

template <class T>
void write_tensor_batch(const std::filesystem::path& path, const std::vector<HostTensor<T>>& tensors) {
  if (tensors.empty()) throw internal_error("write_tensor_batch: an empty batch");
  const auto& first = tensors.front();
  write_npy_array(path, stack(tensors, std::vector<std::size_t>(static_cast<std::size_t>(first.order()),
                                                                static_cast<std::size_t>(first.size())),
                              first.layout() == Layout::fortran_order,
                              [](const HostTensor<T>& t) -> const std::vector<T>& { return t.values(); }));
}

template <class T>
void write_matrix_batch(const std::filesystem::path& path, const std::vector<Matrix<T>>& matrices) {
  if (matrices.empty()) throw internal_error("write_matrix_batch: an empty batch");
  const auto n = static_cast<std::size_t>(matrices.front().n);
  write_npy_array(path, stack(matrices, {n, n}, false, [](const Matrix<T>& m) -> const std::vector<T>& { return m.data; }));
}

template void write_tensor_batch(const std::filesystem::path&, const std::vector<HostTensor<float>>&);
template void write_tensor_batch(const std::filesystem::path&, const std::vector<HostTensor<double>>&);
template void write_matrix_batch(const std::filesystem::path&, const std::vector<Matrix<float>>&);
template void write_matrix_batch(const std::filesystem::path&, const std::vector<Matrix<double>>&);
template void write_tensor_batch(const std::filesystem::path&, const std::vector<HostTensor<std::complex<float>>>&);
template void write_tensor_batch(const std::filesystem::path&, const std::vector<HostTensor<std::complex<double>>>&);
template void write_matrix_batch(const std::filesystem::path&, const std::vector<Matrix<std::complex<float>>>&);
template void write_matrix_batch(const std::filesystem::path&, const std::vector<Matrix<std::complex<double>>>&);

}  // namespace tensordiag::runtime
