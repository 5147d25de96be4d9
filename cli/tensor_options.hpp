#pragma once
// The options that describe a tensor, worded and checked alike in every command that takes them:
// --order D (D >= 3, order 2 pointed to the SVD) and --size N (N >= 2), both required, and
// --dtype float32|float64 and --layout C|F, whose defaults are the values the strings hold.
#include <string>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

void add_tensor_options(CLI::App& command, int& order, int& size, std::string& dtype, std::string& layout);

}  // namespace tensordiag::cli
