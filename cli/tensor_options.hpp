#pragma once
// The options that describe a tensor, worded and checked alike in every command that takes them:
// --order D (D >= 3, order 2 pointed to the SVD) and --size N (N >= 2), both required, and
// --dtype float32|float64 and --layout C|F, whose defaults are the values the strings hold.
// `matrix_allowed` lets order 2 through for a command that checks it against --structure;
// `complex_allowed` adds --dtype complex64|complex128.
#include <string>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

inline constexpr const char* order_2_message =
    "order 2 is a matrix: use an SVD (e.g. numpy.linalg.svd); tensordiag needs order >= 3";

void add_tensor_options(CLI::App& command, int& order, int& size, std::string& dtype, std::string& layout,
                        bool matrix_allowed = false, bool complex_allowed = false);

}  // namespace tensordiag::cli
