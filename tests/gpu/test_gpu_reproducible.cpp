// Run after run on one device, every GPU engine gives the same core, factors and figures bit for
// bit (issue 13): reductions run in a fixed order, with no atomics.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "random_tensor.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;
using tensordiag::testing::random_tensor;

namespace {

template <class T>
void check_repeats(const HostTensor<T>& tensor, const Options& options, const std::string& engine) {
  const auto first = diagonalize(tensor, options);
  CHECK(first.engine == engine);
  for (int run = 0; run < 2; ++run) {
    const auto again = diagonalize(tensor, options);
    CHECK(again.core.values() == first.core.values());
    for (std::size_t n = 0; n < first.factors.size(); ++n) CHECK(again.factors[n].data == first.factors[n].data);
    REQUIRE(again.history.size() == first.history.size());
    for (std::size_t k = 0; k < first.history.size(); ++k) {
      CHECK(again.history[k].off_rel == first.history[k].off_rel);
      CHECK(again.history[k].diag_norm2 == first.history[k].diag_norm2);
    }
  }
}

}  // namespace

TEST_SUITE("gpu") {
  TEST_CASE("every GPU engine repeats itself bit for bit on one device") {
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 4;
    options.tol = 1e-300;
    options.stall_tol = 0;
    check_repeats(random_tensor<double>(5, 8, 11), options, "cuda");
    check_repeats(random_tensor<float>(6, 8, 15), options, "cuda");  // overlapping angle and pass launches
    check_repeats(random_tensor<float>(3, 6, 12), options, "cuda_one_block");
    check_repeats(random_tensor<float>(21, 2, 13), options, "cuda_qubit");
    options.eta = 0.002;  // the pivot check with the device norm
    check_repeats(random_tensor<double>(4, 9, 14), options, "cuda");
  }
}
