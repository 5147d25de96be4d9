#pragma once
// `tensordiag demo`: no arguments. Generates a diagonalizable tensor, diagonalizes it and prints
// what came out next to what went in.
#include <CLI/CLI.hpp>

namespace tensordiag::cli {

CLI::App* add_demo_command(CLI::App& app);
int run_demo();

}  // namespace tensordiag::cli
