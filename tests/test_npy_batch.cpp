// Batches of tensors in one .npy: (B, N, .., N), read and written in both orders.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
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

TEST_CASE("a complex batch round-trips in both orders, a NaN in an imaginary part and a real file are refused") {
  const tensordiag::testing::ScratchDir dir("npy_batch");
  using C = std::complex<double>;
  for (auto layout : {Layout::c_order, Layout::fortran_order}) {
    std::vector<HostTensor<C>> tensors;
    for (unsigned b = 0; b < 3; ++b) {
      const HostTensor<double> re = tensordiag::testing::random_tensor<double>(3, 4, 20 + b, layout);
      const HostTensor<double> im = tensordiag::testing::random_tensor<double>(3, 4, 30 + b, layout);
      std::vector<C> values(re.count());
      for (std::size_t i = 0; i < values.size(); ++i) values[i] = {re.values()[i], im.values()[i]};
      tensors.emplace_back(3, 4, layout, std::move(values));
    }
    write_tensor_batch(dir.path() / "z.npy", tensors);
    const NpyArray raw = read_npy_array(dir.path() / "z.npy");
    CHECK(raw.dtype == Dtype::complex128);
    CHECK(raw.fortran_order == (layout == Layout::fortran_order));
    const auto back = std::get<std::vector<HostTensor<C>>>(read_complex_tensor_batch(dir.path() / "z.npy"));
    REQUIRE(back.size() == 3);
    for (std::size_t b = 0; b < 3; ++b) {
      CHECK(back[b].layout() == layout);
      CHECK(back[b].values() == tensors[b].values());
      CHECK(back[b].at({3, 0, 2}) == tensors[b].at({3, 0, 2}));
    }
    CHECK_THROWS_WITH_AS(read_tensor_batch(dir.path() / "z.npy"), doctest::Contains("read_complex_tensor_batch"),
                         tensordiag::user_error);
    tensors[2].values()[5] = {0.5, std::nan("")};
    write_tensor_batch(dir.path() / "z.npy", tensors);
    CHECK_THROWS_WITH_AS(read_complex_tensor_batch(dir.path() / "z.npy"),
                         doctest::Contains("tensor 2 of the batch contains NaN or Inf"), tensordiag::user_error);
  }
  write_tensor_batch(dir.path() / "r.npy",
                     std::vector<HostTensor<float>>{tensordiag::testing::random_tensor<float>(3, 4, 1, Layout::c_order)});
  CHECK_THROWS_WITH_AS(read_complex_tensor_batch(dir.path() / "r.npy"), doctest::Contains("float32 data, not complex64"),
                       tensordiag::user_error);
}
