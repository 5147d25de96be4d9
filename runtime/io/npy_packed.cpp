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

PackedSymmetricFile::PackedSymmetricFile(const std::filesystem::path& path, int order)
    : reader_(path), shape_(checked_header(reader_, path, order)) {}

AnyPackedTensor PackedSymmetricFile::read() {
  // Straight into the tensor's values: the file's bytes are held once.
  if (shape_.dtype == Dtype::float32) return PackedSymmetricTensor<float>(shape_.order, shape_.size, reader_.values<float>());
  return PackedSymmetricTensor<double>(shape_.order, shape_.size, reader_.values<double>());
}

AnyPackedTensor read_packed_symmetric(const std::filesystem::path& path, int order) {
  return PackedSymmetricFile(path, order).read();
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
