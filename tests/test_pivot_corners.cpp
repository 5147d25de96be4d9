// PivotCorners (runtime/engines/pivot_corners.hpp) against the pair's whole pivot subtensor rotated
// mode after mode (pivot_subtensor.hpp): the same a, b, d, e at every mode, bit for bit, with some
// modes left unrotated (a rejected pivot), in both layouts, real and complex, through a slab's
// offsets, and with the upper modes' trees split over threads.
#include <doctest/doctest.h>

#include <cmath>
#include <complex>
#include <cstring>

#include "random_tensor.hpp"
#include "runtime/algorithm/random_stream.hpp"
#include "runtime/engines/pivot_corners.hpp"
#include "runtime/engines/pivot_subtensor.hpp"

using namespace tensordiag;
using namespace tensordiag::runtime;

namespace {

// The same bits (== would take -0 for +0).
template <class T>
bool same_bits(const T& x, const T& y) {
  return std::memcmp(&x, &y, sizeof(T)) == 0;
}

// A random rotation: (cos t, sin t), or for a complex T (cos t, e^{i f} sin t).
template <class T>
PlaneRotation<T> random_rotation(RandomStream& random) {
  const double t = 6.283185307179586 * random.uniform();
  if constexpr (is_complex_v<T>) {
    using R = real_t<T>;
    const double f = 6.283185307179586 * random.uniform();
    return {static_cast<R>(std::cos(t)), std::complex<R>(static_cast<R>(std::sin(t) * std::cos(f)),
                                                         static_cast<R>(std::sin(t) * std::sin(f)))};
  } else {
    return {static_cast<T>(std::cos(t)), static_cast<T>(std::sin(t))};
  }
}

// Every mode of pair (p, q): the corners' values against the rotated subtensor's; every third mode
// is not rotated. Returns how many values were compared.
template <class T>
int check_pair(const HostTensor<T>& tensor, const IndexOffsets& offsets, PivotPair pair, int threads,
               std::uint64_t seed) {
  const std::vector<T> input = gather_pivot_subtensor(tensor.data(), offsets, pair);
  std::vector<T> sub = input;
  PivotCorners<T> corners(tensor.data(), offsets, pair, threads);
  RandomStream random(seed);
  int compared = 0;
  for (int mode = 0; mode < tensor.order(); ++mode) {
    CAPTURE(mode);
    const dsl::PivotValues<T> expected = pivot_values(sub, mode);
    const dsl::PivotValues<T> got = corners.at(mode);
    CHECK(same_bits(got.a, expected.a));
    CHECK(same_bits(got.b, expected.b));
    CHECK(same_bits(got.d, expected.d));
    CHECK(same_bits(got.e, expected.e));
    compared += 4;
    if (mode % 3 == 1) continue;
    const PlaneRotation<T> g = random_rotation<T>(random);
    rotate_pivot_subtensor(sub, mode, g);
    corners.rotate(mode, g);
  }
  // The last mode's b is not the unrotated subtensor's: the trees did rotate.
  const int last = tensor.order() - 1;
  CHECK_FALSE(same_bits(corners.at(last).b, pivot_values(input, last).b));
  return compared;
}

}  // namespace

TEST_CASE_TEMPLATE("pivot corners: a, b, d, e of every mode equal the whole subtensor's, bit for bit", T, float, double,
                   std::complex<float>, std::complex<double>) {
  struct Shape {
    int order, size;
    Layout layout;
    PivotPair pair;
    int threads;
  };
  // Up to D = 12 the subtensor is copied whole; from D = 13 the trees, whose levels past 2^14
  // entries (D = 16) are shared by two threads.
  for (const Shape& s : {Shape{3, 2, Layout::c_order, {0, 1}, 1}, Shape{4, 5, Layout::c_order, {1, 3}, 1},
                         Shape{13, 2, Layout::fortran_order, {0, 1}, 1}, Shape{13, 3, Layout::c_order, {0, 2}, 1},
                         Shape{14, 3, Layout::fortran_order, {1, 2}, 2}, Shape{16, 2, Layout::c_order, {0, 1}, 2}}) {
    CAPTURE(s.order);
    CAPTURE(s.size);
    CAPTURE(s.threads);
    const auto tensor = testing::random_tensor<T>(s.order, s.size, 40u + static_cast<unsigned>(s.order * s.size), s.layout);
    CHECK(check_pair(tensor, IndexOffsets(tensor.strides()), s.pair, s.threads, 7u) == 4 * s.order);
  }
}

TEST_CASE("pivot corners read a slab through its offsets as the subtensor gather does") {
  // Mode 0 held in part (a distributed slab's sliced mode): indices 1 and 3 at the offsets of its
  // rows 0 and 1, the others absent; D = 4 (copied) and D = 13 (trees).
  for (const int order : {4, 13}) {
    const auto tensor = testing::random_tensor<double>(order, 3, 91);
    const std::vector<std::ptrdiff_t> strides = tensor.strides();
    const IndexOffsets slab(strides, 0, {-1, 0, strides[0]});
    CHECK(check_pair(tensor, slab, PivotPair{1, 2}, 1, 8u) == 4 * order);
  }
}
