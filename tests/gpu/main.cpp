// The GPU tests' runner. Without a usable device it runs nothing and exits 77, which CTest reports
// as "skipped" (SKIP_RETURN_CODE): a GPU test that could not run is never counted as passed.
// Listing the tests (CTest's discovery) works everywhere.
#define DOCTEST_CONFIG_IMPLEMENT
#include <doctest/doctest.h>

#include <cstdio>
#include <string_view>

#include "runtime/cuda/cuda_device.hpp"

int main(int argc, char** argv) {
  bool listing = false;
  for (int i = 1; i < argc; ++i) {
    const std::string_view arg = argv[i];
    listing = listing || arg.find("list-test") != std::string_view::npos || arg.find("-ltc") != std::string_view::npos;
  }
  if (!listing && !tensordiag::runtime::cuda_device()) {
    std::printf("skipped: %s\n", tensordiag::runtime::cuda_unavailable_reason().c_str());
    return 77;
  }
  doctest::Context context(argc, argv);
  return context.run();
}
