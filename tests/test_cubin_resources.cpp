// Reading a cubin's ELF metadata: anything that is not a well-formed ELF file is refused with an
// internal_error, whatever the damage, and never read past its end.
#include <doctest/doctest.h>

#include <string>

#include "runtime/cuda/cubin_resources.hpp"
#include "runtime/cuda/nvrtc_compiler.hpp"
#include "sample_kernels.hpp"

using namespace tensordiag::runtime;

TEST_CASE("cubin resources: damaged images are refused") {
  const std::vector<char> image =
      compile_cubin(tensordiag::test::saxpy_source, "saxpy.cu", {}, "sm_90").image;
  REQUIRE(read_cubin_resources(image).size() == 1);

  CHECK_THROWS_AS(read_cubin_resources({}), tensordiag::internal_error);
  const std::string text = "not an ELF file at all, just some text";
  CHECK_THROWS_AS(read_cubin_resources(text), tensordiag::internal_error);
  // NVRTC puts the section headers, which everything else is found through, past the middle.
  for (const std::size_t size : {std::size_t{5}, std::size_t{64}, image.size() / 2}) {
    CAPTURE(size);
    CHECK_THROWS_AS(read_cubin_resources(std::span(image).first(size)),
                    tensordiag::internal_error);
  }
}
