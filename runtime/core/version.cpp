#include "runtime/core/version.hpp"

namespace tensordiag::runtime {

// TENSORDIAG_VERSION is defined for this file alone (CMakeLists.txt), so a version bump recompiles
// one file.
std::string_view version() { return TENSORDIAG_VERSION; }

}  // namespace tensordiag::runtime
