#include "runtime/io/npy_packed.hpp"

#include <cstring>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

namespace {

template <class T>
PackedSymmetricTensor<T> packed_from(const NpyArray& array, int order, int size) {
  std::vector<T> values(array.shape.front());
  std::memcpy(values.data(), array.bytes.data(), array.bytes.size());
  return PackedSymmetricTensor<T>(order, size, std::move(values));
}

}  // namespace

AnyPackedTensor read_packed_symmetric(const std::filesystem::path& path, int order) {
  const NpyArray array = read_npy_array(path);
  const std::string file = path.string();
  if (is_complex(array.dtype))
    throw user_error(file + ": packed storage holds real tensors (float32 or float64), not " +
                     std::string(to_string(array.dtype)));
  if (array.shape.size() != 1)
    throw user_error(file + ": a packed symmetric tensor is one-dimensional (its distinct entries), not of shape " +
                     shape_text(array.shape));
  int size = 0;
  try {
    size = packed_size_of(order, array.shape.front());
  } catch (const user_error& error) {
    throw user_error(file + ": " + error.what());
  }
  if (array.dtype == Dtype::float32) return packed_from<float>(array, order, size);
  return packed_from<double>(array, order, size);
}

template <class T>
void write_packed_symmetric(const std::filesystem::path& path, const PackedSymmetricTensor<T>& tensor) {
  NpyArray array;
  array.dtype = dtype_of<T>();
  array.shape = {tensor.count()};
  array.bytes.resize(tensor.count() * sizeof(T));
  std::memcpy(array.bytes.data(), tensor.values().data(), array.bytes.size());
  write_npy_array(path, array);
}

AnyPackedTensor convert(const AnyPackedTensor& tensor, Dtype dtype) {
  return std::visit(
      [dtype](const auto& typed) -> AnyPackedTensor {
        const auto to = [&typed](auto zero) {
          using U = decltype(zero);
          return PackedSymmetricTensor<U>(typed.order(), typed.size(),
                                          std::vector<U>(typed.values().begin(), typed.values().end()));
        };
        if (dtype == Dtype::float32) return to(float{});
        if (dtype == Dtype::float64) return to(double{});
        throw user_error("packed storage holds real tensors: --dtype " + std::string(to_string(dtype)) +
                         " is not available for it");
      },
      tensor);
}

template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<float>&);
template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<double>&);

}  // namespace tensordiag::runtime
