#pragma once
// Bounds on numeric options as CLI11 checks: the help shows them next to the type (FLOAT:>0) and a
// violation is one line that says what is allowed and what was given.
#include <CLI/CLI.hpp>

namespace tensordiag::cli {

CLI::Validator greater_than(double bound);  // value > bound
CLI::Validator at_least(double bound);      // value >= bound

}  // namespace tensordiag::cli
