// HostTensor::borrow, the NumPy path's in-place read (issue 13): a borrowed tensor reads the
// caller's memory without a copy, a copy of it owns its values, writing through it is refused,
// and a run on it is the run on an owned tensor of the same values, the caller's values unchanged.
#include <doctest/doctest.h>

#include <vector>

#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

TEST_CASE_TEMPLATE("a borrowed tensor reads the caller's memory in place", T, float, double) {
  const HostTensor<T> owned = random_tensor<T>(3, 4, 7);
  const std::vector<T> caller(owned.data(), owned.data() + owned.count());
  const HostTensor<T> borrowed = HostTensor<T>::borrow(3, 4, Layout::c_order, caller.data());
  CHECK(borrowed.borrowed());
  CHECK(borrowed.data() == caller.data());
  CHECK(borrowed.count() == caller.size());
  CHECK(borrowed.diagonal_stride() == owned.diagonal_stride());
  CHECK(borrowed.at({1, 2, 3}) == owned.at({1, 2, 3}));
  CHECK_THROWS_AS(static_cast<void>(borrowed.values()), internal_error);
}

TEST_CASE("a copy of a borrowed tensor owns its values, the borrowed one cannot be written") {
  std::vector<double> caller(27, 1.0);
  HostTensor<double> borrowed = HostTensor<double>::borrow(3, 3, Layout::fortran_order, caller.data());
  HostTensor<double> copy = borrowed;
  CHECK_FALSE(copy.borrowed());
  CHECK(copy.layout() == Layout::fortran_order);
  CHECK(copy.data() != caller.data());
  copy.at({0, 1, 2}) = 5.0;
  CHECK(caller[static_cast<std::size_t>(copy.offset({0, 1, 2}))] == 1.0);
  CHECK_THROWS_AS(static_cast<void>(borrowed.data()), internal_error);
  CHECK_THROWS_AS(borrowed.at({0, 0, 0}) = 2.0, internal_error);
  HostTensor<double> assigned;
  assigned = borrowed;
  CHECK_FALSE(assigned.borrowed());
  CHECK(assigned.values() == caller);
}

TEST_CASE_TEMPLATE("a run on a borrowed tensor is the run on an owned one, the caller's values unchanged", T, float,
                   double) {
  for (const Layout layout : {Layout::c_order, Layout::fortran_order}) {
    const HostTensor<T> owned = random_tensor<T>(4, 5, 11, layout);
    const std::vector<T> caller(owned.data(), owned.data() + owned.count());
    Options options;
    options.backend = Backend::cpu;
    options.max_sweeps = 4;
    options.threads = 1;
    options.verify = true;
    const Result<T> from_owned = diagonalize(owned, options);
    const Result<T> from_borrowed = diagonalize(HostTensor<T>::borrow(4, 5, layout, caller.data()), options);
    CHECK(from_borrowed.core.values() == from_owned.core.values());
    CHECK(from_borrowed.core.layout() == layout);
    for (std::size_t n = 0; n < from_owned.factors.size(); ++n)
      CHECK(from_borrowed.factors[n].data == from_owned.factors[n].data);
    REQUIRE(from_borrowed.verification);
    CHECK(from_borrowed.verification->reconstruction_error == from_owned.verification->reconstruction_error);
    CHECK(std::vector<T>(owned.data(), owned.data() + owned.count()) == caller);
  }
}
