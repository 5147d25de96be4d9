#pragma once
// A dense cubical tensor in host memory: order D, size N in every mode, C or Fortran layout.
// It owns its values, or borrows a caller's read-only ones (HostTensor::borrow: a NumPy array read
// in place, issue 13); a copy of either owns its values.
#include "dsl/layout.hpp"
#include "runtime/core/structure.hpp"
#include <complex>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

namespace tensordiag::runtime {

using dsl::Layout;

// complex64 and complex128 (NumPy's names: two float32, two float64) hold complex tensors, which
// run with unitary factors (issue 11, item 3).
enum class Dtype { float32, float64, complex64, complex128 };

std::string_view to_string(Layout layout);
std::string_view to_string(Dtype dtype);
// "float32" | "float64" | "complex64" | "complex128"; throws user_error otherwise.
Dtype parse_dtype(std::string_view name);
constexpr bool is_complex(Dtype dtype) { return dtype == Dtype::complex64 || dtype == Dtype::complex128; }
// Bytes of one entry: 4, 8, 8, 16.
std::size_t dtype_bytes(Dtype dtype);

template <class T> constexpr Dtype dtype_of();
template <> constexpr Dtype dtype_of<float>() { return Dtype::float32; }
template <> constexpr Dtype dtype_of<double>() { return Dtype::float64; }
template <> constexpr Dtype dtype_of<std::complex<float>>() { return Dtype::complex64; }
template <> constexpr Dtype dtype_of<std::complex<double>>() { return Dtype::complex128; }

// The shape as Python prints a tuple, as NumPy writes it in a .npy header: (), (5,), (3, 4, 3).
std::string shape_text(const std::vector<std::size_t>& shape);

// The shapes every front end accepts (.npy files, NumPy arrays): order >= 3 (>= 2 for a symmetric
// tensor: min_order), the same size N >= 2 in every mode. Otherwise throws user_error naming the
// shape and what is wrong with it; a general order-2 tensor points to the SVD.
void check_tensor_shape(const std::vector<std::size_t>& shape, Structure structure = Structure::general);

// Number of entries N^D; throws user_error when it does not fit in memory addressing.
std::size_t entry_count(int order, int size);

// Element strides (in entries) of each mode for the layout: stride[n] for mode n = 0..D-1.
std::vector<std::ptrdiff_t> strides_of(int order, int size, Layout layout);

template <class T>
class HostTensor {
public:
  HostTensor() = default;
  HostTensor(int order, int size, Layout layout = Layout::c_order);
  HostTensor(int order, int size, Layout layout, std::vector<T> data);
  // A read-only tensor over `values` (N^D entries in `layout`), which the caller keeps alive and
  // unchanged while the tensor or a view of it is in use. Writing through it is an internal_error.
  static HostTensor borrow(int order, int size, Layout layout, const T* values);

  // Copies own their values, so a borrowed tensor's copy (the CPU engine's working core) is
  // writable; moves keep the borrowing.
  HostTensor(const HostTensor& other);
  HostTensor& operator=(const HostTensor& other);
  HostTensor(HostTensor&&) noexcept = default;
  HostTensor& operator=(HostTensor&&) noexcept = default;

  int order() const { return order_; }
  int size() const { return size_; }
  Layout layout() const { return layout_; }
  bool borrowed() const { return borrowed_ != nullptr; }
  std::size_t count() const { return borrowed_ ? borrowed_count_ : data_.size(); }
  const std::vector<std::ptrdiff_t>& strides() const { return strides_; }
  // Offset of the diagonal step: entry (i, .., i) lives at i * diagonal_stride().
  std::ptrdiff_t diagonal_stride() const;

  T* data() { return owned().data(); }
  const T* data() const { return borrowed_ ? borrowed_ : data_.data(); }
  // The owned values; internal_error on a borrowed tensor (read it through data()).
  std::vector<T>& values() { return owned(); }
  const std::vector<T>& values() const;

  // Entry at a multi-index (one index per mode, 0-based).
  T& at(const std::vector<int>& index);
  const T& at(const std::vector<int>& index) const;
  std::ptrdiff_t offset(const std::vector<int>& index) const;

private:
  std::vector<T>& owned() {
    if (borrowed_) throw_written_borrowed();
    return data_;
  }
  [[noreturn]] static void throw_written_borrowed();

  int order_ = 0;
  int size_ = 0;
  Layout layout_ = Layout::c_order;
  std::vector<std::ptrdiff_t> strides_;
  std::vector<T> data_;
  const T* borrowed_ = nullptr;
  std::size_t borrowed_count_ = 0;
};

// A square N x N matrix stored row-major: m(i, j) = data[i * n + j]. Used for the factors M_n.
template <class T>
struct Matrix {
  int n = 0;
  std::vector<T> data;

  static Matrix identity(int n);
  T& operator()(int i, int j) { return data[static_cast<std::size_t>(i) * n + j]; }
  const T& operator()(int i, int j) const { return data[static_cast<std::size_t>(i) * n + j]; }
};

// What every front end checks of a tensor in memory: its shape (check_tensor_shape) and that every
// value is finite (both parts of a complex one); user_error naming the first flat index that is not.
template <class T>
void check_shape_and_values(const HostTensor<T>& tensor, Structure structure = Structure::general);

// A real tensor whose element type is known only at run time (read from a file, say).
using AnyTensor = std::variant<HostTensor<float>, HostTensor<double>>;
// The same for complex tensors: a separate type, since only the complex engine takes them.
using AnyComplexTensor = std::variant<HostTensor<std::complex<float>>, HostTensor<std::complex<double>>>;

Dtype dtype_of(const AnyTensor& tensor);
Dtype dtype_of(const AnyComplexTensor& tensor);
// To float32 or float64; a value beyond float32's range is a user_error.
AnyTensor convert(const AnyTensor& tensor, Dtype dtype);
// To complex64 or complex128: a real tensor gets zero imaginary parts (a complex tensor cannot be
// made real: that is the caller's user_error to give, with its context).
AnyComplexTensor convert_to_complex(const AnyTensor& tensor, Dtype dtype);
AnyComplexTensor convert(const AnyComplexTensor& tensor, Dtype dtype);

extern template class HostTensor<float>;
extern template class HostTensor<double>;
extern template class HostTensor<std::complex<float>>;
extern template class HostTensor<std::complex<double>>;
extern template struct Matrix<float>;
extern template struct Matrix<double>;
extern template struct Matrix<std::complex<float>>;
extern template struct Matrix<std::complex<double>>;

}  // namespace tensordiag::runtime
