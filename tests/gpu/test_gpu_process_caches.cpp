// What a process keeps between runs on the GPU (issue 15 item 4, end to end): the loaded kernel
// libraries, one per distinct cubin (runtime/cuda/loaded_libraries.hpp), and the pool of pinned
// host blocks (runtime/cuda/pinned_pool.hpp). A repeated run loads nothing new and gives the same
// result bit for bit.
#include <doctest/doctest.h>

#include <algorithm>
#include <vector>

#include "random_tensor.hpp"
#include "runtime/cuda/loaded_libraries.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "runtime/cuda/pinned_pool.hpp"
#include "runtime/cuda/sha256.hpp"
#include "runtime/cuda/cuda_device.hpp"
#include "runtime/diagonalize.hpp"

using namespace tensordiag::runtime;

TEST_SUITE("gpu") {
  TEST_CASE("a cubin is loaded once a process: the same bytes give the same library, others another") {
    const std::string source = "extern \"C\" __global__ void twice(float* x) { x[threadIdx.x] *= 2.0f; }\n";
    const Cubin first = compile_cubin(source, "twice_a", {}, cuda_device()->arch(), SourceOnError::attach);
    const Cubin second = compile_cubin(source + "// another\nextern \"C\" __global__ void thrice(float* x) { x[0] *= 3; }\n",
                                       "twice_b", {}, cuda_device()->arch(), SourceOnError::attach);
    // Named as the kernel cache names them: by a digest (here of the images themselves).
    const auto key = [](const std::vector<char>& image) { return sha256(std::string_view(image.data(), image.size())); };
    const auto a = loaded_library(key(first.image), first.image);
    const std::size_t count = loaded_library_count();
    const auto again = loaded_library(key(first.image), first.image);
    CHECK(again.get() == a.get());
    CHECK(loaded_library_count() == count);
    const auto b = loaded_library(key(second.image), second.image);
    CHECK(b.get() != a.get());
    // One more, unless the table is at its cap (the suite's earlier cases load hundreds): then an
    // unused one made room.
    CHECK(loaded_library_count() == std::min(count + 1, kept_libraries));
    CHECK(a->kernel("twice") != nullptr);
    CHECK(b->kernel("thrice") != nullptr);
  }

  TEST_CASE("a repeated GPU run loads no library and gives the same core and factors bit for bit") {
    const auto tensor = tensordiag::testing::random_tensor<float>(4, 12, 2026);
    Options options;
    options.backend = Backend::cuda;
    options.max_sweeps = 3;
    const Result<float> first = diagonalize(tensor, options);
    const std::size_t count = loaded_library_count();
    const Result<float> second = diagonalize(tensor, options);
    CHECK(loaded_library_count() == count);
    CHECK(first.core.values() == second.core.values());
    for (std::size_t n = 0; n < first.factors.size(); ++n) CHECK(first.factors[n].data == second.factors[n].data);
    CHECK(first.history.back().diag_norm2 > 2 * first.history.front().diag_norm2);  // the run did rotate
  }

  TEST_CASE("pinned blocks are reused by size class, large ones bypass the pool") {
    void* small = pinned_allocate(1000);  // class 1024
    static_cast<char*>(small)[999] = 1;
    pinned_release(small, 1000);
    void* again = pinned_allocate(1024);
    CHECK(again == small);
    void* other = pinned_allocate(1024);  // the class is empty again: a fresh block
    CHECK(other != again);
    pinned_release(again, 1024);
    pinned_release(other, 1024);
    void* large = pinned_allocate(pinned_pool_largest + 1);
    static_cast<char*>(large)[pinned_pool_largest] = 1;
    pinned_release(large, pinned_pool_largest + 1);
  }
}
