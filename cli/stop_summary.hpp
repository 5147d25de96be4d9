#pragma once
// One human line on how a run ended: which stopping criterion fired (DESIGN.md section 2) and the
// off_rel it reached.
#include <string>

#include "runtime/diagonalize.hpp"

namespace tensordiag::cli {

template <class T>
std::string stop_summary(const runtime::Result<T>& result);

}  // namespace tensordiag::cli
