#pragma once
// `tensordiag generate --order D --size N --seed S OUT.npy`: a diagonalizable test tensor
// T = S x_1 Q_1 ... x_D Q_D (S diagonal, Q_n random orthogonal), optionally with noise.
#include <string>

#include <CLI/CLI.hpp>

#include "runtime/algorithm/generator.hpp"

namespace tensordiag::cli {

struct GenerateArguments {
  runtime::GeneratorOptions options;  // everything but the layout, which run_generate sets
  std::string dtype = "float64";
  std::string layout = "C";
  std::string structure = "general";
  std::string output;
  bool packed = false;  // write the distinct entries alone (runtime/algorithm/packed_generator.hpp)
};

CLI::App* add_generate_command(CLI::App& app, GenerateArguments& arguments);
int run_generate(const GenerateArguments& arguments);

}  // namespace tensordiag::cli
