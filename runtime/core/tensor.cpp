#include "runtime/core/tensor.hpp"

#include <cmath>
#include <limits>
#include <string>

#include "runtime/core/errors.hpp"
#include "runtime/core/scalar.hpp"

namespace tensordiag::runtime {

std::string_view to_string(Layout layout) {
  return layout == Layout::c_order ? "C" : "F";
}

std::string_view to_string(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return "float32";
    case Dtype::float64: return "float64";
    case Dtype::complex64: return "complex64";
    case Dtype::complex128: return "complex128";
  }
  return "?";
}

Dtype parse_dtype(std::string_view name) {
  for (const Dtype dtype : {Dtype::float32, Dtype::float64, Dtype::complex64, Dtype::complex128})
    if (name == to_string(dtype)) return dtype;
  throw user_error("unsupported dtype '" + std::string(name) + "': use float32, float64, complex64 or complex128");
}

std::size_t dtype_bytes(Dtype dtype) {
  switch (dtype) {
    case Dtype::float32: return 4;
    case Dtype::float64: return 8;
    case Dtype::complex64: return 8;
    case Dtype::complex128: return 16;
  }
  return 0;
}

std::string shape_text(const std::vector<std::size_t>& shape) {
  std::string out = "(";
  for (std::size_t n = 0; n < shape.size(); ++n) {
    if (n > 0) out += ", ";
    out += std::to_string(shape[n]);
  }
  if (shape.size() == 1) out += ",";
  return out + ")";
}

void check_tensor_shape(const std::vector<std::size_t>& shape, Structure structure) {
  const std::string shape_str = "shape " + shape_text(shape);
  const std::string needs = "tensordiag needs a cubical tensor of order >= " + std::to_string(min_order(structure));
  if (shape.empty()) throw user_error(shape_str + " is a scalar; " + needs);
  if (shape.size() == 1) throw user_error(shape_str + " is a vector; " + needs);
  if (shape.size() == 2 && structure == Structure::general)
    throw user_error(shape_str +
                     ": order 2 is a matrix; its diagonalization by orthogonal factors is the SVD "
                     "(numpy.linalg.svd), or for a symmetric matrix the eigendecomposition "
                     "(structure symmetric), for a skew one the Murnaghan form (structure skew)");
  for (auto extent : shape)
    if (extent != shape.front())
      throw user_error(shape_str + " is not cubical; " + needs + " (the same size N in every mode)");
  if (shape.front() == 0) throw user_error(shape_str + " is empty; tensordiag needs size N >= 2");
  if (shape.front() == 1)
    throw user_error(shape_str + " has a single entry, which is trivially diagonal; tensordiag needs size N >= 2");
  if (structure == Structure::skew && shape.front() < shape.size())
    throw user_error(shape_str + ": a skew-symmetric tensor with fewer indices (N) than modes (D) is zero; structure "
                     "skew needs size N >= order D");
}

std::size_t entry_count(int order, int size) {
  if (order < 0 || size < 0) throw user_error("tensor order and size must be non-negative");
  std::size_t count = 1;
  for (int n = 0; n < order; ++n) {
    if (size != 0 && count > std::numeric_limits<std::size_t>::max() / 16 / static_cast<std::size_t>(size))
      throw user_error("tensor of size " + std::to_string(size) + "^" + std::to_string(order) +
                       " is too large to address");
    count *= static_cast<std::size_t>(size);
  }
  return count;
}

std::vector<std::ptrdiff_t> strides_of(int order, int size, Layout layout) {
  // Past addressing, the strides themselves overflow (UBSan found it: generate --order 100 --size 2
  // computed them before the entry count was checked): the same user_error first.
  entry_count(order, size);
  std::vector<std::ptrdiff_t> strides(static_cast<std::size_t>(order));
  std::ptrdiff_t stride = 1;
  for (int k = 0; k < order; ++k) {
    const int mode = layout == Layout::c_order ? order - 1 - k : k;
    strides[static_cast<std::size_t>(mode)] = stride;
    stride *= size;
  }
  return strides;
}

template <class T>
HostTensor<T>::HostTensor(int order, int size, Layout layout)
    : HostTensor(order, size, layout, std::vector<T>(entry_count(order, size))) {}

template <class T>
HostTensor<T>::HostTensor(int order, int size, Layout layout, std::vector<T> data)
    : order_(order), size_(size), layout_(layout), strides_(strides_of(order, size, layout)),
      data_(std::move(data)) {
  if (data_.size() != entry_count(order, size))
    throw internal_error("HostTensor: data size does not match size^order");
}

template <class T>
HostTensor<T> HostTensor<T>::borrow(int order, int size, Layout layout, const T* values) {
  HostTensor<T> tensor;
  tensor.order_ = order;
  tensor.size_ = size;
  tensor.layout_ = layout;
  tensor.strides_ = strides_of(order, size, layout);
  tensor.borrowed_ = values;
  tensor.borrowed_count_ = entry_count(order, size);
  return tensor;
}

template <class T>
HostTensor<T>::HostTensor(const HostTensor& other)
    : order_(other.order_), size_(other.size_), layout_(other.layout_), strides_(other.strides_),
      data_(other.borrowed_ ? std::vector<T>(other.borrowed_, other.borrowed_ + other.borrowed_count_) : other.data_) {}

template <class T>
HostTensor<T>& HostTensor<T>::operator=(const HostTensor& other) {
  if (this != &other) *this = HostTensor(other);
  return *this;
}

template <class T>
void HostTensor<T>::throw_written_borrowed() {
  throw internal_error("HostTensor: writing to a borrowed tensor");
}

template <class T>
const std::vector<T>& HostTensor<T>::values() const {
  if (borrowed_) throw internal_error("HostTensor::values: a borrowed tensor has no vector; read data()");
  return data_;
}

template <class T>
std::ptrdiff_t HostTensor<T>::diagonal_stride() const {
  std::ptrdiff_t step = 0;
  for (auto stride : strides_) step += stride;
  return step;
}

template <class T>
std::ptrdiff_t HostTensor<T>::offset(const std::vector<int>& index) const {
  std::ptrdiff_t off = 0;
  for (std::size_t n = 0; n < index.size(); ++n) off += index[n] * strides_[n];
  return off;
}

template <class T>
T& HostTensor<T>::at(const std::vector<int>& index) {
  return owned()[static_cast<std::size_t>(offset(index))];
}

template <class T>
const T& HostTensor<T>::at(const std::vector<int>& index) const {
  return data()[offset(index)];
}

template <class T>
Matrix<T> Matrix<T>::identity(int n) {
  Matrix<T> m{n, std::vector<T>(static_cast<std::size_t>(n) * n, T(0))};
  for (int i = 0; i < n; ++i) m(i, i) = T(1);
  return m;
}

template <class T>
void check_shape_and_values(const HostTensor<T>& tensor, Structure structure) {
  check_tensor_shape(std::vector<std::size_t>(static_cast<std::size_t>(tensor.order()),
                                              static_cast<std::size_t>(tensor.size())),
                     structure);
  for (std::size_t i = 0; i < tensor.count(); ++i) {
    if (!is_finite(tensor.data()[i])) throw user_error("the tensor contains NaN or Inf at flat index " + std::to_string(i));
  }
}

template void check_shape_and_values(const HostTensor<float>&, Structure);
template void check_shape_and_values(const HostTensor<double>&, Structure);
template void check_shape_and_values(const HostTensor<std::complex<float>>&, Structure);
template void check_shape_and_values(const HostTensor<std::complex<double>>&, Structure);

Dtype dtype_of(const AnyTensor& tensor) {
  return tensor.index() == 0 ? Dtype::float32 : Dtype::float64;
}

Dtype dtype_of(const AnyComplexTensor& tensor) {
  return tensor.index() == 0 ? Dtype::complex64 : Dtype::complex128;
}

namespace {

// t's values as U (U's real part narrower than t's: a finite value beyond its range would become
// Inf, undefined behaviour, so it is a user_error naming the value).
template <class U, class T>
HostTensor<U> cast_tensor(const HostTensor<T>& t) {
  using R = real_t<U>;
  const auto check = [](double part, std::size_t i) {
    if (std::abs(part) > static_cast<double>(std::numeric_limits<R>::max()))
      throw user_error("value " + std::to_string(part) + " at flat index " + std::to_string(i) + " overflows " +
                       std::string(to_string(dtype_of<U>())));
  };
  std::vector<U> values(t.count());
  for (std::size_t i = 0; i < values.size(); ++i) {
    const T x = t.data()[i];
    if constexpr (is_complex_v<T>) {
      check(static_cast<double>(x.real()), i);
      check(static_cast<double>(x.imag()), i);
      values[i] = U(static_cast<R>(x.real()), static_cast<R>(x.imag()));
    } else {
      check(static_cast<double>(x), i);
      values[i] = static_cast<U>(static_cast<R>(x));
    }
  }
  return HostTensor<U>(t.order(), t.size(), t.layout(), std::move(values));
}

}  // namespace

AnyTensor convert(const AnyTensor& tensor, Dtype dtype) {
  if (is_complex(dtype)) throw internal_error("convert: a real tensor to a complex dtype goes through convert_to_complex");
  return std::visit(
      [dtype](const auto& t) -> AnyTensor {
        if (dtype == Dtype::float32) return cast_tensor<float>(t);
        return cast_tensor<double>(t);
      },
      tensor);
}

AnyComplexTensor convert_to_complex(const AnyTensor& tensor, Dtype dtype) {
  if (!is_complex(dtype)) throw internal_error("convert_to_complex: the target is not complex");
  return std::visit(
      [dtype](const auto& t) -> AnyComplexTensor {
        if (dtype == Dtype::complex64) return cast_tensor<std::complex<float>>(t);
        return cast_tensor<std::complex<double>>(t);
      },
      tensor);
}

AnyComplexTensor convert(const AnyComplexTensor& tensor, Dtype dtype) {
  if (!is_complex(dtype)) throw internal_error("convert: a complex tensor cannot be made real");
  return std::visit(
      [dtype](const auto& t) -> AnyComplexTensor {
        if (dtype == Dtype::complex64) return cast_tensor<std::complex<float>>(t);
        return cast_tensor<std::complex<double>>(t);
      },
      tensor);
}

template class HostTensor<float>;
template class HostTensor<double>;
template class HostTensor<std::complex<float>>;
template class HostTensor<std::complex<double>>;
template struct Matrix<float>;
template struct Matrix<double>;
template struct Matrix<std::complex<float>>;
template struct Matrix<std::complex<double>>;

}  // namespace tensordiag::runtime
