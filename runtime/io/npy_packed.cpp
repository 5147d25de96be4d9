#include "runtime/io/npy_packed.hpp"

#include <cstring>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/io/batch_rows.hpp"
#include "runtime/io/npy.hpp"

namespace tensordiag::runtime {

namespace {

// user_error naming the file for a complex dtype.
void require_real(const NpyReader& reader, const std::string& file) {
  if (is_complex(reader.dtype()))
    throw user_error(file + ": packed storage holds real tensors (float32 or float64), not " +
                     std::string(to_string(reader.dtype())));
}

// The tensor of `count` entries in the header's dtype, or a user_error naming the file when the
// count is binom(N + D - 1, D) for no N.
PackedShape packed_shape_of(const NpyReader& reader, const std::string& file, int order, std::size_t count) {
  try {
    return {order, packed_size_of(order, count), reader.dtype()};
  } catch (const user_error& error) {
    throw user_error(file + ": " + error.what());
  }
}

// The packed tensor a file's header describes, checked: a real dtype, one dimension, a count that
// is binom(N + D - 1, D) for the order.
PackedShape checked_header(const NpyReader& reader, const std::filesystem::path& path, int order) {
  const std::string file = path.string();
  require_real(reader, file);
  if (reader.shape().size() != 1)
    throw user_error(file + ": a packed symmetric tensor is one-dimensional (its distinct entries), not of shape " +
                     shape_text(reader.shape()));
  return packed_shape_of(reader, file, order, reader.shape().front());
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
  write_vector(path, std::span<const T>(tensor.data(), tensor.count()));
}

PackedBatchFile::PackedBatchFile(const std::filesystem::path& path, int order) : path_(path), reader_(path) {
  const std::string file = path.string();
  require_real(reader_, file);
  const std::vector<std::size_t>& shape = reader_.shape();
  if (shape.size() != 2)
    throw user_error(file + ": a batch of packed symmetric tensors is two-dimensional (B, binom(N + " +
                     std::to_string(order - 1) + ", " + std::to_string(order) + ")), not of shape " + shape_text(shape));
  if (shape[0] == 0) throw user_error(file + ": the batch holds no tensor (shape " + shape_text(shape) + ")");
  shape_ = packed_shape_of(reader_, file, order, shape[1]);
  count_ = shape[0];
}

AnyPackedBatch PackedBatchFile::read() {
  // The file's data a chunk at a time straight into the rows: the batch is held once.
  const auto tensors = [&]<class T>() {
    std::vector<PackedSymmetricTensor<T>> out;
    for (std::vector<T>& row : read_batch_rows<T>(count_, reader_.shape()[1], reader_.fortran_order(),
                                                  file_feed(reader_), path_))
      out.emplace_back(shape_.order, shape_.size, std::move(row));
    return out;
  };
  if (shape_.dtype == Dtype::float32) return tensors.template operator()<float>();
  return tensors.template operator()<double>();
}

AnyPackedBatch read_packed_batch(const std::filesystem::path& path, int order) {
  return PackedBatchFile(path, order).read();
}

template <class T>
void write_packed_batch(const std::filesystem::path& path, const std::vector<const PackedSymmetricTensor<T>*>& tensors) {
  if (tensors.empty()) throw internal_error("write_packed_batch: no tensor");
  const std::size_t count = tensors.front()->count();
  std::vector<const T*> rows;
  for (const auto* tensor : tensors) {
    if (tensor->count() != count) throw internal_error("write_packed_batch: tensors of different sizes");
    rows.push_back(tensor->data());
  }
  write_batch_rows(path, std::move(rows), count, {count}, false);
}

void require_packed_dtype(Dtype dtype) {
  if (is_complex(dtype))
    throw user_error("packed storage holds real tensors: --dtype " + std::string(to_string(dtype)) +
                     " is not available for it");
}

AnyPackedTensor convert(const AnyPackedTensor& tensor, Dtype dtype) {
  require_packed_dtype(dtype);
  return std::visit(
      [dtype](const auto& typed) -> AnyPackedTensor {
        const auto to = [&typed](auto zero) {
          using U = decltype(zero);
          return PackedSymmetricTensor<U>(typed.order(), typed.size(),
                                          std::vector<U>(typed.data(), typed.data() + typed.count()));
        };
        if (dtype == Dtype::float32) return to(float{});
        return to(double{});
      },
      tensor);
}

template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<float>&);
template void write_packed_symmetric(const std::filesystem::path&, const PackedSymmetricTensor<double>&);
template void write_packed_batch(const std::filesystem::path&, const std::vector<const PackedSymmetricTensor<float>*>&);
template void write_packed_batch(const std::filesystem::path&, const std::vector<const PackedSymmetricTensor<double>*>&);

}  // namespace tensordiag::runtime
