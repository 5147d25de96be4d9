#pragma once
// Bounds on numeric options as CLI11 checks: the help shows them next to the type (FLOAT:>0) and a
// violation is one line that says what is allowed and what was given.
#include <CLI/CLI.hpp>

namespace tensordiag::cli {

CLI::Validator greater_than(double bound);  // value > bound
CLI::Validator at_least(double bound);      // value >= bound

// A tensor's order, D >= 3. Order 2 gets its own message: a matrix is diagonalized by its SVD
// (DESIGN.md section 1).
CLI::Validator tensor_order();

}  // namespace tensordiag::cli
