// Batches of tensors in one .npy: (B, N, .., N), read and written in both orders.
#include <doctest/doctest.h>

#include <cmath>
#include <cstring>

#include "random_tensor.hpp"
#include "runtime/core/errors.hpp"
#include "runtime/io/npy.hpp"
#include "runtime/io/npy_batch.hpp"
#include "scratch_dir.hpp"

using namespace tensordiag::runtime;

TEST_CASE("a batch round-trips in C and Fortran order, each tensor in the file's order") {
  const tensordiag::testing::ScratchDir dir("npy_batch");
  for (auto layout : {Layout::c_order, Layout::fortran_order}) {
    std::vector<HostTensor<float>> tensors;
    for (unsigned b = 0; b < 3; ++b) tensors.push_back(tensordiag::testing::random_tensor<float>(3, 4, 10 + b, layout));
    write_tensor_batch(dir.path() / "batch.npy", tensors);
    const NpyArray raw = read_npy_array(dir.path() / "batch.npy");
    CHECK(raw.shape == std::vector<std::size_t>{3, 4, 4, 4});
    CHECK(raw.fortran_order == (layout == Layout::fortran_order));
    const auto back = std::get<std::vector<HostTensor<float>>>(read_tensor_batch(dir.path() / "batch.npy"));
    REQUIRE(back.size() == 3);
    for (std::size_t b = 0; b < 3; ++b) {
      CHECK(back[b].layout() == layout);
      CHECK(back[b].values() == tensors[b].values());
      // The entry at a multi-index is the one the tensor had there.
      CHECK(back[b].at({1, 2, 3}) == tensors[b].at({1, 2, 3}));
    }
  }
}

TEST_CASE("a bad batch is refused with a message naming the file") {
  const tensordiag::testing::ScratchDir dir("npy_batch");
  // `last` replaces the file's last value (tensor B-1's last entry in C order).
  auto write = [&](std::vector<std::size_t> shape, double last) {
    NpyArray a;
    a.dtype = Dtype::float64;
    a.shape = shape;
    std::size_t count = 1;
    for (auto s : shape) count *= s;
    std::vector<double> values(count);
    for (std::size_t i = 0; i < count; ++i) values[i] = std::sin(static_cast<double>(i));
    values[count - 1] = last;
    a.bytes.resize(count * 8);
    std::memcpy(a.bytes.data(), values.data(), a.bytes.size());
    write_npy_array(dir.path() / "b.npy", a);
  };
  write({5}, 0.5);
  CHECK_THROWS_WITH_AS(read_tensor_batch(dir.path() / "b.npy"), doctest::Contains("(B, N, .., N)"), tensordiag::user_error);
  write({2, 3, 4, 3}, 0.5);
  CHECK_THROWS_WITH_AS(read_tensor_batch(dir.path() / "b.npy"), doctest::Contains("not cubical"), tensordiag::user_error);
  write({2, 3, 3}, 0.5);
  CHECK_THROWS_WITH_AS(read_tensor_batch(dir.path() / "b.npy"), doctest::Contains("SVD"), tensordiag::user_error);
  write({2, 3, 3, 3}, std::nan(""));
  CHECK_THROWS_WITH_AS(read_tensor_batch(dir.path() / "b.npy"), doctest::Contains("tensor 1 of the batch contains NaN"),
                       tensordiag::user_error);
}
