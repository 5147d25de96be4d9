#pragma once
// `tensordiag diagonalize IN.npy --out DIR`: T = C x_1 M_1 ... x_D M_D, written as DIR/core.npy,
// DIR/factor_1.npy .. DIR/factor_D.npy and DIR/report.json, all or nothing. With --structure
// symmetric, T = C x_1 Q ... x_D Q and every factor_n.npy holds the one Q.
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "cli/atomic_output.hpp"
#include "runtime/algorithm/report.hpp"
#include "runtime/diagonalize.hpp"

namespace tensordiag::cli {

struct DiagonalizeArguments {
  std::string input;
  std::string out;
  std::string dtype;  // empty: compute in the input's dtype
  std::string backend = "auto";
  std::string pivot_norm = "auto";
  std::string schedule = "auto";
  std::string init = "identity";
  std::string structure = "general";
  bool quiet = false;
  bool no_verify = false;  // skip the check of the result against the input
  bool batch = false;  // IN.npy is (B, N, .., N)
  bool distributed = false;  // one tensor over the ranks of mpirun (cli/diagonalize_distributed.hpp)
  std::string devices;       // GPU ranks in this process: "0,1" or "all" (implies distributed)
  int packed_order = 0;      // > 0: IN.npy is a packed symmetric tensor of this order (cli/diagonalize_packed.hpp)
  runtime::Options options;  // everything but backend, on_sweep and cancelled, which run_diagonalize sets
};

CLI::App* add_diagonalize_command(CLI::App& app, DiagonalizeArguments& arguments);
int run_diagonalize(const DiagonalizeArguments& arguments);

// The runtime options the arguments ask for, cancelled by SIGINT/SIGTERM (without the progress
// callback).
runtime::Options run_options(const DiagonalizeArguments& arguments);
// Stages core.npy, factor_n.npy and report.json of a run's result (and prints its notes); returns
// the line that says how the run stopped and, when verified, its errors.
template <class T>
std::string stage_result(AtomicOutput& output, const runtime::Result<T>& result, const runtime::Options& options,
                         const runtime::ReportInput& input);
// The same but core.npy, which the caller stages (a packed run's core is not result.core).
template <class T>
std::string stage_factors_and_report(AtomicOutput& output, const runtime::Result<T>& result,
                                     const runtime::Options& options, const runtime::ReportInput& input);

// The runtime's notes (such as auto falling back to the CPU), one line each on stderr.
void print_notes(const std::vector<std::string>& notes);

}  // namespace tensordiag::cli
