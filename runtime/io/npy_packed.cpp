#include "runtime/io/npy_packed.hpp"

#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

namespace {

// The packed tensor a file's header describes, checked: a real dtype, one dimension, a count that
// is binom(N + D - 1, D) for the order.
PackedShape checked_header(const NpyReader& reader, const std::filesystem::path& path, int order) {
  const std::string file = path.string();
  if (is_complex(reader.dtype()))
    throw user_error(file + ": packed storage holds real tensors (float32 or float64), not " +
                     std::string(to_string(reader.dtype())));
  if (reader.shape().size() != 1)
    throw user_error(file + ": a packed symmetric tensor is one-dimensional (its distinct entries), not of shape " +
                     shape_text(reader.shape()));
  try {
    return {order, packed_size_of(order, reader.shape().front()), reader.dtype()};
  } catch (const user_error& error) {
    throw user_error(file + ": " + error.what());
  }
}

}  // namespace

PackedShape read_packed_symmetric_shape(const std::filesystem::path& path, int order) {
  const NpyReader reader(path);
  return checked_header(reader, path, order);
}

AnyPackedTensor read_packed_symmetric(const std::filesystem::path& path, int order) {
  // The header first: a wrong dtype or shape is refused before the data is allocated, and the data
  // is read straight into the tensor's values (one copy in memory).
  NpyReader reader(path);
  const PackedShape shape = checked_header(reader, path, order);
  if (shape.dtype == Dtype::float32) return PackedSymmetricTensor<float>(order, shape.size, reader.values<float>());
  return PackedSymmetricTensor<double>(order, shape.size, reader.values<double>());
}

template <class T>
void write_packed_symmetric(const std::filesystem::path& path, const PackedSymmetricTensor<T>& tensor) {
  write_vector(path, std::span<const T>(tensor.values()));
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
