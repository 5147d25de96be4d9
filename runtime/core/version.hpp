#pragma once
// The library's version, the one CMake's project() declares: `tensordiag --version` prints it and
// report.json records it.
#include <string_view>

namespace tensordiag::runtime {

std::string_view version();

}  // namespace tensordiag::runtime
