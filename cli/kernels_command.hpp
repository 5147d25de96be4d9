#pragma once
// `tensordiag kernels --order D --size N [options]`: the generated CUDA source of the kernel kinds
// for one shape, dtype, layout and rule (codegen/kernel_source.hpp), printed or written as
// DIR/<kind>.cu; with --compile, compiled by NVRTC through the kernel cache, and a table of each
// kernel's resources. Needs no GPU: --arch names the target where there is none.
#include <string>

#include <CLI/CLI.hpp>

namespace tensordiag::cli {

struct KernelsArguments {
  int order = 0;
  int size = 0;
  std::string rule = "max_diag";
  std::string dtype = "float32";
  std::string layout = "C";
  std::string kernel = "all";  // a kind, or every kind that serves the shape
  std::string structure = "general";  // symmetric: the kinds a symmetric run loads, its variants
  std::string out;             // empty: print the sources
  bool compile = false;
  std::string arch;            // empty: the device's
};

CLI::App* add_kernels_command(CLI::App& app, KernelsArguments& arguments);
int run_kernels(const KernelsArguments& arguments);

}  // namespace tensordiag::cli
