#pragma once
// Bounds on numeric options as CLI11 checks: the help shows them next to the type (FLOAT:>0) and a
// violation is one line that says what is allowed and what was given. Every numeric option gets
// one, so that 0, negative, NaN, inf and huge values are each refused by the check (not by CLI11's
// conversion, whose message names no bound) or accepted on purpose.
#include <cstdint>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

CLI::Validator at_least(double bound);      // a finite value >= bound
// A whole number in [low, high]; `high` defaults to what an int holds.
CLI::Validator whole_number(std::int64_t low, std::int64_t high = 2147483647);
// A whole number in [0, 2^64 - 1] (the seed).
CLI::Validator unsigned_64();

}  // namespace tensordiag::cli
