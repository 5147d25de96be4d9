// Shapes: one code path for compile-time and run-time order and size.
#include <doctest/doctest.h>

#include "dsl/shape.hpp"
#include "runtime/core/tensor.hpp"

using namespace tensordiag::dsl;

TEST_CASE("a static shape yields compile-time strides equal to the run-time ones") {
  constexpr auto s = make_shape(_4, _3);
  static_assert(is_static(s));
  static_assert(entry_count(s) == 81);
  static_assert(stride(s, 0) == 27 && stride(s, 3) == 1);
  static_assert(diagonal_stride(s) == 40);
  constexpr auto f = make_shape(_4, _3, Layout::fortran_order);
  static_assert(stride(f, 0) == 1 && stride(f, 3) == 27);

  for (int order = 3; order <= 6; ++order)
    for (int size = 2; size <= 5; ++size)
      for (auto layout : {Layout::c_order, Layout::fortran_order}) {
        const auto dynamic = make_shape(order, size, layout);
        CHECK_FALSE(is_static(dynamic));
        const auto strides = tensordiag::runtime::strides_of(order, size, layout);
        long long sum = 0;
        for (int n = 0; n < order; ++n) {
          CHECK(stride(dynamic, n) == strides[static_cast<std::size_t>(n)]);
          sum += strides[static_cast<std::size_t>(n)];
        }
        CHECK(diagonal_stride(dynamic) == sum);
        CHECK(static_cast<std::size_t>(entry_count(dynamic)) == tensordiag::runtime::entry_count(order, size));
      }
  CHECK(to_string(make_shape(_3, 8, Layout::fortran_order)) == "Shape(order=3, size=8, F)");
}
