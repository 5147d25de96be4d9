#pragma once
// A Gaussian float32 tensor made in memory, for tensors too large to pass through files on the
// lent machines: 2^20 entries a chunk, each chunk its own seeded stream, so the same tensor at any
// thread count.
#include <algorithm>
#include <cstddef>

#include "runtime/algorithm/random_stream.hpp"
#include "runtime/core/tensor.hpp"

namespace tensordiag::bench {

inline constexpr std::size_t gaussian_chunk = std::size_t{1} << 20;

// Entries first .. first + count - 1 of the tensor into `out` (first a multiple of the chunk):
// a slab of it, the same values as the whole tensor has there.
inline void gaussian_entries(float* out, std::size_t first, std::size_t count) {
  const std::size_t chunks = (count + gaussian_chunk - 1) / gaussian_chunk;
  const std::size_t first_chunk = first / gaussian_chunk;
#pragma omp parallel for schedule(static)
  for (std::size_t c = 0; c < chunks; ++c) {
    runtime::RandomStream random(1 + first_chunk + c);
    for (std::size_t i = c * gaussian_chunk; i < std::min(count, (c + 1) * gaussian_chunk); ++i)
      out[i] = static_cast<float>(random.gaussian());
  }
}

inline runtime::HostTensor<float> gaussian_tensor(int order, int size) {
  runtime::HostTensor<float> tensor(order, size, runtime::Layout::c_order);
  gaussian_entries(tensor.data(), 0, tensor.count());
  return tensor;
}

}  // namespace tensordiag::bench
