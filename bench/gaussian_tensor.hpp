#pragma once
// A Gaussian float32 tensor made in memory, for tensors too large to pass through files on the
// lent machines: 2^20 entries a chunk, each chunk its own seeded stream, so the same tensor at any
// thread count.
#include <algorithm>
#include <cstddef>

#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::bench {

inline runtime::HostTensor<float> gaussian_tensor(int order, int size) {
  runtime::HostTensor<float> tensor(order, size, runtime::Layout::c_order);
  constexpr std::size_t chunk = std::size_t{1} << 20;
  const std::size_t chunks = (tensor.count() + chunk - 1) / chunk;
  float* data = tensor.data();
  const std::size_t count = tensor.count();
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < chunks; ++c) {
    runtime::RandomStream random(1 + c);
    for (std::size_t i = c * chunk; i < std::min(count, (c + 1) * chunk); ++i)
      data[i] = static_cast<float>(random.gaussian());
  }
  return tensor;
}

}  // namespace tensordiag::bench
