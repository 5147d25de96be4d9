#pragma once
// The shape of a cubical tensor: order D, size N in every mode, and layout. D and N are either
// compile-time constants (Int<3>) or run-time integers; every function here is one code path for
// both, and yields compile-time values when its inputs are static.
#include <array>
#include <string>

#include "dsl/integral.hpp"
#include "dsl/layout.hpp"

namespace tensordiag::dsl {

template <class Order, class Size>
struct Shape {
  Order order;
  Size size;
  Layout layout = Layout::c_order;
};

template <class Order, class Size>
constexpr Shape<Order, Size> make_shape(Order order, Size size, Layout layout = Layout::c_order) {
  return {order, size, layout};
}

template <class Order, class Size>
constexpr bool is_static(const Shape<Order, Size>&) {
  return is_static_v<Order> && is_static_v<Size>;
}

// @post entry_count(s) == size^order
template <class Order, class Size>
constexpr long long entry_count(const Shape<Order, Size>& shape) {
  long long count = 1;
  for (long long n = 0; n < value_of(shape.order); ++n) count *= value_of(shape.size);
  return count;
}

// Stride (in entries) of mode n (0-based): size^(D-1-n) in C order, size^n in Fortran order.
template <class Order, class Size>
constexpr long long stride(const Shape<Order, Size>& shape, long long mode) {
  const long long d = value_of(shape.order);
  const long long faster_modes = shape.layout == Layout::c_order ? d - 1 - mode : mode;
  long long s = 1;
  for (long long k = 0; k < faster_modes; ++k) s *= value_of(shape.size);
  return s;
}

// Entry (i, .., i) lives at i * diagonal_stride(shape): the sum of all strides.
template <class Order, class Size>
constexpr long long diagonal_stride(const Shape<Order, Size>& shape) {
  long long step = 0;
  for (long long n = 0; n < value_of(shape.order); ++n) step += stride(shape, n);
  return step;
}

template <class Order, class Size>
std::string to_string(const Shape<Order, Size>& shape) {
  return "Shape(order=" + std::to_string(value_of(shape.order)) +
         ", size=" + std::to_string(value_of(shape.size)) +
         (shape.layout == Layout::c_order ? ", C)" : ", F)");
}

}  // namespace tensordiag::dsl
